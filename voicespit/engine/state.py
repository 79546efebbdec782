"""What every game state offers, whichever game it is.

A state lists each player's legal actions and applies one: `apply` returns the
events the action caused, or raises `IllegalActionError` whose `reason` tells the
player why, in words they understand, leaving the state exactly as it was.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from typing import Protocol

from voicespit.engine.actions import Action
from voicespit.engine.cards import Card
from voicespit.engine.events import Event
from voicespit.engine.rules import Rules
from voicespit.errors import VoiceSpitError

PLAYERS = (0, 1)


def copy_rng(rng: random.Random) -> random.Random:
    """An independent generator in the same state (without seeding a new one from the OS)."""
    copy = random.Random.__new__(random.Random)
    copy.setstate(rng.getstate())
    return copy


class Phase(enum.Enum):
    """Where a round stands; it decides which actions exist at all."""

    READY = "ready"
    """Layouts are dealt; waiting for the spit that starts play."""
    PLAY = "play"
    """Both players play at once."""
    STALEMATE = "stalemate"
    """Nobody can play; the only move is to spit (Speed: flip from the side piles)."""
    ROUND_OVER = "round over"
    """Spit: the round ended; waiting for a slap (or, with slap=false, a choice)."""
    GAME_OVER = "game over"
    """The match is decided; nothing more can happen."""


class IllegalActionError(VoiceSpitError, ValueError):
    """The action breaks a rule now. `reason` is fit to speak to the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class GameState(Protocol):
    """The interface of `SpitState` and `SpeedState`."""

    rules: Rules
    phase: Phase
    round: int
    winner: int | None
    scores: list[int]

    def legal_actions(self, player: int) -> list[Action]:
        """Every action `player` may take now (empty when they must wait)."""
        ...

    def apply(self, player: int, action: Action) -> list[Event]:
        """Apply the action, or raise IllegalActionError and change nothing."""
        ...

    def clone(self, rng: random.Random | None = None) -> GameState:
        """An independent copy, including the shuffle generator's state (or with `rng`
        as its generator, for a trial whose shuffles do not matter)."""
        ...

    def all_cards(self) -> list[Card]:
        """Every card in the game wherever it lies: 52 distinct cards, always."""
        ...

    def cards_held(self, player: int) -> int:
        """Cards the player still has to get rid of."""
        ...

    def pile_top(self, pile: int) -> Card | None:
        """The face-up top of a spit/centre pile, None when it is empty."""
        ...

    @property
    def piles_in_use(self) -> Sequence[int]:
        """The piles cards can go on (Spit with a short player uses one)."""
        ...

    @property
    def is_over(self) -> bool: ...
