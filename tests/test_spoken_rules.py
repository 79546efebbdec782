"""The rules told ("how do I play", voicespit/app/spoken_rules.py): what the engine deals
and does, in sentences a listener can hold, with the words that make each move."""

from __future__ import annotations

import random
import re

import pytest

from tests.app_harness import Harness
from tests.test_help import all_pages
from voicespit.app.spoken_rules import RULES_ENDING, rules_in_words
from voicespit.engine import Rules, new_game
from voicespit.engine.speed import HAND_SIZE, SpeedState
from voicespit.engine.spit import SpitState
from voicespit.speech.language.commands import Command, Verb
from voicespit.speech.language.help import MAX_WORDS, sentences_of, word_count
from voicespit.speech.language.parser import parse

VARIANTS = [("spit", ()), ("spit", ("stockpiles=4",)), ("spit", ("slap=false",)),
            ("spit", ("alternating_colours=true", "scoring=points")),
            ("spit", ("auto_turn_up=false",)), ("spit", ("auto_fill=false",)),
            ("spit", ("auto_turn_up=false", "auto_fill=false")),
            ("speed", ()), ("speed", ("side_pile_size=5", "scoring=points")),
            ("speed", ("auto_turn_up=false",))]
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "ten": 10,
                "eleven": 11, "fifteen": 15, "sixteen": 16}


def told(game: str, variants: tuple[str, ...], **settings: int | bool) -> str:
    return " ".join(rules_in_words(Rules.for_game(game, variants), **settings))  # type: ignore[arg-type]


@pytest.mark.parametrize(("game", "variants"), VARIANTS)
def test_each_sentence_is_one_a_listener_can_hold(game: str, variants: tuple[str, ...]) -> None:
    for sentence in rules_in_words(Rules.for_game(game, variants)):
        assert len(sentences_of(sentence)) == 1, sentence
        assert word_count(sentence) <= MAX_WORDS, sentence


@pytest.mark.parametrize(("game", "variants"), VARIANTS)
def test_every_command_it_tells_the_player_to_say_is_one_the_game_hears(
        game: str, variants: tuple[str, ...]) -> None:
    text = told(game, variants, auto_spit=False)
    asked = re.findall(r"(?:say|like) ([a-z ]+?)(?:[,.;:]| or | when | to take | and each)",
                       text)
    assert asked, "the rules name the words of the moves"
    for words in asked:
        command = parse(words)
        assert command.verb in {Verb.PLAY, Verb.SLAP, Verb.FLIP, Verb.MOVE, Verb.DRAW,
                                Verb.SPIT, Verb.READY, Verb.RULES}, (words, command)


def counts_said(text: str, pattern: str) -> int:
    match = re.search(pattern, text)
    assert match is not None, (pattern, text)
    word = match.group(1)
    return int(word) if word.isdigit() else NUMBER_WORDS[word]


@pytest.mark.parametrize("stockpiles", [5, 4])
def test_spit_the_layout_it_tells_is_the_one_the_engine_deals(stockpiles: int) -> None:
    rules = Rules.for_game("spit", (f"stockpiles={stockpiles}",))
    state = new_game(rules, random.Random(4))
    assert isinstance(state, SpitState)
    text = " ".join(rules_in_words(rules))
    assert counts_said(text, r"has (\w+) stockpiles") == len(state.stocks[0])
    assert counts_said(text, r"of one to (\w+) cards") == max(map(len, state.stocks[0]))
    assert counts_said(text, r"The other (\w+) of your") == len(state.spit_cards[0])
    dealt = sum(map(len, state.stocks[0])) + len(state.spit_cards[0])
    assert counts_said(text, r"of your (\w+) cards") == dealt
    # A player short of a full layout has no spit cards (RULES.md: "fewer than 15").
    assert counts_said(text, r"With fewer than (\w+) cards") == sum(map(len, state.stocks[0]))


@pytest.mark.parametrize("side", [10, 5])
def test_speed_the_hand_and_piles_it_tells_are_the_ones_the_engine_deals(side: int) -> None:
    rules = Rules.for_game("speed", (f"side_pile_size={side}",))
    state = new_game(rules, random.Random(4))
    assert isinstance(state, SpeedState)
    text = " ".join(rules_in_words(rules))
    assert counts_said(text, r"a hand of (\w+) cards") == len(state.hands[0]) == HAND_SIZE
    assert counts_said(text, r"with (\w+) more in your draw pile") == len(state.draw_piles[0])
    assert counts_said(text, r"two side piles of (\w+) cards") == len(state.side_piles[0])


def test_the_variants_change_what_is_told() -> None:
    standard = told("spit", ())
    assert "Then slap the smaller pile: say slap left or slap right." in standard
    assert "whoever went out first chooses" not in standard
    choosing = told("spit", ("slap=false",))
    assert "Then whoever went out first chooses a pile to take" in choosing
    assert "slap the smaller pile" not in choosing
    assert "colour" not in standard
    assert "other colour from the top card" in told("spit", ("alternating_colours=true",))
    assert "When someone reaches 100 points, the lowest score wins." in \
        told("spit", ("scoring=points",))
    assert "points" not in standard
    assert "The first to two points wins the match." in told("speed", ("scoring=points",))
    assert "say turn over three" in told("spit", ("auto_turn_up=false",))
    assert "say move three to two" in told("spit", ("auto_fill=false",))
    assert "turn over" not in standard and "move three" not in standard
    assert "say draw to take a card" in told("speed", ("auto_turn_up=false",))
    assert "you draw back up to five by yourself" in told("speed", ())


def test_what_happens_when_nobody_can_play_follows_the_spit_setting() -> None:
    assert "When nobody can play, I count down from three, and each of you turns a spit " \
        "card onto a pile." in told("spit", ())
    assert "count down from five" in told("spit", (), countdown_from=5)
    assert "each of you turns a side pile card onto a pile at once" in \
        told("speed", (), countdown_from=0)
    assert "When nobody can play, say spit, and each of you" in told("spit", (), auto_spit=False)


def test_nothing_of_one_game_is_told_of_the_other() -> None:
    speed = told("speed", ()).lower()
    assert "stockpile" not in speed and "slap" not in speed and "spit card" not in speed
    spit = told("spit", ()).lower()
    assert "hand" not in spit and "side pile" not in spit and "draw" not in spit


@pytest.mark.parametrize("question", ["how do I play", "what are the rules", "rules"])
def test_asked_in_a_session_with_no_game_on_the_rules_are_read_a_page_at_a_time(
        question: str) -> None:
    harness = Harness()
    assert parse(question) == Command(Verb.RULES)
    text = all_pages(harness, question)
    assert text.startswith("Spit is a race")
    assert "Then slap the smaller pile" in text
    harness.type("more")
    assert harness.lines()[-1] == RULES_ENDING
    assert RULES_ENDING == ("That is all of the rules. Say how do I play to hear them "
                            "again.")


def test_the_rules_told_are_those_of_the_game_being_played_with_its_variants() -> None:
    harness = Harness(variants=("slap=false",))
    assert "whoever went out first chooses" in all_pages(harness, "rules")
    harness.type("play speed")
    harness.run(1.0)
    speed = all_pages(harness, "how do I play")
    assert speed.startswith("Speed is a race") and "slap" not in speed.lower()


def test_stop_ends_the_rules_and_help_then_has_its_own_ending() -> None:
    harness = Harness()
    harness.type("how do I play")
    assert harness.lines()[-1].endswith("Say more, or stop talking.")
    harness.type("stop talking")
    assert harness.lines()[-1] == "Rules stopped."
    all_pages(harness, "what can I say")
    harness.type("more")
    assert harness.lines()[-1].startswith("That is all the help.")


def test_the_help_tells_where_the_rules_are() -> None:
    harness = Harness()
    assert "Say how do I play to hear the rules, or tutorial to learn the game in one " \
        "guided round." in all_pages(harness, "what can I say")
