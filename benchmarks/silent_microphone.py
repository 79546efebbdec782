"""A microphone that gives digital silence in a noisy room: opening, and muted for a while.

    python -m benchmarks.silent_microphone [--streams 8] [--snr 10 20]

Many sound devices deliver zeros for their first blocks, and a headset's mute button
gives zeros until it is pressed again. Neither is the room: after them the real room
comes back, and the endpointer must learn it as the room, not hear it as a voice.
Each stream is 10 s of real noise (exercise bike, running tap, white noise) `--snr`
dB under three real words (the Free Spoken Digit Dataset's test takes, "two" to
"nine", in turn) said from 2, 5 and 8 s, through the real Whisper recognizer with
the whole grammar, in four ways:

- steady: nothing silent (the control);
- opens: the first 0.1 s are zeros;
- muted: zeros from 2.6 s to 4.6 s, between the first word and the second;
- unmuted speaking: zeros from 3 s to 5 s, the second word said as the sound returns.

Each runs with the endpointer as it is, with a long digital silence learnt as the room
again (`dropout_frames` 30, round 46's room window alone), and as before round 46
(neither), in the same run. Columns: words said; heard as said; refused (the game says "Say
again?"); heard as another command; no answer of their own (no result overlaps them,
or the one that does overlaps an earlier word too: they were swallowed with it); answers
to nobody (a result where no word was said: a "Say again?" or a command out of the room);
the median time from a word's end to its answer.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import statistics
from dataclasses import dataclass, field

from benchmarks.make_real_corpus import read_clip
from tests.conftest import REAL_VOICES
from tests.real_room import ENDPOINT_BEFORE_ROUND_46, room_with_words, whisper_finals
from voicespit.speech.listening.endpoint import EndpointSettings
from voicespit.speech.recognizer import Recognition
from voicespit.speech.recognizers.whisper_model import WhisperModel
from voicespit.speech.recognizers.whisper_recognizer import WhisperSettings
from voicespit.speech.signal import to_pcm

STREAM_SECONDS = 10.0
ONSETS = (2.0, 5.0, 8.0)
SCENARIOS: dict[str, list[tuple[float, float]]] = {
    "steady": [],
    "opens": [(0.0, 0.1)],
    "muted": [(2.6, 4.6)],
    "unmuted speaking": [(3.0, 5.0)],
}
NOISE_NAMES = ("exercise_bike.wav", "running_tap.wav", "white_noise.wav")
DIGITS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
          9: "nine"}
TEST_TAKES = range(5)


@dataclass
class Tally:
    words: int = 0
    right: int = 0
    refused: int = 0
    another: int = 0
    unanswered: int = 0
    to_nobody: int = 0
    delays_ms: list[float] = field(default_factory=list)

    def row(self, name: str) -> str:
        delay = f"{statistics.median(self.delays_ms):.0f}" if self.delays_ms else "-"
        return (f"| {name} | {self.words} | {self.right} | {self.refused} | {self.another} "
                f"| {self.unanswered} | {self.to_nobody} | {delay} |")


def test_words() -> list[str]:
    """The test takes of "two" to "nine", speakers and takes interleaved."""
    names = sorted(path.name for path in REAL_VOICES.glob("*.wav")
                   if int(path.stem.split("_")[0]) in DIGITS
                   and int(path.stem.split("_")[2]) in TEST_TAKES)
    return sorted(names, key=lambda name: (name.split("_")[2], name.split("_")[1], name))


def word_seconds(name: str) -> float:
    clip, rate = read_clip(REAL_VOICES / name)
    return len(clip) / rate


def score(tally: Tally, finals: list[Recognition], words: list[tuple[float, str]]) -> None:
    spans = [(onset, onset + word_seconds(name), DIGITS[int(name[0])]) for onset, name in words]
    answered: set[int] = set()
    for result in finals:
        start, end = result.speech_span
        overlapped = [index for index, (onset, stop, _) in enumerate(spans)
                      if start < stop and onset < end]
        if not overlapped:
            tally.to_nobody += 1
            continue
        first = overlapped[0]
        if first in answered:
            continue
        answered.add(first)
        said, stop = spans[first][2], spans[first][1]
        if result.unusable:
            tally.refused += 1
        elif result.text == said:
            tally.right += 1
            tally.delays_ms.append(1000 * (result.emitted_at - stop))
        else:
            tally.another += 1
    tally.words += len(spans)
    tally.unanswered += len(spans) - len(answered)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--streams", type=int, default=8, help="streams per room and level")
    parser.add_argument("--snr", type=float, nargs="+", default=[10.0, 20.0])
    args = parser.parse_args()
    model = WhisperModel.load()
    own = WhisperSettings().endpoint
    endpoints: dict[str, EndpointSettings] = {
        "as it is": own,
        "silence learnt as the room": dataclasses.replace(own, dropout_frames=30),
        "before round 46": ENDPOINT_BEFORE_ROUND_46,
    }
    words = itertools.cycle(test_words())
    tallies = {(scenario, name): Tally() for scenario in SCENARIOS for name in endpoints}
    for noise_name, snr, _ in itertools.product(NOISE_NAMES, args.snr, range(args.streams)):
        said = [(onset, next(words)) for onset in ONSETS]
        for scenario, silent in SCENARIOS.items():
            audio = room_with_words(noise_name, STREAM_SECONDS, said, silent, snr_db=snr)
            for name, endpoint in endpoints.items():
                score(tallies[scenario, name], whisper_finals(model, to_pcm(audio), endpoint),
                      said)
    print(f"{args.streams} streams per room and level; rooms: {', '.join(NOISE_NAMES)}; "
          f"levels: {', '.join(f'{snr:g} dB' for snr in args.snr)}")
    print("| stream, endpointer | words | heard as said | refused | heard as another "
          "| no answer of their own | answers to nobody | answer after the word, median ms |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for (scenario, name), tally in tallies.items():
        print(tally.row(f"{scenario}, {name}"))


if __name__ == "__main__":
    main()
