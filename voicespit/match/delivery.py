"""Handing published events to listeners without letting any of them hold up the referee.

A listener is `Callable[[Stamped], None]`. By default each listener gets a
thread of its own fed by an unbounded queue: the referee only enqueues, so a
slow speech synthesizer delays nothing but its own speech. An *inline*
listener is called on the referee thread itself, in order, as events are
published; that is for quick, non-blocking code only (recorders, statistics,
tests that want every event delivered before the clock moves on).

A listener that raises is logged and counted in `errors`; delivery goes on.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Sequence

from voicespit.match.events import Stamped

log = logging.getLogger(__name__)

Listener = Callable[[Stamped], None]


class _ListenerThread:
    """One listener fed from its own queue on its own daemon thread."""

    def __init__(self, listener: Listener, name: str, errors: list[str]) -> None:
        self.listener = listener
        self._errors = errors
        self._queue: queue.SimpleQueue[Stamped | None] = queue.SimpleQueue()
        self._settled = threading.Condition()
        self._enqueued = 0
        self._handled = 0
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def deliver(self, stamped: Stamped) -> None:
        with self._settled:
            self._enqueued += 1
        self._queue.put(stamped)

    def flush(self, timeout: float) -> bool:
        """Wait until everything enqueued so far was handled; False on timeout."""
        with self._settled:
            target = self._enqueued
            return self._settled.wait_for(lambda: self._handled >= target, timeout)

    def close(self, timeout: float) -> None:
        self._queue.put(None)
        if self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            stamped = self._queue.get()
            if stamped is None:
                return
            try:
                self.listener(stamped)
            except Exception as error:
                log.exception("listener %r failed on %s", self.listener, stamped)
                self._errors.append(f"{stamped}: {error!r}")
            with self._settled:
                self._handled += 1
                self._settled.notify_all()


class Listeners:
    """Every subscriber of one match, inline or threaded."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._inline: list[Listener] = []
        self._threaded: list[_ListenerThread] = []
        self.errors: list[str] = []
        """One line per exception a listener raised (they never reach the referee)."""

    def add(self, listener: Listener, inline: bool) -> None:
        with self._lock:
            if inline:
                self._inline.append(listener)
            else:
                name = f"voicespit-listener-{len(self._threaded) + 1}"
                self._threaded.append(_ListenerThread(listener, name, self.errors))

    def deliver(self, batch: Sequence[Stamped]) -> None:
        """Called by the referee only: enqueue for threaded listeners, call inline ones."""
        with self._lock:
            inline = list(self._inline)
            threaded = list(self._threaded)
        for stamped in batch:
            for thread in threaded:
                thread.deliver(stamped)
            for listener in inline:
                try:
                    listener(stamped)
                except Exception as error:
                    log.exception("inline listener %r failed on %s", listener, stamped)
                    self.errors.append(f"{stamped}: {error!r}")

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every threaded listener has handled what was published so far."""
        with self._lock:
            threaded = list(self._threaded)
        return all(thread.flush(timeout) for thread in threaded)

    def close(self, timeout: float = 5.0) -> None:
        """Deliver what is queued, then stop every listener thread."""
        with self._lock:
            threaded, self._threaded = self._threaded, []
        for thread in threaded:
            thread.close(timeout)
