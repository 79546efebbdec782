"""The volume turned up mid-game, nobody speaking: does the talk detector take the game for the player?

    python -m benchmarks.echo_jump [--at SECONDS]

The microphone may speak for the player while the canceller learns the room
(`TalkSettings.microphone_margin_db`, `microphone_frames`); its learnt echo is then the
echo before the jump, and after it every loud word of the game's could pass for the
player. The game's greeting plays for 44 s in a 0.5 s room whose echo jumps at `--at`
seconds (from -20 to +5, -10 to +10 and 0 to +10 dB over the player's level); the real
cancellers (AEC3 and speexdsp) and detector run in block order. For each detector
(the canceller's output alone; the microphone route without its window; the rule alone;
the game's, with the model of the player's voice, `voice_frames.py`),
the times the detector started and how long it judged the player "talking" in all.
"""

from __future__ import annotations

import argparse

import numpy as np

from benchmarks.echo_early import BLOCK, detector_run, game_voice
from benchmarks.room import PLAYER_DB, RoomCondition, loudspeaker_paths
from voicespit.speech.listening.barge_in import TalkSettings
from voicespit.speech.recognizer import SAMPLE_RATE
from voicespit.speech.signal import FRAME

JUMPS = ((-20.0, 5.0), (-10.0, 10.0), (0.0, 10.0))
DETECTORS = {
    "canceller alone": TalkSettings(microphone_margin_db=None, voice_model=False),
    "microphone, no window": TalkSettings(microphone_frames=10 ** 9, voice_model=False),
    "the rule alone (the game's before round 30)": TalkSettings(voice_model=False),
    "the game's (with the model of the player's voice)": TalkSettings(),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--at", type=float, default=8.0, help="seconds into the game")
    args = parser.parse_args()
    game = np.tile(game_voice(), 3)[:44 * SAMPLE_RATE]
    path, _ = loudspeaker_paths(RoomCondition(0.5, 45.0, 0.0), SAMPLE_RATE)
    echo = np.convolve(game, path)[:len(game)]
    speaking = np.abs(game) > 0
    echo *= 32768 * 10 ** (PLAYER_DB / 20) / np.sqrt(np.mean(echo[speaking] ** 2))
    noise = np.random.default_rng(3).standard_normal(len(game)) \
        * 32768 * 10 ** ((PLAYER_DB - 40) / 20)
    far = np.clip(game, -32768, 32767).astype(np.int16)
    window = TalkSettings().microphone_frames * FRAME / SAMPLE_RATE
    print(f"volume jump at {args.at:g} s of {len(game) / SAMPLE_RATE:.0f} s; the game's "
          f"microphone window: the first {window:g} s of its sound")
    print("| echo before → after | detector | starts (s) | talking (s) |")
    print("|---|---|---|---:|")
    for before, after in JUMPS:
        gain = np.full(len(game), 10 ** (before / 20))
        gain[round(args.at * SAMPLE_RATE):] = 10 ** (after / 20)
        microphone = np.clip(echo * gain + noise, -32768, 32767).astype(np.int16)
        for name, settings in DETECTORS.items():
            heard = detector_run(microphone, far, settings)
            starts = ", ".join(f"{(first + BLOCK) / SAMPLE_RATE:.2f}" for first in heard.starts)
            talking = heard.talking_blocks * BLOCK / SAMPLE_RATE
            print(f"| {before:+.0f} → {after:+.0f} dB | {name} | {starts or 'none'} "
                  f"| {talking:.1f} |", flush=True)


if __name__ == "__main__":
    main()
