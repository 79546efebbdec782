"""What a player who only reads the printed lines knows, and a judge of what they were told.

`Belief` is the player's picture of the table built from the printed lines alone:
the pile tops, and their own cards by place (Spit stockpiles in order, the Speed
hand as ranks). A player uses it to choose keys; `check_log` replays a game's
`--log` file, feeding the printed lines to a `Belief` and comparing it after
every event with the table as it truly was (the log's "table" records), and
lists every time the player was not told something:

- a card the player could play that their picture did not show for more than one
  announcement;
- a card turned up, drawn or moved (a stockpile renumbered) with no line saying so;
- a deal that did not end with "Say ready.", a "ready" with no "Ready." after it.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

STOCK_WORDS = ("one", "two", "three", "four", "five")
RANKS = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "jack", "queen", "king")

_CARDS = re.compile(r"^(?:Round \d+\. )?Your (cards|hand): ([a-z, ]+)\.")
_STOCK = re.compile(r"^Stock (\w+) shows an? (\w+)\.$")
_MOVED = re.compile(r"^(\w+) moves from stock (\w+) to stock (\w+)\.$")
_DREW = re.compile(r"^Drew an? (\w+)\.$")
_PILE = re.compile(r"(Left|Right): (\w+)(?: \((you|opponent)\))?\.")
_EVENT = re.compile(r" event +[\d.]+ #(\d+) (.*)$")


def fits(rank: str, top: str) -> bool:
    """One rank above or below, turning the corner (an ace is next to both king and two)."""
    if rank not in RANKS or top not in RANKS:
        return False
    return (RANKS.index(rank) - RANKS.index(top)) % 13 in (1, 12)


@dataclass
class Belief:
    game: str
    piles: list[str] = field(default_factory=lambda: ["", ""])
    stocks: list[str] = field(default_factory=lambda: [""] * 5)
    """Spit: each stockpile's face-up top as told ("" face down, empty or not told)."""
    hand: Counter[str] = field(default_factory=Counter)
    """Speed: the ranks in the hand as told."""
    only: int | None = None
    """The one pile in use, when the deal said so."""

    def feed(self, line: str, played_from: int | None = None) -> None:
        """One printed line. `played_from`: for your own play, the stockpile it came from
        (the player knows which key they pressed)."""
        line = line.strip()
        if found := _CARDS.match(line):
            if line.startswith("Round ") or line.endswith("Say ready."):
                # A new deal: the piles were taken, and perhaps only one is in use.
                self.piles = ["", ""]
                only = re.search(r"One pile only: (left|right)\.", line)
                self.only = None if only is None else ("left", "right").index(only.group(1))
            words = found.group(2).split(", ")
            if found.group(1) == "cards":
                self.stocks = [word if word in RANKS else "" for word in words]
            else:
                self.hand = Counter(words)
        elif line in ("Your stockpiles are empty.", "Your hand is empty."):
            self.stocks, self.hand = [""] * 5, Counter()
        elif found := _STOCK.match(line):
            self.stocks[STOCK_WORDS.index(found.group(1))] = found.group(2)
        elif found := _MOVED.match(line):
            rank, source, target = found.group(1).lower(), found.groups()[1], found.group(3)
            self.stocks[STOCK_WORDS.index(target)] = rank
            self.stocks[STOCK_WORDS.index(source)] = ""
        elif found := _DREW.match(line):
            self.hand[found.group(1)] += 1
        elif line.startswith(("Left: ", "Right: ")):
            for pile, rank, whose in _PILE.findall(line):
                self.piles[0 if pile == "Left" else 1] = rank
                if whose == "you":
                    self._played(rank, played_from)

    def _played(self, rank: str, played_from: int | None) -> None:
        if self.game == "speed":
            self.hand[rank] -= 1
            if self.hand[rank] <= 0:
                del self.hand[rank]
        elif played_from is not None and self.stocks[played_from] == rank:
            self.stocks[played_from] = ""
        elif rank in self.stocks:
            self.stocks[self.stocks.index(rank)] = ""

    def knows(self, playable: str) -> bool:
        """Whether this picture shows a card the log says is playable ("2:nine" / "nine")."""
        if self.game == "speed":
            return self.hand[playable] > 0
        slot, rank = playable.split(":")
        return self.stocks[int(slot)] == rank

    def wrong_cards(self, truly: list[str]) -> list[str]:
        """Cards this picture shows that are not there ("stale:2:nine"), given the log's
        true cards (Spit: by stockpile, "-" face down; Speed: the hand's ranks)."""
        if self.game == "speed":
            extra = self.hand - Counter(truly)
            return [f"stale:{rank}" for rank in extra]
        return [f"stale:{slot}:{rank}" for slot, rank in enumerate(self.stocks)
                if rank and (slot >= len(truly) or truly[slot] != rank)]

    def plays(self) -> list[tuple[int, int]]:
        """(place, pile) of every card this picture says fits a pile: a Spit stockpile,
        or a place in the Speed hand in the order "my cards" says it."""
        if self.game == "speed":
            ranks = sorted(self.hand.elements(), key=lambda rank: (RANKS.index(rank) - 1) % 13)
        else:
            ranks = list(self.stocks)
        piles = (0, 1) if self.only is None else (self.only,)
        return [(place, pile) for place, rank in enumerate(ranks) for pile in piles
                if fits(rank, self.piles[pile])]


@dataclass
class Verdict:
    problems: list[str] = field(default_factory=list)
    events: int = 0
    lines: int = 0
    prompts: int = 0
    """Deals checked for their closing "Say ready."."""
    plays_checked: int = 0


def check_log(path: Path, game: str, grace: int = 1) -> Verdict:
    """Judge a `voicespit play --log FILE` log: see the module docstring."""
    belief = Belief(game)
    verdict = Verdict()
    missing: dict[str, int] = {}
    """Playable cards the picture lacks -> lines said since they were found missing."""
    pending: list[tuple[str, str]] = []
    """(kind, the line that must follow) for the event being told."""
    deal_lines: list[str] | None = None
    played_from: int | None = None
    for raw in path.read_text().splitlines():
        if ": said: " in raw:
            line = raw.split(": said: ", 1)[1]
            verdict.lines += 1
            belief.feed(line, played_from)
            pending = [(kind, wanted) for kind, wanted in pending if wanted != line]
            if deal_lines is not None:
                deal_lines.append(line)
            for card in missing:
                missing[card] += 1
        elif found := _EVENT.search(raw):
            verdict.events += 1
            _settle(pending, verdict)
            text = found.group(2)
            played_from = _played_from(text)
            if deal_lines is not None and not text.startswith("P1 "):
                _check_prompt(deal_lines, verdict)
                deal_lines = None
            if text.startswith("P0 deals"):
                deal_lines = []
            pending = _news(text)
        elif " table {" in raw:
            table = json.loads(raw.split(" table ", 1)[1])
            if table["phase"] != "play":
                missing.clear()
                continue
            for card in table["playable"]:
                verdict.plays_checked += 1
                if belief.knows(card):
                    missing.pop(card, None)
                elif missing.setdefault(card, 0) > grace:
                    verdict.problems.append(
                        f"playable {card} unannounced for {missing[card]} lines; the player "
                        f"was told {belief.stocks if game == 'spit' else dict(belief.hand)}, "
                        f"truly {table['mine']}, piles {table['piles']}")
                    missing[card] = -10_000  # report each gap once
            wrong = belief.wrong_cards(table["mine"])
            for card in list(missing):
                if card not in table["playable"] and card not in wrong:
                    del missing[card]
            for card in wrong:
                # A card the player believes in that is not there: a change not told.
                if missing.setdefault(card, 0) > grace:
                    verdict.problems.append(
                        f"the player still believes in {card} after {missing[card]} lines; "
                        f"truly {table['mine']}")
                    missing[card] = -10_000
    _settle(pending, verdict)
    if deal_lines is not None:
        _check_prompt(deal_lines, verdict)
    return verdict


def _rank_of(card_name: str) -> str:
    return card_name.split(" of ")[0]


def _with_article(rank: str) -> str:
    return f"{'an' if rank[0] in 'aeiou' else 'a'} {rank}"


def _played_from(event: str) -> int | None:
    found = re.match(r"P0 plays .* from stockpile (\w+) on", event)
    return STOCK_WORDS.index(found.group(1)) if found else None


def _news(event: str) -> list[tuple[str, str]]:
    """The lines an event of the player's must produce."""
    if found := re.match(r"P0 turns up (.+) on stockpile (\w+)$", event):
        rank = _rank_of(found.group(1))
        return [("new card", f"Stock {found.group(2)} shows {_with_article(rank)}.")]
    if found := re.match(r"P0 draws (.+)$", event):
        return [("new card", f"Drew {_with_article(_rank_of(found.group(1)))}.")]
    if found := re.match(r"P0 moves (.+) from stockpile (\w+) to (\w+)$", event):
        rank = _rank_of(found.group(1)).capitalize()
        return [("renumbering", f"{rank} moves from stock {found.group(2)} "
                                f"to stock {found.group(3)}.")]
    if event == "P0 ready":
        return [("ready", "Ready.")]
    return []


def _settle(pending: list[tuple[str, str]], verdict: Verdict) -> None:
    for kind, wanted in pending:
        verdict.problems.append(f"{kind} not told: no line {wanted!r}")
    pending.clear()


def _check_prompt(lines: list[str], verdict: Verdict) -> None:
    verdict.prompts += 1
    if not lines or not lines[-1].endswith("Say ready."):
        verdict.problems.append(f"a deal did not end with 'Say ready.': {lines[-3:]}")


def count_news(path: Path) -> Counter[str]:
    """How many renumberings, new cards and readies of the player's the log holds."""
    counts: Counter[str] = Counter()
    for raw in path.read_text().splitlines():
        if found := _EVENT.search(raw):
            for kind, _ in _news(found.group(2)):
                counts[kind] += 1
    return counts
