"""What the players have heard so far, and the table as it stood after each change.

A sighted player sees a card land at once; a listener knows of it only when
its announcement has been spoken. So that hearing the table is no handicap,
the match tells its players (the computer opponent above all) about a change
only once the audio layer reports it heard (`Match.announcement_finished`), or
at once when no audio is attached. This module keeps that bookkeeping:

- every published event waits here until it is heard. A change is heard whole:
  the batch of events one action caused (a card played and the card turned up
  under it) counts as heard once its last event is. The audio layer reports
  event by event, and the table is known only after whole batches, so a
  player who had heard half of a change would see the table from before it
  and try a move that is already made;
- after every batch that changed the table, a snapshot of the state is kept,
  so the match can show a player the table *as heard*, and can tell a move
  that was legal on the table the player knew ("too late") from a plain mistake.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from voicespit.match.events import Stamped
from voicespit.match.intents import State


@dataclass(frozen=True, slots=True)
class Perception:
    """Events a player has just heard, with the table as it stood after them."""

    events: tuple[Stamped, ...]
    state: State
    """The table as heard. Read it during the callback and never change it; later,
    ask `Match.heard_state()`, which follows what is heard next."""
    time: float
    """Match time when these events were heard."""
    through: int
    """The sequence of the last event heard."""


Observer = Callable[[Perception], None]
"""Called on the referee thread with each `Perception`; must be quick."""


class Hearing:
    """Unheard events and recent table snapshots of one match (referee thread only)."""

    def __init__(self, keep: int = 128) -> None:
        self._keep = keep
        self._unheard: deque[tuple[Stamped, ...]] = deque()
        """Published batches not yet heard, oldest first."""
        self._snapshots: deque[tuple[int, State]] = deque()
        """(sequence, table after the batch ending at that sequence), oldest first."""
        self.heard_through = 0
        """The sequence of the last event heard (0: nothing yet)."""

    def published(self, batch: Sequence[Stamped], state: State | None) -> None:
        """Record a published batch; `state` is the table after it when it changed."""
        if batch:
            self._unheard.append(tuple(batch))
        if state is not None and batch:
            self._snapshots.append((batch[-1].sequence, state.clone()))
            self._prune(batch[-1].sequence)

    def hear(self, through: int) -> tuple[Stamped, ...]:
        """Mark every batch that ends by `through` heard; returns the newly heard events.

        A batch `through` falls inside stays unheard until its last event is reported.
        """
        heard: list[Stamped] = []
        while self._unheard and self._unheard[0][-1].sequence <= through:
            heard.extend(self._unheard.popleft())
        if heard:
            self.heard_through = max(self.heard_through, heard[-1].sequence)
        return tuple(heard)

    @property
    def oldest_unheard(self) -> Stamped | None:
        """The last event of the oldest unheard batch (a batch shares one time stamp):
        hearing through it hears that whole change."""
        return self._unheard[0][-1] if self._unheard else None

    def state_at(self, sequence: int) -> State | None:
        """The table after every change up to `sequence`, if still kept."""
        found: State | None = None
        for at, state in self._snapshots:
            if at > sequence:
                break
            found = state
        return found

    def _prune(self, newest: int) -> None:
        # Keep the last `keep` snapshots, and never the one a player is still looking at.
        while len(self._snapshots) > 1 and self._snapshots[1][0] <= self.heard_through \
                and newest - self._snapshots[0][0] > self._keep:
            self._snapshots.popleft()
