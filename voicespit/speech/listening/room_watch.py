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
What the game then says asks the player to turn it down or use headphones, so the watch
goes on listening to how much of the game reaches the microphone (`calmer`): once the
echo's gain is `CALMER_DB` below what it was when the room was judged lively, or the
microphone no longer hears the game at all, `auto` listens over the game again (and says
so), and the watch starts afresh: a room still too lively at the new volume is handed
back to the guard.

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
CALMER_DB = 8.0
"""How far below its gain when the room was judged lively the game's echo must reach the
microphone (`TalkDetector.echo_gain`: the microphone over what the game played, at its
loudest moments, the median over 5 s of them) for `auto` to listen over it again. The gain,
not the microphone's level: the game's announcements and sounds differ in loudness, and
what it plays is not what the player turned down. Chosen on the room benchmark's tuning
split (round 25): in the four rooms `auto` hands to the guard, with nothing changed, the
gain fell at most 3.3 dB below what it was at the fall-back over the rest of the 8-minute
match (the level 4.2 dB), and loudspeakers turned down by 10 dB took it 10 dB down."""


class RoomWatch:
    """Counts the game's hushes for nobody; says when the room is too lively."""

    def __init__(self, limit: int = LIMIT, window: float = WINDOW,
                 calmer_db: float = CALMER_DB) -> None:
        self.limit = limit
        self.window = window
        self.calmer_db = calmer_db
        self._recent: collections.deque[float] = collections.deque()
        self.lively_at: float | None = None
        """The clock time the room was judged too lively (None: not, or not any more)."""
        self.lively_gain: float | None = None
        """The echo's gain then (dB; None: not known)."""
        self.lively_reached = True
        """Whether the microphone heard the game then."""

    def false_hush(self, at: float, gain: float | None = None, reaches: bool = True) -> bool:
        """The game's voice was hushed for nobody at clock time `at`, when its echo reached
        the microphone with `gain` (dB, if known), or could not be heard there (`reaches`
        false); True when this judges the room too lively."""
        if self.lively_at is not None:
            return False
        self._recent.append(at)
        while self._recent and self._recent[0] <= at - self.window:
            self._recent.popleft()
        if len(self._recent) < self.limit:
            return False
        self.lively_at = at
        self.lively_gain = gain
        self.lively_reached = reaches
        return True

    def calmer(self, gain: float | None, reaches: bool) -> bool:
        """Once the room has been judged too lively: True when the game's echo now reaches
        the microphone with `gain`, `calmer_db` below what it did then, or not at all
        where it did (`reaches` false: headphones, or the microphone moved far away; a room
        judged lively while the microphone did not hear the game was judged so on other
        sounds, and not hearing it is no change). The watch then starts afresh, counting
        false hushes from none."""
        if self.lively_at is None:
            return False
        turned_down = gain is not None and self.lively_gain is not None \
            and gain <= self.lively_gain - self.calmer_db
        headphones = self.lively_reached and not reaches
        if not turned_down and not headphones:
            return False
        self.lively_at = None
        self.lively_gain = None
        self._recent.clear()
        return True
