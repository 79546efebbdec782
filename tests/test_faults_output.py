"""Faults in what the game says: a speech engine that raises or hangs, a device that goes.

Each test runs the whole game in a child process with sound on (the real pyttsx3
writing files, the real mixer and outputs) and breaks one real part mid-game: the
espeak driver pyttsx3 loads (tests/game_child.py), or the ALSA device PortAudio
plays through (tests/alsa_fifo_speaker.py). The game must say so once, in plain
words, keep printing every line, keep playing (the opponent goes on), end cleanly
with every card of the match accounted for, and leave a whole profile.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.alsa_fifo_speaker import FifoSpeaker
from tests.devices import has_sound_device
from tests.game_process import Game, profile_of
from tests.test_voice import script
from voicespit.audio.output import SILENT_FROM_NOW
from voicespit.audio.speaker import SPEECH_FAILING

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="the speech engine (espeak-ng) is needed")
OPPONENT_PLAYS_AFTER_THE_FAULT = 3
ANNOUNCEMENT_TIMEOUT = ("--announcement-timeout", "15")
"""Every announcement of these short games is heard well within this; an engine or a
device that holds the words back makes the match wait it out, and that is the stall
these tests catch (counted by the match, not timed by the test)."""
LIVENESS_TIMEOUT = 120.0
"""Only a guard against a game that stopped: on a loaded machine a play takes seconds."""


def play_a_game_past(game: Game) -> int:
    """Start a game of Speed; returns the index of the line after "Go!" (its start call)."""
    game.wait_for("to start.")
    game.type("new game")
    game.wait_for("Say ready.")
    game.type("ready")
    return game.wait_for("Go!") + 1


def the_game_goes_on(game: Game, after: int) -> None:
    """The opponent keeps playing, a question is answered, and the game ends cleanly."""
    line = after
    for _ in range(OPPONENT_PLAYS_AFTER_THE_FAULT):
        line = game.wait_for("(opponent).", timeout=LIVENESS_TIMEOUT, after=line) + 1
    game.type("how many cards")
    game.wait_for("Cards left: you", timeout=LIVENESS_TIMEOUT, after=line)
    game.type("quit")
    game.wait_for("Quit this game?", timeout=LIVENESS_TIMEOUT, after=line)
    game.type("yes")
    game.wait_for("Game stopped.", timeout=LIVENESS_TIMEOUT, after=line)
    assert game.leave() == 0, "\n".join(game.errors[-20:])
    assert game.lines[-1] == "Goodbye."
    cards = game.cards()
    assert cards["accounted_for"] and cards["cards"] == 52 and cards["errors"] == [], cards
    assert cards["announcement_timeouts"] == 0, "the match never waited for words that never came"
    assert profile_of(game.home)["games"] == 0, "the profile is whole; a stopped game is not counted"


@pytest.mark.parametrize("fault", ["raise", "hang"])
def test_a_speech_engine_that_fails_mid_game_leaves_the_words_printed_and_the_game_going(
        tmp_path: Path, fault: str) -> None:
    # Utterance 3 is the first of the game itself (after the greeting's).
    game = Game(tmp_path, "--game", "speed", "--pace", "0.5", "--seed", "2", audio=True,
                child=("--tts-fault", fault, "--tts-fault-from", "3", *ANNOUNCEMENT_TIMEOUT))
    after = play_a_game_past(game)
    game.wait_for(SPEECH_FAILING, timeout=LIVENESS_TIMEOUT)
    the_game_goes_on(game, after)
    assert game.count(SPEECH_FAILING) == 1, "said once, not at every announcement"
    assert "Left: " in "\n".join(game.lines[after:]), "every announcement is still printed"


@pytest.mark.skipif(has_sound_device("output"), reason="this machine has a sound device of its own")
def test_a_sound_device_that_goes_away_mid_game_leaves_it_playing_silently(
        tmp_path: Path) -> None:
    speaker = FifoSpeaker(tmp_path)
    game = Game(tmp_path, "--game", "speed", "--pace", "0.5", "--seed", "2", audio=True,
                child=ANNOUNCEMENT_TIMEOUT, environment=speaker.environment)
    after = play_a_game_past(game)
    assert speaker.bytes_played > 0, "the game played through the device"
    assert not any("silently" in line for line in game.lines), "the device was there"
    speaker.unplug()
    lost = game.wait_for(SILENT_FROM_NOW, timeout=LIVENESS_TIMEOUT, after=after)
    the_game_goes_on(game, lost)
    assert game.count(SILENT_FROM_NOW) == 1
    assert "PortAudio" not in "\n".join(game.lines), "plain words only"


@pytest.mark.skipif(has_sound_device("output"), reason="this machine has a sound device of its own")
def test_leaving_a_voice_game_with_sound_leaves_nothing_for_the_interpreter_to_report(
        tmp_path: Path) -> None:
    # A converter of the echo canceller's far end outlived the game, and soxr's binding
    # printed 17 lines about "leaked instances" as the interpreter ended, after
    # "Goodbye." (on the terminal with --verbose; this child keeps descriptor 2 as it is).
    # A game of Speed under way, listening through the loudspeaker's echo canceller (to a
    # script of quiet, whose end ends the session).
    speaker = FifoSpeaker(tmp_path)
    quiet = script(tmp_path)
    quiet.write_text("20.0 quiet.wav\n")  # the listener hears the game till then
    game = Game(tmp_path, "--input", "wav", "--script", str(quiet), "--game", "speed",
                "--pace", "0.5", "--seed", "2", audio=True, child=ANNOUNCEMENT_TIMEOUT,
                environment=speaker.environment)
    play_a_game_past(game)  # typed: the keys work beside the voice
    assert game.finish() == 0, "\n".join(game.errors[-20:])
    assert speaker.bytes_played > 0, "the game played through the device"
    assert game.lines[-1] == "Goodbye."
    assert not [line for line in game.errors if "leak" in line], game.errors[-20:]
