"""Which game and which variants: a frozen value, looked up and validated by name.

Variant keys are exactly the names RULES.md uses (`stockpiles=4`, `slap=false`,
`alternating_colours=true`, `scoring=points`, `side_pile_size=5`), so a player,
a config file and the command line all say the same thing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final, Literal

from voicespit.engine.cards import DECK, Card, ranks_adjacent, with_article
from voicespit.errors import VoiceSpitError

GameName = Literal["spit", "speed"]
Scoring = Literal["standard", "points"]


class VariantError(VoiceSpitError, ValueError):
    """An unknown variant key, a bad value, or a key that does not apply to the game."""


@dataclass(frozen=True)
class Rules:
    """The rule set of one game. Build with `Rules.for_game(...)`."""

    game: GameName = "spit"
    """"spit" (stockpiles, spit cards) or "speed" (hands, draw piles, side piles)."""
    stockpiles: int = 5
    """Spit: 5 stockpiles (1..5 cards), or 4 (1..4 cards)."""
    slap: bool = True
    """Spit: slap for a pile at the end of a round; False: the first out chooses."""
    alternating_colours: bool = False
    """A card played on a pile must be of the other colour than the pile's top."""
    scoring: Scoring = "standard"
    """Spit: "points" is the 100-point match, lowest score wins.
    Speed: "points" plays deals until a player reaches `target_score`."""
    side_pile_size: int = 10
    """Speed: cards in each side pile (10, or 5 with 20 cards per player)."""
    target_score: int = 100
    """The score that ends a points match (Spit: 100 by the rule book; Speed:
    `SPEED_TARGET_SCORE`)."""
    auto_turn_up: bool = True
    """Spit: turn up a stockpile's next card by itself after a play. Speed: draw by itself."""
    auto_fill: bool = True
    """Spit: fill an empty stockpile slot by itself when that uncovers a card."""
    max_rounds: int = 1000
    """The loop guard across rounds: after this many rounds the player holding
    fewer cards wins (in a points match the better score: lowest in Spit, highest in
    Speed). Random play ends a match in tens of rounds, so it only ever stops a
    pathological match."""

    def __post_init__(self) -> None:
        # Precomputed so the hot path is one tuple lookup, not rank arithmetic.
        accepts = tuple(
            tuple(self._accepts(top.index, card.index) for card in DECK) for top in DECK
        )
        object.__setattr__(self, "accepts", accepts)

    def _accepts(self, top_index: int, card_index: int) -> bool:
        top, card = DECK[top_index], DECK[card_index]
        if not ranks_adjacent(top.rank, card.rank):
            return False
        return not self.alternating_colours or top.is_red != card.is_red

    def why_not_on(self, card: Card, top: Card, pile_name: str) -> str:
        """Why `card` may not go on `top`, as a player would hear it."""
        same_colour = self.alternating_colours and card.is_red == top.is_red
        if same_colour and ranks_adjacent(card.rank, top.rank):
            return (f"{pile_name} shows a {top.colour} {top.rank_name}; "
                    f"a {card.colour} card cannot go on it")
        return (f"{pile_name} shows {with_article(top.rank)}; "
                f"{with_article(card.rank)} cannot go there")

    @property
    def full_layout(self) -> int:
        """Cards in a full Spit layout: 15 with five stockpiles, 10 with four."""
        return self.stockpiles * (self.stockpiles + 1) // 2

    @staticmethod
    def for_game(game: str, variants: Mapping[str, str] | Iterable[str] = ()) -> Rules:
        """Rules for `game` with variants given as {"key": "value"} or ["key=value", ...].

        Raises VariantError naming the key, the value and what is allowed.
        """
        if game not in ("spit", "speed"):
            raise VariantError(f"unknown game {game!r}; choose spit or speed")
        pairs = _variant_pairs(variants)
        defaults: dict[str, object] = {"game": game}
        if game == "speed":
            defaults["target_score"] = SPEED_TARGET_SCORE
        changes: dict[str, object] = {}
        for key, raw in pairs.items():
            spec = VARIANTS.get(key)
            if spec is None:
                raise VariantError(
                    f"unknown variant {key!r}; known variants: {', '.join(sorted(VARIANTS))}"
                )
            if game not in spec.games:
                raise VariantError(f"variant {key!r} applies only to {' and '.join(spec.games)}")
            changes[key] = spec.parse(key, raw)
        return dataclasses.replace(Rules(), **{**defaults, **changes})  # type: ignore[arg-type]

    def variant_text(self) -> str:
        """The variants that differ from the defaults, as "key=value" words."""
        base = Rules.for_game(self.game)
        parts = []
        for key in VARIANTS:
            value = getattr(self, key)
            if value != getattr(base, key):
                shown = str(value).lower() if isinstance(value, bool) else str(value)
                parts.append(f"{key}={shown}")
        return " ".join(parts)

    # Set in __post_init__; declared for the type checker.
    accepts: tuple[tuple[bool, ...], ...] = dataclasses.field(
        init=False, repr=False, compare=False, default=()
    )
    """accepts[top.index][card.index]: may `card` be played on `top`."""


SPEED_TARGET_SCORE: Final = 2
"""RULES.md leaves Speed's target open. A deal scores the cards left in the loser's draw
pile, and a player who has played ten cards has drawn it all, so most deals score
nothing: against the adaptive opponent 8-18% of deals score, 0.2-0.6 points a deal on
average (`python -m benchmarks.speed_points`). A match to 2 lasts about 5-16 deals
(median), as long as a points match of Spit; to 50 it would be a hundred deals or more."""


@dataclass(frozen=True)
class _VariantSpec:
    games: tuple[str, ...]
    allowed: tuple[str, ...]
    """Allowed spellings; for booleans "true"/"false"."""

    def parse(self, key: str, raw: str) -> object:
        value = raw.strip().lower()
        if value not in self.allowed:
            raise VariantError(
                f"variant {key}={raw!r} is not allowed; choose {' or '.join(self.allowed)}"
            )
        if self.allowed == ("true", "false"):
            return value == "true"
        if value.isdigit():
            return int(value)
        return value


VARIANTS: Final[dict[str, _VariantSpec]] = {
    "stockpiles": _VariantSpec(("spit",), ("5", "4")),
    "slap": _VariantSpec(("spit",), ("true", "false")),
    "alternating_colours": _VariantSpec(("spit", "speed"), ("true", "false")),
    "scoring": _VariantSpec(("spit", "speed"), ("standard", "points")),
    "side_pile_size": _VariantSpec(("speed",), ("10", "5")),
    "target_score": _VariantSpec(("spit", "speed"),
                                 tuple(str(n) for n in (1, 2, 3, 5, 10, 20, 30, 50, 100))),
    "auto_turn_up": _VariantSpec(("spit", "speed"), ("true", "false")),
    "auto_fill": _VariantSpec(("spit",), ("true", "false")),
}
"""Every setting a player may change by name, with the games it applies to."""


def _variant_pairs(variants: Mapping[str, str] | Iterable[str]) -> dict[str, str]:
    if isinstance(variants, Mapping):
        return {str(k).strip().lower(): str(v) for k, v in variants.items()}
    pairs: dict[str, str] = {}
    for item in variants:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise VariantError(f"variant {item!r} is not KEY=VALUE (e.g. stockpiles=4)")
        pairs[key.strip().lower()] = value
    return pairs
