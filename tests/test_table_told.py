"""Nothing changes on the table without a word: whole matches on a fake clock, judged.

The session's own log (the one `--log FILE` writes) holds every event, every line
said and the table as it truly was; `tests.table_checker.check_log` replays the
lines as a listener would take them in and finds every card the player could play
but had not been told of, and every new card, renumbered stockpile or deal prompt
that went unsaid. The tmux test (tests/test_play_terminal.py) does the same through
a real terminal and the real clock; these run in moments, at every detail level.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.app_harness import Harness, WordPlayer
from tests.table_checker import Belief, check_log, count_news
from voicespit.cli.logs import FORMAT
from voicespit.match.intents import State
from voicespit.narration.announcement import Verbosity


@pytest.fixture
def game_log(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "game.log"
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter(FORMAT))
    root = logging.getLogger("voicespit")
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield path
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
        handler.close()


class ListeningPlayer(WordPlayer):
    """Plays seat 0 from the printed lines alone, by the keys: space when asked to say
    ready, comma or full stop for the smaller pile, a card key for a card it was told of."""

    def __init__(self, harness: Harness, game: str) -> None:
        super().__init__(harness, harness.type, delay=1.0, mistakes=0.0)
        self.belief = Belief(game)
        self.read = 0
        self.place: int | None = None

    def choose(self, state: State) -> str | None:
        """The table itself is never looked at: only what was printed since last time."""
        lines = self.harness.lines()
        for line in lines[self.read:]:
            self.belief.feed(line, self.place)
            if line.endswith("Say ready."):
                self.harness.type(" ")
            elif line.startswith("Slap now!"):
                self.harness.type("." if "Right is smaller" in line else ",")
        self.read = len(lines)
        plays = self.belief.plays()
        if not plays:
            return None
        place, pile = plays[0]
        self.place = place if self.belief.game == "spit" else None
        return str(place + 1) if pile == 0 else str((place + 6) % 10)


def play_match(game: str, verbosity: Verbosity, seed: int = 5) -> Harness:
    harness = Harness(game=game, pace="brisk", seed=seed, verbosity=verbosity)
    harness.session.greet("by keyboard", by_voice=False)
    harness.type("new game")
    harness.run(0.5)
    ListeningPlayer(harness, game).start()
    for _ in range(20_000):
        harness.run(1.0)
        if harness.session.game is not None and harness.session.game.ended:
            return harness
    raise AssertionError("the match did not end:\n" + "\n".join(harness.lines()[-30:]))


@pytest.mark.parametrize("verbosity", list(Verbosity), ids=lambda v: v.value)
@pytest.mark.parametrize("game", ["spit", "speed"])
def test_every_card_change_and_prompt_of_a_whole_match_is_told(
        game_log: Path, game: str, verbosity: Verbosity) -> None:
    play_match(game, verbosity)
    verdict = check_log(game_log, game)
    assert not verdict.problems, "\n".join(verdict.problems[:10])
    news = count_news(game_log)
    assert verdict.plays_checked > 20 and verdict.prompts >= 1
    assert news["new card"] >= 5 and news["ready"] >= 1
    if game == "spit":
        assert news["renumbering"] >= 1, "the match renumbered a stockpile at least once"


@pytest.mark.parametrize(("dropped", "problem"), [
    (" moves from stock ", "renumbering not told"),
    (": said: Stock ", "new card not told"),
    (": said: Ready.", "ready not told"),
])
def test_the_checker_finds_a_change_that_was_not_told(game_log: Path, dropped: str,
                                                      problem: str) -> None:
    play_match("spit", Verbosity.NORMAL)
    lines = game_log.read_text().splitlines()
    first = next(index for index, line in enumerate(lines) if dropped in line)
    game_log.write_text("\n".join(lines[:first] + lines[first + 1:]) + "\n")
    problems = check_log(game_log, "spit").problems
    assert any(problem in found for found in problems), problems[:5]


def test_the_checker_finds_a_deal_without_its_prompt_and_a_card_never_told(
        game_log: Path) -> None:
    play_match("spit", Verbosity.NORMAL)
    text = game_log.read_text()
    assert " Say ready." in text
    game_log.write_text(text.replace(" Say ready.", ""))
    assert any("did not end with 'Say ready.'" in found
               for found in check_log(game_log, "spit").problems)
    # Every "Stock N shows a X." line gone: the cards turned up are never known, and the
    # first one the player could play is reported.
    game_log.write_text("\n".join(line for line in text.splitlines()
                                  if ": said: Stock " not in line) + "\n")
    assert any(found.startswith("playable ") for found in check_log(game_log, "spit").problems)
