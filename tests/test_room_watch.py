"""The room watch: when the game's hushes for nobody show a room too lively to listen through."""

from __future__ import annotations

from voicespit.speech.listening.room_watch import LIMIT, WINDOW, RoomWatch


def test_the_room_is_judged_lively_at_the_limitth_false_hush_within_the_window() -> None:
    watch = RoomWatch(limit=3, window=60.0)
    assert not watch.false_hush(10.0)
    assert not watch.false_hush(30.0)
    assert watch.lively_at is None
    assert watch.false_hush(69.0)  # three within 60 s: 10, 30, 69
    assert watch.lively_at == 69.0


def test_false_hushes_spread_out_never_make_the_room_lively() -> None:
    # A player whose own first syllables now and then make the game hush for a moment is
    # not a lively room: the hushes must come close together.
    watch = RoomWatch(limit=3, window=60.0)
    assert not any(watch.false_hush(at) for at in (0.0, 40.0, 100.0, 150.0, 210.0, 260.0))
    assert watch.lively_at is None


def test_a_hush_exactly_a_window_before_no_longer_counts() -> None:
    watch = RoomWatch(limit=2, window=60.0)
    assert not watch.false_hush(0.0)
    assert not watch.false_hush(60.0)
    assert watch.false_hush(60.5)


def test_the_room_is_judged_lively_once() -> None:
    watch = RoomWatch(limit=2, window=60.0)
    assert not watch.false_hush(1.0)
    assert watch.false_hush(2.0)
    assert not watch.false_hush(3.0)
    assert not watch.false_hush(4.0)
    assert watch.lively_at == 2.0


def test_the_games_own_watch_takes_its_chosen_settings() -> None:
    watch = RoomWatch()
    assert (watch.limit, watch.window) == (LIMIT, WINDOW)
    assert not any(watch.false_hush(float(at)) for at in range(LIMIT - 1))
    assert watch.false_hush(float(LIMIT))
