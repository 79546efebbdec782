"""A person at a terminal plays whole matches from the keyboard (tmux, the real clock).

The game runs as the installed command does, with no sound card; the test reads
the screen as a screen reader would and answers like a keyboard player: space to
say ready, comma to slap, and the card keys tried in turn (each plays a card or is
refused with the reason), starting with one pressed before the round began.
"""

from __future__ import annotations

import itertools
import re
import shutil
import sys
import time
from pathlib import Path

import pytest

from tests.terminal import Terminal

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def play_match(tmp_path: Path, game: str, budget: float) -> str:
    (tmp_path / "config.toml").write_text(
        "[play]\ncountdown_interval = 0.2\n[opponent]\npace = 0.15\n")
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
           "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "voicespit", "play", "--game", game, "--input", "keyboard",
               "--no-audio", "--seed", "4", "--config", str(tmp_path / "config.toml")]
    with Terminal(command, cwd=ROOT, env=env) as terminal:
        terminal.wait_for("Say new game to start")
        terminal.type_line("new game")
        terminal.wait_for("Say ready when you are.")
        terminal.press("1")  # a card before the round has started
        terminal.wait_for("say spit first")
        rounds_readied: set[str] = set()
        slaps_seen = 0
        card_keys = itertools.cycle("1627384950")
        deadline = time.monotonic() + budget
        while time.monotonic() < deadline:
            screen = terminal.text()
            if "Play again? Say yes or no." in screen:
                break
            for number in re.findall(r"^Round (\d+)\.", screen, flags=re.MULTILINE):
                if number not in rounds_readied:
                    rounds_readied.add(number)
                    terminal.press("Space")
            slaps = screen.count("Slap now")
            if slaps > slaps_seen:
                slaps_seen = slaps
                terminal.press(",")
            # A player trying their cards in turn: each key plays one, or is refused
            # with the reason.
            terminal.press(next(card_keys))
            time.sleep(0.25)
        else:
            pytest.fail("the match did not end in time:\n" + terminal.text()[-3000:])
        terminal.type_line("no")
        terminal.type_line("quit")
        terminal.wait_for("Leave VoiceSpit? Say yes or no.")
        terminal.press("Space")
        terminal.wait_for("[process exited 0]")
        return terminal.text()


def counted_down(transcript: str) -> bool:
    """"Three. Two. One. Spit!" in order; refusals of keys pressed meanwhile may come between."""
    lines = transcript.splitlines()
    for start, line in enumerate(lines):
        if line == "Three.":
            rest = iter(lines[start + 1:start + 8])
            if all(any(seen == wanted for seen in rest) for wanted in ("Two.", "One.", "Spit!")):
                return True
    return False


@pytest.mark.slow
def test_a_whole_spit_match_from_the_keyboard(tmp_path: Path) -> None:
    transcript = play_match(tmp_path, "spit", budget=240)
    assert counted_down(transcript), "the countdown"
    assert "The round has not started: say spit first." in transcript, "a refusal with its reason"
    assert "Nobody can play." in transcript, "a stalemate"
    assert re.search(r"(You|Opponent) slap(s|ped)? (left|right)|takes? (left|right)", transcript,
                     flags=re.IGNORECASE), "a slap"
    assert re.search(r"Game over: (you win|opponent wins)", transcript), "the winner"
    assert "Goodbye." in transcript


@pytest.mark.slow
def test_a_whole_speed_match_from_the_keyboard(tmp_path: Path) -> None:
    transcript = play_match(tmp_path, "speed", budget=180)
    assert counted_down(transcript)
    assert "The deal has not started: say spit first." in transcript
    assert "Nobody can play." in transcript
    assert re.search(r"Game over: (you win|opponent wins)", transcript)


def test_the_first_launch_with_default_settings_plays_on_a_machine_without_sound(
        tmp_path: Path) -> None:
    """What `./quickstart play` runs: sound on and input auto, on a machine with no sound
    card and no microphone. The game says so once, falls back to the keyboard, and
    every announcement is printed while speech plays silently at its real pace."""
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
           "PYTHONPATH": str(ROOT)}
    with Terminal([sys.executable, "-m", "voicespit"], cwd=ROOT, env=env) as terminal:
        terminal.wait_for("Say new game to start", timeout=60)
        screen = terminal.text()
        if "No sound output device" not in screen:
            pytest.skip("this machine has a sound card")
        assert "will take typed commands instead" in screen
        terminal.type_line("new game")
        terminal.wait_for("Say ready when you are.", timeout=30)
        terminal.press("Space")
        terminal.wait_for("Spit!", timeout=30)
        terminal.press("/")
        terminal.wait_for("Your cards: ", after=terminal.text().index("Spit!"))
        terminal.type_line("quit")
        terminal.wait_for("Quit this game? Say yes or no.")
        terminal.press("Space")
        terminal.wait_for("Game stopped.")
        terminal.type_line("quit")
        terminal.type_line("yes")
        terminal.wait_for("[process exited 0]", timeout=30)
