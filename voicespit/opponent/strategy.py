"""Which move to make: the opponent's judgement, and a random baseline to measure it by.

A strategy is `(state, player, legal, rng) -> Action | None` (None: do nothing
now). It sees only what that player could see: in Spit every face-up
stockpile top is on the table for both; in Speed the other hand is secret and
is never looked at.

`sensible_choice` plays like a steady club player:
- turn face-down cards up and fill empty slots first (when those are not
  automatic): a hidden card is a card that cannot be played;
- among plays, prefer one that leaves another of its own cards playable on
  the new top (a chain), that takes away a pile the other player needed, that
  uncovers a card from a tall stockpile; avoid handing the other player a play;
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
from voicespit.intents import State

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
    if type(action) is not act.Play:
        return -1.0
    card = state.stock_top(player, action.stock)
    old_top = state.pile_top(action.pile)
    if card is None or old_top is None:
        return -1.0
    other = 1 - player
    mine = [state.stock_top(player, slot) for slot in range(len(state.stocks[player]))
            if slot != action.stock]
    theirs = [state.stock_top(other, slot) for slot in range(len(state.stocks[other]))]
    score = 0.0
    if any(top is not None and _fits(state, card, top) for top in mine):
        score += 2.0  # a chain: my next card goes on this one
    if any(top is not None and _fits(state, old_top, top) and not _fits(state, card, top)
           for top in theirs):
        score += 1.0  # they needed that pile as it was
    if any(top is not None and _fits(state, card, top) for top in theirs):
        score -= 1.0  # I would hand them a play
    score += 0.1 * len(state.stocks[player][action.stock])  # uncover the tallest first
    return score


def _speed_play_score(state: SpeedState, player: int, action: Action) -> float:
    if type(action) is not act.PlayCard:
        return -1.0
    rest = [card for card in state.hands[player] if card is not action.card]
    tops = [action.card if pile == action.pile else state.pile_top(pile) for pile in (0, 1)]
    still_playable = sum(
        1 for card in rest if any(top is not None and _fits(state, top, card) for top in tops))
    chain = any(_fits(state, action.card, card) for card in rest)
    return still_playable + (0.5 if chain else 0.0)
