"""What happened: the events `state.apply` returns, in the order they happened.

Events carry everything a listener needs (narration, the opponent, statistics)
without reading the state again. `str(event)` is a stable one-line transcript
form used by the golden playthroughs; what a player *hears* is narration's job.
Players are seats 0 and 1; piles are 0 (left) and 1 (right).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from voicespit.engine.actions import PILE_NAMES, STOCK_NAMES
from voicespit.engine.cards import Card


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A card went onto a pile. `stock` is the Spit stockpile it came from (None in Speed)."""

    player: int
    card: Card
    pile: int
    covered: Card
    stock: int | None

    def __str__(self) -> str:
        source = "hand" if self.stock is None else f"stockpile {STOCK_NAMES[self.stock]}"
        return f"P{self.player} plays {self.card.name} from {source} on {PILE_NAMES[self.pile]}"


@dataclass(frozen=True, slots=True)
class CardTurnedUp:
    """Spit: a stockpile's new top card was turned face up."""

    player: int
    stock: int
    card: Card

    def __str__(self) -> str:
        return f"P{self.player} turns up {self.card.name} on stockpile {STOCK_NAMES[self.stock]}"


@dataclass(frozen=True, slots=True)
class CardMoved:
    """Spit: a face-up card moved from stockpile `source` into the empty slot `target`."""

    player: int
    card: Card
    source: int
    target: int

    def __str__(self) -> str:
        return (
            f"P{self.player} moves {self.card.name} from stockpile {STOCK_NAMES[self.source]}"
            f" to {STOCK_NAMES[self.target]}"
        )


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """Speed: a card came from the draw pile into the hand (secret from the opponent)."""

    player: int
    card: Card

    def __str__(self) -> str:
        return f"P{self.player} draws {self.card.name}"


@dataclass(frozen=True, slots=True)
class Stalemate:
    """Nobody can play: the next step is a spit (or the round ends)."""

    def __str__(self) -> str:
        return "stalemate"


@dataclass(frozen=True, slots=True)
class CardSpat:
    """A card was turned into the middle: a spit card (Spit) or a middle/side card (Speed)."""

    player: int
    pile: int
    card: Card

    def __str__(self) -> str:
        return f"P{self.player} spits {self.card.name} on {PILE_NAMES[self.pile]}"


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """Play is on: the first spit of a round (or deal) has turned up."""

    round: int

    def __str__(self) -> str:
        return f"round {self.round} starts"


RoundEnd = Literal["cleared", "blocked"]


@dataclass(frozen=True, slots=True)
class RoundOver:
    """A round ended: a player `cleared` their layout (or hand), or play was `blocked`."""

    round: int
    end: RoundEnd
    first_out: int | None
    reason: str

    def __str__(self) -> str:
        return f"round {self.round} over: {self.reason}"


@dataclass(frozen=True, slots=True)
class PileSlapped:
    """Spit: a player slapped (or, with slap=false, chose) a pile."""

    player: int
    pile: int

    def __str__(self) -> str:
        return f"P{self.player} slaps {PILE_NAMES[self.pile]}"


@dataclass(frozen=True, slots=True)
class PileTaken:
    """Spit: a player takes a spit pile (`pile` None: takes nothing from the centre)."""

    player: int
    pile: int | None
    cards: int

    def __str__(self) -> str:
        if self.pile is None:
            return f"P{self.player} takes nothing from the centre"
        return f"P{self.player} takes {PILE_NAMES[self.pile]} ({self.cards} cards)"


@dataclass(frozen=True, slots=True)
class LayoutDealt:
    """A new layout: Spit stockpile sizes and spit cards, or Speed hand and draw pile."""

    player: int
    stockpiles: tuple[int, ...]
    reserve: int
    """Spit: spit cards. Speed: draw-pile cards."""

    def __str__(self) -> str:
        return f"P{self.player} deals {list(self.stockpiles)} + {self.reserve}"


@dataclass(frozen=True, slots=True)
class SidePilesRebuilt:
    """Speed: the centre piles under their tops were shuffled into new side piles."""

    sizes: tuple[int, int]

    def __str__(self) -> str:
        return f"side piles rebuilt {list(self.sizes)}"


@dataclass(frozen=True, slots=True)
class ScoresChanged:
    """Points were scored; `scores` are the totals after this round."""

    gained: tuple[int, int]
    scores: tuple[int, int]
    scorer: int | None = None
    """Speed: the deal's winner, the one player who scores (the cards left in the other's
    draw pile, maybe none); None in Spit, where both score."""

    def __str__(self) -> str:
        return f"scores +{list(self.gained)} = {list(self.scores)}"


@dataclass(frozen=True, slots=True)
class Redealt:
    """Spit, points match: `player` got rid of every card before anyone reached the
    target, so all 52 cards are shuffled and dealt again, 26 each (the layouts follow)."""

    player: int

    def __str__(self) -> str:
        return f"P{self.player} is out of cards: all 52 dealt again"


@dataclass(frozen=True, slots=True)
class GameOver:
    """The match is over. `winner` is None for a draw."""

    winner: int | None
    reason: str

    def __str__(self) -> str:
        who = "draw" if self.winner is None else f"P{self.winner} wins"
        return f"game over: {who}: {self.reason}"


Event = (
    CardPlayed | CardTurnedUp | CardMoved | CardDrawn | Stalemate | CardSpat | RoundStarted
    | RoundOver | PileSlapped | PileTaken | LayoutDealt | SidePilesRebuilt | ScoresChanged
    | Redealt | GameOver
)
