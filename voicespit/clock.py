"""Time, injected: the real monotonic clock and a fake one for tests.

Every component that waits takes a `Clock`, so tests drive a `FakeClock` and run
whole matches in milliseconds, deterministically. Timers are scheduled against
an absolute due time, so they never drift.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections.abc import Callable
from typing import Protocol


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
    """`time.monotonic`, with timers run by one daemon thread per clock."""

    def __init__(self) -> None:
        self._queue: list[_ScheduledCall] = []
        self._order = itertools.count()
        self._wakeup = threading.Condition()
        self._thread: threading.Thread | None = None

    def now(self) -> float:
        return time.monotonic()

    def call_at(self, due: float, callback: Callable[[], None]) -> Timer:
        with self._wakeup:
            call = _ScheduledCall(due, next(self._order), callback)
            heapq.heappush(self._queue, call)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="clock", daemon=True)
                self._thread.start()
            self._wakeup.notify()
            return call

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        return self.call_at(self.now() + max(0.0, delay), callback)

    def _run(self) -> None:
        while True:
            with self._wakeup:
                while not self._queue or self._queue[0].cancelled:
                    if self._queue:
                        heapq.heappop(self._queue)
                        continue
                    self._wakeup.wait()
                wait = self._queue[0].due - time.monotonic()
                if wait > 0:
                    self._wakeup.wait(wait)
                    continue
                call = heapq.heappop(self._queue)
            call.callback()
