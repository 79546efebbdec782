"""How long the opponent takes: reaction delays drawn around a mean, never a metronome.

A person's reaction times are skewed: mostly near their usual pace, now and
then much slower, never much faster. A log-normal delay has that shape; it is
drawn with its *mean* exactly at the pace's seconds per card, so a pace's name
and its measured speed agree. `spread` is the standard deviation of the
logarithm (0.35: about two thirds of reactions within -30%..+40% of the mean).
"""

from __future__ import annotations

import math
import random
from typing import Final, Protocol

DEFAULT_SPREAD: Final = 0.35
STEP: Final = 1.25
""""faster" divides the seconds per card by this, "slower" multiplies by it."""

NAMED_PACES: Final[dict[str, float]] = {
    "gentle": 6.0,
    "relaxed": 3.5,
    "brisk": 2.0,
    "fast": 1.0,
}
"""Practice paces: mean seconds from a card becoming playable to the computer playing it."""


def reaction_delay(mean: float, spread: float, rng: random.Random) -> float:
    """One reaction time: log-normal with mean `mean` (0 when `mean` is 0)."""
    if mean <= 0:
        return 0.0
    if spread <= 0:
        return mean
    return rng.lognormvariate(math.log(mean) - spread * spread / 2, spread)


class Pace(Protocol):
    """What the opponent asks of a pace. Implemented by `FixedPace` and `AdaptivePace`."""

    @property
    def name(self) -> str: ...

    @property
    def seconds_per_card(self) -> float:
        """The current mean reaction time."""
        ...

    def delay(self, rng: random.Random) -> float:
        """Draw the next reaction time."""
        ...

    def change(self, faster: bool) -> float:
        """The player asked for faster/slower; returns the new seconds per card."""
        ...

    def observe_reaction(self, seconds: float) -> None:
        """A measured human reaction time (ignored by fixed paces)."""
        ...

    def start_game(self) -> None:
        """A new game (or Speed deal) begins: the outlook is even again."""
        ...

    def observe_outlook(self, opponent_chance: float) -> None:
        """After a round: the opponent's chance of winning as the table stands (0..1)."""
        ...


class FixedPace:
    """A practice pace that stays where it is put (`fast`, `brisk`, ... or any seconds)."""

    def __init__(self, seconds_per_card: float, name: str | None = None,
                 spread: float = DEFAULT_SPREAD) -> None:
        if seconds_per_card < 0:
            raise ValueError("a pace cannot be negative")
        self._seconds = seconds_per_card
        self._name = name or f"{seconds_per_card:g} s"
        self.spread = spread

    @staticmethod
    def named(name: str) -> FixedPace:
        if name not in NAMED_PACES:
            raise ValueError(f"unknown pace {name!r}; choose {', '.join(NAMED_PACES)}")
        return FixedPace(NAMED_PACES[name], name)

    @property
    def name(self) -> str:
        return self._name

    @property
    def seconds_per_card(self) -> float:
        return self._seconds

    def delay(self, rng: random.Random) -> float:
        return reaction_delay(self._seconds, self.spread, rng)

    def change(self, faster: bool) -> float:
        self._seconds = self._seconds / STEP if faster else self._seconds * STEP
        self._name = f"{self._seconds:.1f} s"
        return self._seconds

    def observe_reaction(self, seconds: float) -> None:
        pass

    def start_game(self) -> None:
        pass

    def observe_outlook(self, opponent_chance: float) -> None:
        pass
