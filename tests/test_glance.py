"""Everything a sighted player sees is one command away: the list, the commands and the
keys in step, and each answer telling what it promises."""

from __future__ import annotations

import pytest

from tests.app_harness import Harness
from tests.test_readme import between
from voicespit.app.glance import BOTH, GLANCES, answer, glance_table, sample_table
from voicespit.app.keys import KEYS
from voicespit.app.reference import GLANCE_END, GLANCE_START
from voicespit.app.session import TABLE_QUERIES
from voicespit.engine.speed import SpeedState
from voicespit.engine.spit import SpitState
from voicespit.narration.narrator import Narrator
from voicespit.speech.language.commands import Group, Verb
from voicespit.speech.language.grammar import phrase_for
from voicespit.speech.language.parser import parse


def test_every_question_about_the_table_is_on_the_list_for_both_games() -> None:
    on_list = {(game, glance.command.verb) for glance in GLANCES for game in glance.games}
    answered = set(TABLE_QUERIES) | {Verb.PILE}
    assert {verb for verb in Verb if verb.group is Group.INFO} - answered == \
        {Verb.HELP, Verb.REPEAT, Verb.SETUP, Verb.RULES}, \
        "every other information command is a glance"
    for game in BOTH:
        assert {verb for g, verb in on_list if g == game} == answered, game


@pytest.mark.parametrize("glance", GLANCES, ids=lambda glance: glance.sees[:30])
def test_each_entry_is_a_command_the_grammar_hears_and_its_key_is_that_command(glance) -> None:  # type: ignore[no-untyped-def]
    assert parse(phrase_for(glance.command)) == glance.command
    if glance.key is not None:
        assert KEYS[glance.key] == glance.command


def test_the_new_questions_have_keys() -> None:
    keyed = {binding.verb for binding in KEYS.values() if hasattr(binding, "verb")}
    assert {Verb.OPPONENT_CARDS, Verb.FACE_DOWN, Verb.MY_CARDS, Verb.PILES} <= keyed


def test_the_opponents_face_up_cards_are_told_in_spit_and_only_their_number_in_speed() -> None:
    spit = sample_table("spit")
    assert isinstance(spit, SpitState)
    tops = [spit.stock_top(1, slot) for slot in range(5)]
    said = answer(next(g for g in GLANCES if g.command.verb is Verb.OPPONENT_CARDS), "spit")
    assert said == "Your opponent's cards: " + ", ".join(
        top.rank_name for top in tops if top is not None) + "."
    speed = sample_table("speed")
    assert isinstance(speed, SpeedState)
    hidden = answer(next(g for g in GLANCES if g.command.verb is Verb.OPPONENT_CARDS
                         and "speed" in g.games), "speed")
    assert hidden == "Your opponent holds 5 cards, hidden from you, with 10 to draw."
    assert not any(card.rank_name in hidden for card in speed.hands[1]), "the hand is secret"


def test_face_down_cards_are_counted_under_each_stockpile() -> None:
    state = sample_table("spit")
    assert isinstance(state, SpitState)
    state.face_up[0][1] = False  # stockpile two's top not turned up yet: both cards hidden
    state.stocks[0][4].pop()  # one card of stockpile five played
    said = Narrator().answer("face down", state, 0).text
    assert said.startswith("Face down under your stockpiles, one to five: "
                           "none, 2, 2, 3, 3. Under your opponent's: none, 1, 2, 3, 4.")
    assert said.endswith(f"Spit cards: you {len(state.spit_cards[0])}, opponent "
                         f"{len(state.spit_cards[1])}.")


def test_the_commands_and_keys_answer_in_a_game() -> None:
    harness = Harness()
    harness.type("new game")
    harness.run(0.5)
    harness.type(";")
    assert harness.lines()[-1].startswith("Your opponent's cards: ")
    harness.type("'")
    assert harness.lines()[-1].startswith("Face down under your stockpiles, one to five: ")
    harness.type("opponent's cards")
    assert harness.lines()[-1].startswith("Your opponent's cards: ")


def test_the_readme_shows_the_list() -> None:
    assert between(GLANCE_START, GLANCE_END) == glance_table(), \
        "regenerate with: python -m voicespit.app.reference"
