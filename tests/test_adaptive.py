"""The adaptive pace (voicespit/opponent/adaptive.py): follows the human, steered by results."""

import statistics

import pytest

from voicespit.engine import Rules
from voicespit.opponent import HumanModel
from voicespit.opponent.adaptive import AdaptivePace
from voicespit.simulation.realtime import pace_at_card


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


def test_a_long_lapse_among_the_first_plays_does_not_hold_it_back() -> None:
    # The first card of a match went unnoticed for half a minute; then the player
    # answers in a second and a half. By the tenth card it keeps their pace.
    pace = AdaptivePace(initial_seconds=3.0)
    for seconds in [30.0] + [1.5] * 9:
        pace.observe_reaction(seconds)
    assert pace.seconds_per_card == pytest.approx(1.5, rel=0.25)


@pytest.mark.parametrize("learned", [0.5, 3.0, 15.0])
def test_it_meets_the_player_within_ten_cards_from_any_starting_pace(learned: float) -> None:
    pace = AdaptivePace(initial_seconds=learned, floor=0.5, ceiling=15.0)
    for seconds in [1.5, 1.2, 2.4, 1.1, 20.0, 1.6, 1.3, 1.9, 1.4, 1.5]:
        pace.observe_reaction(seconds)
    assert pace.seconds_per_card == pytest.approx(1.5, rel=0.25)


def test_it_keeps_adapting_when_the_player_speeds_up_within_a_match() -> None:
    pace = AdaptivePace()
    for _ in range(60):
        pace.observe_reaction(3.0)
    for _ in range(15):
        pace.observe_reaction(1.5)
    assert pace.seconds_per_card == pytest.approx(1.5, rel=0.15)


def test_in_first_matches_it_is_near_the_players_pace_by_the_tenth_card() -> None:
    # Whole first matches on the fake clock against a player who now and then misses
    # a card for twenty seconds (benchmarks/pace.py --first-match has the full figures).
    human = HumanModel(1.5, lapse_rate=0.1)
    ratios = []
    for seed in range(5):
        at_ten = pace_at_card(Rules.for_game("spit"), 500 + seed, human, AdaptivePace())
        assert at_ten is not None
        ratios.append(at_ten / human.seconds_per_card)
    assert 0.75 <= statistics.median(ratios) <= 1.25, ratios
