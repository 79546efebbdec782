"""Whole matches played by voice, real people naming the cards, quiet and in real noise.

    python -m benchmarks.voice_matches [--snr 10] [--deals 1] [--games spit speed]

The game's promise to a player who plays by voice is that no card is played that they
did not say. `tests/test_play_by_voice.py` keeps it in a quiet room; this measures it
where players are. For each deal, a whole Spit and a whole Speed match are played by
the test suite's word player (`tests/app_harness.py`: it names the cards that fit,
ranks it does not hold and cards that fit no pile, and says a command again, in more
words, when it was not done), through the real Whisper recognizer, the table's prior
and the session, on a fake clock. Real people say every card from two to nine (the
Free Spoken Digit Dataset's three speakers, their tuning takes in turn, as the bare
rank), espeak-ng says the rest (`tests/spoken_voice.py`).

Every utterance is brought to one speaking level, as one player at one microphone, and
in the noisy rooms a real recording (exercise bike, running tap, white noise) runs on
under the whole stream, the silences between commands included, `--snr` dB below that
level (speech power measured over the frames within 30 dB of the loudest). Between
two commands the microphone hears the room for the game time that passed (up to 3 s),
so that what waits for quiet is answered there. Quiet is the same stream with nothing
under it. The stream starts where the noise recording's sound does; the bike's and the
tap's recordings begin with 40 ms of digital silence, which each loop of them brings
back about once a minute, as a microphone's dropout would.

Columns: commands said; the share heard as said ("seven on the left" is "seven on
left"); real ranks heard as said, of those said; commands heard as another command
(refusals are not counted: "Say again?" loses nothing); cards played that were not
said; utterances that gave no result at all, so that the game said nothing back (a
refusal is answered "Say again?"); whether the match reached its end.
"""

from __future__ import annotations

import argparse
import dataclasses
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from benchmarks.make_real_corpus import NOISES, read_clip, upsample
from tests.app_harness import Harness
from tests.conftest import REAL_VOICES
from tests.spoken_voice import REAL_RANKS, RealVoice, play_on_by_voice
from tests.test_play_by_voice import MATCH_SEEDS, listening_to
from voicespit.app.voice import NarrowingRecognizer, VoiceCommands
from voicespit.clock import FakeClock
from voicespit.engine.cards import RANK_NAMES
from voicespit.speech.language.commands import Verb
from voicespit.speech.language.parser import command_in, parse
from voicespit.speech.recognizer import SAMPLE_RATE, Recognition
from voicespit.speech.recognizers.whisper_model import WhisperModel
from voicespit.speech.recognizers.whisper_recognizer import WhisperRecognizer, WhisperSettings
from voicespit.speech.signal import FRAME, to_pcm, to_samples

SPEAKING_RMS = 3000.0
"""The one level every utterance is brought to (16-bit units, over its loud frames)."""
QUIET_BETWEEN_MOST = 3.0
"""The most room streamed between two commands (seconds): enough for what waits for quiet."""
GAME_SECONDS = 3000
"""A match not over after this much game time is reported as not ended."""


def speech_power(samples: npt.NDArray[np.float64]) -> float:
    """Mean power of the 10 ms frames within 30 dB of the loudest (silence around the
    words left out)."""
    frames = samples[:len(samples) // FRAME * FRAME].reshape(-1, FRAME)
    power = (frames ** 2).mean(axis=1)
    if not len(power) or power.max() <= 0:
        return 0.0
    return float(power[power >= power.max() / 1000].mean())


class VoiceInARoom(RealVoice):
    """`RealVoice` at one speaking level, with `noise` (or nothing) under the stream."""

    def __init__(self, folder: Path, commands: VoiceCommands, recognizer: NarrowingRecognizer,
                 noise: npt.NDArray[np.float64] | None, snr_db: float,
                 clock: FakeClock) -> None:
        super().__init__(folder, commands, recognizer, REAL_VOICES, takes=range(5, 50))
        self.noise = noise
        self.clock = clock
        self._at = 0 if noise is None or not noise.any() else int(np.flatnonzero(noise)[0])
        self._last_said: float | None = None
        """The game time the last utterance's stream ended at."""
        self._answered: list[bool] = []
        """Per utterance, whether any result came of it (in its stream or the quiet after)."""
        self._noise_gain = 0.0 if noise is None else \
            SPEAKING_RMS / 10 ** (snr_db / 20) / float(np.sqrt(np.mean(noise ** 2)))

    @property
    def unanswered(self) -> int:
        """Utterances that gave no result at all: the game said nothing back."""
        return self._answered.count(False)

    def say(self, text: str) -> None:
        # The room between the last command and this one, as the microphone heard it
        # (the game's time since, at most QUIET_BETWEEN_MOST): a result that waits for
        # quiet ("alright" is answered after a second of it) comes out here.
        now = self.clock.now()
        between = 0.5 if self._last_said is None else \
            min(max(now - self._last_said, 0.5), QUIET_BETWEEN_MOST)
        finals = self._stream(np.zeros(round(between * SAMPLE_RATE)))
        if finals and self._answered:
            self._answered[-1] = True
        self.deliver(finals)
        text = self.spoken_as(text)
        said = to_samples(self.pcm(text))
        power = speech_power(said)
        if power > 0:
            said = said * (SPEAKING_RMS / np.sqrt(power))
        finals = self._stream(np.concatenate([said, np.zeros(SAMPLE_RATE)]))
        self._answered.append(bool(finals))
        self.answer(text, finals)
        self._last_said = now

    def _stream(self, audio: npt.NDArray[np.float64]) -> list[Recognition]:
        """`audio` with the room's noise under it, through the recognizer: its finals."""
        if self.noise is not None:
            if self._at + len(audio) > len(self.noise):
                self._at = 0
            audio = audio + self.noise[self._at:self._at + len(audio)] * self._noise_gain
            self._at += len(audio)
        return self.finals_of(to_pcm(audio))


@dataclass
class MatchResult:
    room: str
    game: str
    deal: int
    said: int
    heard_right: int
    real_said: int
    real_right: int
    heard_other: list[tuple[str, str]]
    unsaid_cards: list[tuple[str, str]]
    unanswered: int
    ended: bool
    seconds: float


def play(model: WhisperModel, folder: Path, game: str, deal: int, room: str,
         noise: npt.NDArray[np.float64] | None, snr_db: float,
         settings: WhisperSettings) -> MatchResult:
    started = time.perf_counter()
    recognizer = NarrowingRecognizer(WhisperRecognizer(model, settings=settings))
    harness = Harness(game=game, pace="fast", seed=deal)
    voice = VoiceInARoom(folder, listening_to(harness, recognizer), recognizer, noise, snr_db,
                         harness.clock)
    for _ in range(5):  # "new game" until the game starts: it may be refused in noise
        voice.say("new game")
        harness.run(0.5)
        if harness.session.game is not None:
            break
    if harness.session.game is None:
        raise SystemExit(f"{room}, {game}: no game started ({voice.heard})")
    played, _ = play_on_by_voice(harness, voice, GAME_SECONDS)
    real = [(said, heard) for said, heard in voice.heard if said in REAL_RANKS]
    other = [(said, heard) for said, heard in voice.heard
             if command_in(heard) is not None and command_in(heard) != parse(said)]
    unsaid = [(said, RANK_NAMES[rank]) for said, rank in played
              if (command := parse(said)).verb is not Verb.PLAY or command.rank != rank]
    return MatchResult(room, game, deal, len(voice.heard),
                       sum(parse(said) == command_in(heard) for said, heard in voice.heard),
                       len(real), sum(said == heard for said, heard in real), other,
                       unsaid, voice.unanswered, "Game over:" in harness.text,
                       time.perf_counter() - started)


def rooms(snr_db: float) -> list[tuple[str, npt.NDArray[np.float64] | None]]:
    """Quiet, and each real noise at 16 kHz."""
    found: list[tuple[str, npt.NDArray[np.float64] | None]] = [("quiet", None)]
    for path in sorted(NOISES.glob("*.wav")):
        samples, rate = read_clip(path)
        found.append((f"{path.stem.replace('_', ' ')}, {snr_db:g} dB",
                      upsample(samples, rate) if rate != SAMPLE_RATE else samples))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--snr", type=float, default=10.0, help="the noise under the speech (dB)")
    parser.add_argument("--deals", type=int, default=1,
                        help="deals per game: the test suite's, then the next seeds")
    parser.add_argument("--games", nargs="+", default=["spit", "speed"],
                        choices=["spit", "speed"])
    parser.add_argument("--dropouts-as-room", action="store_true",
                        help="the endpointer as before round 45: digital silence is the room")
    args = parser.parse_args()
    model = WhisperModel.load()
    settings = WhisperSettings()
    if args.dropouts_as_room:
        settings = dataclasses.replace(settings, endpoint=dataclasses.replace(
            settings.endpoint, dropout_room_db=None))
    results = []
    print("| room | game | deal | commands | heard as said | real ranks heard / said "
          "| heard as another command | cards played not said | no answer at all | ended |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as folder:
        for room, noise in rooms(args.snr):
            for game in args.games:
                for deal in range(MATCH_SEEDS[game], MATCH_SEEDS[game] + args.deals):
                    result = play(model, Path(folder), game, deal, room, noise, args.snr,
                                  settings)
                    results.append(result)
                    print(f"| {room} | {game} | {deal} | {result.said} | "
                          f"{result.heard_right / result.said:.2f} | "
                          f"{result.real_right} / {result.real_said} | {len(result.heard_other)} | "
                          f"{len(result.unsaid_cards)} | {result.unanswered} | "
                          f"{'yes' if result.ended else 'no'} |",
                          flush=True)
    for quiet in (True, False):
        part = [r for r in results if (r.room == "quiet") == quiet]
        if not part:
            continue
        said = sum(r.said for r in part)
        print(f"{'quiet' if quiet else 'in noise'}: {len(part)} matches, {said} commands, "
              f"{sum(r.heard_right for r in part) / said:.2f} heard as said; real ranks "
              f"{sum(r.real_right for r in part)} of {sum(r.real_said for r in part)}; "
              f"heard as another command {sum(len(r.heard_other) for r in part)}; cards played "
              f"that were not said {sum(len(r.unsaid_cards) for r in part)} "
              f"{[card for r in part for card in r.unsaid_cards]}; no answer at all "
              f"{sum(r.unanswered for r in part)}; "
              f"ended {sum(r.ended for r in part)} of {len(part)}; "
              f"{sum(r.seconds for r in part):.0f} s of processing")
        mistaken = Counter(pair for r in part for pair in r.heard_other)
        print("  heard as another command (said -> heard, times): "
              + "; ".join(f"{said} -> {heard} {times}" for (said, heard), times
                          in mistaken.most_common()))


if __name__ == "__main__":
    main()
