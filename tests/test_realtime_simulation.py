"""Simulated sessions on a fake clock (voicespit/simulation/realtime.py): the pace targets."""

from __future__ import annotations

import pytest

from voicespit.engine import Rules
from voicespit.opponent import AdaptivePace, FixedPace, HumanModel
from voicespit.simulation.realtime import simulate_realtime

SPIT = Rules.for_game("spit")
RUN_DEPENDENT = {"seconds", "games_per_second", "actions_per_second"}


def test_a_session_reports_its_figures_and_repeats_exactly_from_its_seed() -> None:
    runs = [simulate_realtime(SPIT, 6, 3, HumanModel(2.0), FixedPace(2.0), check=True)
            for _ in range(2)]
    first, again = ({k: v for k, v in run.as_json().items() if k not in RUN_DEPENDENT}
                    for run in runs)
    assert first == again
    assert first["errors"] == 0 and first["games"] == 6
    for key in ("opponent_win_rate", "human_mean_seconds_per_card",
                "opponent_mean_seconds_per_card", "contested"):
        assert first[key] is not None
    assert sum(runs[0].winners.values()) == 6


@pytest.mark.parametrize("name", ["relaxed", "fast"])
def test_a_named_pace_is_measured_within_15_percent_of_its_nominal_value(name: str) -> None:
    pace = FixedPace.named(name)
    result = simulate_realtime(SPIT, 16, 5, HumanModel(pace.seconds_per_card), pace)
    measured = result.as_json()["opponent_mean_seconds_per_card"]
    assert isinstance(measured, float)
    assert measured == pytest.approx(pace.seconds_per_card, rel=0.15)


def test_the_adaptive_opponent_settles_near_an_even_match_and_the_humans_pace() -> None:
    human = HumanModel(2.5)
    result = simulate_realtime(SPIT, 60, 9, human, AdaptivePace())
    summary = result.as_json()
    win_rate, human_pace, its_pace = (summary[key] for key in (
        "opponent_win_rate", "human_mean_seconds_per_card", "opponent_mean_seconds_per_card"))
    assert isinstance(win_rate, float) and isinstance(human_pace, float)
    assert isinstance(its_pace, float)
    # 30 games decide the rate, so this small version allows for chance (the
    # 200-game figure is benchmarks/pace.py's); a pace stuck anywhere else fails it.
    assert 0.25 <= win_rate <= 0.75
    assert 1 / 1.6 <= its_pace / human_pace <= 1.6


def test_speed_plays_through_in_real_time_too() -> None:
    result = simulate_realtime(Rules.for_game("speed"), 4, 2, HumanModel(1.5), FixedPace(1.5),
                               check=True)
    assert result.errors == 0 and result.games == 4, result.error_messages
