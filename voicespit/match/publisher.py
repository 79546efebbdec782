"""How a match's events go out: stamped, recorded, delivered, and heard.

The match hands every batch of events here. The publisher stamps each with
its sequence number and the match time, keeps the table's snapshot after a
batch that changed it (see `voicespit.match.hearing`), and on `flush()` delivers
the batches in order to listeners (`voicespit.match.delivery`) and, once heard, to
observers as `Perception`s. Publishing and flushing are separate so that an
observer may publish in turn (the opponent announcing its new pace) without
anybody receiving events out of order.

Referee thread only, except `subscribe` and `observe`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence

from voicespit.clock import Clock, Timer
from voicespit.engine.events import Event
from voicespit.match.delivery import Listener, Listeners
from voicespit.match.events import MatchEvent, Stamped
from voicespit.match.hearing import Hearing, Observer, Perception
from voicespit.match.intents import State

log = logging.getLogger(__name__)

TimerFactory = Callable[[float, Callable[[], None]], Timer]


class Publisher:
    def __init__(self, clock: Clock, live_state: Callable[[], State], set_timer: TimerFactory,
                 *, wait_for_announcements: bool, announcement_timeout: float) -> None:
        self._clock = clock
        self._live_state = live_state
        self._set_timer = set_timer
        self.waits = wait_for_announcements
        self._timeout = announcement_timeout
        self.listeners = Listeners()
        self.hearing = Hearing()
        self._observers: list[Observer] = []
        self._observers_lock = threading.Lock()
        self._outbox: list[list[Stamped]] = []
        self._sequence = 0
        self._deadline: Timer | None = None
        self.errors: list[str] = []
        """Observer failures: logged and counted, never passed on to the referee."""
        self.announcement_timeouts = 0
        """Times the audio layer never said an event was heard and the wait gave up."""

    def subscribe(self, listener: Listener, inline: bool) -> None:
        self.listeners.add(listener, inline)

    def observe(self, observer: Observer) -> None:
        with self._observers_lock:
            self._observers.append(observer)

    def publish(self, events: Sequence[Event | MatchEvent], changed: bool) -> None:
        """Stamp a batch now; `changed`: it changed the table (keep a snapshot)."""
        now = self._clock.now()
        batch = []
        for event in events:
            self._sequence += 1
            batch.append(Stamped(self._sequence, now, event))
        if batch:
            self.hearing.published(batch, self._live_state() if changed else None)
            self._outbox.append(batch)

    @property
    def last_sequence(self) -> int:
        """The sequence of the last event published (0: none yet)."""
        return self._sequence

    def flush(self) -> None:
        """Deliver everything published so far, and whatever observers publish meanwhile."""
        while self._outbox:
            batch = self._outbox.pop(0)
            self.listeners.deliver(batch)
            if not self.waits:
                self.hear(batch[-1].sequence)
        if self.waits:
            self._arm_deadline()

    def hear(self, through: int) -> None:
        """Everything up to `through` has been heard: tell the observers (whole changes only)."""
        events = self.hearing.hear(through)
        if not events:
            return
        heard = self.hearing.heard_through
        state = self.hearing.state_at(heard) or self._live_state()
        perception = Perception(events, state, self._clock.now(), heard)
        with self._observers_lock:
            observers = list(self._observers)
        for observer in observers:
            try:
                observer(perception)
            except Exception as error:
                log.exception("observer %r failed", observer)
                self.errors.append(f"observer: {error!r}")

    def heard_state(self) -> State:
        """The table as heard (the live table when nothing waits for announcements)."""
        if not self.waits:
            return self._live_state()
        return self.hearing.state_at(self.hearing.heard_through) or self._live_state()

    def stop(self) -> None:
        """The match is over: no more waiting for announcements."""
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _arm_deadline(self) -> None:
        """Count the oldest unheard event as heard once it is `timeout` seconds old."""
        oldest = self.hearing.oldest_unheard
        if oldest is None or self._deadline is not None:
            return

        def give_up_waiting() -> None:
            # The safety net: a speaker that never reports must not stop the game, but a
            # healthy one always reports, so this is a stall worth knowing about.
            self._deadline = None
            if self.hearing.heard_through >= oldest.sequence:
                self._arm_deadline()  # heard in time: now the next unheard event, if any
                return
            self.announcement_timeouts += 1
            log.warning("event %d was never reported heard; went on after %.0f s",
                        oldest.sequence, self._timeout)
            self.hear(oldest.sequence)
        delay = oldest.time + self._timeout - self._clock.now()
        self._deadline = self._set_timer(delay, give_up_waiting)
