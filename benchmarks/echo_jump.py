"""The volume turned up mid-game, nobody speaking: does the talk detector take the game for the player?

    python -m benchmarks.echo_jump [--at SECONDS]

The microphone may speak for the player while the canceller learns the room
(`TalkSettings.microphone_margin_db`, `microphone_frames`); its learnt echo is then the
echo before the jump, and after it every loud word of the game's could pass for the
player. The game's greeting plays for 44 s in a 0.5 s room whose echo jumps at `--at`
seconds (from -20 to +5, -10 to +10 and 0 to +10 dB over the player's level); the real
cancellers (AEC3 and speexdsp) and detector run in block order. For each detector
(the canceller's output alone; the microphone route without its window; the game's),
the times the detector started and how long it judged the player "talking" in all.
"""

from __future__ import annotations

import argparse

import numpy as np

from benchmarks.echo_early import game_voice
from benchmarks.room import PLAYER_DB, RoomCondition, loudspeaker_paths
from voicespit.speech.listening.barge_in import TalkDetector, TalkSettings
from voicespit.speech.listening.echo import WebRtcCanceller
from voicespit.speech.listening.linear_echo import SpeexCanceller
from voicespit.speech.recognizer import SAMPLE_RATE
from voicespit.speech.signal import FRAME

BLOCK = 3 * FRAME
JUMPS = ((-20.0, 5.0), (-10.0, 10.0), (0.0, 10.0))
DETECTORS = {
    "canceller alone": TalkSettings(microphone_margin_db=None),
    "microphone, no window": TalkSettings(microphone_frames=10 ** 9),
    "the game's": TalkSettings(),
}


def run(microphone: np.ndarray, far: np.ndarray, settings: TalkSettings) -> tuple[list[float], float]:
    """(start times, seconds judged talking) over the whole stream."""
    canceller, linear, detector = WebRtcCanceller(), SpeexCanceller(), TalkDetector(settings)
    lag = round((canceller.latency - linear.latency) * SAMPLE_RATE)
    filtered = np.concatenate([np.zeros(lag, dtype=np.int16), np.concatenate([
        linear.process(microphone[i:i + FRAME], far[i:i + FRAME])
        for i in range(0, len(microphone) - FRAME + 1, FRAME)])])
    tail = round(0.3 * SAMPLE_RATE)
    starts: list[float] = []
    talking = 0
    for first in range(0, len(microphone) - BLOCK, BLOCK):
        cancelled = np.concatenate([
            canceller.process(microphone[i:i + FRAME], far[i:i + FRAME])
            for i in range(first, first + BLOCK, FRAME)])
        playing = bool(np.any(far[max(0, first - tail):first + BLOCK] != 0))
        if detector.feed(cancelled, microphone[first:first + BLOCK], playing,
                         far[first:first + BLOCK], filtered[first:first + BLOCK]):
            starts.append((first + BLOCK) / SAMPLE_RATE)
        talking += detector.talking
    return starts, talking * BLOCK / SAMPLE_RATE


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
            starts, talking = run(microphone, far, settings)
            print(f"| {before:+.0f} → {after:+.0f} dB | {name} | "
                  f"{', '.join(f'{t:.2f}' for t in starts) or 'none'} | {talking:.1f} |",
                  flush=True)


if __name__ == "__main__":
    main()
