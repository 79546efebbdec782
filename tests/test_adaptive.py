"""The adaptive pace (voicespit/opponent/adaptive.py): follows the human, steered by results."""

import pytest

from voicespit.opponent.adaptive import AdaptivePace


def test_it_starts_at_its_initial_pace_and_then_follows_the_human() -> None:
    pace = AdaptivePace(initial_seconds=3.0)
    assert pace.seconds_per_card == 3.0
    for _ in range(50):
        pace.observe_reaction(1.5)
    assert pace.seconds_per_card == pytest.approx(1.5)
    for _ in range(200):
        pace.observe_reaction(5.0)
    assert pace.seconds_per_card == pytest.approx(5.0, rel=0.01)


def test_one_very_slow_play_does_not_make_it_lurch() -> None:
    pace = AdaptivePace()
    for _ in range(100):
        pace.observe_reaction(2.0)
    pace.observe_reaction(120.0)  # the player answered the door
    assert pace.seconds_per_card < 2.0 * 1.2


def test_gaining_ground_slows_it_and_losing_ground_quickens_it_a_little_at_a_time() -> None:
    pace = AdaptivePace(initial_seconds=2.0)
    pace.start_game()
    pace.observe_outlook(0.7)  # the opponent pulled ahead this round
    slower = pace.seconds_per_card
    assert 2.0 < slower < 2.0 * 1.05
    pace.observe_outlook(0.3)
    assert pace.seconds_per_card < 2.0
    pace.observe_outlook(1.0)  # it won the game
    assert pace.seconds_per_card == pytest.approx(2.0 * pace.ratio)
    assert pace.ratio == pytest.approx(2.718281828 ** (0.15 * 0.5)), \
        "over a game the nudges add up to the result less one half, no more"


def test_at_the_target_rate_the_nudges_cancel_out() -> None:
    pace = AdaptivePace(target_win_rate=0.25, initial_seconds=2.0)
    for game in range(400):
        pace.start_game()
        pace.observe_outlook(1.0 if game % 4 == 0 else 0.0)
    assert pace.ratio == pytest.approx(1.0)


def test_it_never_leaves_its_floor_and_ceiling_and_turns_at_once_from_a_limit() -> None:
    pace = AdaptivePace(floor=0.5, ceiling=8.0, initial_seconds=2.0)
    for _ in range(500):
        pace.start_game()
        pace.observe_outlook(0.0)
    assert pace.seconds_per_card == 0.5
    pace.start_game()
    pace.observe_outlook(1.0)
    assert pace.seconds_per_card > 0.5, "no wind-up below the floor"
    for _ in range(500):
        pace.start_game()
        pace.observe_outlook(1.0)
        pace.change(faster=False)
    assert pace.seconds_per_card == 8.0


def test_faster_and_slower_requests_move_it_by_a_step() -> None:
    pace = AdaptivePace(initial_seconds=2.0)
    assert pace.change(faster=True) == pytest.approx(1.6)


def test_a_target_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(ValueError, match="target win rate"):
        AdaptivePace(target_win_rate=1.0)
