"""The parser (voicespit/speech/language/parser.py): words to commands, commands to legal moves."""

from __future__ import annotations

import contextlib
import random

import pytest

from voicespit.engine import Rules, new_game
from voicespit.engine import actions as act
from voicespit.engine.cards import Card
from voicespit.engine.speed import SpeedState
from voicespit.engine.spit import SpitState
from voicespit.engine.state import Phase
from voicespit.errors import VoiceSpitError
from voicespit.speech.language.commands import Command, Verb
from voicespit.speech.language.grammar import phrase_for, sample_phrases
from voicespit.speech.language.parser import (
    AmbiguousCommandError,
    IllegalCommandError,
    InvalidCommandError,
    parse,
    resolve,
)

SEVEN, EIGHT, SIX, FIVE, KING = 6, 7, 5, 4, 12
LEFT, RIGHT = 0, 1


def card(text: str) -> Card:
    return Card.parse(text)


def spit_in_play(stocks: list[list[str]], left: str, right: str,
                 variants: tuple[str, ...] = ()) -> SpitState:
    """A Spit round under way with the human's stockpiles (bottom..top, all tops face up)."""
    state = new_game(Rules.for_game("spit", variants), random.Random(1))
    assert isinstance(state, SpitState)
    state.apply(0, act.SPIT)
    state.stocks[0] = [[card(name) for name in pile] for pile in stocks]
    state.face_up[0] = [bool(pile) for pile in stocks]
    state.piles = [[card(left)], [card(right)]]
    state.phase = Phase.PLAY
    return state


# ------------------------------------------------------------------- stage one

def test_every_sentence_of_the_grammar_parses_to_its_own_command() -> None:
    for sentence, command in sample_phrases():
        assert parse(sentence) == command, sentence


def test_a_command_prints_as_a_phrase_that_parses_back_to_it() -> None:
    for _, command in sample_phrases():
        assert parse(phrase_for(command)) == command
        assert eval(repr(command)) == command


@pytest.mark.parametrize(("heard", "meant"), [
    ("seven on write", "seven on right"),
    ("ate on left", "eight on left"),
    ("move for to to", "move four to two"),
    ("too on left", "two on left"),
    ("flip won", "flip one"),
    ("Play the 7 on the LEFT pile, please", "seven on left"),
    ("sevens left", "seven on left"),
    ("q right", "queen on right"),
])
def test_likely_mishearings_and_typing_shortcuts_mean_the_same_command(heard: str,
                                                                        meant: str) -> None:
    assert parse(heard) == parse(meant)


@pytest.mark.parametrize("text", ["", "   ", "what time is it", "seven on", "[unk]",
                                  "seven [unk]", "left right left"])
def test_words_that_are_not_a_command_are_refused_with_something_to_say(text: str) -> None:
    with pytest.raises(InvalidCommandError) as refusal:
        parse(text)
    assert str(refusal.value).startswith("I didn")
    assert isinstance(refusal.value, VoiceSpitError)


def test_information_and_control_commands_are_not_moves() -> None:
    assert not parse("my cards").is_action
    assert parse("slap left").is_action
    with pytest.raises(InvalidCommandError):
        resolve(parse("my cards"), spit_in_play([["seven of hearts"]], "six of clubs",
                                                "king of clubs"), 0)


# ------------------------------------------------------------------- stage two

def test_a_card_and_a_pile_play_the_face_up_card_of_that_rank() -> None:
    state = spit_in_play([["two of clubs"], ["seven of hearts"]], "six of clubs", "king of clubs")
    assert resolve(Command.play(SEVEN, LEFT), state, 0) == act.Play(1, LEFT)


def test_of_two_matching_cards_the_one_hiding_a_face_down_card_is_played() -> None:
    state = spit_in_play([["seven of clubs"], ["two of hearts", "seven of hearts"]],
                         "six of clubs", "king of clubs")
    assert resolve(Command.play(SEVEN, LEFT), state, 0) == act.Play(1, LEFT)


def test_a_rank_alone_goes_to_the_only_pile_it_fits() -> None:
    state = spit_in_play([["seven of hearts"]], "king of clubs", "eight of clubs")
    assert resolve(parse("seven"), state, 0) == act.Play(0, RIGHT)


def test_a_rank_that_fits_both_piles_is_refused_with_the_choices() -> None:
    state = spit_in_play([["seven of hearts"]], "six of clubs", "eight of clubs")
    with pytest.raises(AmbiguousCommandError) as refusal:
        resolve(parse("seven"), state, 0)
    assert refusal.value.choices == ("seven on left", "seven on right")
    assert "seven on left or seven on right" in str(refusal.value)


def test_a_rank_that_fits_neither_pile_says_what_the_piles_show() -> None:
    state = spit_in_play([["seven of hearts"]], "two of clubs", "king of clubs")
    with pytest.raises(IllegalCommandError, match="left shows a two and right shows a king"):
        resolve(parse("seven"), state, 0)


def test_a_card_on_the_wrong_pile_gets_the_rules_reason() -> None:
    state = spit_in_play([["seven of hearts"]], "two of clubs", "eight of clubs")
    with pytest.raises(IllegalCommandError, match="left shows a two; a seven cannot go there"):
        resolve(parse("seven on left"), state, 0)


def test_a_rank_not_in_front_of_the_player_is_refused() -> None:
    state = spit_in_play([["seven of hearts"]], "six of clubs", "eight of clubs")
    with pytest.raises(IllegalCommandError, match="you have no king face up"):
        resolve(parse("king on left"), state, 0)


def test_colours_decide_which_matching_card_goes_when_colours_must_alternate() -> None:
    state = spit_in_play([["seven of hearts"], ["seven of spades"]], "six of clubs",
                         "king of clubs", ("alternating_colours=true",))
    assert resolve(parse("seven on left"), state, 0) == act.Play(0, LEFT)


def test_resolving_never_changes_the_state() -> None:
    state = spit_in_play([["seven of hearts"]], "six of clubs", "eight of clubs")
    before = (state.all_cards(), state.legal_actions(0), state.phase)
    for sentence, _ in sample_phrases():
        with contextlib.suppress(VoiceSpitError):
            resolve(parse(sentence), state, 0)
    assert (state.all_cards(), state.legal_actions(0), state.phase) == before


def test_before_the_round_starts_a_play_gets_the_engines_reason_and_ready_starts_it() -> None:
    state = new_game(Rules.for_game("spit"), random.Random(3))
    with pytest.raises(IllegalCommandError, match="say ready first"):
        resolve(parse("seven on left"), state, 0)
    assert resolve(parse("ready"), state, 0) == act.SPIT
    assert resolve(parse("spit"), state, 0) == act.SPIT


def test_ready_during_play_is_refused() -> None:
    state = spit_in_play([["seven of hearts"]], "six of clubs", "eight of clubs")
    with pytest.raises(IllegalCommandError, match="already under way"):
        resolve(parse("ready"), state, 0)


def test_slap_takes_a_pile_or_chooses_one_when_slapping_is_off() -> None:
    state = spit_in_play([["seven of hearts"]], "six of clubs", "eight of clubs")
    state.phase = Phase.ROUND_OVER
    assert resolve(parse("slap right"), state, 0) == act.Slap(RIGHT)
    choosing = spit_in_play([["seven of hearts"]], "six of clubs", "eight of clubs",
                            ("slap=false",))
    choosing.phase = Phase.ROUND_OVER
    choosing.first_out = 0
    assert resolve(parse("slap left"), choosing, 0) == act.ChoosePile(LEFT)


def test_flip_turns_up_a_face_down_stockpile_and_names_a_wrong_one() -> None:
    state = spit_in_play([["two of clubs", "seven of hearts"], ["nine of clubs"]],
                         "six of clubs", "eight of clubs", ("auto_turn_up=false",))
    state.face_up[0][0] = False
    assert resolve(parse("flip"), state, 0) == act.TurnUp(0)
    assert resolve(parse("flip one"), state, 0) == act.TurnUp(0)
    with pytest.raises(IllegalCommandError, match="already face up"):
        resolve(parse("flip two"), state, 0)


def test_move_fills_an_empty_slot_with_the_engines_checks() -> None:
    state = spit_in_play([["two of clubs", "seven of hearts"], []], "six of clubs",
                         "eight of clubs", ("auto_fill=false",))
    assert resolve(parse("move one to two"), state, 0) == act.Fill(0, 1)
    with pytest.raises(IllegalCommandError):
        resolve(parse("move two to one"), state, 0)


def test_speed_plays_from_the_hand_and_draw_is_speed_only() -> None:
    state = new_game(Rules.for_game("speed"), random.Random(5))
    assert isinstance(state, SpeedState)
    state.apply(0, act.SPIT)
    state.hands[0] = [card("seven of hearts"), card("two of clubs")]
    state.piles = [[card("six of clubs")], [card("king of clubs")]]
    state.phase = Phase.PLAY
    assert resolve(parse("seven"), state, 0) == act.PlayCard(card("seven of hearts"), LEFT)
    assert resolve(parse("draw"), state, 0) == act.DRAW
    spit = spit_in_play([["seven of hearts"]], "six of clubs", "eight of clubs")
    with pytest.raises(IllegalCommandError, match="no drawing in Spit"):
        resolve(parse("draw"), spit, 0)


def test_each_failure_is_a_voicespit_error_of_its_own_kind() -> None:
    kinds = {InvalidCommandError, IllegalCommandError, AmbiguousCommandError}
    assert all(issubclass(kind, VoiceSpitError) and issubclass(kind, ValueError)
               for kind in kinds)
    assert len({Verb.PLAY.group, Verb.PILES.group, Verb.PAUSE.group, Verb.SPIT.group}) == 4
