"""What a player can do. Actions are small immutable values compared by value.

Piles are numbered 0 (`LEFT`) and 1 (`RIGHT`), as the human player hears them;
stockpiles are numbered from 0 here and spoken from one ("stockpile three" is 2).

The engine hands out pre-built instances from `legal_actions` so that listing
moves in the hot loop allocates nothing; constructing an equal action by hand
(`Play(2, LEFT)`) works the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from voicespit.engine.cards import DECK, Card

LEFT: Final = 0
RIGHT: Final = 1
PILE_NAMES: Final = ("left", "right")
STOCK_NAMES: Final = ("one", "two", "three", "four", "five")


@dataclass(frozen=True, slots=True)
class Play:
    """Spit: play the face-up top card of stockpile `stock` onto spit pile `pile`."""

    stock: int
    pile: int

    def __str__(self) -> str:
        return f"play stockpile {STOCK_NAMES[self.stock]} on {PILE_NAMES[self.pile]}"


@dataclass(frozen=True, slots=True)
class TurnUp:
    """Spit: turn up the face-down top card of stockpile `stock`."""

    stock: int

    def __str__(self) -> str:
        return f"turn up stockpile {STOCK_NAMES[self.stock]}"


@dataclass(frozen=True, slots=True)
class Fill:
    """Spit: move the face-up top of stockpile `source` into the empty slot `target`."""

    source: int
    target: int

    def __str__(self) -> str:
        return f"move stockpile {STOCK_NAMES[self.source]} to {STOCK_NAMES[self.target]}"


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Speed: play `card` from the hand onto centre pile `pile`."""

    card: Card
    pile: int

    def __str__(self) -> str:
        return f"play {self.card.name} on {PILE_NAMES[self.pile]}"


@dataclass(frozen=True, slots=True)
class Draw:
    """Speed: draw one card from the draw pile into a hand of fewer than five."""

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Spit:
    """Turn up new cards into the middle: starts a round, and ends a stalemate.

    Spit: each player with spit cards turns one onto their own pile.
    Speed: at the start each turns a middle card; when stuck each turns a side-pile card.
    Either player may call it; both players' cards turn together.
    """

    def __str__(self) -> str:
        return "spit"


@dataclass(frozen=True, slots=True)
class Slap:
    """Spit, end of a round: slap spit pile `pile` to take it."""

    pile: int

    def __str__(self) -> str:
        return f"slap {PILE_NAMES[self.pile]}"


@dataclass(frozen=True, slots=True)
class ChoosePile:
    """Spit with `slap=false`: the player who went out first chooses a pile to take."""

    pile: int

    def __str__(self) -> str:
        return f"take {PILE_NAMES[self.pile]}"


Action = Play | TurnUp | Fill | PlayCard | Draw | Spit | Slap | ChoosePile

# Pre-built instances for the hot path.
PLAYS: Final = tuple(tuple(Play(stock, pile) for pile in (LEFT, RIGHT)) for stock in range(5))
TURN_UPS: Final = tuple(TurnUp(stock) for stock in range(5))
FILLS: Final = tuple(tuple(Fill(source, target) for target in range(5)) for source in range(5))
PLAY_CARDS: Final = tuple(tuple(PlayCard(card, pile) for pile in (LEFT, RIGHT)) for card in DECK)
DRAW: Final = Draw()
SPIT: Final = Spit()
SLAPS: Final = (Slap(LEFT), Slap(RIGHT))
CHOICES: Final = (ChoosePile(LEFT), ChoosePile(RIGHT))
