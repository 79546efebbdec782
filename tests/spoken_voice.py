"""A player's voice for in-process tests: words streamed to a real recognizer, said by
espeak-ng or, for the ranks real people recorded, by one of them."""

from __future__ import annotations

import itertools
import re
import subprocess
from pathlib import Path

from tests.app_harness import Harness, WordPlayer
from voicespit.app.voice import NarrowingRecognizer, VoiceCommands
from voicespit.engine.events import CardPlayed
from voicespit.match.events import Stamped
from voicespit.speech.listening.sources import read_wav
from voicespit.speech.recognizer import SAMPLE_RATE, Recognition

BLOCK = 2 * SAMPLE_RATE // 10


def spoken_pcm(folder: Path, text: str) -> bytes:
    """`text` said by espeak-ng (kept in `folder`), as 16 kHz PCM."""
    path = folder / (re.sub(r"\W+", "-", text) + ".wav")
    if not path.exists():
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "165", "-w", str(path), text],
                       check=True)
    return read_wav(path)[0]


class Voice:
    """Speaks a command and streams it, with the silence around it, to the recognizer."""

    def __init__(self, folder: Path, commands: VoiceCommands, recognizer: NarrowingRecognizer) -> None:
        self.folder = folder
        self.commands = commands
        self.recognizer = recognizer
        self.heard: list[tuple[str, str]] = []
        """(said, recognized) for every utterance; "" when nothing came out."""

    def pcm(self, text: str) -> bytes:
        """How `text` sounds when this voice says it."""
        return spoken_pcm(self.folder, text)

    def say(self, text: str) -> None:
        silence = bytes(2 * SAMPLE_RATE // 2)
        self.answer(text, self.finals_of(silence + self.pcm(text) + silence * 2))

    def finals_of(self, stream: bytes) -> list[Recognition]:
        """`stream` through the recognizer in microphone-sized blocks: its final results."""
        results: list[Recognition] = []
        for offset in range(0, len(stream), BLOCK):
            results += self.recognizer.accept_audio(stream[offset:offset + BLOCK])
        return [result for result in results if result.is_final]

    def answer(self, text: str, finals: list[Recognition]) -> None:
        """Note what `text` was heard as, and hand its results to the session."""
        self.heard.append((text, " ".join(r.text for r in finals if not r.rejected)))
        self.deliver(finals)

    def deliver(self, finals: list[Recognition]) -> None:
        for result in finals:
            self.commands.on_recognition(result)


REAL_RANKS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
              "nine": 9}
"""The ranks the Free Spoken Digit Dataset has people saying."""


class RealVoice(Voice):
    """A card played by rank and pile ("seven on left") is said as the bare rank by a real
    person (a Free Spoken Digit Dataset clip, each time the next speaker's next take);
    every other command by espeak-ng. A bare rank is a play: the card goes where it
    fits.

    The clip is streamed as the dataset cut it, in the digital silence every command
    here has around it, as a `--input wav` script delivers it. Not in its own room
    (`recording_room`): the three speakers' rooms differ, and a room that changes from
    one command to the next, or digital silence that gives way to a room, is no
    microphone's; the endpointer took such a room for speech."""

    def __init__(self, folder: Path, commands: VoiceCommands, recognizer: NarrowingRecognizer,
                 recordings: Path, takes: range) -> None:
        super().__init__(folder, commands, recognizer)
        self.recordings = recordings
        self._clips = itertools.cycle(
            [(speaker, take) for take in takes for speaker in ("jackson", "theo", "yweweler")])
        self.real_said = 0

    def spoken_as(self, text: str) -> str:
        """What the player says for `text`: the bare rank when a real person will say it."""
        words = text.split()
        if len(words) == 3 and words[0] in REAL_RANKS and words[1] == "on":
            return words[0]
        return text

    def pcm(self, text: str) -> bytes:
        if text not in REAL_RANKS:
            return super().pcm(text)
        speaker, take = next(self._clips)
        name = f"{REAL_RANKS[text]}_{speaker}_{take}.wav"
        self.real_said += 1
        return read_wav(self.recordings / name)[0]

    def say(self, text: str) -> None:
        super().say(self.spoken_as(text))


def play_on_by_voice(harness: Harness, voice: Voice,
                     game_seconds: int) -> tuple[list[tuple[str, int]], WordPlayer]:
    """The match under way, played on by the word player through `voice` until it ends
    (or `game_seconds` pass): each card the player played, with the last thing said
    before it (said, rank), and the player (what it chose to say)."""
    game_on = harness.session.game
    assert game_on is not None, "a game must be under way"
    played: list[tuple[str, int]] = []

    def on_event(stamped: Stamped) -> None:
        event = stamped.event
        if isinstance(event, CardPlayed) and event.player == 0:
            played.append((voice.heard[-1][0], event.card.rank))

    game_on.match.subscribe(on_event, inline=True)
    player = WordPlayer(harness, voice.say, delay=2.0, seed=4, mistakes=0.05, unheld=0.15)
    player.start()
    for _ in range(game_seconds):
        harness.run(1.0)
        if harness.session.game is not None and harness.session.game.ended:
            break
    return played, player
