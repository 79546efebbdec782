"""Choosing a command from Whisper's scores (voicespit/speech/whisper_choice.py).

The scores here are made up on purpose: the rule is arithmetic over them, and the
recognizer's tests run it on real audio.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from voicespit.speech.language.commands import Command, Verb
from voicespit.speech.recognizers.whisper_choice import (
    CommandTable,
    WindowScores,
    choose,
    confusable_ranks,
    log_sum,
    one_slot_apart,
)

SENTENCES = ["ace on left", "eight on left", "ace on the left", "new game"]
# Two written forms per sentence: forms 2k and 2k+1 write sentence k.
TABLE = CommandTable.build(SENTENCES, [0, 0, 1, 1, 2, 2, 3, 3])


def window(totals: list[float], within: float = 8.0) -> WindowScores:
    values = np.asarray(totals, dtype=np.float64)
    return WindowScores(values, np.zeros(len(values)), TABLE.pool(values), within=within)


def test_sentences_meaning_one_command_are_one_group() -> None:
    # "ace on left" and "ace on the left" are the same play.
    assert len(TABLE.groups) == 3
    assert TABLE.commands[0] == Command.play(0, 0)


def test_the_forms_of_a_command_pool_their_probability() -> None:
    choice = choose([window([-1.0, -1.0, -0.5, -9, -1.0, -9, -9, -9])], TABLE)
    # ace on left: three forms at -1 pool to about -1 + log 3, ahead of eight's single -0.5.
    assert choice.sentence in ("ace on left", "ace on the left")
    ace, eight = log_sum(np.array([-1.0, -1.0, -1.0, -9.0])), log_sum(np.array([-0.5, -9.0]))
    assert choice.margin == pytest.approx(ace - eight) and ace - eight > 0.5


def test_a_command_one_slot_away_needs_the_slot_margin() -> None:
    choice = choose([window([-1.0, -9, -3.0, -9, -9, -9, -9, -9])], TABLE)
    assert choice.slot_lead == choice.margin and 1.0 < choice.margin < 4.0
    assert choice.is_sure(1.0, None) and not choice.is_sure(1.0, 4.0)


def test_the_slot_margin_looks_past_a_runner_up_of_another_verb() -> None:
    # new game runs second, well behind; eight on left third, further behind still.
    choice = choose([window([-1.0, -9, -6.0, -9, -9, -9, -3.0, -9])], TABLE)
    assert choice.sentence == "ace on left"
    assert choice.margin == pytest.approx(2.0, abs=0.1)
    assert choice.slot_lead == pytest.approx(5.0, abs=0.1)
    assert choice.is_sure(1.0, 4.0) and not choice.is_sure(3.0, None)


def test_windows_are_averaged_and_a_pruned_command_counts_as_close_as_it_could_be() -> None:
    first = window([-1.0, -math.inf, -2.0, -math.inf, -math.inf, -math.inf, -5, -math.inf])
    # In the second window eight was pruned (more than 4 behind its best).
    second = window([-1.0, -math.inf, -math.inf, -math.inf, -math.inf, -math.inf, -3,
                     -math.inf], within=4.0)
    choice = choose([first, second], TABLE)
    # eight: -2 in the first, at best -5 in the second: a lead of (1 + 4) / 2, not infinity.
    assert choice.margin == pytest.approx(2.5)


def test_one_slot_apart_is_the_same_verb_with_one_slot_changed() -> None:
    assert one_slot_apart(Command.play(0, 0), Command.play(7, 0))
    assert one_slot_apart(Command.play(0, 0), Command.play(0, 1))
    assert not one_slot_apart(Command.play(0, 0), Command.play(7, 1))
    assert not one_slot_apart(Command.play(4), Command(Verb.FLIP, stock=4))
    assert one_slot_apart(Command(Verb.FLIP, stock=4), Command(Verb.FLIP, stock=2))
    assert not one_slot_apart(Command.play(0, 0), None)


def test_ace_heard_over_eight_needs_the_confusable_margin() -> None:
    # eight on left 3 behind ace on left: a lead the plain margin takes, the ace/eight
    # pair does not.
    choice = choose([window([-1.0, -9, -4.0, -9, -9, -9, -9, -9])], TABLE)
    assert choice.confusable_lead == choice.slot_lead == pytest.approx(3.0, abs=0.01)
    assert choice.is_sure(1.5, None) and not choice.is_sure(1.5, None, 4.0)


def test_only_ace_and_eight_are_confusable_ranks() -> None:
    assert confusable_ranks(Command.play(0, 0), Command.play(7, 0))
    assert confusable_ranks(Command.play(7), Command.play(0))
    assert not confusable_ranks(Command.play(0, 0), Command.play(7, 1))
    assert not confusable_ranks(Command.play(2, 0), Command.play(5, 0))
    assert not confusable_ranks(Command(Verb.FLIP, stock=0), Command(Verb.FLIP, stock=7))
