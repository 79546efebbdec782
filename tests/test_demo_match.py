"""The demo match: computer versus computer at a human pace, waiting to be heard."""

from __future__ import annotations

import itertools

from voicespit.audio.demo_match import DemoMatch
from voicespit.clock import FakeClock
from voicespit.engine import Rules
from voicespit.engine.events import GameOver, RoundOver
from voicespit.match_events import IntentRefused, SlapWindowOpened, SpitCountdown, Stamped


def play_out(game: str, seed: int, hear_after: float = 0.0) -> tuple[DemoMatch, list[Stamped]]:
    """A whole game where each event is 'heard' `hear_after` seconds after it is published."""
    clock = FakeClock()
    match = DemoMatch(Rules.for_game(game, ()), seed, clock)
    published: list[Stamped] = []

    def on_event(stamped: Stamped) -> None:
        published.append(stamped)
        clock.call_later(hear_after, lambda: match.announcement_finished(stamped.sequence))

    match.subscribe(on_event)
    match.start()
    while clock.run_next():
        assert clock.now() < 24 * 3600
    return match, published


def test_a_whole_spit_game_is_played_to_the_end_in_order() -> None:
    match, published = play_out("spit", 7)
    assert match.is_over and isinstance(published[-1].event, GameOver)
    assert [s.sequence for s in published] == list(range(1, len(published) + 1))
    assert all(a.time <= b.time for a, b in itertools.pairwise(published))


def test_a_spit_round_ends_with_a_slap_window_naming_the_smaller_pile() -> None:
    _, published = play_out("spit", 3)
    events = [s.event for s in published]
    ends = [i for i, e in enumerate(events) if isinstance(e, RoundOver)]
    assert ends
    windows = [e for e in events if isinstance(e, SlapWindowOpened)]
    assert len(windows) >= len(ends) - 1  # a one-pile round settles without a slap


def test_every_spit_is_counted_down_three_two_one() -> None:
    _, published = play_out("speed", 2)
    counts = [s.event.seconds_left for s in published if isinstance(s.event, SpitCountdown)]
    assert counts and counts == [3, 2, 1] * (len(counts) // 3)


def test_a_move_that_lost_the_race_is_refused_as_too_late() -> None:
    _, published = play_out("spit", 7)
    refused = [s.event for s in published if isinstance(s.event, IntentRefused)]
    assert refused and all(r.too_late for r in refused)


def test_nobody_moves_before_the_news_is_heard() -> None:
    clock = FakeClock()
    match = DemoMatch(Rules.for_game("spit", ()), 1, clock)
    published: list[Stamped] = []
    match.subscribe(published.append)
    match.start()
    assert not clock.run_next(), "nothing is scheduled until the deal has been heard"
    match.announcement_finished(published[-1].sequence)
    assert clock.pending == 1 and isinstance(published[-1].event, SpitCountdown)
