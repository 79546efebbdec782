"""What to say next: a priority queue that drops stale announcements.

In a race game stale speech is worse than silence. Three rules keep the queue
fresh, and one decides when speech already playing must stop:

- A newer announcement replaces a waiting one with the same topic ("Left: ten."
  replaces "Left: nine." that was never spoken).
- An announcement that asks to `flush` drops everything of lower priority that
  is waiting (once the round is over, old pile changes are noise).
- An announcement with a `lifetime` is dropped once it has waited that long.
- `interrupts(current, incoming)`: speech stops for a newer word on the same
  topic, and for anything urgent unless it is itself urgent.

Pure: the caller passes the time in, and holds its own lock.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from voicespit.narration.announcement import Announcement, Priority


def interrupts(current: Announcement, incoming: Announcement) -> bool:
    """Whether `incoming` should cut off `current` while it is being spoken."""
    if incoming.topic == current.topic:
        return True
    return incoming.priority is Priority.URGENT and current.priority is not Priority.URGENT


@dataclass(order=True)
class _Waiting:
    sort_key: tuple[int, int]
    announcement: Announcement = field(compare=False)
    queued_at: float = field(compare=False)


class AnnouncementQueue:
    """Highest priority first, then first come first served."""

    def __init__(self) -> None:
        self._waiting: list[_Waiting] = []
        self._order = itertools.count()

    def __len__(self) -> int:
        return len(self._waiting)

    def push(self, announcement: Announcement, now: float) -> list[Announcement]:
        """Queue it; returns the announcements it made stale (dropped, never to be said)."""
        stale = [w for w in self._waiting
                 if w.announcement.topic == announcement.topic
                 or (announcement.flush and w.announcement.priority < announcement.priority)]
        self._remove(stale)
        self._insert(announcement, now)
        return [w.announcement for w in stale]

    def requeue(self, announcement: Announcement, now: float) -> bool:
        """Put back one that was cut before a word of it was heard, unless news replaced it."""
        if any(w.announcement.topic == announcement.topic for w in self._waiting):
            return False
        self._insert(announcement, now)
        return True

    def _remove(self, waiting: list[_Waiting]) -> None:
        if waiting:
            doomed = {id(w) for w in waiting}
            self._waiting = [w for w in self._waiting if id(w) not in doomed]

    def _insert(self, announcement: Announcement, now: float) -> None:
        key = (-int(announcement.priority), next(self._order))
        self._waiting.append(_Waiting(key, announcement, now))
        self._waiting.sort()

    def pop(self, now: float) -> tuple[Announcement | None, list[Announcement]]:
        """The next announcement to say (None if none), and those that expired waiting."""
        expired = [w for w in self._waiting if self._is_expired(w, now)]
        self._remove(expired)
        gone = [w.announcement for w in expired]
        if not self._waiting:
            return None, gone
        return self._waiting.pop(0).announcement, gone

    def clear(self) -> list[Announcement]:
        """Drop everything waiting; returns what was dropped."""
        dropped = [w.announcement for w in self._waiting]
        self._waiting = []
        return dropped

    @staticmethod
    def _is_expired(waiting: _Waiting, now: float) -> bool:
        lifetime = waiting.announcement.lifetime
        return lifetime is not None and now - waiting.queued_at > lifetime
