"""The opponent's judgement (voicespit/opponent/strategy.py)."""

from __future__ import annotations

import random

from tests.match_helpers import new_table
from voicespit.engine import Rules
from voicespit.engine import actions as act
from voicespit.engine.state import Phase
from voicespit.opponent import FixedPace, HumanModel, random_choice, sensible_choice
from voicespit.simulation.realtime import simulate_realtime


def test_at_the_end_of_a_round_it_slaps_the_smaller_pile() -> None:
    table = new_table(seed=5)
    table.play_until(lambda state: state.phase is Phase.ROUND_OVER)
    state = table.state
    sizes = [len(pile) for pile in state.piles]
    choice = sensible_choice(state, 1, state.legal_actions(1), random.Random(1))
    assert isinstance(choice, act.Slap)
    assert sizes[choice.pile] == min(sizes)


def test_with_manual_turning_up_it_turns_face_down_cards_first() -> None:
    table = new_table(seed=5, variants=("auto_turn_up=false",))
    table.play_until(lambda state: any(isinstance(a, act.TurnUp)
                                       for a in state.legal_actions(1)))
    state = table.state
    choice = sensible_choice(state, 1, state.legal_actions(1), random.Random(1))
    assert isinstance(choice, act.TurnUp)


def test_it_beats_a_random_player_at_equal_pace() -> None:
    # The same reaction times and no flaws on either side: only judgement differs.
    equal = HumanModel(2.0, miss_rate=0.0, wrong_rate=0.0, command_seconds=0.25)
    result = simulate_realtime(Rules.for_game("spit"), 60, 4, equal, FixedPace(2.0),
                               human_strategy=random_choice, opponent_strategy=sensible_choice)
    assert result.errors == 0
    assert result.winners["1"] / result.games >= 0.7
