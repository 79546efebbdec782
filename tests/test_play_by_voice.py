"""Whole matches played by voice: spoken commands through the real recognizers.

The player's words are synthesized with espeak-ng, streamed to the recognizer in
200 ms blocks with silence around them (as a microphone would deliver them), and
what it recognizes goes to the session exactly as in the live game, the table's
prior included. The player also names ranks it does not hold: narrowing must
never force those onto a card it does hold, so no card may be played that was
not said. Time is fake; the recognizer, parser, session, match and opponent are
real.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.app_harness import Harness
from tests.conftest import REAL_VOICES
from tests.spoken_voice import REAL_RANKS, RealVoice, Voice, play_on_by_voice
from voicespit.app.voice import NarrowingRecognizer, VoiceCommands
from voicespit.engine.cards import RANK_NAMES
from voicespit.speech.language.commands import Verb
from voicespit.speech.language.parser import command_in, parse
from voicespit.speech.recognizers.whisper_model import WhisperModel
from voicespit.speech.recognizers.whisper_recognizer import WhisperRecognizer

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng is needed to speak the commands")
MATCH_SEEDS = {"spit": 7, "speed": 12}
HEARD_RIGHT = {"whisper": 0.7, "pocketsphinx": 0.8}
"""The least share of commands heard right. Whisper hears this espeak-ng voice's "nine"
as "five" and its "ace" as "eight" even transcribing freely on a 30 s window (its
espeak-ng benchmark figure is 0.68 clean, real voices 0.93), and the player repeats
the card it cannot get heard; the invariant that matters is below: no card played
that was not said."""


@pytest.fixture(scope="module")
def spoken(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder of synthesized commands for every match (the same words recur)."""
    return tmp_path_factory.mktemp("spoken")


@pytest.fixture(scope="module", params=["whisper", "pocketsphinx"])
def recognizer(request: pytest.FixtureRequest) -> NarrowingRecognizer:
    if request.param == "whisper":
        whisper_model: WhisperModel = request.getfixturevalue("whisper_model")
        return NarrowingRecognizer(WhisperRecognizer(whisper_model))
    from voicespit.speech.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer

    return NarrowingRecognizer(PocketSphinxRecognizer())


@pytest.mark.slow
@pytest.mark.parametrize("game", ["spit", "speed"])
def test_a_whole_match_played_by_voice(game: str, spoken: Path,
                                       recognizer: NarrowingRecognizer) -> None:
    if recognizer.name == "pocketsphinx" and game == "spit":
        pytest.skip("a Spit match by PocketSphinx takes minutes: Speed covers its path")
    # Seeds whose matches are short (43 and 23 commands by voice): a whole match by
    # Whisper costs about a second of decoding per command on a busy machine.
    harness = Harness(game=game, pace="fast", seed=MATCH_SEEDS[game])
    voice = Voice(spoken, listening_to(harness, recognizer), recognizer)
    played = play_a_whole_match(harness, voice, recognizer, game)
    assert right_share(voice) >= HEARD_RIGHT[recognizer.name], voice.heard
    assert_no_card_played_that_was_not_said(played)


@pytest.mark.slow
@pytest.mark.skipif(not REAL_VOICES.is_dir(), reason="the real recordings are not beside the repo")
@pytest.mark.parametrize("game", ["spit", "speed"])
def test_a_whole_match_with_its_cards_named_by_real_voices(
        game: str, spoken: Path, whisper_model: WhisperModel) -> None:
    # Real people say every card from two to nine (the Free Spoken Digit Dataset's
    # three speakers, their tuning takes in turn), as the bare rank: the ranks held and
    # not, and cards that fit no pile. espeak-ng says the rest. Real voices are what
    # the recognizer is for; no card may be played that was not said.
    recognizer = NarrowingRecognizer(WhisperRecognizer(whisper_model))
    harness = Harness(game=game, pace="fast", seed=MATCH_SEEDS[game])
    voice = RealVoice(spoken, listening_to(harness, recognizer), recognizer, REAL_VOICES,
                      takes=range(5, 50))
    played = play_a_whole_match(harness, voice, recognizer, game)
    real = [(said, heard) for said, heard in voice.heard if said in REAL_RANKS]
    right = sum(said == heard for said, heard in real)
    print(f"{game} by real voices: {right} of {len(real)} real ranks heard as said")
    assert voice.real_said == len(real) >= 10, voice.heard
    # The benchmark hears 0.967 of these speakers' quiet test takes right; a match
    # says a handful, and a refused one is said again as "seven on left" by espeak-ng.
    assert right / len(real) >= 0.8, real
    assert_no_card_played_that_was_not_said(played)


def listening_to(harness: Harness, recognizer: NarrowingRecognizer) -> VoiceCommands:
    """The session's ears: a fresh stream, and no table yet, so nothing is favoured."""
    recognizer.finish()
    recognizer.prefer([])
    commands = VoiceCommands(harness.session, recognizer)
    harness.session.hooks.table_changed = commands.table_changed
    return commands


def play_a_whole_match(harness: Harness, voice: Voice, recognizer: NarrowingRecognizer,
                       game: str) -> list[tuple[str, int]]:
    """A match from "new game" to its end, the player's words through `voice`; each card
    the player played, with the last thing said before it: (said, rank)."""
    voice.say("new game")
    harness.run(0.5)
    assert harness.session.game is not None, (voice.heard, harness.text[-500:])
    played, player = play_on_by_voice(harness, voice, 10_000)
    assert "Game over:" in harness.text, harness.text[-2000:]
    assert harness.profile.games == 1
    print(f"{game} by {recognizer.name}: {right_share(voice):.2f} of {len(voice.heard)} "
          f"commands heard as said; {len(played)} cards played")
    assert len(voice.heard) >= 10
    assert len(played) >= 5, "cards were played by voice"
    assert player.unheld_said, "the player also named ranks it did not hold"
    assert recognizer.changes > 0, "the prior followed the table"
    return played


def right_share(voice: Voice) -> float:
    """The share of commands heard as said ("seven on the left" is "seven on left")."""
    right = sum(parse(said) == command_in(heard) for said, heard in voice.heard)
    return right / len(voice.heard)


def assert_no_card_played_that_was_not_said(played: list[tuple[str, int]]) -> None:
    unsaid = [(said, RANK_NAMES[rank]) for said, rank in played
              if (command := parse(said)).verb is not Verb.PLAY or command.rank != rank]
    assert unsaid == [], "cards played that were not said"
