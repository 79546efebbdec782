"""A microphone turned down: are commands still heard, and is a cut one still told?

    python -m benchmarks.quiet_microphone [--streams 4] [--snr 20]

A microphone's gain (its mixer slider, a headset held low, a laptop across the table)
scales everything it hears, the player and the room alike, but not its converter's own
hiss (`benchmarks.room.CONVERTER_HISS`, one step RMS). Ten-second streams of real noise
(bike, tap, white; `--snr` dB under the voice) carry three real words from FSDD's test
takes ("two" to "nine", -21 dBFS at full gain: `real_room.VOICE_RMS`), and each stream is heard at several
gains:

- **heard**: the real Whisper with the whole grammar, as with headphones (the game
  silent): each word heard as said, refused, heard as another, or not answered at all;
- **echo guard**: the real listener (under the guard, the default without a canceller;
  with the Korean Vosk model behind it, as in `tests/test_listener.py`: whether a cut is
  told is the listener's level detector's judgement, not the recognizer's) while the game
  starts talking 0.2 s into each word, which cuts it: how often the
  player is told "I was talking: say it again", by the listener's voice detector as it
  is and with the bar it had before round 47 (-55 dBFS); and the same streams with
  nobody in them (told to nobody).

Over the game with loudspeakers, `python -m benchmarks.echo --microphone-gain -30` runs
the room benchmark through a microphone turned down.
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
from collections.abc import Callable

import numpy as np

from benchmarks.room import CONVERTER_HISS
from benchmarks.silent_microphone import (
    NOISE_NAMES,
    ONSETS,
    STREAM_SECONDS,
    Tally,
    score,
    test_words,
)
from tests.real_room import VOICE_RMS, room_with_words, whisper_finals
from tests.test_listener import listen
from voicespit.speech.listening.activity import ActivitySettings, VoiceActivity
from voicespit.speech.listening.gate import ListeningGate
from voicespit.speech.listening.listener import Listener
from voicespit.speech.listening.talk_over import TalkHooks
from voicespit.speech.recognizers.whisper_model import WhisperModel
from voicespit.speech.signal import to_pcm

GAINS_DB = (0.0, -20.0, -30.0, -40.0, -50.0)
CUT_AFTER = 0.2
"""The game starts talking this long after each word begins."""
VOICE_DBFS = 20 * math.log10(VOICE_RMS / 32768)


def told(pcm: bytes, onsets: tuple[float, ...], activity: Callable[[], VoiceActivity]) -> int:
    """How often the listener under the echo guard says "I was talking: say it again"
    while the game talks from `CUT_AFTER` into each onset."""
    gate = ListeningGate()
    for onset in onsets:
        gate.speaking_started(onset + CUT_AFTER)
        gate.speaking_finished(onset + CUT_AFTER + 0.8)
    dropped: list[float] = []

    def with_activity(listener: Listener) -> None:
        listener.activity = activity()

    listen(pcm, gate, talk=TalkHooks(dropped=dropped.append), before_start=with_activity)
    return len(dropped)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--streams", type=int, default=4, help="streams per room")
    parser.add_argument("--snr", type=float, default=20.0, help="the room this far under the voice")
    args = parser.parse_args()
    model = WhisperModel.load()
    detectors: dict[str, Callable[[], VoiceActivity]] = {
        "as it is": VoiceActivity,
        "bar before round 47": lambda: VoiceActivity(ActivitySettings(follow_gain=False)),
    }
    heard = {gain: Tally() for gain in GAINS_DB}
    cut = dict.fromkeys(itertools.product(GAINS_DB, detectors), 0)
    nobody = dict.fromkeys(itertools.product(GAINS_DB, detectors), 0)
    hiss = np.random.default_rng(5)
    words = itertools.cycle(test_words())
    for noise_name, _ in itertools.product(NOISE_NAMES, range(args.streams)):
        said = [(onset, next(words)) for onset in ONSETS]
        voiced = room_with_words(noise_name, STREAM_SECONDS, said, snr_db=args.snr)
        empty = room_with_words(noise_name, STREAM_SECONDS, [], snr_db=args.snr)
        for gain in GAINS_DB:
            converter = hiss.normal(0.0, CONVERTER_HISS, len(voiced))  # under both streams
            pcm = to_pcm(voiced * 10 ** (gain / 20) + converter)
            score(heard[gain], whisper_finals(model, pcm), said)
            alone = to_pcm(empty * 10 ** (gain / 20) + converter)
            for name, activity in detectors.items():
                cut[gain, name] += told(pcm, ONSETS, activity)
                nobody[gain, name] += told(alone, ONSETS, activity)
    words_said = heard[GAINS_DB[0]].words
    print(f"{args.streams} streams per room; rooms: {', '.join(NOISE_NAMES)}, {args.snr:g} dB "
          f"under the voice; {words_said} words ({VOICE_DBFS:.0f} dBFS at full gain); "
          "converter hiss one step RMS")
    print("| microphone gain | voice at | heard as said | refused | heard as another "
          "| no answer | answer after the word, median ms | echo guard, cut words told: "
          "as it is / bar before round 47 | told with nobody there |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---|")
    for gain in GAINS_DB:
        tally = heard[gain]
        delay = f"{statistics.median(tally.delays_ms):.0f}" if tally.delays_ms else "-"
        print(f"| {gain:g} dB | {VOICE_DBFS + gain:.0f} dBFS | {tally.right} | {tally.refused} "
              f"| {tally.another} | {tally.unanswered} | {delay} "
              f"| {cut[gain, 'as it is']} / {cut[gain, 'bar before round 47']} "
              f"| {nobody[gain, 'as it is']} / {nobody[gain, 'bar before round 47']} |")

if __name__ == "__main__":
    main()
