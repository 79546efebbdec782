"""Reaction delays and the practice paces (voicespit/opponent/pace.py)."""

import random
import statistics

import pytest

from voicespit.opponent.pace import NAMED_PACES, FixedPace, reaction_delay


@pytest.mark.parametrize("mean", [1.0, 3.5, 6.0])
def test_reaction_delays_average_to_the_pace_with_a_human_spread(mean: float) -> None:
    rng = random.Random(1)
    delays = [reaction_delay(mean, 0.35, rng) for _ in range(20_000)]
    assert statistics.fmean(delays) == pytest.approx(mean, rel=0.02)
    spread = statistics.pstdev(delays) / statistics.fmean(delays)
    assert 0.3 < spread < 0.42, "never a metronome, never wild"
    assert statistics.median(delays) < statistics.fmean(delays), "slow outliers, no fast ones"
    assert min(delays) > 0.2 * mean


def test_delays_repeat_exactly_from_the_same_seed() -> None:
    first = [reaction_delay(2.0, 0.35, random.Random(5)) for _ in range(3)]
    again = [reaction_delay(2.0, 0.35, random.Random(5)) for _ in range(3)]
    assert first == again


def test_a_zero_pace_means_no_delay_at_all() -> None:
    assert FixedPace(0.0).delay(random.Random(1)) == 0.0


def test_named_paces_go_from_gentle_to_fast() -> None:
    seconds = [FixedPace.named(name).seconds_per_card for name in NAMED_PACES]
    assert seconds == sorted(seconds, reverse=True) == [6.0, 3.5, 2.0, 1.0]
    with pytest.raises(ValueError, match="unknown pace 'zippy'"):
        FixedPace.named("zippy")


def test_faster_and_slower_step_the_pace_by_a_quarter() -> None:
    pace = FixedPace.named("brisk")
    assert pace.change(faster=True) == pytest.approx(1.6)
    assert pace.change(faster=False) == pytest.approx(2.0)
    assert pace.change(faster=False) == pytest.approx(2.5)
