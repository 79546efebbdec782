"""A person at a terminal plays whole matches from the keyboard (tmux, the real clock).

The game runs as the installed command does, with no sound card. The player reads
only the screen, as a screen reader would: it keeps a picture of the table from the
printed lines (`tests.table_checker.Belief`), presses the key of a card that picture
says fits, space when asked to say ready, comma or full stop for the smaller pile.
Afterwards `check_log` judges the game's own log against the table as it truly was:
every card the player could play was told, and every renumbering, new card and prompt.
"""

from __future__ import annotations

import re
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.table_checker import STOCK_WORDS, Belief, check_log, count_news
from tests.terminal import Terminal

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def printed(terminal: Terminal) -> list[str]:
    return [line for line in terminal.text().splitlines() if line.strip()]


def key_for(place: int, pile: int) -> str:
    """1-5 play place one to five on the left pile, 6-0 the same on the right."""
    return str(place + 1) if pile == 0 else str((place + 6) % 10)


class EarPlayer:
    """Plays from what the screen says, and nothing else."""

    def __init__(self, terminal: Terminal, game: str) -> None:
        self.terminal = terminal
        self.belief = Belief(game)
        self.seen = 0
        self.last_place: int | None = None
        self.pressed_at = 0.0
        self.answered = True
        """The last key's result (its card played, or a refusal) has been read."""
        self.lines: list[str] = []
        self.live = False
        self.presses: list[Press] = []

    def read(self) -> list[str]:
        lines = printed(self.terminal)
        new, self.seen = lines[self.seen:], len(lines)
        for line in new:
            self.belief.feed(line, self.last_place)
            if "(you)" in line or line.startswith(("Stockpile", "Card")):
                self.answered = True
        self.lines += new
        return new

    def act(self, new: list[str]) -> None:
        for line in new:
            if line.endswith("Say ready."):
                self.terminal.press("Space")
            elif line.startswith("Slap now!"):
                self.terminal.press("." if "Right is smaller" in line else ",")
            if line.startswith(("Round over", "Nobody can play", "Stuck", "Your cards",
                                "Round ", "Your hand", "Three.", "Game over")):
                self.live = False  # wait for the spit, as at a real table
            elif re.fullmatch(r"(Left|Right): \w+\.", line):
                self.live = True  # a spit card turned up: play is on
        waiting = not self.answered and time.monotonic() - self.pressed_at < 1.5
        plays = self.belief.plays() if self.live else []
        if plays and not waiting:
            place, pile = plays[0]
            self.last_place = place if self.belief.game == "spit" else None
            key = key_for(place, pile)
            self.terminal.press(key)
            self.presses.append(Press(key, list(self.belief.piles), len(self.lines)))
            self.pressed_at, self.answered = time.monotonic(), False

    def mistakes(self) -> list[str]:
        """Refusals of keys the player pressed on a true picture of the table. A key
        refused because the table changed after the player last read the screen (the
        pile moved on, or nobody could play and the countdown began) is a race it lost,
        not something it was not told."""
        found = []
        for index, line in enumerate(self.lines):
            heard = re.match(r"(Stockpile|Card) (\w+) on (left|right)\? (.*)$", line)
            if heard is None:
                continue
            key = key_for(STOCK_WORDS.index(heard.group(2)), 0 if heard.group(3) == "left" else 1)
            press = next((press for press in reversed(self.presses)
                          if press.key == key and press.read <= index), None)
            reason = heard.group(4)
            shown = re.match(r"(Left|Right) shows an? (\w+);", reason)
            between = self.lines[press.read:index] if press is not None else []
            if reason.startswith("Too late"):
                continue
            if shown is not None and press is not None \
                    and press.piles[0 if shown.group(1) == "Left" else 1] != shown.group(2):
                continue
            if reason.startswith("Wait for the spit") and any(
                    line.startswith(("Nobody can play", "Stuck", "Three.")) for line in between):
                continue
            found.append(line)
        return found


@dataclass(frozen=True)
class Press:
    key: str
    piles: list[str]
    """The pile tops the player believed when it pressed the key."""
    read: int
    """How many printed lines it had read then."""


def play_by_ear(tmp_path: Path, game: str, verbosity: str, budget: float = 300) -> tuple[
        list[str], Path, list[str]]:
    (tmp_path / "config.toml").write_text(
        "[play]\ncountdown_interval = 0.2\n[opponent]\npace = 1.0\n")
    log = tmp_path / "game.log"
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
           "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "voicespit", "play", "--game", game, "--input", "keyboard",
               "--no-audio", "--seed", "4", "--verbosity", verbosity, "--log", str(log),
               "--config", str(tmp_path / "config.toml")]
    with Terminal(command, cwd=ROOT, env=env) as terminal:
        terminal.wait_for("to start.")
        assert printed(terminal) == [
            f"VoiceSpit {game.capitalize()}, by keyboard. Type new game or press space to start."]
        terminal.type_line("new game")
        player = EarPlayer(terminal, game)
        deadline = time.monotonic() + budget
        while time.monotonic() < deadline:
            new = player.read()
            if "Play again? Say yes or no." in new:
                break
            player.act(new)
            time.sleep(0.1)
        else:
            pytest.fail("the match did not end in time:\n" + "\n".join(player.lines[-40:]))
        time.sleep(0.5)
        assert printed(terminal)[-1] == "Play again? Say yes or no.", "the question comes last"
        terminal.type_line("say again")
        # Wait for the typed words to show: a busy machine echoes them after a while.
        terminal.wait_for("Play again? Say yes or no.", after=terminal.wait_for("say again"))
        terminal.type_line("no")
        terminal.wait_for("Say new game to play, or quit to leave.")
        terminal.type_line("quit")
        terminal.wait_for("Leave VoiceSpit? Say yes or no.")
        terminal.press("Space")
        terminal.wait_for("[process exited 0]")
        return printed(terminal), log, player.mistakes()


@pytest.mark.slow
@pytest.mark.parametrize("verbosity", ["terse", "normal", "full"])
@pytest.mark.parametrize("game", ["spit", "speed"])
def test_a_whole_match_played_by_ear_tells_the_player_every_card_and_change(
        tmp_path: Path, game: str, verbosity: str) -> None:
    lines, log, mistakes = play_by_ear(tmp_path, game, verbosity)
    assert re.search(r"Game over: (you win|opponent wins)", "\n".join(lines))
    verdict = check_log(log, game)
    assert not verdict.problems, "\n".join(verdict.problems[:10])
    news = count_news(log)
    # A Speed match is one deal of 15 cards each; a Spit match is many rounds.
    assert verdict.plays_checked > (50 if game == "spit" else 20), (verdict, news)
    assert verdict.prompts >= 1, verdict
    assert news["new card"] >= 5 and news["ready"] >= 1, news
    if game == "spit":
        assert news["renumbering"] >= 1, "the match renumbered a stockpile at least once"
    # The player only ever pressed keys for cards it had been told of: nothing it did
    # on a true picture of the table was refused.
    assert not mistakes, mistakes[:5]


def test_the_first_launch_with_default_settings_plays_on_a_machine_without_sound(
        tmp_path: Path) -> None:
    """What `./quickstart play` runs: sound on and input auto, on a machine with no sound
    card and no microphone. The game says so once, falls back to the keyboard, and
    every announcement is printed while speech plays silently at its real pace."""
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "cfg"),
           "PYTHONPATH": str(ROOT)}
    with Terminal([sys.executable, "-m", "voicespit"], cwd=ROOT, env=env) as terminal:
        terminal.wait_for("to start.", timeout=60)
        screen = printed(terminal)
        if not any("No sound output device" in line for line in screen):
            pytest.skip("this machine has a sound card")
        assert screen == [
            "No sound output device found; playing silently, every announcement is printed "
            "as text.",
            "VoiceSpit Spit, by keyboard (no microphone found). Type new game or press space "
            "to start."], "one plain line about the sound, then a two-sentence greeting"
        terminal.type_line("how do you hear me")
        terminal.wait_for("No microphone found. Type your commands")
        assert "/" not in printed(terminal)[-1], "no path, ever"
        terminal.type_line("new game")
        terminal.wait_for("Say ready.", timeout=30)
        terminal.press("Space")
        terminal.wait_for("Spit!", timeout=30)
        terminal.press("/")
        terminal.wait_for("Your cards: ", after=terminal.text().index("Spit!"))
        terminal.type_line("quit")
        terminal.wait_for("Quit this game? Say yes or no.")
        time.sleep(0.5)
        assert printed(terminal)[-1] == "Quit this game? Say yes or no.", "the question is last"
        terminal.press("Space")
        terminal.wait_for("Game stopped.")
        terminal.type_line("quit")
        terminal.type_line("yes")
        terminal.wait_for("[process exited 0]", timeout=30)
