"""The simulated human (voicespit/opponent/simulated_human.py): a pace, misses, wrong words."""

from __future__ import annotations

import random
import statistics

import pytest

from tests.match_helpers import new_table
from voicespit.engine.state import Phase
from voicespit.match.events import IntentRefused
from voicespit.match.reaction_meter import ReactionMeter
from voicespit.opponent import FixedPace, HumanModel, Opponent, SimulatedHuman


def test_its_reactions_average_to_its_pace_misses_included() -> None:
    table = new_table()
    human = SimulatedHuman(table.match, HumanModel(2.0, miss_rate=0.2), random.Random(3))
    delays = [human.reaction_delay(Phase.PLAY) for _ in range(20_000)]
    assert statistics.fmean(delays) == pytest.approx(2.0, rel=0.03)
    assert max(delays) > 2.5 * statistics.median(delays), "a missed card takes a while"


def test_now_and_then_it_lapses_for_much_longer_on_top_of_its_pace() -> None:
    table = new_table()
    model = HumanModel(1.5, lapse_rate=0.1, lapse_seconds=20.0)
    human = SimulatedHuman(table.match, model, random.Random(3))
    delays = [human.reaction_delay(Phase.PLAY) for _ in range(20_000)]
    noticed = [delay for delay in delays if delay < 10.0]
    assert len(noticed) / len(delays) == pytest.approx(0.9, abs=0.01)
    assert statistics.fmean(noticed) == pytest.approx(1.5, rel=0.03)
    assert statistics.fmean(delays) == pytest.approx(1.5 + 0.1 * 20.0, rel=0.05)


def test_it_says_commands_ahead_of_their_landing_but_never_longer_than_it_has() -> None:
    table = new_table()
    human = SimulatedHuman(table.match, HumanModel(2.0, command_seconds=0.8), random.Random(3))
    assert human.execution_seconds(3.0) == 0.8
    assert human.execution_seconds(1.0) == pytest.approx(0.6)


def test_in_a_match_its_wrong_commands_are_refused_and_its_pace_is_measured() -> None:
    table = new_table(seed=6, start=False)
    meter = ReactionMeter(table.match)
    Opponent(table.match, FixedPace(2.0), random.Random(1), meter=meter)
    human = SimulatedHuman(table.match, HumanModel(2.0, wrong_rate=0.1), random.Random(2))
    table.match.start()
    table.match.run_until_over()
    misplaced = [r for r in table.events(IntentRefused)
                 if r.player == 0 and not r.too_late and "cannot go there" in r.reason]
    assert human.wrong_commands > 0
    # Most wrong commands name a card for a pile it does not fit; a wrong slap
    # (the bigger pile) is legal, just bad.
    assert human.wrong_commands >= len(misplaced) >= 0.75 * human.wrong_commands
    assert meter.mean(0) == pytest.approx(2.0, rel=0.3)
