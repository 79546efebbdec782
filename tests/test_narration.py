"""Narration: what a player hears for each event, and the answers to their questions."""

from __future__ import annotations

import random
import re

import pytest

from tests.positions import card, speed_position, spit_position, spit_rules
from voicespit.engine import DECK, Card, Phase, Rules, SpeedState, SpitState, new_game
from voicespit.engine import actions as act
from voicespit.engine.events import (
    CardDrawn,
    CardMoved,
    CardPlayed,
    CardSpat,
    CardTurnedUp,
    GameOver,
    PileSlapped,
    Redealt,
    RoundOver,
    RoundStarted,
    ScoresChanged,
    Stalemate,
)
from voicespit.match.events import (
    IntentRefused,
    PaceChanged,
    PlayerReady,
    SlapWindowOpened,
    SpitCountdown,
    Stamped,
)
from voicespit.narration.announcement import Announcement, Cue, Priority, Verbosity
from voicespit.narration.narrator import Narrator
from voicespit.simulation.full_speed import game_rng, greedy_choice

NINE = Card.parse("nine of hearts")
JACK = Card.parse("jack of spades")
TEN = Card.parse("ten of clubs")


def spit_state(seed: int = 1, variants: tuple[str, ...] = ()) -> SpitState:
    state = new_game(Rules.for_game("spit", variants), random.Random(seed))
    assert isinstance(state, SpitState)
    return state


def speed_state(seed: int = 1) -> SpeedState:
    state = new_game(Rules.for_game("speed", ()), random.Random(seed))
    assert isinstance(state, SpeedState)
    return state


def one(announcements: list[Announcement]) -> Announcement:
    assert len(announcements) == 1, announcements
    return announcements[0]


def test_a_pile_change_leads_with_the_pile_then_the_rank() -> None:
    said = one(Narrator().narrate(CardPlayed(0, NINE, 0, TEN, 2), spit_state()))
    assert said.text == "Left: nine."
    assert (said.topic, said.priority, said.pan, said.rank) == ("pile:left", Priority.NORMAL,
                                                               -1.0, NINE.rank)


def test_your_plays_and_the_opponents_sound_different_but_say_the_same() -> None:
    narrator = Narrator()
    yours = one(narrator.narrate(CardPlayed(0, NINE, 1, TEN, 2), spit_state()))
    theirs = one(narrator.narrate(CardPlayed(1, NINE, 1, TEN, 2), spit_state()))
    assert yours.text == theirs.text == "Right: nine."
    assert (yours.cue, theirs.cue) == (Cue.YOUR_PLAY, Cue.OPPONENT_PLAY)
    assert (yours.about, theirs.about) == (0, 1), "the seat picks the voice"
    assert yours.mirror_line == "Right: nine (you)."
    assert theirs.mirror_line == "Right: nine (opponent)."


def test_colours_are_named_only_when_they_matter() -> None:
    state = spit_state(variants=("alternating_colours=true",))
    assert one(Narrator().narrate(CardPlayed(1, NINE, 0, TEN, 0), state)).text == "Left: red nine."


def test_terse_says_only_the_rank_and_lets_the_cue_say_the_rest() -> None:
    said = one(Narrator(Verbosity.TERSE).narrate(CardPlayed(1, JACK, 0, TEN, 0), spit_state()))
    assert said.text == "Jack."
    assert said.cue is Cue.OPPONENT_PLAY and said.pan == -1.0
    assert said.mirror_line == "Left: jack (opponent).", "the text mirror keeps the whole story"


def test_your_new_stockpile_card_is_spoken_but_the_opponents_only_in_full() -> None:
    state = spit_state()
    assert one(Narrator().narrate(CardTurnedUp(0, 2, JACK), state)).text == \
        "Stock three shows a jack."
    assert Narrator().narrate(CardTurnedUp(1, 2, JACK), state) == []
    assert one(Narrator(Verbosity.FULL).narrate(CardTurnedUp(1, 2, JACK), state)).text == (
        "Opponent shows jack.")


def test_a_stockpiles_number_and_its_new_card_are_never_two_numbers_back_to_back() -> None:
    # "Stock five: eight." was heard as two numbers: which was the pile, which the card?
    state = spit_state()
    eight = Card.parse("eight of clubs")
    assert one(Narrator().narrate(CardTurnedUp(0, 4, eight), state)).text == \
        "Stock five shows an eight."
    coloured = spit_state(variants=("alternating_colours=true",))
    assert one(Narrator().narrate(CardTurnedUp(0, 2, NINE), coloured)).text == \
        "Stock three shows a red nine."
    for slot in range(5):
        for rank in range(13):
            said = one(Narrator().narrate(CardTurnedUp(0, slot, DECK[rank * 4]), state)).text
            assert re.fullmatch(r"Stock \w+ shows an? \w+\.", said), said


def test_the_opponents_hand_in_speed_is_never_told() -> None:
    state = speed_state()
    for verbosity in Verbosity:
        assert Narrator(verbosity).narrate(CardDrawn(1, JACK), state) == []
    assert one(Narrator().narrate(CardDrawn(0, JACK), state)).text == "Drew a jack."
    dealt = [a.text for e in state.deal_events for a in Narrator(Verbosity.FULL).narrate(e, state)]
    mine = sorted(state.hands[0], key=lambda card: (card.rank - 1) % 13)
    assert dealt[0] == f"Round 1. Your hand: {', '.join(c.rank_name for c in mine)}."
    assert dealt[1:] == ["Opponent: 10 to draw. Say ready."], \
        "the opponent's deal: a count, never cards (and, last, the prompt)"
    assert Narrator().answer("my cards", state).text == dealt[0].removeprefix("Round 1. ") + \
        " Say ready."


def test_a_refusal_says_why_in_a_few_words_and_cuts_in() -> None:
    refused = IntentRefused(0, act.Play(1, 0), "left shows a ten; a queen cannot go there",
                            too_late=True)
    said = one(Narrator().narrate(refused, spit_state()))
    assert said.text == "Too late: left shows a ten; a queen cannot go there."
    assert (said.priority, said.cue) == (Priority.URGENT, Cue.REFUSED)
    assert len(said.text.split()) <= 12
    plain = IntentRefused(0, None, "the round has not started: say ready first")
    assert one(Narrator().narrate(plain, spit_state())).text == (
        "The round has not started: say ready first.")


def test_the_computers_own_refusals_are_not_spoken() -> None:
    assert Narrator().narrate(IntentRefused(1, None, "too late"), spit_state()) == []


def test_the_countdown_is_urgent_and_each_number_replaces_the_last() -> None:
    three, two = (one(Narrator().narrate(SpitCountdown(n), spit_state())) for n in (3, 2))
    assert (three.text, two.text) == ("Three.", "Two.")
    assert three.topic == two.topic and three.priority is Priority.URGENT and three.flush
    assert three.cue is Cue.COUNTDOWN


def test_a_round_starts_on_its_games_own_call_spit_in_spit_and_go_in_speed() -> None:
    # Nobody says spit in Speed (RULES.md): there the countdown ends on a plain "go".
    spit = one(Narrator().narrate(RoundStarted(1), spit_state()))
    speed = one(Narrator().narrate(RoundStarted(1), speed_state()))
    assert (spit.text, speed.text) == ("Spit!", "Go!")
    assert spit.topic == speed.topic == "countdown"
    assert Narrator(Verbosity.TERSE).narrate(RoundStarted(1), speed_state()) == []


def test_after_a_spit_stalemate_the_spit_is_called_before_the_first_card_turns_up() -> None:
    # Both players say "spit" again at a stalemate (RULES.md); the round's start said it,
    # the stalemate's countdown used to end on the cards alone.
    narrator = Narrator()
    state = spit_state()
    narrator.narrate(Stalemate(), state)
    for left in (3, 2, 1):
        narrator.narrate(SpitCountdown(left), state)
    first = narrator.narrate(CardSpat(0, 0, JACK), state)
    second = narrator.narrate(CardSpat(1, 1, NINE), state)
    assert [a.text for a in first] == ["Spit!", "Left: jack."]
    assert first[0].topic == "countdown"
    assert [a.text for a in second] == ["Right: nine."]
    # Speed has no call, terse leaves it to the cue, and a round's own start calls it once.
    for other, game in ((Narrator(), speed_state()), (Narrator(Verbosity.TERSE), state)):
        other.narrate(Stalemate(), game)
        assert "Spit!" not in [a.text for a in other.narrate(CardSpat(0, 0, JACK), game)]
    starting = Narrator()
    starting.narrate(Stalemate(), state)
    assert [a.text for a in starting.narrate(RoundStarted(2), state)] == ["Spit!"]
    assert [a.text for a in starting.narrate(CardSpat(0, 0, JACK), state)] == ["Left: jack."]


def test_slap_now_comes_from_the_side_of_the_smaller_pile() -> None:
    said = one(Narrator().narrate(SlapWindowOpened(3.0, 1), spit_state()))
    assert said.text == "Slap now! Right is smaller."
    assert (said.cue, said.pan, said.priority) == (Cue.SLAP_NOW, 1.0, Priority.URGENT)
    equal = one(Narrator().narrate(SlapWindowOpened(3.0, None), spit_state()))
    assert equal.pan == 0.0 and "equal" in equal.text.lower()


@pytest.mark.parametrize(("chooser", "text"), [
    (0, "Your choice: slap left or slap right. Right is smaller."),
    (1, "Your opponent chooses a pile. Right is smaller."),
])
def test_without_slaps_the_round_end_says_who_chooses_never_slap_now(chooser: int,
                                                                      text: str) -> None:
    state = spit_state(variants=("slap=false",))
    state.first_out = chooser
    said = one(Narrator().narrate(SlapWindowOpened(3.0, 1), state))
    assert said.text == text
    assert "Slap now" not in said.mirror_line
    terse = one(Narrator(Verbosity.TERSE).narrate(SlapWindowOpened(3.0, 1), state))
    assert terse.text == ("Choose!" if chooser == 0 else "Opponent chooses.")
    assert terse.mirror_line == text


def test_choosing_a_pile_is_not_said_as_taking_it_twice() -> None:
    state = spit_state(variants=("slap=false",))
    narrator = Narrator()
    assert one(narrator.narrate(PileSlapped(0, 1), state)).text == "You choose right."
    assert one(narrator.narrate(PileSlapped(1, 0), state)).text == "Opponent chooses left."


def test_round_and_game_endings_have_their_own_cues() -> None:
    narrator = Narrator()
    won = one(narrator.narrate(RoundOver(1, "cleared", 0, "P0 played every card"), spit_state()))
    lost = one(narrator.narrate(RoundOver(1, "cleared", 1, "P1 played every card"), spit_state()))
    assert (won.text, won.cue) == ("Round over: you're out!", Cue.ROUND_WON)
    assert (lost.text, lost.cue) == ("Round over: opponent is out.", Cue.ROUND_LOST)
    over = one(narrator.narrate(GameOver(1, "P1 got rid of every card"), spit_state()))
    assert (over.text, over.cue, over.flush) == ("Game over: opponent wins.", Cue.GAME_OVER, True)


def test_a_blocked_round_says_why_it_ends_rather_than_spitting_again() -> None:
    blocked = RoundOver(1, "blocked", None, "nobody can play")
    spit = one(Narrator().narrate(blocked, spit_state()))
    assert (spit.text, spit.cue) == (
        "Round over: nobody can play, and no spit cards are left.", Cue.STALEMATE)
    speed = speed_state()
    held = speed.cards_held(0)
    assert held == speed.cards_held(1)
    assert one(Narrator().narrate(blocked, speed)).text == \
        "Round over: nobody can play, and no card still to come would help. " \
        f"You both hold {held}: a drawn deal."
    # Speed's blocked deal goes to whoever holds fewer cards: said, with the count.
    speed.draw_piles[0].pop()
    assert one(Narrator().narrate(blocked, speed)).text.endswith(
        f"You hold fewer cards, {held - 1} against {held}: you win the deal.")
    speed.draw_piles[1][-2:] = []
    assert one(Narrator().narrate(blocked, speed)).text.endswith(
        f"Opponent holds fewer cards, {held - 2} against {held - 1}: opponent wins the deal.")


def test_a_points_match_says_why_every_card_is_dealt_again() -> None:
    mine = one(Narrator().narrate(Redealt(0), spit_state()))
    theirs = one(Narrator().narrate(Redealt(1), spit_state()))
    assert mine.text == "You have no cards left. All the cards are dealt again."
    assert theirs.text == "Opponent has no cards left. All the cards are dealt again."


def test_scores_are_said_from_your_side() -> None:
    said = one(Narrator().narrate(ScoresChanged((3, 9), (12, 30)), spit_state()))
    assert said.text == "Score: you 12, opponent 30."


@pytest.mark.parametrize(("their_draw", "yours", "theirs"), [
    ("", "You score nothing: the opponent's draw pile is empty.",
     "Opponent scores nothing: your draw pile is empty."),
    ("3D", "You score 1: the card left in the opponent's draw pile.",
     "Opponent scores 1: the card left in your draw pile."),
    ("3D 4D 6D", "You score 3: the cards left in the opponent's draw pile.",
     "Opponent scores 3: the cards left in your draw pile.")])
def test_a_speed_deal_on_points_says_what_its_winner_scored_even_when_it_is_nothing(
        their_draw: str, yours: str, theirs: str) -> None:
    # The winner scores the cards left in the loser's draw pile: often none at all, and
    # an unchanged score said alone left the player wondering why.
    rules = Rules.for_game("speed", ["scoring=points", "target_score=10"])
    state = speed_position(rules, my_hand="7C", their_hand="JD 2S", their_draw=their_draw,
                           left="8D", right="KC", left_side="3S", right_side="4S")
    events = state.apply(0, act.PlayCard(card("7C"), act.LEFT))
    scored = next(event for event in events if isinstance(event, ScoresChanged))
    points = len(their_draw.split())
    assert one(Narrator().narrate(scored, state)).text == \
        f"{yours} Score: you {points}, opponent 0."
    assert one(Narrator(seat=1).narrate(scored, state)).text == \
        f"{theirs} Score: you 0, opponent {points}."


def test_the_deal_tells_you_your_cards_in_stockpile_order() -> None:
    state = spit_state(seed=3)
    dealt = [a for e in state.deal_events for a in Narrator().narrate(e, state)]
    tops = [state.stock_top(0, slot) for slot in range(5)]
    expected = ", ".join(card.rank_name for card in tops if card is not None)
    assert [a.text for a in dealt] == [f"Round 1. Your cards: {expected}. Say ready."]


def test_spit_cards_name_their_pile() -> None:
    said = one(Narrator().narrate(CardSpat(1, 1, JACK), spit_state()))
    assert (said.text, said.cue, said.pan) == ("Right: jack.", Cue.CARD_SPAT, 1.0)


def test_the_last_spit_card_of_either_player_is_told() -> None:
    state = spit_state()
    narrator = Narrator()
    state.spit_cards[1].clear()
    said = narrator.narrate(CardSpat(1, 1, JACK), state)
    assert [a.text for a in said] == ["Right: jack.", "Opponent's last spit card."]
    state.spit_cards[0].clear()
    said = narrator.narrate(CardSpat(0, 0, JACK), state)
    assert [a.text for a in said] == ["Left: jack.", "Your last spit card."]
    assert narrator.repeat().text == "Your last spit card."


def test_the_last_card_drawn_in_speed_is_told_for_either_player() -> None:
    state = speed_state()
    narrator = Narrator()
    assert len(narrator.narrate(CardDrawn(1, JACK), state)) == 0, "cards still to draw"
    state.draw_piles[1].clear()
    said = narrator.narrate(CardDrawn(1, JACK), state)
    assert [(a.text, a.about) for a in said] == [("Opponent's draw pile is empty.", 1)], \
        "the pile running out is told; the card drawn stays secret"
    state.draw_piles[0].clear()
    said = narrator.narrate(CardDrawn(0, JACK), state)
    assert [a.text for a in said] == ["Drew a jack.", "Your draw pile is empty."]
    assert narrator.repeat().text == "Your draw pile is empty."


def test_a_spit_card_with_more_behind_it_is_told_alone() -> None:
    state = spit_state()
    assert len(Narrator().narrate(CardSpat(0, 0, JACK), state)) == 1
    speed = speed_state()
    speed.side_piles[0].clear()
    assert len(Narrator().narrate(CardSpat(0, 0, JACK), speed)) == 1


def test_the_sequence_of_a_stamped_event_is_carried_through() -> None:
    said = one(Narrator().narrate(Stamped(41, 2.5, CardPlayed(0, NINE, 0, TEN, 0)), spit_state()))
    assert said.sequence == 41


@pytest.mark.parametrize("game", ["spit", "speed"])
@pytest.mark.parametrize("verbosity", list(Verbosity))
def test_every_event_of_a_whole_game_narrates_briefly(game: str, verbosity: Verbosity) -> None:
    state = new_game(Rules.for_game(game, ()), game_rng(2, 0))
    narrator = Narrator(verbosity)
    rng = random.Random(2)
    announcements = [a for e in state.deal_events for a in narrator.narrate(e, state)]
    while not state.is_over:
        player = 0 if state.legal_actions(0) else 1
        action = greedy_choice(state, player, state.legal_actions(player), rng)
        for event in state.apply(player, action):
            announcements.extend(narrator.narrate(event, state))
    assert announcements[-1].cue is Cue.GAME_OVER
    for said in announcements:
        assert said.mirror_line, said
        if said.topic.startswith("pile:"):
            assert len(said.text.split()) <= 3, said.text


# ----------------------------------------------------------------- questions


def test_piles_left_and_right_answer_with_the_tops() -> None:
    state = spit_state()
    state.apply(0, act.SPIT)
    left, right = state.pile_top(0), state.pile_top(1)
    assert left is not None and right is not None
    narrator = Narrator()
    assert narrator.answer("piles", state).text == (
        f"Left: {left.rank_name}. Right: {right.rank_name}.")
    assert narrator.answer("Right", state).text == f"Right: {right.rank_name}."
    assert narrator.answer("left", state).priority is Priority.HIGH


def test_before_the_first_spit_the_piles_are_empty() -> None:
    assert Narrator().answer("piles", spit_state()).text == \
        "Left: empty. Right: empty. Say ready."


def test_my_cards_lists_face_down_and_empty_stockpiles_too() -> None:
    state = spit_state()
    state.stocks[0][1] = []
    state.face_up[0][3] = False
    text = Narrator().answer("my cards", state).text
    words = text.removeprefix("Your cards: ").removesuffix(".").split(", ")
    assert words[1] == "empty" and words[3] == "face down" and len(words) == 5


def test_my_cards_in_speed_is_your_hand_from_low_to_high() -> None:
    state = speed_state()
    state.hands[0] = [Card.parse("ace of clubs"), Card.parse("two of clubs"), JACK]
    assert Narrator().answer("my cards", state).text == "Your hand: two, jack, ace. Say ready."


def test_count_and_score() -> None:
    state = spit_state()
    narrator = Narrator()
    narrator.narrate(PlayerReady(0), state)  # the prompt to say ready is done with
    assert narrator.answer("count", state).text == "Cards left: you 26, opponent 26."
    assert narrator.answer("score", state).text == (
        "Round 1. Cards left: you 26, opponent 26.")
    points = spit_state(variants=("scoring=points",))
    points.scores = [12, 30]
    assert narrator.answer("score", points).text == (
        "Score: you 12, opponent 30; game to 100.")


def test_what_fits_names_each_card_that_goes_on_a_pile_and_which_pile() -> None:
    # Left shows an eight, right a king: the seven and nine fit left, the ace right, the
    # two sevens are one answer, the four fits nowhere, and a face-down top is not told
    # as a card (nobody has seen it) but as one to turn over.
    state = spit_position(mine=("2C 7H", "9D", "4S", "7C", "3H AS"), left="8C", right="KD",
                          face_down=[(0, 4)])
    assert Narrator().answer("what fits", state).text == \
        "Your seven fits on left, your nine on left; stockpile five can be turned over."
    state.face_up[0][4] = True
    assert Narrator().answer("what fits", state).text == \
        "Your seven fits on left, your nine on left, your ace on right."
    both = spit_position(mine=("QH", "", "", "", ""), left="JC", right="KD")
    assert Narrator().answer("what fits", both).text == "Your queen fits on either pile."


def test_what_fits_says_when_nothing_does_and_what_else_can_be_done() -> None:
    nothing = spit_position(mine=("4S", "2C 4H", "", "", ""), left="8C", right="KD")
    assert Narrator().answer("what fits", nothing).text == \
        "None of your cards fits; a card can move into your empty space."
    turn = spit_position(spit_rules(auto_turn_up=False), mine=("4S", "2C 3D", "", "", ""),
                         left="8C", right="KD", face_down=[(0, 1)])
    assert "stockpile two can be turned over" in Narrator().answer("what fits", turn).text
    stuck = spit_position(mine=("4S",), theirs=("4C",), left="8C", right="KD",
                          phase=Phase.STALEMATE)
    assert Narrator().answer("what fits", stuck).text == \
        "None of your cards fits: nobody can play."
    over = spit_position(mine=("4S",), left="8C", right="KD", phase=Phase.ROUND_OVER)
    assert Narrator().answer("what fits", over).text == "Nothing: the round is over."


def test_what_fits_in_speed_goes_through_the_hand_from_low_to_high() -> None:
    state = speed_position(my_hand="AS 9D 4H 2C", my_draw="5C", left="3C", right="TD")
    assert Narrator().answer("what fits", state).text == \
        "Your two fits on left, your four on left, your nine on right; you can draw."


@pytest.mark.parametrize("query", ["piles", "my cards", "count", "score", "face down"])
def test_a_question_before_saying_ready_ends_with_the_prompt(query: str) -> None:
    # A player who missed "Say ready." and asks about the table hears it again, last.
    state = spit_state()
    narrator = Narrator()
    assert narrator.answer(query, state).text.endswith(". Say ready.")
    narrator.narrate(PlayerReady(1), state)
    assert narrator.answer(query, state).text.endswith(". Say ready."), "the opponent's ready"
    narrator.narrate(PlayerReady(0), state)
    assert not narrator.answer(query, state).text.endswith("Say ready.")
    coach = Narrator()
    coach.coached = True  # the tutorial gives its own instructions
    assert not coach.answer(query, state).text.endswith("Say ready.")


def test_repeat_says_the_last_announcement_again_and_help_is_the_callers() -> None:
    narrator = Narrator(help_text="Say nine on left.")
    state = spit_state()
    assert narrator.answer("repeat", state).text == "Nothing yet."
    narrator.narrate(CardPlayed(1, NINE, 0, TEN, 0), state)
    assert narrator.answer("repeat", state).text == "Left: nine (opponent).", \
        "the printed line: it says whose card, which the voice and cue said at first"
    assert narrator.answer("help", state).text == "Say nine on left."


def test_an_unknown_question_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="piles"):
        Narrator().answer("weather", spit_state())


def test_not_understood_has_its_own_cue() -> None:
    said = Narrator().not_understood()
    assert said.cue is Cue.NOT_UNDERSTOOD and said.text == "Say again?"


# ------------------------------------------------ playing by ear: nothing silent

SIX = Card.parse("six of clubs")


@pytest.mark.parametrize("verbosity", list(Verbosity), ids=lambda v: v.value)
def test_a_renumbered_stockpile_is_told_in_words_or_at_terse_by_its_cue(
        verbosity: Verbosity) -> None:
    said = one(Narrator(verbosity).narrate(CardMoved(0, SIX, 4, 0), spit_state()))
    assert said.mirror_line == "Six moves from stock five to stock one."
    if verbosity is Verbosity.TERSE:
        assert (said.text, said.cue, said.pan) == ("", Cue.CARD_MOVED, -1.0), \
            "a cue from stockpile one's side"
    else:
        assert said.text == "Six moves from stock five to stock one." and said.cue is None
    assert said.priority is Priority.NORMAL and said.lifetime is None, "never dropped as stale"


@pytest.mark.parametrize("verbosity", list(Verbosity), ids=lambda v: v.value)
def test_your_new_cards_are_named_at_every_detail_level(verbosity: Verbosity) -> None:
    terse = verbosity is Verbosity.TERSE
    turned = one(Narrator(verbosity).narrate(CardTurnedUp(0, 4, NINE), spit_state()))
    drawn = one(Narrator(verbosity).narrate(CardDrawn(0, NINE), speed_state()))
    assert (turned.mirror_line, drawn.mirror_line) == ("Stock five shows a nine.", "Drew a nine.")
    if terse:
        assert turned.text == drawn.text == "Nine.", "ranks only"
        assert turned.cue is drawn.cue is Cue.NEW_CARD and turned.pan == 1.0
    else:
        assert (turned.text, drawn.text) == ("Stock five shows a nine.", "Drew a nine.")


@pytest.mark.parametrize("verbosity", list(Verbosity), ids=lambda v: v.value)
def test_every_deal_ends_with_the_prompt_to_say_ready(verbosity: Verbosity) -> None:
    for state in (spit_state(), speed_state()):
        narrator = Narrator(verbosity)
        said = [a.text for event in state.deal_events for a in narrator.narrate(event, state)]
        assert said[-1].endswith(" Say ready."), said
        assert sum(text.endswith("Say ready.") for text in said) == 1


@pytest.mark.parametrize("verbosity", list(Verbosity), ids=lambda v: v.value)
def test_your_ready_is_acknowledged_at_every_detail_level(verbosity: Verbosity) -> None:
    state = spit_state()
    assert one(Narrator(verbosity).narrate(PlayerReady(0), state)).text == "Ready."


def test_at_full_detail_the_opponents_ready_repeats_the_prompt_until_you_are_ready() -> None:
    state = spit_state()
    narrator = Narrator(Verbosity.FULL)
    for event in state.deal_events:
        narrator.narrate(event, state)
    assert one(narrator.narrate(PlayerReady(1), state)).text == "Opponent ready. Say ready."
    narrator.narrate(state.deal_events[0], state)
    narrator.narrate(PlayerReady(0), state)
    assert one(narrator.narrate(PlayerReady(1), state)).text == "Opponent ready."


def test_a_pace_you_asked_for_is_answered_even_at_terse() -> None:
    asked = one(Narrator(Verbosity.TERSE).narrate(
        PaceChanged(2.5, "slower on request", requested=True), spit_state()))
    assert asked.text == "Opponent pace: 2.5 seconds a card, slower on request."
    assert Narrator(Verbosity.TERSE).narrate(PaceChanged(2.5, "adapting"), spit_state()) == []


def test_the_adaptive_pace_set_after_a_deal_keeps_the_prompt_last() -> None:
    state = spit_state()
    narrator = Narrator()
    for event in state.deal_events:
        narrator.narrate(event, state)
    said = one(narrator.narrate(PaceChanged(1.3, "adapting"), state))
    assert said.text == "Opponent pace: 1.3 seconds a card. Say ready."
    narrator.narrate(PlayerReady(0), state)
    assert one(narrator.narrate(PaceChanged(1.3, "adapting"), state)).text == \
        "Opponent pace: 1.3 seconds a card."


def test_a_refusal_names_what_was_understood() -> None:
    refused = IntentRefused(0, None, "you have no seven face up", said="seven on left")
    assert Narrator().refusal(refused).text == "Seven on left? You have no seven face up."
    late = IntentRefused(0, None, "left is now a nine", too_late=True, said="stockpile two on left")
    assert Narrator().refusal(late).text == "Stockpile two on left? Too late: left is now a nine."
    # The recognizer writes "i"; the printed line is read, by eye too.
    asked = IntentRefused(0, None, "no game is on", said="what can i play")
    assert Narrator().refusal(asked).text == "What can I play? No game is on."


def test_say_again_only_when_nothing_usable_was_heard() -> None:
    narrator = Narrator()
    assert narrator.not_understood().text == "Say again?"
    assert narrator.not_understood("seven banana").text == "Heard seven banana. Say again?"
    assert narrator.not_understood("seven banana", typed=True).text == \
        "Seven banana? That is not a command: type help for the commands."


def test_at_terse_the_slap_is_one_word_but_the_printed_line_says_which_pile() -> None:
    said = one(Narrator(Verbosity.TERSE).narrate(SlapWindowOpened(5.0, 1), spit_state()))
    assert (said.text, said.pan) == ("Slap!", 1.0)
    assert said.mirror_line == "Slap now! Right is smaller."
