"""Time, injected: the fake clock, the pausable match clock and the real clock."""

import threading
import time

from voicespit.clock import FakeClock, PausableClock, RealClock


def test_a_fake_clock_runs_due_timers_in_time_order_with_now_at_their_due_time() -> None:
    clock = FakeClock()
    seen: list[tuple[str, float]] = []
    clock.call_later(2.0, lambda: seen.append(("second", clock.now())))
    clock.call_later(1.0, lambda: seen.append(("first", clock.now())))
    clock.call_later(5.0, lambda: seen.append(("later", clock.now())))
    clock.advance(3.0)
    assert seen == [("first", 1.0), ("second", 2.0)]
    assert clock.now() == 3.0 and clock.pending == 1


def test_a_cancelled_timer_never_runs() -> None:
    clock = FakeClock()
    seen: list[int] = []
    timer = clock.call_later(1.0, lambda: seen.append(1))
    timer.cancel()
    assert not clock.run_next()
    clock.advance(10)
    assert seen == []


def test_a_paused_clock_stands_still_and_freezes_its_timers() -> None:
    base = FakeClock()
    clock = PausableClock(base)
    fired: list[float] = []
    clock.call_later(2.0, lambda: fired.append(clock.now()))
    base.advance(1.5)
    clock.pause()
    base.advance(100.0)
    assert fired == [] and clock.now() == 1.5
    clock.resume()
    base.advance(0.4)
    assert fired == []
    base.advance(0.1)
    assert fired == [2.0], "the timer ran with the half second it had left"
    assert base.now() == 101.5 + 0.5 and clock.now() == 2.0


def test_timers_set_while_paused_wait_for_resume_and_cancel_all_drops_everything() -> None:
    base = FakeClock()
    clock = PausableClock(base)
    clock.pause()
    fired: list[str] = []
    clock.call_later(0.0, lambda: fired.append("set while paused"))
    base.advance(10)
    assert fired == []
    clock.resume()
    base.advance(0)
    assert fired == ["set while paused"]
    clock.call_later(1.0, lambda: fired.append("dropped"))
    clock.cancel_all()
    base.advance(10)
    assert fired == ["set while paused"] and clock.pending == 0 and base.pending == 0


def test_the_real_clock_runs_callbacks_on_its_own_thread_and_survives_a_failing_one() -> None:
    clock = RealClock(name="test-clock")
    done = threading.Event()
    threads: list[bool] = []

    def fail() -> None:
        raise RuntimeError("a broken timer")

    def record() -> None:
        threads.append(clock.is_clock_thread)
        done.set()
    started = time.monotonic()
    clock.call_later(0.0, fail)
    clock.call_later(0.05, record)
    assert done.wait(2.0), "the timer after a failing one still ran"
    assert threads == [True]
    assert time.monotonic() - started >= 0.05
    clock.close()
