"""Is this room too lively to listen through the game's own voice? The `auto` mode's judge.

`auto` listens while the game speaks (`always`): the player can talk over it and be acted
on. Where the loudspeakers' echo is loud or long (a reverberant room, the volume high, the
microphone near a speaker), what the canceller leaves of the game's voice keeps looking
like the player's: the talk detector suspects them, the game hushes its voice for nobody,
and now and then stops a sentence and asks nobody to say it again. Such a room shows
itself in those false hushes, which only the game's own voice makes, far more often than
a player does. So `auto` counts them: `limit` within `window` seconds and the room is too
lively; the listener then falls back to the watched echo guard (nothing said under the
game's voice is acted on, and the player is asked to say it again), and tells the player.
It does not come back: the room judged lively once is judged so for the rest of the game.

`LIMIT` and `WINDOW` were chosen on the room benchmark's tuning split (round 23,
`docs/listening-record.md`), replayed on the times of the false hushes of `always` over
the whole narrated match (8 minutes a room, alone and with 88 commands said over it). The
mild rooms (RT60 0.2 s at 0 to +10 dB, 0.5 s at 0 and +5 dB) hushed for nobody at most
4 times in 8 minutes, the lively ones (0.5 s at +10 dB, where the game also stopped for
nobody 5 times; 0.8 s) 10 to 39 times. Six within four minutes, two more than any mild
room ever gathered, hands every lively room to the guard (the 0.8 s rooms after 49 to
201 s, the 0.5 s room after 4 minutes) and no mild one; five would have done it sooner
(44 to 120 s) with a margin of one hush.
"""

from __future__ import annotations

import collections

LIMIT = 6
"""False hushes within `WINDOW` that show a room too lively to listen through."""
WINDOW = 240.0
"""Seconds of the clock over which they are counted."""


class RoomWatch:
    """Counts the game's hushes for nobody; says when the room is too lively."""

    def __init__(self, limit: int = LIMIT, window: float = WINDOW) -> None:
        self.limit = limit
        self.window = window
        self._recent: collections.deque[float] = collections.deque()
        self.lively_at: float | None = None
        """The clock time the room was judged too lively (None: not yet)."""

    def false_hush(self, at: float) -> bool:
        """The game's voice was hushed for nobody at clock time `at`; True the first time
        the room is judged too lively."""
        if self.lively_at is not None:
            return False
        self._recent.append(at)
        while self._recent and self._recent[0] <= at - self.window:
            self._recent.popleft()
        if len(self._recent) < self.limit:
            return False
        self.lively_at = at
        return True
