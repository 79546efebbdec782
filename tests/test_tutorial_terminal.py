"""`voicespit --tutorial` in a real terminal (tmux, the real clock), followed from the screen.

The player is the one of `tests/tutorial_player.py`: it reads the lines a
screen reader would get and types what they ask for, mistakes included, until
the tutorial says it is over; then it leaves the game.
"""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

import pytest

from tests.terminal import Terminal
from tests.tutorial_player import OVER, TutorialReader

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def screen_lines(terminal: Terminal) -> list[str]:
    return [line for line in terminal.text().splitlines() if line.strip()]


def after_echo(terminal: Terminal, words: str, before: int) -> int:
    """Type a command; the index of the first line after its echo (the game's answer)."""
    terminal.type_line(words)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        lines = screen_lines(terminal)
        for index in range(len(lines) - 1, before - 1, -1):
            if lines[index].strip() == words:
                return index + 1
        time.sleep(0.05)
    raise AssertionError(f"the terminal never showed {words!r}")


@pytest.mark.slow
def test_the_tutorial_from_the_keyboard_in_a_terminal(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text("[play]\ncountdown_interval = 0.2\n")
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
           "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "voicespit", "--tutorial", "--input", "keyboard",
               "--no-audio", "--config", str(tmp_path / "config.toml")]
    reader = TutorialReader(mistakes=True, idle_seconds=2.0)
    with Terminal(command, cwd=ROOT, env=env) as terminal:
        terminal.wait_for("Tutorial: one round of Spit", timeout=60)
        mark = seen = 0
        quiet_since = time.monotonic()
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            lines = screen_lines(terminal)
            if len(lines) > seen:
                seen, quiet_since = len(lines), time.monotonic()
            new = lines[mark:]
            if any(OVER in line for line in new):
                break
            words = reader.next(new, time.monotonic() - quiet_since)
            if words is not None:
                mark = after_echo(terminal, words, len(lines))
                quiet_since = time.monotonic()
            time.sleep(0.2)
        else:
            pytest.fail("the tutorial did not end in time:\n" + terminal.text()[-3000:])
        transcript = terminal.text()
        assert reader.mistakes_made == ["wrong pile", "spit", "slap early", "bigger pile"]
        for lesson in ("Those are your five stockpiles", "Say turn over.", "Say spit.",
                       "Now find your cards yourself.", "Spit is only for when nobody can play.",
                       "Now you both slap a pile", "You take "):
            assert lesson in transcript, lesson
        terminal.type_line("quit")
        terminal.wait_for("Leave VoiceSpit? Say yes or no.")
        terminal.press("Space")
        terminal.wait_for("[process exited 0]")
