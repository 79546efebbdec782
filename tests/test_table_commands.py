"""Keys and "move N to M" mean what the last announcement said was at that place."""

from __future__ import annotations

import random

import pytest

from voicespit.app.keys import CardKey
from voicespit.app.table_commands import resolve_command, resolve_key
from voicespit.clock import FakeClock
from voicespit.engine import Card, Phase, Rules, SpeedState, SpitState, new_game
from voicespit.engine import actions as act
from voicespit.engine.actions import LEFT, RIGHT
from voicespit.engine.events import CardMoved
from voicespit.match.referee import Match
from voicespit.match.settings import MatchSettings
from voicespit.speech.language.commands import Command, Verb
from voicespit.speech.language.parser import IllegalCommandError


def spit_in_play(seed: int = 2) -> SpitState:
    state = new_game(Rules.for_game("spit"), random.Random(seed))
    assert isinstance(state, SpitState)
    state.apply(0, act.SPIT)
    return state


def with_lone_card_that_fits() -> tuple[SpitState, Card]:
    """A table where stockpile one's single card fits the left pile: playing it empties
    the slot, and the automatic fill moves another stockpile's card into it."""
    for seed in range(100):
        state = spit_in_play(seed)
        lone = state.stocks[0][0][-1]
        if state.rules.accepts[state.piles[LEFT][-1].index][lone.index]:
            return state, lone
    raise AssertionError("no seed deals a playable lone card")


def test_a_key_plays_the_card_it_meant_when_a_fill_has_moved_it() -> None:
    state, _ = with_lone_card_that_fits()
    heard = state.clone()
    events = state.apply(0, act.PLAYS[0][LEFT])
    moved = next(event for event in events if isinstance(event, CardMoved))
    assert moved.target == 0, "the fill renumbered the table"
    key = CardKey(moved.source, RIGHT)
    meant = key.card_in(heard, 0)
    assert meant == moved.card
    assert key.resolve(state, 0, meant) == act.PLAYS[0][RIGHT], \
        "the card the player last heard on that stockpile, from where it lies now"
    assert key.resolve(state, 0) == act.PLAYS[moved.source][RIGHT], "not what came after it"


def test_a_key_for_a_card_already_played_says_so_instead_of_playing_its_replacement() -> None:
    state, lone = with_lone_card_that_fits()
    heard = state.clone()
    state.apply(0, act.PLAYS[0][LEFT])
    key = CardKey(0, LEFT)
    assert state.stock_top(0, 0) is not None, "another card now sits on stockpile one"
    with pytest.raises(IllegalCommandError, match=f"your {lone.rank_name} is already played"):
        key.resolve(state, 0, key.card_in(heard, 0))


def test_a_key_never_plays_a_card_that_came_to_its_place_after_the_player_last_heard() -> None:
    # Stockpile three was face down when last heard; its card has turned up since,
    # but its announcement has not been heard: the key must not play a card never said.
    state = spit_in_play()
    heard = state.clone()
    heard.face_up[0][2] = False
    key = CardKey(2, LEFT)
    assert key.card_in(heard, 0) is None and key.card_in(state, 0) is not None
    with pytest.raises(IllegalCommandError, match="you have not heard that card yet"):
        resolve_key(key, key.card_in(heard, 0), state, 0)
    state.face_up[0][2] = False  # still face down now: left to the engine, which says why
    assert resolve_key(key, None, state, 0) == act.PLAYS[2][LEFT]


def test_a_speed_key_past_the_hand_as_heard_never_plays_a_card_drawn_since() -> None:
    state = new_game(Rules.for_game("speed"), random.Random(4))
    assert isinstance(state, SpeedState)
    state.apply(0, act.SPIT)
    state.phase = Phase.PLAY  # whether or not this deal's first cards fit
    heard = state.clone()
    heard.hands[0].pop()  # four cards as heard; the fifth, drawn since, not yet told
    key = CardKey(4, LEFT)
    with pytest.raises(IllegalCommandError, match="you have not heard that card yet"):
        resolve_key(key, key.card_in(heard, 0), state, 0)


def test_move_n_to_m_takes_the_card_it_meant_from_where_it_lies_now() -> None:
    state = spit_in_play()
    state.stocks[0][1] = []  # an empty slot two
    meant = state.stock_top(0, 4)
    assert meant is not None
    # Stockpile five's card has since moved to slot four (and four's is gone).
    state.stocks[0][3], state.stocks[0][4] = state.stocks[0][4], state.stocks[0][3]
    command = Command(Verb.MOVE, stock=4, target=1)
    assert resolve_command(command, state, 0, meant) == act.FILLS[3][1]


def test_a_speed_key_means_the_card_at_that_place_in_the_hand_as_heard() -> None:
    state = new_game(Rules.for_game("speed"), random.Random(4))
    assert isinstance(state, SpeedState)
    state.apply(0, act.SPIT)
    heard = state.clone()
    key = CardKey(2, LEFT)
    meant = key.card_in(heard, 0)
    assert meant is not None
    # A card lower than all the others arrives: every place in the spoken order moves.
    hand = state.hands[0]
    hand.insert(0, hand.pop(hand.index(meant)))
    assert key.resolve(state, 0, meant) == act.PLAY_CARDS[meant.index][LEFT]


def test_the_match_shows_the_table_as_heard_until_it_is_heard() -> None:
    clock = FakeClock()
    match = Match(Rules.for_game("spit"), clock, seed=1,
                  settings=MatchSettings(wait_for_announcements=True, auto_start=True,
                                         countdown_from=0))
    match.start()
    match.announcement_finished(2)  # the deal (events 1 and 2) is heard, the spit is not
    clock.advance(0.1)
    assert match.snapshot().phase is Phase.PLAY
    assert match.heard_snapshot().phase is Phase.READY, "the spit is not heard yet"
    match.announcement_finished(10)
    clock.advance(0.1)
    assert match.heard_snapshot().phase is Phase.PLAY
    match.close()
