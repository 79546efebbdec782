"""How loud this microphone gets, so that a voice detector's bar follows its gain.

Both of the listener's voice detectors hold a bar in dB full scale under which no frame is
a voice, whatever the room (`ActivitySettings.minimum_db`, `TalkSettings.minimum_db`):
in a quiet room it is what keeps the game's faint residual echo, a rustle or a breath
from passing for the player. But a microphone's gain scales everything it hears alike,
the player, the room and the game's echo, and a bar fixed in dB full scale does not
follow it: turned down 30 dB (its slider low, a laptop across the table), the player at
-56 dBFS never reached a bar of -50, and every command said over the game was lost
without a word (round 47).

So the bar stands `BELOW_LOUDEST_DB` under the loudest this microphone has lately been
(the loudest 1 % of its frames over the last five minutes: the player's voice, or the
game's echo through the loudspeakers, whichever is louder), and never higher than the
detector's own bar nor lower than `QUIETEST_VOICE_DBFS`. At an ordinary gain the
loudest frames stand near -20 dBFS and the bar is the detector's own; turned down, it
goes down with everything else. Only a loudest that stands `CLEAR_OF_ROOM_DB` over the
room (the quietest tenth of the same frames) counts: in a quiet room where nobody has
spoken yet and the game is not heard (headphones), the loudest is the room's own
flutter, no measure of the gain, and the detector's own bar stands.
"""

from __future__ import annotations

import collections
from collections.abc import Iterable

import numpy as np

QUIETEST_VOICE_DBFS = -75.0
"""No 10 ms frame quieter than this (its RMS, in dB full scale) is anyone's voice, however
far the microphone is turned down: the lowest the listener's voice detectors' bars go
(`LoudestHeard.bar`). A live microphone's own hiss stays under it: the quietest room in
the 1,500 real recordings (yweweler's) reaches -86 dBFS in its quietest 10 ms."""
BELOW_LOUDEST_DB = 30.0
"""How far under the microphone's loudest a voice may still be. Real words levelled as
the room benchmark's player (-26 dBFS over their speech) reach -21 dBFS in their loudest
1 % of frames (the median over FSDD's tuning takes; -22 to -19 for the middle 80 %), and
the game's echo at 0 to +10 dB over them as loud or louder: 30 dB under is -51 or above,
about the talk detector's own bar and over the level detector's. On the room benchmark's
tuning split, at full gain, every room was decided exactly as with the bars fixed."""
CLEAR_OF_ROOM_DB = 12.0
"""How far over the room (the quietest tenth of the same frames) the loudest must stand
to measure the gain: as far as the level detector's own margin (`ActivitySettings.
margin_db`), under which nothing is a voice to it anyway. Real words 10 dB under real
noise (RMS against RMS, where Whisper still hears 0.80 of them), two in 8 s from a
microphone turned down 40 dB, stand 13 to 17 dB out as counted here (18 streams of the
tuning takes); a bar of 15 dB missed 4 of them. And where a sound stands this little
out, the bar it sets (30 dB under it) lies under the room, and the detectors' margins
over the room decide, as for a microphone at full gain."""
WINDOW_FRAMES = 30_000
"""Five minutes of 10 ms frames: long enough that the player's commands (a few seconds of
them) are among the loudest 1 % even when the game has said little, short enough that a
microphone turned down is followed within minutes."""
LOUDEST_SHARE = 0.01
"""The loudest 1 % (3 s of five minutes): a knock or a cough is not the microphone's gain."""
ROOM_SHARE = 0.1
"""The quietest tenth: the room."""
LEARN_FRAMES = 100
"""Until a second has been heard, the detector's own bar holds."""
_LOWEST_DB = -100
"""Levels are counted in 1 dB steps from here to 0 dBFS (digital silence is -100)."""


class LoudestHeard:
    """Follows a microphone's frame levels (dBFS) and gives the bar a voice must clear.

    The levels of the window are counted in a histogram of 1 dB steps, so a five-minute
    window costs a hundred additions a block, not a sort of 30,000 levels."""

    def __init__(self) -> None:
        self._steps: collections.deque[int] = collections.deque()
        self._counts = np.zeros(-_LOWEST_DB + 1, dtype=np.int64)
        self._loudest: float | None = None

    def heard(self, levels: Iterable[float]) -> None:
        """The levels of the frames just heard, in order."""
        for level in levels:
            step = min(max(round(level), _LOWEST_DB), 0) - _LOWEST_DB
            self._steps.append(step)
            self._counts[step] += 1
            if len(self._steps) > WINDOW_FRAMES:
                self._counts[self._steps.popleft()] -= 1
        heard = len(self._steps)
        if heard < LEARN_FRAMES:
            return
        cumulative = np.cumsum(self._counts)
        loudest = int(np.searchsorted(cumulative, heard * (1 - LOUDEST_SHARE)))
        room = int(np.searchsorted(cumulative, heard * ROOM_SHARE))
        clear = loudest - room >= CLEAR_OF_ROOM_DB
        self._loudest = float(loudest + _LOWEST_DB) if clear else None

    @property
    def loudest_db(self) -> float | None:
        """The microphone's loudest lately, to 1 dB (None until `LEARN_FRAMES` have been
        heard, or while nothing has stood `CLEAR_OF_ROOM_DB` over the room)."""
        return self._loudest

    def bar(self, own_bar_db: float) -> float:
        """The bar for a detector whose own is `own_bar_db`: that, or lower for a quiet
        microphone, but never under `QUIETEST_VOICE_DBFS`."""
        if self._loudest is None:
            return own_bar_db
        return min(own_bar_db, max(QUIETEST_VOICE_DBFS, self._loudest - BELOW_LOUDEST_DB))
