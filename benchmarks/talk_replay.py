"""The talk detector replayed offline on the room's captured signals: who it finds, how soon.

    python -m benchmarks.talk_replay [--split tuning] [--room RT60,DELAY_MS,ECHO_DB ...]
                                     [--set NAME=VALUE ...]

The closed-loop benchmark (`benchmarks.echo`) runs the whole listener and takes minutes a
room; a change to how the detector judges frames can be looked at first here, in seconds,
on signals captured once through the real room and cancellers (`benchmarks.echo_capture`,
the game never reacting). For each room: the commands found (the detector's onset within
the command), those found within 0.3 s of it (the echo mask's hold: found later, the
command's start is lost), the delay from the player's first sound to the first suspicion
(median and 95th percentile; a command never suspected counts as its length plus 0.5 s),
and, on the narration alone, false starts and false suspicions a minute. The game's
reaction (hush, stop) is not simulated: that is the closed loop's to measure.
`--set onset_frames=2` replays with a `TalkSettings` field changed (`--set
voice_model=false`: the rule alone, without the model of `voice_frames.py`).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from benchmarks.echo import CONDITIONS, talk_settings
from benchmarks.echo_capture import Capture, capture
from benchmarks.room import RoomCondition
from voicespit.speech.listening.barge_in import TalkDetector, TalkSettings
from voicespit.speech.listening.voice_frames import VoiceFrameModel
from voicespit.speech.recognizer import SAMPLE_RATE
from voicespit.speech.signal import FRAME

BLOCK = 480
"""30 ms, as the microphone delivers."""
SETTLE_SECONDS = 15.0
"""Left out at the start: the cancellers are still learning the room."""
TAIL_SECONDS = 0.3
"""The listener counts the game audible this long after its last sound (the gate's tail)."""
AUDIBLE = 100
"""A far-end sample at least this loud (-50 dBFS) is the game playing (`echo.FAR_SILENCE`)."""


@dataclass
class Replayed:
    suspicions: list[float]
    """Seconds at which the detector began to suspect the player (a start counts too)."""
    starts: list[float]
    """Seconds at which it found the player."""


def fed(signals: Capture, detector: TalkDetector) -> Iterator[tuple[float, bool]]:
    """Feed `detector` the captured signals block by block, the game counted as playing as
    the listener counts it; yield each block's end (seconds) and whether the player's
    speech started in it."""
    loud = np.abs(signals.far.astype(np.int32)) >= AUDIBLE
    heard_until = float("-inf")
    for first in range(0, len(signals.microphone) - BLOCK + 1, BLOCK):
        block = slice(first, first + BLOCK)
        playing = heard_until > first / SAMPLE_RATE - TAIL_SECONDS
        found = np.flatnonzero(loud[block])
        if len(found):
            heard_until = (first + found[-1] + 1) / SAMPLE_RATE
            playing = True
        began = detector.feed(signals.aec3[block], signals.microphone[block], playing,
                              signals.far[block], signals.linear[block])
        yield (first + BLOCK) / SAMPLE_RATE, began


def replay(signals: Capture, settings: TalkSettings,
           voice_model: VoiceFrameModel | None = None) -> Replayed:
    detector = TalkDetector(settings, voice_model)
    suspicions: list[float] = []
    starts: list[float] = []
    suspected = False
    for at, began in fed(signals, detector):
        if began:
            starts.append(at)
        if (detector.suspected or began) and not suspected:
            suspicions.append(at)
        suspected = detector.suspected or detector.talking
    return Replayed(suspicions, starts)


def per_minute(times: list[float], seconds: float) -> float:
    counted = [t for t in times if t >= SETTLE_SECONDS]
    return 60.0 * len(counted) / max(1.0, seconds - SETTLE_SECONDS)


@dataclass(frozen=True)
class RoomFigures:
    """One room replayed: a row of the table `main` prints."""
    name: str
    found: int
    commands: int
    soon: int
    """Found within 0.3 s of the command's start."""
    suspicion_p50_ms: float
    suspicion_p95_ms: float
    false_starts: float
    """A minute of the narration alone."""
    false_suspicions: float
    """A minute of the narration alone."""

    def row(self) -> str:
        return (f"| {self.name} | {self.found} of {self.commands} | {self.soon} "
                f"| {self.suspicion_p50_ms:.0f} / {self.suspicion_p95_ms:.0f} ms "
                f"| {self.false_starts:.2f} | {self.false_suspicions:.2f} |")


def room_figures(split: str, condition: RoomCondition, seconds: float,
                 settings: TalkSettings, voice_model: VoiceFrameModel | None = None
                 ) -> RoomFigures:
    commands = Capture.load(capture(split, condition, True, seconds))
    alone = Capture.load(capture(split, condition, False, seconds))
    heard = replay(commands, settings, voice_model)
    found = soon = 0
    delays = []
    for onset, end in zip(commands.onsets, commands.ends, strict=True):
        if onset < SETTLE_SECONDS:
            continue
        starts = [t for t in heard.starts if onset - 0.05 <= t <= end]
        found += bool(starts)
        soon += bool(starts) and starts[0] - onset <= 0.3
        suspected = [t for t in heard.suspicions if onset - 0.05 <= t <= end]
        delays.append(1000 * ((suspected[0] if suspected else end + 0.5) - onset))
    nobody = replay(alone, settings, voice_model)
    length = len(alone.microphone) / SAMPLE_RATE
    return RoomFigures(condition.name, found, len(delays), soon, statistics.median(delays),
                       float(np.percentile(delays, 95)), per_minute(nobody.starts, length),
                       per_minute(nobody.suspicions, length))


def settings_from(assignments: list[str]) -> TalkSettings:
    """--set NAME=VALUE ... as `TalkSettings`, parsed as the closed loop's --talk is."""
    return dataclasses.replace(TalkSettings(), **talk_settings(assignments))  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("tuning", "report"), default="tuning")
    parser.add_argument("--seconds", type=float, default=240.0)
    parser.add_argument("--room", action="append", metavar="RT60,DELAY_MS,ECHO_DB")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="a TalkSettings field to change (repeatable)")
    args = parser.parse_args()
    rooms = [RoomCondition(*(float(x) for x in spec.split(","))) for spec in args.room] \
        if args.room else CONDITIONS
    settings = settings_from(args.set)
    print(f"split {args.split}, {args.seconds:.0f} s a room; {FRAME} samples a frame; "
          f"settings changed: {args.set or 'none'}")
    print("| room | commands found | within 0.3 s | first suspicion p50 / p95 "
          "| narration alone: false starts a minute | false suspicions a minute |")
    print("|---|---:|---:|---:|---:|---:|")
    for room in rooms:
        print(room_figures(args.split, room, args.seconds, settings).row(), flush=True)


if __name__ == "__main__":
    main()
