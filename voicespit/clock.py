"""Time, injected: the real monotonic clock and a fake one for tests.

Every component that waits takes a `Clock`, so tests drive a `FakeClock` and run
whole matches in milliseconds, deterministically. Timers are scheduled against
an absolute due time, so they never drift.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable
from typing import Protocol

log = logging.getLogger(__name__)


class Timer(Protocol):
    due: float
    """The clock time at which the callback runs."""

    def cancel(self) -> None:
        """Stop the callback from running; harmless if it already ran."""
        ...


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on a monotonic scale (only differences mean anything)."""
        ...

    def call_at(self, due: float, callback: Callable[[], None]) -> Timer:
        """Run `callback` once the clock reaches `due` (on the clock's own thread)."""
        ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        """Run `callback` after `delay` seconds."""
        ...


class _ScheduledCall:
    __slots__ = ("callback", "cancelled", "due", "order")

    def __init__(self, due: float, order: int, callback: Callable[[], None]) -> None:
        self.due = due
        self.order = order
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def __lt__(self, other: _ScheduledCall) -> bool:
        return (self.due, self.order) < (other.due, other.order)


class FakeClock:
    """A clock that moves only when told to: `advance` runs due timers in time order.

    Callbacks run on the thread that calls `advance`, with `now()` set to their
    due time, so a callback that schedules another timer sees consistent time.
    """

    def __init__(self, start: float = 0.0) -> None:
        self._now = start
        self._queue: list[_ScheduledCall] = []
        self._order = itertools.count()
        self._lock = threading.RLock()

    def now(self) -> float:
        return self._now

    def call_at(self, due: float, callback: Callable[[], None]) -> Timer:
        with self._lock:
            call = _ScheduledCall(due, next(self._order), callback)
            heapq.heappush(self._queue, call)
            return call

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        return self.call_at(self._now + max(0.0, delay), callback)

    def advance(self, seconds: float) -> None:
        """Move time forward by `seconds`, running every timer that falls due."""
        self.advance_to(self._now + seconds)

    def advance_to(self, target: float) -> None:
        while True:
            with self._lock:
                if not self._queue or self._queue[0].due > target:
                    self._now = max(self._now, target)
                    return
                call = heapq.heappop(self._queue)
                if call.cancelled:
                    continue
                self._now = max(self._now, call.due)
            call.callback()

    def run_next(self) -> bool:
        """Jump to the next pending timer and run it; False when none is pending."""
        with self._lock:
            while self._queue and self._queue[0].cancelled:
                heapq.heappop(self._queue)
            if not self._queue:
                return False
            due = self._queue[0].due
        self.advance_to(due)
        return True

    @property
    def pending(self) -> int:
        with self._lock:
            return sum(1 for call in self._queue if not call.cancelled)


class RealClock:
    """`time.monotonic`, with timers run by one daemon thread per clock.

    Every callback of one clock runs on that clock's thread, one at a time, so a
    component that does all its work in callbacks needs no locks of its own. A
    callback that raises is logged and the thread carries on: one bad timer must
    not stop every later one.
    """

    def __init__(self, name: str = "clock") -> None:
        self._name = name
        self._queue: list[_ScheduledCall] = []
        self._order = itertools.count()
        self._wakeup = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False

    def now(self) -> float:
        return time.monotonic()

    def call_at(self, due: float, callback: Callable[[], None]) -> Timer:
        with self._wakeup:
            call = _ScheduledCall(due, next(self._order), callback)
            if self._closed:
                call.cancel()
                return call
            heapq.heappush(self._queue, call)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
            self._wakeup.notify()
            return call

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        return self.call_at(self.now() + max(0.0, delay), callback)

    @property
    def is_clock_thread(self) -> bool:
        """True when called from inside one of this clock's callbacks."""
        return threading.current_thread() is self._thread

    def close(self, timeout: float = 2.0) -> None:
        """Drop every pending timer and stop the thread (waits for a running callback)."""
        with self._wakeup:
            self._closed = True
            self._queue.clear()
            self._wakeup.notify()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._wakeup:
                while not self._closed and (not self._queue or self._queue[0].cancelled):
                    if self._queue:
                        heapq.heappop(self._queue)
                        continue
                    self._wakeup.wait()
                if self._closed:
                    return
                wait = self._queue[0].due - time.monotonic()
                if wait > 0:
                    self._wakeup.wait(wait)
                    continue
                call = heapq.heappop(self._queue)
            try:
                call.callback()
            except Exception:
                log.exception("a timer callback on %s failed", self._name)


class _PausableTimer:
    __slots__ = ("_armed", "_callback", "_clock", "cancelled", "due")

    def __init__(self, clock: PausableClock, due: float, callback: Callable[[], None]) -> None:
        self._clock = clock
        self.due = due
        self._callback = callback
        self._armed: Timer | None = None
        self.cancelled = False

    def cancel(self) -> None:
        self._clock._forget(self)

    def _fire(self) -> None:
        if self._clock._claim(self):
            self._callback()


class PausableClock:
    """Game time: a view of another clock that stands still while paused.

    `now()` leaves out the time spent paused, and every timer set through this
    clock freezes with it: `pause()` holds them all, `resume()` lets them run on
    with the time they had left. This is how a paused match freezes the
    countdown, the slap window and every player's reaction at once.
    """

    def __init__(self, base: Clock) -> None:
        self.base = base
        self._lock = threading.RLock()
        self._paused_for = 0.0
        """Base-clock seconds spent paused, summed over every finished pause."""
        self._paused_at: float | None = None
        self._timers: set[_PausableTimer] = set()

    @property
    def is_paused(self) -> bool:
        return self._paused_at is not None

    def now(self) -> float:
        with self._lock:
            base_now = self._paused_at if self._paused_at is not None else self.base.now()
            return base_now - self._paused_for

    def call_at(self, due: float, callback: Callable[[], None]) -> Timer:
        timer = _PausableTimer(self, due, callback)
        with self._lock:
            self._timers.add(timer)
            if self._paused_at is None:
                self._arm(timer)
        return timer

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        return self.call_at(self.now() + max(0.0, delay), callback)

    def pause(self) -> None:
        with self._lock:
            if self._paused_at is not None:
                return
            self._paused_at = self.base.now()
            for timer in self._timers:
                if timer._armed is not None:
                    timer._armed.cancel()
                    timer._armed = None

    def resume(self) -> None:
        with self._lock:
            if self._paused_at is None:
                return
            self._paused_for += self.base.now() - self._paused_at
            self._paused_at = None
            for timer in sorted(self._timers, key=lambda timer: timer.due):
                self._arm(timer)

    def cancel_all(self) -> None:
        """Drop every pending timer (the match is over)."""
        with self._lock:
            for timer in list(self._timers):
                self._forget(timer)

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._timers)

    def _arm(self, timer: _PausableTimer) -> None:
        timer._armed = self.base.call_at(timer.due + self._paused_for, timer._fire)

    def _forget(self, timer: _PausableTimer) -> None:
        with self._lock:
            timer.cancelled = True
            self._timers.discard(timer)
            if timer._armed is not None:
                timer._armed.cancel()
                timer._armed = None

    def _claim(self, timer: _PausableTimer) -> bool:
        """Whether a base timer that went off may run its callback now (exactly once)."""
        with self._lock:
            # A pause that raced the base timer wins: the timer runs after resume.
            if timer.cancelled or self._paused_at is not None or timer not in self._timers:
                return False
            self._timers.discard(timer)
            timer._armed = None
            return True
