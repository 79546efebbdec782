"""The rules of Spit and Speed: pure, deterministic from a seeded `random.Random`.

No clock, no threads, no I/O, no global randomness. Build a state with
`new_game(rules, rng)`; ask it for `legal_actions(player)`; `apply(player,
action)` returns the events it caused or raises `IllegalActionError`.

May import: `errors` only (and the standard library's pure parts).
"""

from __future__ import annotations

import random

from voicespit.engine.actions import (
    LEFT,
    PILE_NAMES,
    RIGHT,
    STOCK_NAMES,
    Action,
    ChoosePile,
    Draw,
    Fill,
    Play,
    PlayCard,
    Slap,
    Spit,
    TurnUp,
)
from voicespit.engine.cards import DECK, RANK_NAMES, Card, parse_rank, ranks_adjacent, with_article
from voicespit.engine.events import Event
from voicespit.engine.rules import VARIANTS, Rules, VariantError
from voicespit.engine.speed import SpeedState
from voicespit.engine.spit import SpitState
from voicespit.engine.state import PLAYERS, GameState, IllegalActionError, Phase


def new_game(rules: Rules, rng: random.Random) -> SpitState | SpeedState:
    """A freshly dealt match of `rules.game`, shuffled by `rng`."""
    if rules.game == "speed":
        return SpeedState(rules, rng)
    return SpitState(rules, rng)


__all__ = [
    "DECK", "LEFT", "PILE_NAMES", "PLAYERS", "RANK_NAMES", "RIGHT", "STOCK_NAMES", "VARIANTS",
    "Action", "Card", "ChoosePile", "Draw", "Event", "Fill", "GameState", "IllegalActionError",
    "Phase", "Play", "PlayCard", "Rules", "Slap", "SpeedState", "Spit", "SpitState", "TurnUp",
    "VariantError", "new_game", "parse_rank", "ranks_adjacent", "with_article",
]
