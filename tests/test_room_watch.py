"""The room watch: when the game's hushes for nobody show a room too lively to listen through,
and when the game turned down or headphones put on show it calmer."""

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


def lively_watch(gain: float | None = -20.0) -> RoomWatch:
    watch = RoomWatch(limit=2, window=60.0, calmer_db=8.0)
    watch.false_hush(1.0, -25.0)
    assert watch.false_hush(2.0, gain)
    return watch


def test_the_room_is_calmer_once_the_game_reaches_the_microphone_far_less() -> None:
    # The player did as the game asked: turned it down. The echo's gain wanders by a few
    # dB, so only a fall of `calmer_db` from the gain the room was judged lively at counts
    # (the gain at that last hush, not at the first).
    watch = lively_watch(-20.0)
    assert watch.lively_gain == -20.0
    assert not watch.calmer(-24.0, True)
    assert not watch.calmer(-27.9, True)
    assert watch.lively_at is not None
    assert watch.calmer(-28.0, True)
    assert watch.lively_at is None and watch.lively_gain is None


def test_headphones_make_the_room_calmer_whatever_the_gain() -> None:
    # The microphone no longer hears the game at all (`game_reaches_microphone` false).
    assert lively_watch(-20.0).calmer(-21.0, False)
    assert lively_watch(None).calmer(None, False)


def test_a_room_judged_lively_where_the_microphone_did_not_hear_the_game_stays_so() -> None:
    # Its false hushes were other sounds' (a noisy household), not the game's echo: the
    # microphone not hearing the game is no change, and must not make the game say it
    # listens again at once, only to fall back a few minutes later.
    watch = RoomWatch(limit=1, window=60.0)
    assert watch.false_hush(1.0, -40.0, reaches=False)
    assert not watch.calmer(-40.0, False)
    assert watch.calmer(-48.0, False), "but the gain falling is a change"


def test_a_gain_never_learnt_leaves_only_headphones_to_calm_the_room() -> None:
    watch = lively_watch(None)
    assert not watch.calmer(-60.0, True)
    assert not lively_watch(-20.0).calmer(None, True)


def test_a_room_not_judged_lively_is_never_calmer() -> None:
    watch = RoomWatch(limit=2, window=60.0)
    assert not watch.calmer(-90.0, False)
    watch.false_hush(1.0, -20.0)
    assert not watch.calmer(-90.0, False)


def test_once_calmer_the_watch_counts_false_hushes_afresh() -> None:
    # Turned down but still too lively: the room is judged so again, from the new gain,
    # and only after `limit` new false hushes (those before the calm count for nothing).
    watch = lively_watch(-20.0)
    assert watch.calmer(-30.0, True)
    assert not watch.false_hush(3.0, -30.0)
    assert watch.false_hush(4.0, -31.0)
    assert watch.lively_at == 4.0 and watch.lively_gain == -31.0
    assert not watch.calmer(-35.0, True)
    assert watch.calmer(-39.0, True)
