"""Build exact positions for rule tests, written the way a card player writes cards.

Cards are two characters: rank `A23456789TJQK` and suit `CDHS` ("7H" is the seven
of hearts, "TD" the ten of diamonds). A stockpile is a string listed bottom to
top ("2C 9D 7H" has the seven of hearts face up on top).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import TypeVar

import pytest

from voicespit.engine import IllegalActionError, Phase, Rules, SpeedState, SpitState
from voicespit.engine.cards import DECK, Card
from voicespit.engine.invariants import same_state

RANKS = "A23456789TJQK"
SUITS = "CDHS"
AnyState = TypeVar("AnyState", SpitState, SpeedState)


def card(code: str) -> Card:
    return DECK[RANKS.index(code[0].upper()) * 4 + SUITS.index(code[1].upper())]


def cards(codes: str) -> list[Card]:
    return [card(code) for code in codes.split()]


def spit_rules(**changes: object) -> Rules:
    return dataclasses.replace(Rules.for_game("spit"), **changes)  # type: ignore[arg-type]


def spit_position(
    rules: Rules | None = None,
    *,
    mine: Sequence[str] = ("", "", "", "", ""),
    theirs: Sequence[str] = ("", "", "", "", ""),
    my_spit: str = "",
    their_spit: str = "",
    left: str = "",
    right: str = "",
    face_down: Sequence[tuple[int, int]] = (),
    phase: Phase = Phase.PLAY,
    only_pile: int | None = None,
    seed: int = 0,
) -> SpitState:
    """A Spit position: seat 0's stockpiles (`mine`) and seat 1's (`theirs`), spit cards
    listed bottom to top (the next one to turn is last), and the spit piles."""
    state = SpitState(rules or Rules.for_game("spit"), random.Random(seed))
    state.stocks = [[cards(pile) for pile in mine], [cards(pile) for pile in theirs]]
    state.face_up = [[bool(pile) for pile in state.stocks[0]], [bool(pile) for pile in state.stocks[1]]]
    for player, slot in face_down:
        state.face_up[player][slot] = False
    state.spit_cards = [cards(my_spit), cards(their_spit)]
    state.piles = [cards(left), cards(right)]
    state.phase = phase
    state.only_pile = only_pile
    return state


def speed_position(
    rules: Rules | None = None,
    *,
    my_hand: str = "",
    their_hand: str = "",
    my_draw: str = "",
    their_draw: str = "",
    left: str = "",
    right: str = "",
    left_side: str = "",
    right_side: str = "",
    phase: Phase = Phase.PLAY,
    seed: int = 0,
) -> SpeedState:
    """A Speed position; draw and side piles are listed bottom to top."""
    state = SpeedState(rules or Rules.for_game("speed"), random.Random(seed))
    state.hands = [cards(my_hand), cards(their_hand)]
    state.draw_piles = [cards(my_draw), cards(their_draw)]
    state.piles = [cards(left), cards(right)]
    state.side_piles = [cards(left_side), cards(right_side)]
    state.middle = []
    state.phase = phase
    return state


def with_whole_deck(state: AnyState, pile: int = 0) -> AnyState:
    """Put every card the position left out at the bottom of spit (or centre) pile
    `pile`, so the table holds all 52 (for rules that gather or deal whole piles)."""
    present = {card.index for card in state.all_cards()}
    missing = [card for card in DECK if card.index not in present]
    state.piles[pile][:0] = missing
    return state


def refused(state: SpitState | SpeedState, player: int, action: object) -> str:
    """Apply an action that must be refused; check nothing changed; return the reason."""
    before = state.clone()
    with pytest.raises(IllegalActionError) as caught:
        state.apply(player, action)  # type: ignore[arg-type]
    assert same_state(state, before), "a refused action changed the state"
    assert caught.value.reason
    return caught.value.reason
