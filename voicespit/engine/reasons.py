"""Refusals that name what is still possible, shared by Spit and Speed.

A player who asks for new cards ("spit") while a move is left deserves to hear
which move, not a rule: with the conveniences off the move left is often one
they forgot (a card to turn over, a gap to fill, a card to draw).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from voicespit.engine import actions as act
from voicespit.engine.actions import PILE_NAMES, STOCK_NAMES, Action
from voicespit.engine.cards import RANK_NAMES, Card

_KIND_ORDER = (act.Play, act.PlayCard, act.TurnUp, act.Fill, act.Draw)
"""The move named first: a play helps most, then what uncovers or brings a card."""

_OPPONENT_WORDS = {act.Play: "play", act.PlayCard: "play", act.TurnUp: "turn over a card",
                   act.Fill: "move a card", act.Draw: "draw"}


LegalActions = Callable[[int], list[Action]]
CardOf = Callable[[int, Action], Card | None]
"""(player, action) -> the card that play would move (None for other moves)."""


def still_possible(legal_actions: LegalActions, player: int, card_of: CardOf) -> str:
    """What `player` or their opponent can still do, as a reason not to turn new cards.

    Call it only when some move exists (the phase is play).
    """
    mine = _first_by_kind(legal_actions(player))
    if mine is not None:
        return f"you can still {_move_words(mine, card_of(player, mine))}"
    theirs = _first_by_kind(legal_actions(1 - player))
    what = "play" if theirs is None else _OPPONENT_WORDS[type(theirs)]
    return f"your opponent can still {what}"


def _first_by_kind(actions: Sequence[Action]) -> Action | None:
    for kind in _KIND_ORDER:
        for action in actions:
            if type(action) is kind:
                return action
    return None


def _move_words(action: Action, card: Card | None) -> str:
    if isinstance(action, act.Play | act.PlayCard):
        rank = "card" if card is None else RANK_NAMES[card.rank]
        return f"play your {rank} on {PILE_NAMES[action.pile]}"
    if isinstance(action, act.TurnUp):
        return f"turn over stock {STOCK_NAMES[action.stock]}"
    if isinstance(action, act.Fill):
        return f"move stock {STOCK_NAMES[action.source]} to stock {STOCK_NAMES[action.target]}"
    return str(action)
