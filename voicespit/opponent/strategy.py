"""Which move to make: the opponent's judgement, and a random baseline to measure it by.

A strategy is `(state, player, legal, rng) -> Action | None` (None: do nothing
now). It sees only what that player could see: in Spit every face-up
stockpile top is on the table for both; in Speed the other hand is secret and
is never looked at.

`sensible_choice` plays like a steady club player:
- turn face-down cards up and fill empty slots first (when those are not
  automatic): a hidden card is a card that cannot be played;
- among plays, prefer the one after which the other player has the fewest
  cards that fit a pile and it has the most (counting half), then the one
  that uncovers a card from the tallest stockpile;
- in Speed, keep a playable hand: prefer the play after which most of the
  hand still fits somewhere;
- at the end of a round, slap (or choose) the smaller pile: fewer cards to take.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from voicespit.engine import actions as act
from voicespit.engine.actions import Action
from voicespit.engine.cards import Card
from voicespit.engine.speed import SpeedState
from voicespit.engine.spit import SpitState
from voicespit.engine.state import Phase
from voicespit.match.intents import State

Strategy = Callable[[State, int, list[Action], random.Random], Action | None]


def random_choice(state: State, player: int, legal: list[Action],
                  rng: random.Random) -> Action | None:
    """The baseline: any legal move, uniformly at random."""
    return rng.choice(legal) if legal else None


def sensible_choice(state: State, player: int, legal: list[Action],
                    rng: random.Random) -> Action | None:
    if not legal:
        return None
    if state.phase is Phase.ROUND_OVER:
        return _smaller_pile(state, player, legal)
    if state.phase is not Phase.PLAY:
        return legal[0]
    for kind in (act.TurnUp, act.Fill, act.Draw):
        tidy = [action for action in legal if type(action) is kind]
        if tidy:
            return tidy[0]
    if isinstance(state, SpitState):
        return _best(legal, lambda action: _spit_play_score(state, player, action), rng)
    return _best(legal, lambda action: _speed_play_score(state, player, action), rng)


def _best(legal: Sequence[Action], score: Callable[[Action], float],
          rng: random.Random) -> Action:
    scored = [(score(action), action) for action in legal]
    top = max(value for value, _ in scored)
    return rng.choice([action for value, action in scored if value == top])


def _smaller_pile(state: State, player: int, legal: list[Action]) -> Action:
    sizes = [len(pile) for pile in state.piles]
    # On a tie, the pile on one's own side (seat 0: left, seat 1: right).
    wanted = player if sizes[0] == sizes[1] else (0 if sizes[0] < sizes[1] else 1)
    for action in legal:
        if isinstance(action, act.Slap | act.ChoosePile) and action.pile == wanted:
            return action
    return legal[0]


def _fits(state: State, top: Card, card: Card) -> bool:
    return state.rules.accepts[top.index][card.index]


def _spit_play_score(state: SpitState, player: int, action: Action) -> float:
    """Mobility after the play: my cards that will fit somewhere, less theirs.

    Denying the other player counts double: in a race to empty the layout,
    their idle time is my lead, and my own next card may still come up
    underneath. Measured against a random player (benchmarks/pace.py), this
    beat a version that valued my chains above their denial.
    """
    if type(action) is not act.Play:
        return -1.0
    card = state.stock_top(player, action.stock)
    if card is None:
        return -1.0
    tops = [card if pile == action.pile else state.pile_top(pile) for pile in state.piles_in_use]

    def fits_a_top(other: Card | None) -> bool:
        return other is not None and any(
            top is not None and _fits(state, top, other) for top in tops)
    other = 1 - player
    mine = sum(fits_a_top(state.stock_top(player, slot))
               for slot in range(len(state.stocks[player])) if slot != action.stock)
    theirs = sum(fits_a_top(state.stock_top(other, slot))
                 for slot in range(len(state.stocks[other])))
    # Between equals, uncover the tallest stockpile: it hides the most cards.
    return 0.5 * mine - theirs + 0.01 * len(state.stocks[player][action.stock])


def _speed_play_score(state: SpeedState, player: int, action: Action) -> float:
    if type(action) is not act.PlayCard:
        return -1.0
    rest = [card for card in state.hands[player] if card is not action.card]
    tops = [action.card if pile == action.pile else state.pile_top(pile) for pile in (0, 1)]
    still_playable = sum(
        1 for card in rest if any(top is not None and _fits(state, top, card) for top in tops))
    chain = any(_fits(state, action.card, card) for card in rest)
    return still_playable + (0.5 if chain else 0.0)
