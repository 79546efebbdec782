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
    CrossCheck,
    WindowScores,
    averaged,
    choice_of,
    choose,
    log_sum,
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
    choice = choose(window([-1.0, -1.0, -0.5, -9, -1.0, -9, -9, -9]), TABLE)
    # ace on left: three forms at -1 pool to about -1 + log 3, ahead of eight's single -0.5.
    assert choice.sentence in ("ace on left", "ace on the left")
    ace, eight = log_sum(np.array([-1.0, -1.0, -1.0, -9.0])), log_sum(np.array([-0.5, -9.0]))
    assert choice.margin == pytest.approx(ace - eight) and ace - eight > 0.5


def test_the_margin_is_the_lead_over_the_runner_up_of_any_verb() -> None:
    # new game runs second, eight on left third, further behind still.
    choice = choose(window([-1.0, -9, -6.0, -9, -9, -9, -3.0, -9]), TABLE)
    assert choice.sentence == "ace on left"
    assert choice.margin == pytest.approx(2.0, abs=0.1)


def test_a_command_other_than_the_best_is_chosen_with_the_lead_it_lacks() -> None:
    # eight on left leads ace by 0.5 (a near tie PocketSphinx may break for ace).
    scores = window([-1.5, -9, -1.0, -9, -9, -9, -6.0, -9])
    eight, ace = TABLE.group_of(Command.play(7, 0)), TABLE.group_of(Command.play(0, 0))
    assert eight is not None and ace is not None
    assert choose(scores, TABLE) == choice_of(scores, TABLE, eight)
    broken = choice_of(scores, TABLE, ace)
    assert broken.sentence == "ace on left"
    assert broken.margin == pytest.approx(-0.5, abs=0.01)
    assert broken.runner_up == Command.play(7, 0)
    assert broken.confidence < 0.5 < choose(scores, TABLE).confidence
    assert TABLE.group_of(Command(Verb.SPIT)) is None


def test_the_choice_names_its_runner_up_and_counts_close_rivals() -> None:
    # new game 1.9 behind, eight on left 5 behind: one rival within 2.0 (`CLOSE`).
    choice = choose(window([-1.0, -9, -6.0, -9, -9, -9, -2.9, -9]), TABLE)
    assert choice.runner_up == Command(Verb.NEW_GAME)
    assert choice.close_rivals == 1
    assert choose(window([-1.0, -9, -6.0, -9, -9, -9, -3.5, -9]), TABLE).close_rivals == 0


def test_a_pruned_command_counts_as_close_as_it_could_be() -> None:
    # eight on left was pruned (more than 4 behind the best): it trails by at most 4.
    pruned = window([-1.0, -math.inf, -math.inf, -math.inf, -math.inf, -math.inf, -3,
                     -math.inf], within=4.0)
    choice = choose(pruned, TABLE)
    assert choice.sentence == "ace on left"
    assert choice.margin == pytest.approx(2.0), "new game, 2 behind, is the runner-up"
    alone = window([-1.0, -math.inf, -math.inf, -math.inf, -math.inf, -math.inf, -math.inf,
                    -math.inf], within=4.0)
    assert choose(alone, TABLE).margin == pytest.approx(4.0), "not infinity"


def test_a_second_look_averages_the_windows_and_keeps_what_either_pruned_pruned() -> None:
    first = window([-1.0, -3.0, -2.0, -math.inf, -5.0, -5.0, -6.0, -6.0], within=6.0)
    second = window([-3.0, -3.0, -1.0, -4.0, -5.0, -7.0, -6.0, -6.0], within=5.0)
    both = averaged([first, second], TABLE)
    assert both.totals.tolist() == [-2.0, -3.0, -1.5, -math.inf, -5.0, -6.0, -6.0, -6.0]
    assert both.deficits[3] == math.inf and both.deficits[0] == 0.0
    assert both.pooled.tolist() == TABLE.pool(both.totals).tolist()
    assert both.within == 5.0, "the narrower pruning bounds what the average knows"
    # The first window alone prefers ace on left; eight on left holds better across both.
    assert choose(averaged([first, first], TABLE), TABLE).sentence == "ace on left"
    assert choose(both, TABLE).sentence == "eight on left"


def test_the_cross_check_sets_the_margin_by_what_pocketsphinx_heard() -> None:
    check = CrossCheck(agreed_margin=0.5, disputed_move_margin=2.5, disputed_margin=2.0,
                       unheard_move_margin=1.5, longer_move_margin=math.inf)
    assert check.needed("seven on left", "seven on the left", 1.25) == 0.5, "the same play"
    assert check.needed("seven on left", "flip", 1.25) == 2.5
    assert check.needed("two", "move two to four", 1.25) == math.inf, \
        "a one-word answer where PocketSphinx heard a longer command is refused"
    assert check.needed("show me the piles", "flip", 1.25) == 2.0
    assert check.needed("seven on left", "", 1.25) == 1.5
    assert check.needed("show me the piles", "", 1.25) == 1.25, "Whisper alone decides"
    assert check.needed("what time is it", "", 1.25) == 1.25


def test_a_talk_word_refuses_when_it_leads_and_never_narrows_a_commands_lead() -> None:
    # "four right" and the talk word "alright", a consonant apart; "new game" far behind.
    table = CommandTable.build(["four right", "new game", "alright"], [0, 0, 1, 2, 2],
                               talk=["alright"])
    assert list(table.talk) == [False, False, True] and table.commands[2] is None

    def scored(totals: list[float]) -> WindowScores:
        values = np.asarray(totals, dtype=np.float64)
        return WindowScores(values, np.zeros(len(values)), table.pool(values))

    talk_ahead = scored([-3.0, -9.0, -8.0, -1.0, -9.0])
    assert table.talk_leads(talk_ahead) == 2
    command_ahead = scored([-1.0, -9.0, -8.0, -1.5, -9.0])
    assert table.talk_leads(command_ahead) is None
    # Its lead is over "new game", the best other command, not over the talk word.
    choice = choose(table.without_talk(command_ahead), table)
    assert choice.sentence == "four right"
    assert choice.margin == pytest.approx(log_sum(np.array([-1.0, -9.0])) + 8.0)
    # A table with no talk words leaves the window as it is.
    assert TABLE.without_talk(window([-1.0] * 8)).pooled.tolist() == TABLE.pool(
        np.full(8, -1.0)).tolist()
