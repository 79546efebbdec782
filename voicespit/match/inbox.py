"""A queue any thread may fill, emptied in order on one clock's thread.

This is how the match stays the one writer: `put` only appends and, if no
drain is pending, asks the clock to run one "now". Every item is then handled
on the clock's thread, one at a time, in the order it arrived. The drain runs
on the *base* clock (never a paused match clock): "resume" must get through.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import Generic, TypeVar

from voicespit.clock import Clock

Item = TypeVar("Item")


class Inbox(Generic[Item]):
    def __init__(self, clock: Clock, handle: Callable[[Item], None]) -> None:
        self._clock = clock
        self._handle = handle
        self._items: deque[Item] = deque()
        self._lock = threading.Lock()
        self._drain_pending = False

    def put(self, item: Item) -> None:
        """Queue `item` (from any thread); it is handled soon on the clock's thread."""
        with self._lock:
            self._items.append(item)
            if self._drain_pending:
                return
            self._drain_pending = True
        self._clock.call_later(0.0, self._drain)

    def _drain(self) -> None:
        while True:
            with self._lock:
                if not self._items:
                    self._drain_pending = False
                    return
                item = self._items.popleft()
            self._handle(item)
