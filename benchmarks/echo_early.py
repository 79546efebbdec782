"""Is a word said over the game's first seconds found? The talk detector while AEC3 learns.

    python -m benchmarks.echo_early [--microphone-margin DB|none] [--word WAV]

AEC3 starts cautious and eases as it learns the room; a word said over the game in those
seconds can come out of it 11 to 40 dB down, and the talk detector judged the player on its
output alone (since round 24, also on the microphone's own level and speexdsp's linear
output beside it, as the game runs them). For each room (none: the microphone never hears
the game, as with headphones on `auto`), a real word (FSDD, theo's "seven") is said over
an espeak-ng greeting at each of several times after the game began, each place its own
fresh run of the real cancellers and detector; and again after 20 s of the same room's
game, so that what the game's loudest words hide anyway shows up in both rows. A cell is
how long after the word began the detector found it (ms, once the 30 ms block is in), or
`--`, and `+N` when that run also started N times away from the word (false starts). Not
a timed benchmark: the cancellers and detector run on the stream's own timeline.
"""

from __future__ import annotations

import argparse
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from benchmarks.echo import data_dir
from benchmarks.make_corpus import speak, trim
from benchmarks.room import PLAYER_DB, RoomCondition, levelled, loudspeaker_paths
from voicespit.speech.listening.barge_in import TalkDetector, TalkSettings
from voicespit.speech.listening.echo import WebRtcCanceller
from voicespit.speech.listening.linear_echo import SpeexCanceller
from voicespit.speech.listening.sources import read_wav
from voicespit.speech.recognizer import SAMPLE_RATE
from voicespit.speech.signal import FRAME

Floats = npt.NDArray[np.float64]
Int16 = npt.NDArray[np.int16]
BLOCK = 3 * FRAME
GREETING = ("New game of Spit, against the computer at gentle pace. Round 1. "
            "Your cards: queen, three, king, five, three. Say ready.")
PLACES = (0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 15.0)
WARM_SECONDS = 20
ROOMS: tuple[tuple[float, float] | None, ...] = (
    None, (0.2, -20.0), (0.5, -10.0), (0.2, 0.0), (0.2, 10.0), (0.5, 5.0), (0.8, 0.0))
"""(RT60, echo dB over the player), or None for no echo at all."""


def game_voice() -> Floats:
    """The greeting, half a second apart, 20 s of it, at -20 dBFS (its loud frames)."""
    with tempfile.TemporaryDirectory() as folder:
        line = trim(speak(GREETING, "en-us", 175, Path(folder))).astype(np.float64)
    line = np.concatenate([line, np.zeros(SAMPLE_RATE // 2)])
    return levelled(np.tile(line, 4)[:20 * SAMPLE_RATE], -20.0)


def echo_of(game: Floats, room: tuple[float, float] | None) -> Floats:
    if room is None:
        return np.zeros(len(game))
    rt60, echo_db = room
    path, _ = loudspeaker_paths(RoomCondition(rt60, 20.0, echo_db), SAMPLE_RATE)
    echo = np.convolve(game, path)[:len(game)]
    speaking = np.convolve(np.abs(game) > 0, np.ones(FRAME), "same") > FRAME // 2
    level = np.sqrt(np.mean(echo[speaking] ** 2))
    scaled: Floats = echo * 32768 * 10 ** ((PLAYER_DB + echo_db) / 20) / level
    return scaled


@dataclass(frozen=True)
class DetectorRun:
    starts: list[int]
    """The first sample of each block in which the detector found the player starting."""
    talking_blocks: int
    """Blocks at whose end it judged the player talking."""


def detector_run(microphone: Int16, far: Int16, settings: TalkSettings) -> DetectorRun:
    """The game's cancellers (AEC3, speexdsp lined up with it as `EchoStage` lines them up)
    and a talk detector over a whole stream, in 30 ms blocks; the game counts as playing
    until 0.3 s after its last sound, as the listener counts it."""
    canceller, linear, detector = WebRtcCanceller(), SpeexCanceller(), TalkDetector(settings)
    lag = round((canceller.latency - linear.latency) * SAMPLE_RATE)
    filtered = np.concatenate([np.zeros(lag, dtype=np.int16), np.concatenate([
        linear.process(microphone[i:i + FRAME], far[i:i + FRAME])
        for i in range(0, len(microphone) - FRAME + 1, FRAME)])])
    tail = round(0.3 * SAMPLE_RATE)
    starts: list[int] = []
    talking = 0
    for first in range(0, len(microphone) - BLOCK, BLOCK):
        cancelled = np.concatenate([
            canceller.process(microphone[i:i + FRAME], far[i:i + FRAME])
            for i in range(first, first + BLOCK, FRAME)])
        playing = bool(np.any(far[max(0, first - tail):first + BLOCK] != 0))
        if detector.feed(cancelled, microphone[first:first + BLOCK], playing,
                         far[first:first + BLOCK], filtered[first:first + BLOCK]):
            starts.append(first)
        talking += detector.talking
    return DetectorRun(starts, talking)


def found_after(game: Floats, echo: Floats, noise: Floats, word: Floats, at: float,
                warm: int, settings: TalkSettings) -> tuple[float | None, int]:
    """(ms after the word began that the detector found it, or None; false starts)."""
    lead = warm * SAMPLE_RATE
    shifted = 7 * SAMPLE_RATE  # the warm-up is the same room's game, other words first
    far = np.concatenate([np.roll(game, shifted)[:lead], game])
    microphone = np.concatenate([np.roll(echo, shifted)[:lead], echo]) \
        + np.concatenate([noise[:lead], noise])
    start = lead + round(at * SAMPLE_RATE)
    microphone[start:start + len(word)] += word
    near16 = np.clip(microphone, -32768, 32767).astype(np.int16)
    far16 = np.clip(far, -32768, 32767).astype(np.int16)
    found: float | None = None
    false_starts = 0
    for first in detector_run(near16, far16, settings).starts:
        if start - 0.2 * SAMPLE_RATE <= first <= start + len(word) and found is None:
            found = 1000 * (first + BLOCK - start) / SAMPLE_RATE  # known once the block is in
        elif not start - 0.2 * SAMPLE_RATE <= first <= start + len(word) + 0.6 * SAMPLE_RATE:
            false_starts += 1
    return found, false_starts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--microphone-margin", default=str(TalkSettings().microphone_margin_db),
                        help="TalkSettings.microphone_margin_db, or none (the canceller's "
                             "output alone decides)")
    parser.add_argument("--word", type=Path,
                        default=data_dir() / "real-voices" / "fsdd-dev" / "7_theo_2.wav")
    args = parser.parse_args()
    margin = None if args.microphone_margin == "none" else float(args.microphone_margin)
    settings = TalkSettings(microphone_margin_db=margin)
    game = game_voice()
    pcm, _ = read_wav(args.word)
    word = levelled(np.frombuffer(pcm, dtype="<i2").astype(np.float64), PLAYER_DB)
    noise = np.random.default_rng(1).standard_normal(len(game)) \
        * 32768 * 10 ** ((PLAYER_DB - 40) / 20)
    print(f"microphone margin: {margin}; word: {args.word.name}; found after (ms) the word "
          "began, said this long after the game began (s)")
    print("| room | game before | " + " | ".join(f"{at:g}" for at in PLACES) + " |")
    print("|---|---|" + "---:|" * len(PLACES))
    for room in ROOMS:
        echo = echo_of(game, room)
        name = "no echo" if room is None else f"{room[0]:.1f} s, {room[1]:+.0f} dB"
        for warm in (0, WARM_SECONDS):
            cells = []
            for at in PLACES:
                found, false_starts = found_after(game, echo, noise, word, at, warm, settings)
                cells.append(("--" if found is None else f"{found:.0f}")
                             + (f" +{false_starts}" if false_starts else ""))
            print(f"| {name} | {'fresh' if warm == 0 else f'{warm} s'} | "
                  + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
