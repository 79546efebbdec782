"""The rules of Spit, one test per rule of RULES.md, each on an exact position."""

from __future__ import annotations

import random

import pytest

from tests.positions import card, cards, refused, spit_position, spit_rules, with_whole_deck
from voicespit.engine import (
    LEFT,
    RIGHT,
    ChoosePile,
    Fill,
    Phase,
    Play,
    Rules,
    Slap,
    Spit,
    SpitState,
    TurnUp,
)
from voicespit.engine.events import (
    CardMoved,
    CardPlayed,
    CardSpat,
    CardTurnedUp,
    GameOver,
    LayoutDealt,
    PileTaken,
    Redealt,
    RoundOver,
    RoundStarted,
    ScoresChanged,
    Stalemate,
)
from voicespit.engine.spit import SpitState as _SpitState

# ---------------------------------------------------------------- the deal

def test_the_deal_gives_each_player_five_stockpiles_of_one_to_five_and_eleven_spit_cards() -> None:
    state = SpitState(Rules.for_game("spit"), random.Random(3))
    for player in (0, 1):
        assert state.stock_sizes(player) == [1, 2, 3, 4, 5]
        assert len(state.spit_cards[player]) == 11
        assert all(state.face_up[player]), "each stockpile's top card is turned face up"
    assert state.deal_events == [LayoutDealt(0, (1, 2, 3, 4, 5), 11),
                                 LayoutDealt(1, (1, 2, 3, 4, 5), 11)]
    assert state.phase is Phase.READY


def test_the_deal_follows_the_traditional_order() -> None:
    # One card to each of piles 1-5, then 2-5, then 3-5, then 4-5, then 5.
    state = SpitState(Rules.for_game("spit"), random.Random(0))
    hand = cards("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD")
    other = cards("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS")
    state._deal(hand, other)
    assert state.stocks[0][0] == cards("AC")
    assert state.stocks[0][1] == cards("2C 6C")
    assert state.stocks[0][2] == cards("3C 7C TC")
    assert state.stocks[0][3] == cards("4C 8C JC KC")
    assert state.stocks[0][4] == cards("5C 9C QC AD 2D")
    assert state.spit_cards[0] == hand[15:]


# ------------------------------------------------------------------ start

def test_nothing_can_be_played_before_the_first_spit() -> None:
    state = spit_position(mine=("7H", "", "", "", ""), my_spit="8D", their_spit="6S",
                          phase=Phase.READY)
    assert "say ready" in refused(state, 0, Play(0, LEFT))
    assert state.legal_actions(0) == [Spit()]


def test_spit_turns_each_players_next_spit_card_onto_their_own_pile() -> None:
    state = spit_position(mine=("7H", "", "", "", ""), theirs=("KS", "", "", "", ""),
                          my_spit="2C 8D", their_spit="3C 6S", phase=Phase.READY)
    events = state.apply(1, Spit())
    assert events[0] == RoundStarted(1)
    assert CardSpat(0, LEFT, card("8D")) in events
    assert CardSpat(1, RIGHT, card("6S")) in events
    assert state.piles == [cards("8D"), cards("6S")]
    assert state.spit_cards == [cards("2C"), cards("3C")]
    assert state.phase is Phase.PLAY


# ------------------------------------------------------------------- play

def test_a_card_one_rank_above_or_below_the_top_can_be_played() -> None:
    state = spit_position(mine=("7H", "9C", "", "", ""), theirs=("KS", "", "", "", ""),
                          left="8D", right="8C", my_spit="3D", their_spit="4D")
    state.apply(0, Play(0, LEFT))
    state.apply(0, Play(1, RIGHT))
    assert state.piles == [cards("8D 7H"), cards("8C 9C")]


def test_a_card_that_is_not_adjacent_is_refused_with_a_reason_and_nothing_changes() -> None:
    state = spit_position(mine=("7H", "", "", "", ""), left="QD", right="2C",
                          theirs=("KS", "", "", "", ""), my_spit="3D", their_spit="4D")
    assert refused(state, 0, Play(0, LEFT)) == "left shows a queen; a seven cannot go there"
    assert refused(state, 0, Play(0, RIGHT)) == "right shows a two; a seven cannot go there"


@pytest.mark.parametrize(("top", "played"), [("AD", "KC"), ("AD", "2C"), ("KD", "AC"), ("2D", "AC")])
def test_sequences_turn_the_corner_at_the_ace(top: str, played: str) -> None:
    state = spit_position(mine=(played, "", "", "", ""), theirs=("9S", "", "", "", ""),
                          left=top, right="6H", my_spit="3D", their_spit="4D")
    state.apply(0, Play(0, LEFT))
    assert state.pile_top(LEFT) == card(played)


def test_suits_and_colours_do_not_matter_in_the_standard_game() -> None:
    state = spit_position(mine=("7H", "", "", "", ""), theirs=("9S", "", "", "", ""),
                          left="8H", right="6H", my_spit="3D", their_spit="4D")
    assert Play(0, LEFT) in state.legal_actions(0)
    assert Play(0, RIGHT) in state.legal_actions(0)


def test_both_players_may_play_on_either_pile() -> None:
    state = spit_position(mine=("7H", "", "", "", ""), theirs=("5S", "JC", "", "", ""),
                          left="8H", right="6H", my_spit="3D", their_spit="4D")
    state.apply(1, Play(0, RIGHT))
    assert state.pile_top(RIGHT) == card("5S")
    state.apply(0, Play(0, LEFT))


def test_after_a_play_the_next_stockpile_card_is_turned_up_by_default() -> None:
    state = spit_position(mine=("2C 7H", "JC", "", "", ""), theirs=("9S", "", "", "", ""),
                          left="8H", right="KH", my_spit="3D", their_spit="4D")
    events = state.apply(0, Play(0, LEFT))
    assert events[:2] == [CardPlayed(0, card("7H"), LEFT, card("8H"), 0),
                          CardTurnedUp(0, 0, card("2C"))]
    assert state.stock_top(0, 0) == card("2C")


def test_without_the_convenience_the_player_turns_up_the_next_card_themselves() -> None:
    rules = spit_rules(auto_turn_up=False, auto_fill=False)
    state = spit_position(rules, mine=("2C 7H", "JC", "", "", ""), theirs=("8S", "", "", "", ""),
                          left="8H", right="KH", my_spit="3D", their_spit="4D")
    state.apply(0, Play(0, LEFT))
    assert state.stock_top(0, 0) is None, "the new top is still face down"
    assert TurnUp(0) in state.legal_actions(0)
    assert "face down" in refused(state, 0, Play(0, LEFT))
    assert state.apply(0, TurnUp(0))[0] == CardTurnedUp(0, 0, card("2C"))
    assert "already face up" in refused(state, 0, TurnUp(0))


def test_a_face_up_card_may_fill_an_empty_slot_uncovering_the_card_beneath() -> None:
    rules = spit_rules(auto_fill=False)
    state = spit_position(rules, mine=("", "3C 9D", "5C", "", ""), theirs=("9S", "", "", "", ""),
                          left="8H", right="KH", my_spit="3D", their_spit="4D")
    assert Fill(1, 0) in state.legal_actions(0)
    events = state.apply(0, Fill(1, 0))
    assert events == [CardMoved(0, card("9D"), 1, 0), CardTurnedUp(0, 1, card("3C"))]
    assert state.stocks[0][0] == cards("9D") and state.stock_top(0, 1) == card("3C")


def test_moving_a_lone_card_into_an_empty_slot_is_no_move() -> None:
    rules = spit_rules(auto_fill=False)
    state = spit_position(rules, mine=("", "9D", "", "", ""), theirs=("9S", "", "", "", ""),
                          left="8H", right="KH", my_spit="3D", their_spit="4D")
    assert "gains nothing" in refused(state, 0, Fill(1, 0))
    assert "is not empty" in refused(state, 0, Fill(1, 1))


def test_empty_slots_are_filled_by_themselves_from_the_tallest_stockpile() -> None:
    state = spit_position(mine=("7H", "4C", "2C 3D JD", "", ""), theirs=("9S", "", "", "", ""),
                          left="8H", right="KH", my_spit="3D", their_spit="4D")
    events = state.apply(0, Play(0, LEFT))
    assert CardMoved(0, card("JD"), 2, 0) in events
    assert CardTurnedUp(0, 2, card("3D")) in events
    # Keeps filling while a stockpile has a card to uncover.
    assert CardMoved(0, card("3D"), 2, 3) in events
    assert [len(pile) for pile in state.stocks[0]] == [1, 1, 1, 1, 0]


def test_there_are_never_more_than_five_stockpiles() -> None:
    rules = spit_rules(auto_fill=False)
    state = spit_position(rules, mine=("", "3C 9D", "5C", "6C", "TC"), theirs=("9S", "", "", "", ""),
                          left="8H", right="KH", my_spit="3D", their_spit="4D")
    assert "there is no stockpile 6: you have five" in refused(state, 0, Fill(1, 5))
    assert len(state.stocks[0]) == 5


def test_the_first_card_to_reach_a_pile_is_played_and_the_other_fails() -> None:
    state = spit_position(mine=("7H", "QC", "", "", ""), theirs=("7S", "JC", "", "", ""),
                          left="8H", right="KH", my_spit="3D", their_spit="4D")
    assert Play(0, LEFT) in state.legal_actions(0) and Play(0, LEFT) in state.legal_actions(1)
    state.apply(1, Play(0, LEFT))
    assert refused(state, 0, Play(0, LEFT)) == "left shows a seven; a seven cannot go there"


# -------------------------------------------------------------- stalemate

def test_when_nobody_can_play_it_is_a_stalemate_and_both_spit() -> None:
    state = spit_position(mine=("7H", "2C", "", "", ""), theirs=("JS", "", "", "", ""),
                          left="8H", right="4D", my_spit="9C", their_spit="5C TS")
    events = state.apply(0, Play(0, LEFT))
    assert events[-1] == Stalemate()
    assert state.phase is Phase.STALEMATE
    assert state.legal_actions(0) == [Spit()] == state.legal_actions(1)
    assert "time to spit" in refused(state, 0, Play(1, LEFT))
    events = state.apply(0, Spit())
    assert CardSpat(0, LEFT, card("9C")) in events and CardSpat(1, RIGHT, card("TS")) in events
    assert state.phase is Phase.PLAY


def test_nobody_may_spit_while_a_play_is_possible() -> None:
    state = spit_position(mine=("7H", "", "", "", ""), theirs=("JS", "", "", "", ""),
                          left="8H", right="4D", my_spit="9C", their_spit="5C")
    assert refused(state, 1, Spit()) == "your opponent can still play"
    assert refused(state, 0, Spit()) == "you can still play your seven on left"


def test_spit_refused_with_the_conveniences_off_names_the_move_still_possible() -> None:
    rules = spit_rules(auto_turn_up=False, auto_fill=False)
    state = spit_position(rules, mine=("", "3C 9D", "2C 7H", "", ""),
                          theirs=("JS", "", "", "", ""), left="5H", right="4D",
                          face_down=[(0, 2)], my_spit="9C", their_spit="5C")
    assert refused(state, 0, Spit()) == "you can still turn over stock three"
    state.apply(0, TurnUp(2))
    assert refused(state, 0, Spit()) == "you can still move stock two to stock one"
    assert refused(state, 1, Spit()) == "your opponent can still move a card"


def test_a_player_with_no_spit_cards_left_lets_the_other_spit_alone_onto_one_pile() -> None:
    state = spit_position(mine=("5H", "", "", "", ""), theirs=("JS", "", "", "", ""),
                          left="8H", right="2D", my_spit="", their_spit="3C 9C",
                          phase=Phase.STALEMATE)
    events = state.apply(0, Spit())
    assert [e for e in events if isinstance(e, CardSpat)] == [CardSpat(1, RIGHT, card("9C"))]
    assert state.pile_top(LEFT) == card("8H")
    assert state.phase is Phase.STALEMATE, "a nine helps nobody: spit again"
    state.apply(1, Spit())
    assert state.pile_top(RIGHT) == card("3C"), "from then on that is the only pile they spit onto"


# -------------------------------------------------------------- round end

def test_the_round_ends_when_a_player_has_played_every_stockpile_card() -> None:
    state = spit_position(mine=("7H", "", "", "", ""), theirs=("JS", "2S", "", "", ""),
                          left="8H", right="4D", my_spit="9C", their_spit="5C")
    events = state.apply(0, Play(0, LEFT))
    assert RoundOver(1, "cleared", 0, "P0 played every stockpile card") in events
    assert state.phase is Phase.ROUND_OVER
    assert state.legal_actions(0) == [Slap(LEFT), Slap(RIGHT)] == state.legal_actions(1)
    assert "slap" in refused(state, 1, Play(0, RIGHT))


def test_the_round_ends_when_play_is_blocked_and_nobody_has_spit_cards() -> None:
    state = spit_position(mine=("7H", "2C", "", "", ""), theirs=("JS", "", "", "", ""),
                          left="8H", right="4D")
    events = state.apply(0, Play(0, LEFT))
    assert events[-1] == RoundOver(1, "blocked", None,
                                   "nobody can play and nobody has spit cards left")
    assert state.phase is Phase.ROUND_OVER


# ---------------------------------------------------------------- slapping

def _round_over() -> SpitState:
    return spit_position(mine=("", "", "", "", ""), theirs=("JS", "2S", "", "", ""),
                         left="8H 7H", right="4D", my_spit="9C 3H", their_spit="5C",
                         phase=Phase.ROUND_OVER)


def test_slapping_different_piles_each_takes_the_pile_they_slapped() -> None:
    state = _round_over()
    events = state.apply(0, Slap(RIGHT))
    assert PileTaken(0, RIGHT, 1) in events and PileTaken(1, LEFT, 2) in events
    assert "you take left" in refused(state, 1, Slap(LEFT))


def test_slapping_the_same_pile_the_first_hand_takes_it_and_the_other_takes_the_other() -> None:
    state = _round_over()
    events = state.apply(1, Slap(RIGHT))
    assert PileTaken(1, RIGHT, 1) in events and PileTaken(0, LEFT, 2) in events
    reason = refused(state, 0, Slap(RIGHT))
    assert reason == "too late: your opponent slapped right first; you take left"


def test_after_the_slap_each_deals_a_new_layout_from_pile_spit_cards_and_stockpiles() -> None:
    state = _round_over()
    events = state.apply(0, Slap(RIGHT))
    # Seat 0: right (1) + spit cards (2) = 3 cards; seat 1: left (2) + spit (1) + stock (2) = 5.
    assert LayoutDealt(0, (1, 1, 1, 0, 0), 0) in events
    assert LayoutDealt(1, (1, 1, 1, 1, 1), 0) in events
    assert state.round == 2 and state.phase is Phase.READY
    assert state.piles == [[], []]


def test_players_may_have_unequal_spit_cards_in_a_new_round() -> None:
    state = spit_position(mine=("", "", "", "", ""), theirs=("JS", "2S", "", "", ""),
                          left="8H 7H 6H 5H 4H 3H 2H AH KH QH JH TH", right="4D",
                          my_spit="9C 3H 2D 3D 5D 6D 7D 8D", their_spit="5C",
                          phase=Phase.ROUND_OVER)
    state.apply(1, Slap(RIGHT))
    assert len(state.spit_cards[0]) == 20 - 15 and len(state.spit_cards[1]) == 0


# ------------------------------------------------------ fewer than 15 cards

def test_a_player_with_fewer_than_15_cards_deals_as_far_as_the_cards_go() -> None:
    state = SpitState(Rules.for_game("spit"), random.Random(0))
    events = state._deal(list(cards("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC")),
                         list(cards("AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AH 2H 3H 4H 5H 6H 7H")))
    assert events[0] == LayoutDealt(0, (1, 2, 3, 3, 3), 0)
    assert all(state.face_up[0])
    assert state.only_pile == RIGHT, "only the opponent's pile is used"


def test_with_one_spit_pile_the_other_pile_cannot_be_played_on() -> None:
    state = spit_position(mine=("7H", "", "", "", ""), theirs=("JS", "", "", "", ""),
                          left="", right="8D", their_spit="5C", only_pile=RIGHT)
    assert state.legal_actions(0) == [Play(0, RIGHT)]
    assert refused(state, 0, Play(0, LEFT)) == "only the right pile is in use"


def test_with_one_spit_pile_only_the_player_with_spit_cards_spits() -> None:
    state = spit_position(mine=("7H", "", "", "", ""), theirs=("JS", "", "", "", ""),
                          their_spit="5C 9D", only_pile=RIGHT, phase=Phase.READY)
    events = state.apply(0, Spit())
    assert [e for e in events if isinstance(e, CardSpat)] == [CardSpat(1, RIGHT, card("9D"))]
    assert state.piles[LEFT] == []


# ------------------------------------------------------------------ winning

def test_the_player_without_spit_cards_who_clears_first_wins_the_game() -> None:
    state = spit_position(mine=("7H", "", "", "", ""), theirs=("JS", "2S", "", "", ""),
                          right="8D", their_spit="5C", only_pile=RIGHT)
    events = state.apply(0, Play(0, RIGHT))
    assert events[-1] == GameOver(0, "P0 got rid of every card")
    assert not any(isinstance(event, PileTaken) for event in events), \
        "the game is decided: nobody takes the pile back"
    assert state.winner == 0 and state.is_over
    assert refused(state, 1, Play(0, RIGHT)) == "the game is over"


def test_out_of_every_card_wins_also_while_both_spit_piles_are_in_use() -> None:
    state = spit_position(mine=("7H", "", "", "", ""), theirs=("JS", "2S", "", "", ""),
                          left="8H", right="4D", my_spit="", their_spit="5C")
    events = state.apply(0, Play(0, LEFT))
    assert events[-1] == GameOver(0, "P0 got rid of every card")
    assert state.winner == 0 and state.is_over, "no slap: nothing is left to take back"
    assert refused(state, 1, Slap(RIGHT)) == "the game is over"


def test_if_the_opponent_clears_first_they_take_nothing_and_the_game_goes_on() -> None:
    state = spit_position(mine=("7H", "2C", "", "", ""), theirs=("9S", "", "", "", ""),
                          right="8D", their_spit="5C 6C", only_pile=RIGHT)
    events = state.apply(1, Play(0, RIGHT))
    assert PileTaken(1, None, 0) in events
    assert PileTaken(0, RIGHT, 2) in events, "the short player takes the spit pile"
    assert not state.is_over and state.round == 2
    assert state.cards_held(0) == 4 and state.cards_held(1) == 2


def test_a_slap_right_after_a_one_pile_round_says_why_there_is_no_slap() -> None:
    state = with_whole_deck(spit_position(
        mine=("7H", "2C", "", "", ""), theirs=("9S", "", "", "", ""),
        right="8D", their_spit="5C 6C", only_pile=RIGHT), RIGHT)
    state.apply(1, Play(0, RIGHT))
    assert state.phase is Phase.READY
    assert refused(state, 0, Slap(RIGHT)) == (
        "there is no slap after a round with one spit pile: your opponent went out first, "
        "so you took the pile")
    assert refused(state, 1, Slap(LEFT)) == (
        "there is no slap after a round with one spit pile: you went out first, "
        "so your opponent took the pile")
    state.apply(0, Spit())
    assert refused(state, 0, Slap(RIGHT)) == "you can only slap when the round is over"


def test_a_slap_after_a_blocked_one_pile_round_says_who_took_the_pile_and_why() -> None:
    state = spit_position(mine=("7H", "QC", "", "", ""), theirs=("JS", "2S", "5D", "", ""),
                          right="8D", only_pile=RIGHT)
    state.apply(0, Play(0, RIGHT))
    assert refused(state, 0, Slap(RIGHT)) == (
        "there is no slap after a round with one spit pile: nobody could play, "
        "so your opponent, with more cards left, took the pile")


def test_a_one_pile_round_that_blocks_gives_the_pile_to_the_player_with_more_stockpile_cards() -> None:
    state = spit_position(mine=("7H", "QC", "", "", ""), theirs=("JS", "2S", "5D", "", ""),
                          right="8D", only_pile=RIGHT)
    events = state.apply(0, Play(0, RIGHT))
    assert RoundOver(1, "blocked", None, "nobody can play and nobody has spit cards left") in events
    assert PileTaken(1, RIGHT, 2) in events and PileTaken(0, None, 0) in events


# ------------------------------------------------------------ the variants

def test_points_each_round_scores_the_cards_left_and_the_lowest_wins_at_100() -> None:
    rules = Rules.for_game("spit", ["scoring=points"])
    state = spit_position(rules, mine=("7H", "", "", "", ""), theirs=("JS", "2S", "", "", ""),
                          left="8H", right="4D", my_spit="9C 3H", their_spit="5C")
    state.scores = [90, 97]
    events = state.apply(0, Play(0, LEFT))
    assert ScoresChanged((2, 3), (92, 100)) in events
    assert events[-1] == GameOver(0, "a score reached 100; the lowest score wins")


def test_points_below_100_the_match_goes_on_with_a_slap() -> None:
    rules = Rules.for_game("spit", ["scoring=points"])
    state = spit_position(rules, mine=("7H", "", "", "", ""), theirs=("JS", "2S", "", "", ""),
                          left="8H", right="4D", my_spit="9C 3H", their_spit="5C")
    state.apply(0, Play(0, LEFT))
    assert state.scores == [2, 3] and state.phase is Phase.ROUND_OVER


def test_points_out_of_every_card_below_100_scores_the_deal_and_deals_all_52_again() -> None:
    rules = Rules.for_game("spit", ["scoring=points"])
    state = with_whole_deck(spit_position(
        rules, mine=("7H", "", "", "", ""), theirs=("JS", "2S", "", "", ""),
        left="8H", right="4D", my_spit="", their_spit="5C"))
    state.scores = [40, 60]
    events = state.apply(0, Play(0, LEFT))
    assert ScoresChanged((0, 3), (40, 63)) in events
    assert Redealt(0) in events
    assert events[-2:] == [LayoutDealt(0, (1, 2, 3, 4, 5), 11), LayoutDealt(1, (1, 2, 3, 4, 5), 11)]
    assert not state.is_over and state.phase is Phase.READY and state.round == 2
    assert state.scores == [40, 63]
    assert sorted(c.index for c in state.all_cards()) == list(range(52))


def test_points_out_of_every_card_in_a_one_pile_round_also_deals_again() -> None:
    rules = Rules.for_game("spit", ["scoring=points"])
    state = with_whole_deck(spit_position(
        rules, mine=("7H", "", "", "", ""), theirs=("JS", "2S", "", "", ""),
        right="8D", their_spit="5C", only_pile=RIGHT), RIGHT)
    events = state.apply(0, Play(0, RIGHT))
    assert ScoresChanged((0, 3), (0, 3)) in events and Redealt(0) in events
    assert not state.is_over and state.round == 2
    assert [state.cards_held(player) for player in (0, 1)] == [26, 26]


def test_points_out_of_every_card_that_reaches_100_ends_the_match_on_the_lowest_score() -> None:
    rules = Rules.for_game("spit", ["scoring=points"])
    state = spit_position(rules, mine=("7H", "", "", "", ""), theirs=("JS", "2S", "", "", ""),
                          left="8H", right="4D", my_spit="", their_spit="5C")
    state.scores = [90, 98]
    events = state.apply(0, Play(0, LEFT))
    assert events[-1] == GameOver(0, "a score reached 100; the lowest score wins")
    assert Redealt(0) not in events


def test_points_a_tie_at_the_end_is_a_draw() -> None:
    rules = Rules.for_game("spit", ["scoring=points"])
    state = spit_position(rules, mine=("7H", "", "", "", ""), theirs=("JS", "", "", "", ""),
                          left="8H", right="4D", my_spit="9C", their_spit="")
    state.scores = [99, 99]
    events = state.apply(0, Play(0, LEFT))
    assert events[-1] == GameOver(None, "a score reached 100; the lowest score wins")


def test_four_stockpiles_hold_one_to_four_cards() -> None:
    state = SpitState(Rules.for_game("spit", ["stockpiles=4"]), random.Random(5))
    assert state.stock_sizes(0) == [1, 2, 3, 4] and len(state.spit_cards[0]) == 16
    state.phase = Phase.PLAY
    assert "there is no stockpile five: you have four" in refused(state, 0, Fill(0, 4))


def test_choose_instead_of_slap_the_first_out_chooses_a_pile() -> None:
    rules = Rules.for_game("spit", ["slap=false"])
    state = spit_position(rules, mine=("7H", "", "", "", ""), theirs=("JS", "2S", "", "", ""),
                          left="2H 8H", right="4D", my_spit="9C", their_spit="5C")
    state.apply(0, Play(0, LEFT))
    assert state.legal_actions(0) == [ChoosePile(LEFT), ChoosePile(RIGHT)]
    assert state.legal_actions(1) == []
    assert refused(state, 1, ChoosePile(RIGHT)) == "your opponent chooses the pile this round"
    assert "first out chooses" in refused(state, 0, Slap(RIGHT))
    events = state.apply(0, ChoosePile(RIGHT))
    assert PileTaken(0, RIGHT, 1) in events and PileTaken(1, LEFT, 3) in events


def test_choose_instead_of_slap_when_blocked_the_player_with_fewer_stockpile_cards_chooses() -> None:
    rules = Rules.for_game("spit", ["slap=false"])
    state = spit_position(rules, mine=("7H", "2C", "", "", ""), theirs=("JS", "9S", "", "", ""),
                          left="8H", right="4D")
    state.apply(0, Play(0, LEFT))
    assert state.legal_actions(0) == [ChoosePile(LEFT), ChoosePile(RIGHT)]


def test_choose_instead_of_slap_a_blocked_tie_gives_each_their_own_side() -> None:
    rules = Rules.for_game("spit", ["slap=false"])
    state = spit_position(rules, mine=("7H", "2C", "", "", ""), theirs=("JS", "", "", "", ""),
                          left="8H", right="4D")
    events = state.apply(0, Play(0, LEFT))
    assert PileTaken(0, LEFT, 2) in events and PileTaken(1, RIGHT, 1) in events
    assert state.phase is Phase.READY


def test_alternating_colours_a_card_must_differ_in_colour_from_the_top() -> None:
    rules = Rules.for_game("spit", ["alternating_colours=true"])
    state = spit_position(rules, mine=("7H", "7C", "", "", ""), theirs=("JS", "", "", "", ""),
                          left="8D", right="4D", my_spit="9C", their_spit="5C")
    assert refused(state, 0, Play(0, LEFT)) == "left shows a red eight; a red card cannot go on it"
    assert Play(1, LEFT) in state.legal_actions(0)
    state.apply(0, Play(1, LEFT))


# --------------------------------------------------------- loops and limits

def test_the_match_ends_at_the_round_limit_with_fewer_cards_winning() -> None:
    state = spit_position(spit_rules(max_rounds=1), mine=("", "", "", "", ""),
                          theirs=("JS", "2S", "", "", ""), left="8H 7H", right="4D",
                          my_spit="9C 3H", their_spit="5C", phase=Phase.ROUND_OVER)
    events = state.apply(0, Slap(RIGHT))
    assert events[-1] == GameOver(0, "the round limit of 1 was reached; fewer cards wins")
    assert sorted(c.index for c in state.all_cards()) == sorted(
        c.index for c in cards("9C 3H 4D JS 2S 8H 7H 5C"))


def test_a_points_match_at_the_round_limit_is_won_by_the_lowest_score() -> None:
    rules = spit_rules(scoring="points", max_rounds=1)
    state = spit_position(rules, mine=("", "", "", "", ""),
                          theirs=("JS", "2S", "", "", ""), left="8H 7H", right="4D",
                          my_spit="9C 3H", their_spit="5C", phase=Phase.ROUND_OVER)
    state.scores = [50, 10]
    events = state.apply(0, Slap(RIGHT))
    assert events[-1] == GameOver(1, "the round limit of 1 was reached; the lowest score wins")


def test_a_slap_after_the_match_ended_says_the_game_is_over() -> None:
    state = spit_position(spit_rules(max_rounds=1), mine=("", "", "", "", ""),
                          theirs=("JS", "2S", "", "", ""), left="8H 7H", right="4D",
                          my_spit="9C 3H", their_spit="5C", phase=Phase.ROUND_OVER)
    state.apply(0, Slap(RIGHT))
    assert state.is_over
    assert refused(state, 1, Slap(RIGHT)) == "the game is over"
    assert refused(state, 1, Slap(LEFT)) == "the game is over"


def test_a_state_type_mismatch_is_refused() -> None:
    state = _round_over()
    assert isinstance(state, _SpitState)
    assert "not a move in Spit" in refused(state, 0, object())
