"""Spoken help (voicespit/speech/language/help.py): short sentences, a few at a time, for the game played."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.app_harness import Harness
from tests.spoken_voice import Voice
from voicespit.app.keys import key_help
from voicespit.app.voice import NarrowingRecognizer, VoiceCommands
from voicespit.speech.language import help as spoken_help
from voicespit.speech.language.commands import Command, Group, Verb
from voicespit.speech.language.grammar import PHRASINGS, sentences
from voicespit.speech.language.help import MAX_WORDS, PAGE_SENTENCES, HelpPages, sentences_of
from voicespit.speech.language.parser import parse

GAMES = ("spit", "speed")


def everything_help_says(game: str, slap: bool = True) -> list[str]:
    said = spoken_help.overview(game, slap=slap) + key_help(game, slap=slap)
    for group in Group:
        said += spoken_help.topic_help(group, game, slap=slap)
    return said


@pytest.mark.parametrize(("game", "slap"), [("spit", True), ("spit", False), ("speed", True)])
def test_no_help_sentence_is_longer_than_a_listener_can_hold(game: str, slap: bool) -> None:
    for sentence in everything_help_says(game, slap):
        assert len(sentences_of(sentence)) == 1, sentence
        assert spoken_help.word_count(sentence) <= MAX_WORDS, sentence


RACE_TO_SLAP = ("to take the smaller pile", "slap that pile", "slaps left", "slaps right")
"""What the help says of the race to slap at the end of a round of Spit."""


def test_where_nobody_slaps_the_help_says_who_chooses_the_pile_instead() -> None:
    # slap=false: the first one out chooses (RULES.md); "slap left" is still the command.
    choosing = " ".join(everything_help_says("spit", slap=False)).lower()
    for race in RACE_TO_SLAP:
        assert race not in choosing, race
    assert "the first one out chooses the pile to take: say slap left or slap right" in choosing
    assert "slap left: at the end of a round, when the choice is yours, take that pile" \
        in choosing
    assert "comma chooses left, full stop chooses right" in choosing
    racing = " ".join(everything_help_says("spit")).lower()
    assert all(race in racing for race in RACE_TO_SLAP)


def about_one_game(game: str) -> str:
    """Everything the help says in `game` but how to choose a game (it names both)."""
    return " ".join(sentence for sentence in everything_help_says(game)
                    if not re.match(r"(say )?play (spit|speed)\b",
                                    sentence.lower())).lower()


def test_speed_help_names_no_command_only_spit_has_and_spit_help_none_of_speed_s() -> None:
    speed = about_one_game("speed")
    for spit_only in ("slap", "stockpile", "move three to two", "turn over three"):
        assert spit_only not in speed, spit_only
    assert "draw:" in speed
    spit = about_one_game("spit")
    for speed_only in ("draw", "hand", "in speed", "speed:"):
        assert speed_only not in spit, speed_only
    assert "slap left" in spit and "move three to two" in spit


@pytest.mark.parametrize("game", GAMES)
def test_topic_help_lists_every_phrasing_of_its_topic_that_the_game_has(game: str) -> None:
    for group in Group:
        listed = spoken_help.topic_help(group, game)
        assert listed[0] == f"{group.value.capitalize()}."
        text = " ".join(listed[1:]).lower()
        expected = [phrasing for phrasing in PHRASINGS
                    if phrasing.verb.group is group and spoken_help.applies_to(phrasing, game)]
        for phrasing in expected:
            example = spoken_help.example_of(phrasing, game)
            assert parse(example).verb is phrasing.verb
            canonical = spoken_help.said(parse(example))
            if example == canonical:
                # Each command's own phrase starts a sentence and says what it does.
                assert any(sentence.lower().startswith(f"{example.lower()}: ")
                           for sentence in listed), example
            else:
                # The other ways of saying it are named after it, and only after it.
                position = text.index(f"{canonical.lower()}: ")
                assert re.search(rf"\b{re.escape(example.lower())}\b", text[position:]), example


def test_the_other_ways_of_saying_a_command_follow_it_instead_of_a_sentence_each() -> None:
    moves = spoken_help.topic_help(Group.MOVE, "spit")
    assert "Seven: play that rank on the one pile it fits; or say play seven." in moves
    assert "Turn over three: turn up that stockpile's top card (one to five); or say " \
        "flip three." in moves
    # Six other ways of saying "seven on left" are two sentences, not one too long to hold.
    assert [sentence for sentence in moves if sentence.startswith("Or say")] == [
        "Or say play seven on left, seven left or seven on the left.",
        "Or say put the seven on the left, seven to the left or put seven on left."]
    information = spoken_help.topic_help(Group.INFO, "spit")
    assert "Score please: hear the score; or say score, what's the score, who's winning or " \
        "how am I doing." in information
    assert len(information) < len([phrasing for phrasing in PHRASINGS
                                   if phrasing.verb.group is Group.INFO])


@pytest.mark.parametrize(("game", "other"), [("spit", "speed"), ("speed", "spit")])
def test_the_help_of_each_game_says_how_to_play_the_other(game: str, other: str) -> None:
    said = spoken_help.overview(game)
    assert f"Say play {other} to play {other.capitalize()} instead." in said
    assert parse(f"play {other}") == Command(Verb.NEW_GAME, game=GAMES.index(other))


def test_help_comes_a_few_sentences_at_a_time_more_continues_and_stop_ends() -> None:
    pages = HelpPages()
    text = [f"Sentence {n}." for n in range(1, 8)]
    first = pages.start(text)
    assert first == "Sentence 1. Sentence 2. Sentence 3. Say more, or stop talking."
    assert pages.more() == "Sentence 4. Sentence 5. Sentence 6. Say more, or stop talking."
    assert pages.more() == "Sentence 7."
    assert pages.more().startswith("That is all the help.")
    pages.start(text)
    assert pages.stop() == "Help stopped."
    assert pages.more().startswith("That is all the help.")
    assert PAGE_SENTENCES == 3


def test_more_and_stop_and_tutorial_are_spoken_commands_distinct_from_the_rest() -> None:
    for verb, words in ((Verb.MORE, "more"), (Verb.STOP, "stop talking"), (Verb.STOP, "stop"),
                        (Verb.TUTORIAL, "tutorial")):
        assert words in sentences()
        assert parse(words) == Command(verb)
        assert verb.group is Group.CONTROL


def test_in_a_session_help_is_for_the_game_played_and_pages_on_more() -> None:
    harness = Harness(game="speed")
    harness.type("what can I say")
    first = harness.lines()[-1]
    assert first.startswith("Say a card and a pile, like seven on left.")
    assert first.endswith("Say more, or stop talking.")
    assert "slap" not in first.lower()
    harness.type("more")
    second = harness.lines()[-1]
    assert second != first and "slap" not in second.lower()
    harness.type("stop talking")
    assert harness.lines()[-1] == "Help stopped."
    moves = all_pages(harness, "what can I say about moves")
    assert "Draw: draw a card into your hand; or say draw a card." in moves
    assert "move three to two" not in moves.lower() and "stockpile" not in moves.lower()


def all_pages(harness: Harness, question: str) -> str:
    """Ask, then say "more" until the help ends; everything it said."""
    harness.type(question)
    pages = [harness.lines()[-1]]
    while pages[-1].endswith("Say more, or stop talking."):
        harness.type("more")
        pages.append(harness.lines()[-1])
    return " ".join(pages)


def test_in_a_session_where_nobody_slaps_no_help_tells_the_player_to_slap() -> None:
    harness = Harness(variants=("slap=false",))
    said = " ".join([all_pages(harness, "what can I say"), all_pages(harness, "?"),
                     all_pages(harness, "what can I say about round")])
    assert "When a round ends, the first one out chooses the pile to take" in said
    assert "Slap left: at the end of a round, when the choice is yours, take that pile; " \
        "or say slap the left pile." in said
    assert "Comma chooses left, full stop chooses right." in said
    for race in RACE_TO_SLAP:
        assert race not in said.lower(), race
    narrator_help = harness.announcer.narrator.help_text
    assert "first one out chooses" in narrator_help
    assert not any(race in narrator_help for race in RACE_TO_SLAP)


def test_in_a_spit_session_the_keys_are_said_in_short_sentences_too() -> None:
    harness = Harness()
    harness.type("?")
    keys = harness.lines()[-1]
    assert keys.startswith("Keys 1 to 5 play stockpile one to five on the left pile.")
    assert keys.endswith("Say more, or stop talking.")
    for sentence in sentences_of(keys):
        assert spoken_help.word_count(sentence) <= MAX_WORDS


def test_with_four_stockpiles_the_keys_help_names_only_the_keys_that_play_one() -> None:
    harness = Harness(variants=("stockpiles=4",))
    harness.type("?")
    keys = harness.lines()[-1]
    assert keys.startswith("Keys 1 to 4 play stockpile one to four on the left pile. "
                           "Keys 6 to 9 play stockpile one to four on the right pile."), keys
    assert "five" not in keys and "0" not in keys


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng speaks the commands")
def test_help_more_and_stop_are_understood_by_voice(tmp_path: Path) -> None:
    from voicespit.speech.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer

    recognizer = NarrowingRecognizer(PocketSphinxRecognizer())
    harness = Harness()
    voice = Voice(tmp_path, VoiceCommands(harness.session, recognizer), recognizer)
    for words, answer in (("what can i say", "Say a card and a pile"),
                          ("more", "When a round ends, say slap left"), ("stop talking", "Help stopped.")):
        voice.say(words)
        assert harness.lines()[-1].startswith(answer), (words, voice.heard[-1])
