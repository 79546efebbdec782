"""Fit the model of the player's voice over the game (`listening/voice_frames.py`).

    python -m benchmarks.talk_fit [--false-share 0.0005] [--write]

On the room benchmark's tuning split, captured once per room through the real
cancellers (`benchmarks.echo_capture`: the game never reacting), the talk detector is
replayed with a model that never judges (so its decisions are the rule's) and keeps what
it would have asked about each frame heard while the game played. A frame is the
player's when their clean voice, captured apart, is within 40 dB of its loudest
(-40 dBFS: the commands are levelled to -26); the narration alone gives the frames that
are not. Each room weighs the same, and the player's frames as much as the game's.

The threshold is where the model judges `--false-share` of the training rooms'
narration the player's. Before anything is written, each room is replayed with a model
fitted on the other eight (`benchmarks.talk_replay`'s columns), beside the rule alone:
the figure that says whether the model finds players in a room it has not seen without
taking the game for one more often. `--write` then fits on all nine and writes
`voice_frames.json`.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from benchmarks.echo import CONDITIONS
from benchmarks.echo_capture import Capture, capture
from benchmarks.room import RoomCondition
from benchmarks.talk_replay import RoomFigures, fed, room_figures
from voicespit.speech.listening.barge_in import TalkDetector, TalkSettings, frame_levels
from voicespit.speech.listening.voice_frames import FEATURES, FITTED, VoiceFrameModel
from voicespit.speech.logistic import fit

SECONDS = 240.0
SETTLE_FRAMES = 1500
"""The first 15 s are left out: the cancellers are still learning the room."""
PLAYER_DB = -40.0
"""A frame whose clean voice is at least this loud (dBFS) is the player's."""
NEVER = VoiceFrameModel(np.zeros(len(FEATURES)), np.ones(len(FEATURES)),
                        np.zeros(len(FEATURES)), 0.0, threshold=2.0)
"""A model that judges no frame the player's: replayed with it, the detector decides by
its rule, and says what it would have asked."""


@dataclass
class RoomFrames:
    player: npt.NDArray[np.float64]
    """Features of the frames with the player's voice in them, over the game."""
    game: npt.NDArray[np.float64]
    """Features of the frames of the narration alone."""


def asked(signals: Capture) -> tuple[list[npt.NDArray[np.float64]], list[int]]:
    """What the detector would ask the model, and the frame each was asked about."""
    detector = TalkDetector(TalkSettings(), NEVER)
    features: list[npt.NDArray[np.float64]] = []
    frames: list[int] = []
    for _ in fed(signals, detector):
        for index, frame in enumerate(detector.last_features):
            at = detector.frames - len(detector.last_features) + index
            if frame is not None and at >= SETTLE_FRAMES:
                features.append(frame)
                frames.append(at)
    return features, frames


def room_frames(condition: RoomCondition) -> RoomFrames:
    commands = Capture.load(capture("tuning", condition, True, SECONDS))
    alone = Capture.load(capture("tuning", condition, False, SECONDS))
    voice = np.array(frame_levels(commands.voice))
    features, frames = asked(commands)
    player = [f for f, at in zip(features, frames, strict=True)
              if at < len(voice) and voice[at] >= PLAYER_DB]
    game, _ = asked(alone)
    return RoomFrames(np.array(player), np.array(game))


def fitted_on(rooms: Sequence[RoomFrames], false_share: float) -> VoiceFrameModel:
    examples = np.vstack([array for room in rooms for array in (room.player, room.game)])
    correct = [label for room in rooms
               for array, label in ((room.player, True), (room.game, False))
               for _ in range(len(array))]
    # The player's frames count as much as the game's, all rooms together.
    players = sum(len(room.player) for room in rooms)
    games = sum(len(room.game) for room in rooms)
    weights = [1.0 / (2 * (players if label else games)) for label in correct]
    mean, scale, coefficients, intercept = fit(list(examples), correct,
                                               sample_weights=weights, l2=1e-4)
    model = VoiceFrameModel(mean, scale, coefficients, intercept, threshold=1.0)
    game = np.vstack([room.game for room in rooms])
    probabilities = np.array([model.probability(frame) for frame in game])
    return dataclasses.replace(model, threshold=float(np.quantile(probabilities,
                                                                  1.0 - false_share)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--false-share", type=float, default=0.0005)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    rooms = {condition: room_frames(condition) for condition in CONDITIONS}
    print(f"tuning split, {SECONDS:.0f} s a room; threshold at {args.false_share} of the "
          "narration's frames. Each cell: commands found (within 0.3 s), first suspicion "
          "p50 / p95, narration alone: false starts / suspicions a minute")
    print("| room | the rule alone | with the model fitted on the other rooms |")
    print("|---|---|---|")
    rule = TalkSettings(voice_model=False)
    for condition in CONDITIONS:
        others = [frames for other, frames in rooms.items() if other != condition]
        model = fitted_on(others, args.false_share)
        cells = [_cells(room_figures("tuning", condition, SECONDS, settings, voice_model))
                 for settings, voice_model in ((rule, None), (TalkSettings(), model))]
        print(f"| {condition.name} | {cells[0]} | {cells[1]} |", flush=True)
    if args.write:
        model = fitted_on(list(rooms.values()), args.false_share)
        provenance = {"split": "tuning", "rooms": [c.name for c in CONDITIONS],
                      "seconds a room": SECONDS, "player at least dBFS": PLAYER_DB,
                      "false share": args.false_share,
                      "frames": {"player": sum(len(r.player) for r in rooms.values()),
                                 "game": sum(len(r.game) for r in rooms.values())}}
        FITTED.write_text(model.to_json(provenance), encoding="utf-8")
        print(f"wrote {FITTED.name}: {json.dumps(provenance['frames'])}")


def _cells(figures: RoomFigures) -> str:
    """talk_replay's columns run together, without the room's name."""
    return (f"{figures.found} of {figures.commands} ({figures.soon}), "
            f"{figures.suspicion_p50_ms:.0f} / {figures.suspicion_p95_ms:.0f} ms, "
            f"{figures.false_starts:.2f} / {figures.false_suspicions:.2f}")


if __name__ == "__main__":
    main()
