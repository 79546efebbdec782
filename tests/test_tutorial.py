"""The spoken tutorial (voicespit/app/tutorial.py), followed by a player who knows only what it says.

The session, match, narration, parser and the patient opponent are the real
ones on a fake clock; the player (`tests/tutorial_player.py`) reads the printed
lines and types what they ask for, mistakes included. The same player follows
it by voice in `test_tutorial_by_voice` and in a terminal in
`test_tutorial_terminal`.
"""

from __future__ import annotations

import random
import re

import pytest

from tests.app_harness import Harness
from tests.positions import spit_position, spit_rules
from tests.tutorial_player import LESSONS, OVER, TutorialReader, follow_tutorial, sentences
from voicespit.app.patient import PatientOpponent
from voicespit.app.session import Mode
from voicespit.app.tutorial import TUTORIAL_SEED
from voicespit.clock import FakeClock
from voicespit.engine import actions as act
from voicespit.engine.state import Phase
from voicespit.match.referee import Match
from voicespit.speech.language.commands import Command
from voicespit.speech.language.help import MAX_WORDS, word_count


def coach_lines(transcript: list[str]) -> list[str]:
    """The tutorial's own lines (they are the ones longer than the game's news)."""
    start = next(index for index, line in enumerate(transcript) if line.startswith("Tutorial:"))
    return [line for line in transcript[start:] if len(sentences(line)) >= 2
            and not line.startswith(("Round ", "Your cards"))]


def test_the_deal_teaches_every_lesson_to_a_player_who_follows_it() -> None:
    harness = Harness()
    run = follow_tutorial(harness, harness.type, TutorialReader())
    assert run.finished, "\n".join(run.transcript[-30:])
    assert set(LESSONS) <= set(run.lessons), run.lessons
    assert run.lessons[:3] == ["table", "start", "play"], run.lessons
    # The hint is offered, and asked for, with the words that ask for it in a real game.
    assert "what can i play" in run.said and "hint" in run.lessons, run.said
    text = "\n".join(run.transcript)
    assert "You played every card of your stockpiles, so the round is over." in text
    assert re.search(r"Left has (\d+) cards and right has (?!\1\b)\d+", text)
    assert harness.session.mode is Mode.MENU
    assert TUTORIAL_SEED >= 0


def test_a_beginner_who_makes_mistakes_hears_why_and_still_completes_the_round() -> None:
    harness = Harness()
    reader = TutorialReader(mistakes=True)
    run = follow_tutorial(harness, harness.type, reader)
    assert run.finished, "\n".join(run.transcript[-30:])
    assert reader.mistakes_made == ["wrong pile", "spit", "slap early", "bigger pile"]
    text = "\n".join(run.transcript)
    # Each mistake is refused with the game's reason and explained from the table.
    assert re.search(r"cannot go there\.\n(Left|Right) shows an? \w+: an? \w+ or an? \w+ goes on it",
                     text)
    assert re.search(r"Spit\? You can still play your \w+ on (left|right)\.\n"
                     r"Spit is only for when nobody can play\.", text)
    assert "You slap a pile only when the round is over." in text
    assert re.search(r"(Left|Right) is the bigger pile: you would take more cards\.", text)
    smaller = re.findall(r"Say slap (left|right)\.", text)[-1]
    assert re.findall(r"You slap (left|right)\.", text) == [smaller]
    # And the game goes back to the start, with nothing counted in the profile.
    assert run.transcript[-1].endswith("Say new game to play a real game.")
    assert harness.session.mode is Mode.MENU
    assert harness.profile.games == 0
    harness.type("new game")
    harness.run(0.5)
    assert any(line.startswith("New game of Spit") for line in harness.lines())


def test_where_nobody_slaps_the_tutorial_teaches_choosing_the_pile_and_never_a_slap() -> None:
    # slap=false: the tutorial round is played the way the player's games are.
    harness = Harness(variants=("slap=false",))
    reader = TutorialReader(mistakes=True)
    run = follow_tutorial(harness, harness.type, reader)
    assert run.finished, "\n".join(run.transcript[-30:])
    assert set(LESSONS) <= set(run.lessons), run.lessons
    assert reader.mistakes_made == ["wrong pile", "spit", "slap early", "bigger pile"]
    text = "\n".join(run.transcript)
    assert "In this game nobody slaps: the first one out chooses a pile, and that is you." in text
    assert "You choose a pile only when the round is over." in text
    smaller = re.findall(r"Say slap (left|right)\.", text)[-1]
    assert re.findall(r"You choose (left|right)\.", text) == [smaller]
    for race in ("you both slap", "Slap now!", "You slap", "the first to slap"):
        assert race not in text, race


@pytest.mark.parametrize(("chooser", "slap", "chosen"), [
    (1, False, act.CHOICES[1]), (0, False, None), (1, True, None)])
def test_the_patient_opponent_chooses_the_smaller_pile_only_when_the_choice_is_its_own(
        chooser: int, slap: bool, chosen: act.ChoosePile | None) -> None:
    # With slap=true it never slaps first; with slap=false a choice that is its own would
    # otherwise keep the round waiting.
    state = spit_position(spit_rules(slap=slap), mine=("7H", "", "", "", ""),
                          left="2C 3C 4C", right="9D", phase=Phase.ROUND_OVER)
    state.first_out = chooser
    opponent = PatientOpponent(Match(state.rules, FakeClock(), seed=1), random.Random(1))
    intent = opponent.decide(state)
    assert (intent.action if intent is not None else None) == chosen


def test_every_sentence_the_tutorial_says_is_short() -> None:
    harness = Harness()
    run = follow_tutorial(harness, harness.type, TutorialReader(mistakes=True))
    coached = coach_lines(run.transcript)
    assert len(coached) > 10
    for line in coached:
        for sentence in sentences(line):
            assert word_count(sentence) <= MAX_WORDS, sentence


def test_a_player_who_never_asks_gets_the_hint_after_a_quiet_while() -> None:
    harness = Harness()
    reader = TutorialReader(ask_for_hints=False)
    run = follow_tutorial(harness, harness.type, reader)
    assert run.finished, "\n".join(run.transcript[-30:])
    assert "what can i play" not in run.said
    assert "hint" not in run.lessons  # no hint was asked for: they all came by themselves


def in_the_tutorial() -> Harness:
    harness = Harness()
    harness.type("tutorial")
    harness.run(0.5)
    return harness


def test_the_tutorial_waits_for_the_player_and_the_opponent_never_takes_their_card() -> None:
    harness = in_the_tutorial()
    harness.type("my cards")
    harness.run(0.5)
    harness.type("spit")
    harness.run(10.0)
    told = harness.lines()[-1]
    assert told.endswith(".") and re.search(r"Say \w+ on (left|right)\.$", told), told
    mark = len(harness.lines())
    harness.run(600.0)  # a long think: nothing moves, nobody plays the card for you
    assert harness.lines_since(mark) == []
    command = re.search(r"Say (\w+ on (left|right))\.$", told)
    assert command is not None
    harness.type(command.group(1))
    harness.run(1.0)
    assert any("(you)." in line for line in harness.lines_since(mark))


def test_the_coach_speaks_of_your_cards_after_they_are_said_however_the_threads_run() -> None:
    # With a real clock the referee thread may run before the session answers: the coach's
    # "Those are your face-up cards ... Say spit." came before the cards, and the cards last.
    harness = in_the_tutorial()
    game = harness.session.game
    assert game is not None and game.tutorial is not None
    coach, intercept = game.tutorial, game.tutorial.intercept

    def referee_runs_first(command: Command) -> bool:
        taken = intercept(command)
        harness.run(0.5)
        return taken
    coach.intercept = referee_runs_first  # type: ignore[method-assign]
    mark = len(harness.lines())
    harness.type("my cards")
    harness.run(0.5)
    told = harness.lines_since(mark)
    assert len(told) == 2 and told[0].startswith("Your cards: "), told
    assert told[1].startswith("Those are your face-up cards") and told[1].endswith("Say spit.")


def test_in_the_tutorial_only_the_coach_says_what_to_say_and_a_real_game_prompts_again() -> None:
    # The deal's own "Say ready." came just before the coach's "Say my cards.".
    harness = in_the_tutorial()
    dealt = next(line for line in harness.lines() if line.startswith("Round 1."))
    assert "Say" not in dealt, dealt
    assert harness.lines()[-1].endswith("Say my cards.")
    harness.type("quit game")
    harness.type("yes")
    harness.run(0.5)
    harness.type("new game")
    harness.run(0.5)
    assert harness.lines()[-1].startswith("Round 1.") and harness.lines()[-1].endswith(
        "Say ready.")


def test_help_during_the_tutorial_says_the_step_again() -> None:
    harness = in_the_tutorial()
    harness.type("help")
    assert harness.lines()[-1] == "Say my cards."


def test_quitting_the_tutorial_asks_first_and_counts_nothing() -> None:
    harness = in_the_tutorial()
    harness.type("tutorial")
    assert harness.lines()[-1] == "Tutorial? A game is on: say quit to stop it first."
    harness.type("quit game")
    harness.type("yes")
    harness.run(0.5)
    assert harness.lines()[-1] == ("Tutorial stopped. Say new game to play, "
                                   "or tutorial to start again.")
    assert harness.session.mode is Mode.MENU and harness.profile.games == 0
    assert not any(OVER in line for line in harness.lines())


def test_an_instruction_missed_twice_is_offered_in_another_wording() -> None:
    harness = in_the_tutorial()
    harness.type("my cards")
    harness.run(0.5)
    assert harness.lines()[-1].endswith("Say spit.")
    harness.session.handle_unheard()
    assert harness.lines()[-1] == "Say again?"
    harness.session.handle_unheard()
    assert harness.lines()[-2:] == ["Say again?",
                                    "I missed that again. Ready does the same. Say ready."]
    harness.type("ready")
    harness.run(5.0)
    assert "Spit!" in harness.lines()
