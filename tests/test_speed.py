"""The rules of Speed (RULES.md: Speed, the hand-held game), each on an exact position."""

from __future__ import annotations

import random

import pytest

from tests.positions import card, cards, refused, speed_position
from voicespit.engine import (
    LEFT,
    RIGHT,
    Draw,
    Phase,
    PlayCard,
    Rules,
    SpeedState,
    Spit,
)
from voicespit.engine.events import (
    CardDrawn,
    CardPlayed,
    CardSpat,
    GameOver,
    LayoutDealt,
    RoundOver,
    RoundStarted,
    ScoresChanged,
    SidePilesRebuilt,
    Stalemate,
)


def test_the_deal_side_piles_of_ten_two_middle_cards_and_fifteen_each() -> None:
    state = SpeedState(Rules.for_game("speed"), random.Random(1))
    assert [len(side) for side in state.side_piles] == [10, 10]
    assert len(state.middle) == 2
    for player in (0, 1):
        assert len(state.hands[player]) == 5 and len(state.draw_piles[player]) == 10
    assert state.deal_events == [LayoutDealt(0, (5,), 10), LayoutDealt(1, (5,), 10)]
    assert len({c.index for c in state.all_cards()}) == 52


def test_side_piles_of_five_give_twenty_cards_each() -> None:
    state = SpeedState(Rules.for_game("speed", ["side_pile_size=5"]), random.Random(1))
    assert [len(side) for side in state.side_piles] == [5, 5]
    assert [state.cards_held(p) for p in (0, 1)] == [20, 20]


def test_play_starts_when_both_flip_a_middle_card() -> None:
    state = SpeedState(Rules.for_game("speed"), random.Random(1))
    middle = list(state.middle)
    assert "say ready" in refused(state, 0, PlayCard(state.hands[0][0], LEFT))
    events = state.apply(0, Spit())
    assert events[:3] == [RoundStarted(1), CardSpat(0, LEFT, middle[0]),
                          CardSpat(1, RIGHT, middle[1])]


@pytest.mark.parametrize(("top", "played"), [("8D", "7C"), ("8D", "9C"), ("AD", "KC"), ("AD", "2S")])
def test_a_card_one_rank_either_side_of_a_centre_top_can_be_played(top: str, played: str) -> None:
    state = speed_position(my_hand=f"{played} 5H", their_hand="JD", left=top, right="5C",
                           my_draw="2H", left_side="3S", right_side="4S")
    events = state.apply(0, PlayCard(card(played), LEFT))
    assert events[0] == CardPlayed(0, card(played), LEFT, card(top), None)
    assert state.pile_top(LEFT) == card(played)


def test_a_card_that_does_not_fit_is_refused_with_a_reason() -> None:
    state = speed_position(my_hand="7C", their_hand="JD", left="QD", right="5C",
                           left_side="3S", right_side="4S")
    assert refused(state, 0, PlayCard(card("7C"), LEFT)) == \
        "left shows a queen; a seven cannot go there"
    assert refused(state, 0, PlayCard(card("8C"), RIGHT)) == \
        "you have no eight of clubs in your hand"


def test_after_playing_the_hand_is_drawn_back_up_to_five() -> None:
    state = speed_position(my_hand="7C 2H 3H 4H 5H", their_hand="JD", left="8D", right="KC",
                           my_draw="6S 9S", left_side="3S", right_side="4S")
    events = state.apply(0, PlayCard(card("7C"), LEFT))
    assert events[1] == CardDrawn(0, card("9S"))
    assert len(state.hands[0]) == 5 and state.draw_piles[0] == cards("6S")


def test_without_the_convenience_the_player_draws_and_never_holds_more_than_five() -> None:
    rules = Rules.for_game("speed", ["auto_turn_up=false"])
    state = speed_position(rules, my_hand="7C 2H 3H 4H 5H", their_hand="QD", left="8D",
                           right="KC", my_draw="6S 9S", left_side="3S", right_side="4S")
    assert "hand is full" in refused(state, 0, Draw())
    state.apply(0, PlayCard(card("7C"), LEFT))
    assert Draw() in state.legal_actions(0)
    assert state.apply(0, Draw())[0] == CardDrawn(0, card("9S"))
    assert "hand is full" in refused(state, 0, Draw())


def test_when_both_are_stuck_both_flip_their_side_pile_onto_the_centre() -> None:
    state = speed_position(my_hand="7C 2H", their_hand="JD", left="8D", right="KC",
                           left_side="5S 9S", right_side="4S TS")
    events = state.apply(0, PlayCard(card("7C"), LEFT))
    assert events[-1] == Stalemate() and state.phase is Phase.STALEMATE
    assert state.legal_actions(0) == [Spit()] == state.legal_actions(1)
    events = state.apply(1, Spit())
    assert events[:2] == [CardSpat(0, LEFT, card("9S")), CardSpat(1, RIGHT, card("TS"))]
    assert state.phase is Phase.PLAY, "a jack goes on the ten"


def test_stuck_flips_repeat_until_someone_can_play() -> None:
    state = speed_position(my_hand="2H", their_hand="JD", left="8D", right="KC",
                           left_side="TS 5S", right_side="4S 6S", phase=Phase.STALEMATE)
    state.apply(0, Spit())
    assert state.phase is Phase.STALEMATE
    state.apply(0, Spit())
    assert state.piles == [cards("8D 5S TS"), cards("KC 6S 4S")]
    assert state.phase is Phase.PLAY


def test_when_the_side_piles_run_dry_the_centre_piles_but_their_tops_become_new_side_piles() -> None:
    state = speed_position(my_hand="2H", their_hand="7D", left="9D 5C 6C 8D", right="4C KC",
                           phase=Phase.STALEMATE)
    events = state.apply(0, Spit())
    assert events[0] == SidePilesRebuilt((2, 2))
    spat = [e for e in events if isinstance(e, CardSpat)]
    assert len(spat) == 2
    assert sorted(c.index for c in state.all_cards()) == sorted(
        c.index for c in cards("2H 7D 9D 5C 6C 8D 4C KC"))
    assert state.piles[LEFT][0] == card("8D") and state.piles[RIGHT][0] == card("KC")


def test_a_deal_that_can_never_move_again_is_ended_and_fewer_cards_wins() -> None:
    # No card left to turn is next to any card in either hand: flipping forever is pointless.
    state = speed_position(my_hand="2H", their_hand="7D 7S", left="9D 5C JC", right="4C KC",
                           left_side="QC", right_side="JS", phase=Phase.STALEMATE)
    events = state.apply(0, Spit())
    assert RoundOver(1, "blocked", None,
                     "nobody can play and no card left to turn would help") in events
    assert events[-1] == GameOver(
        0, "nobody can play and no card left to turn would help; P0 holds fewer cards")


def test_the_first_to_play_every_card_from_hand_and_draw_pile_wins() -> None:
    state = speed_position(my_hand="7C", their_hand="JD 2S", left="8D", right="KC",
                           left_side="3S", right_side="4S")
    events = state.apply(0, PlayCard(card("7C"), LEFT))
    assert RoundOver(1, "cleared", 0, "P0 played every card") in events
    assert events[-1] == GameOver(0, "P0 played every card")
    assert "game is over" in refused(state, 1, PlayCard(card("2S"), LEFT))


def test_with_scoring_the_winner_scores_the_cards_left_in_the_opponents_draw_pile() -> None:
    # The rule book's "stock" is the draw pile: the two cards in the opponent's hand
    # do not count.
    rules = Rules.for_game("speed", ["scoring=points", "target_score=10"])
    state = speed_position(rules, my_hand="7C", their_hand="JD 2S", their_draw="3D 4D 6D",
                           left="8D", right="KC", left_side="3S", right_side="4S")
    events = state.apply(0, PlayCard(card("7C"), LEFT))
    assert ScoresChanged((3, 0), (3, 0), scorer=0) in events
    assert state.round == 2 and state.phase is Phase.READY, "below the target: deal again"
    assert len({c.index for c in state.all_cards()}) == 52


def test_with_scoring_a_blocked_deal_gives_its_winner_the_opponents_draw_pile() -> None:
    rules = Rules.for_game("speed", ["scoring=points"])
    state = speed_position(rules, my_hand="2H", their_hand="7D 7S 7H 7C 2S", their_draw="5H",
                           left="9D 5C JC", right="4C KC", left_side="QC", right_side="JS",
                           phase=Phase.STALEMATE)
    events = state.apply(0, Spit())
    assert ScoresChanged((1, 0), (1, 0), scorer=0) in events


def test_with_scoring_the_target_ends_the_match() -> None:
    rules = Rules.for_game("speed", ["scoring=points", "target_score=10"])
    state = speed_position(rules, my_hand="7C", their_hand="JD 2S", their_draw="3D 4D",
                           left="8D", right="KC", left_side="3S", right_side="4S")
    state.scores = [8, 3]
    events = state.apply(0, PlayCard(card("7C"), LEFT))
    assert events[-1] == GameOver(0, "P0 reached 10 points")


def test_turning_new_cards_is_refused_naming_the_move_still_possible() -> None:
    rules = Rules.for_game("speed", ["auto_turn_up=false"])
    state = speed_position(rules, my_hand="2H 3H", their_hand="JD", my_draw="5C",
                           left="8D", right="KC", left_side="3S", right_side="4S")
    assert refused(state, 0, Spit()) == "you can still draw"
    assert refused(state, 1, Spit()) == "your opponent can still draw"
    state = speed_position(rules, my_hand="7H 3H", their_hand="JD",
                           left="8D", right="KC", left_side="3S", right_side="4S")
    assert refused(state, 0, Spit()) == "you can still play your seven on left"


def test_alternating_colours_apply_to_speed_too() -> None:
    rules = Rules.for_game("speed", ["alternating_colours=true"])
    state = speed_position(rules, my_hand="7D 7C", their_hand="JD", left="8D", right="KC",
                           left_side="3S", right_side="4S")
    assert refused(state, 0, PlayCard(card("7D"), LEFT)) == \
        "left shows a red eight; a red card cannot go on it"
    assert PlayCard(card("7C"), LEFT) in state.legal_actions(0)
