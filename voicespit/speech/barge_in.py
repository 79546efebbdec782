"""Is the player talking over the game? The decision that lets them interrupt it.

A frame (10 ms) is the player's voice when the cancelled audio is loud on three
counts: well above the room's noise floor; above the loudest of what the
canceller has recently left of the game's voice (its residual echo, measured while
the game played); and not much quieter than what the microphone heard before
cancelling. The last two are what tell the player from the game: the canceller
takes the game's own voice down by 20 dB or more, and leaves a voice in the room
as it was. (With headphones there is no canceller: the two signals are one, and
the test is the noise floor alone.)

`onset_frames` loud frames among the last `window` start the player's speech, so
a click or a burst of residual echo does not stop the game; `quiet_frames` quiet
frames end it. Pure numpy on 16 kHz samples, no clock: the listener feeds it
every block and asks about time.
"""

from __future__ import annotations

import collections
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from voicespit.speech.signal import FRAME

_SILENCE_DB = -100.0


@dataclass(frozen=True)
class TalkSettings:
    margin_db: float = 15.0
    """How far above the noise floor of the cancelled audio a frame must be."""
    minimum_db: float = -50.0
    """No frame quieter than this (dB full scale) is the player, whatever the floor."""
    ratio_db: float = -8.0
    """Cancelled level minus microphone level: above this, the sound was not the game's."""
    onset_frames: int = 3
    window: int = 4
    quiet_frames: int = 60
    """Quiet frames (0.6 s) after which the player has stopped talking."""
    floor_frames: int = 300
    """The floor is the median level of the last 3 s heard while the game played nothing
    (the canceller's suppressor also hushes the room's noise while the game plays, so
    those stretches would put the floor too low)."""
    floor_percentile: float = 50.0
    residual_frames: int = 500
    """The residual echo is judged over the last 5 s during which the game played."""
    residual_percentile: float = 99.0
    residual_margin_db: float = 4.0
    """How far above that residual a frame must be."""


class TalkDetector:
    """Feeds on pairs of blocks (cancelled, microphone); reports the player's speech."""


    def __init__(self, settings: TalkSettings | None = None) -> None:
        self.settings = settings or TalkSettings()
        self._history: collections.deque[float] = collections.deque(
            maxlen=self.settings.floor_frames)
        self._floor = _SILENCE_DB
        self._residual: collections.deque[float] = collections.deque(
            maxlen=self.settings.residual_frames)
        self._residual_top = _SILENCE_DB
        self._recent: collections.deque[bool] = collections.deque(maxlen=self.settings.window)
        self._quiet_run = 0
        self.talking = False
        """True from the onset of the player's speech until `quiet_frames` of quiet."""
        self.frames = 0
        """Frames fed so far."""
        self.onset_frame: int | None = None
        """The frame at which the current stretch of the player's speech began."""

    def feed(self, cancelled: npt.NDArray[np.int16], microphone: npt.NDArray[np.int16],
             game_playing: bool = False) -> bool:
        """Feed one block (a whole number of 10 ms frames); True when the player's speech
        starts in it. `game_playing`: the game's sound could be in this block."""
        started = False
        settings = self.settings
        levels = _levels(cancelled)
        for level, raw in zip(levels, _levels(microphone), strict=True):
            if self._frame(level, raw, game_playing):
                started = True
            if game_playing and not self.talking:
                self._residual.append(level)
            elif not game_playing:
                self._history.append(level)
        if not self._history:
            return started
        self._floor = float(np.percentile(self._history, settings.floor_percentile))
        if self._residual:
            self._residual_top = float(np.percentile(self._residual,
                                                     settings.residual_percentile))
        return started

    def _frame(self, level: float, raw: float, game_playing: bool) -> bool:
        settings = self.settings
        self.frames += 1
        threshold = max(self._floor + settings.margin_db, settings.minimum_db)
        if game_playing:
            threshold = max(threshold, self._residual_top + settings.residual_margin_db)
        loud = level >= threshold and level - raw >= settings.ratio_db
        self._recent.append(loud)
        if loud:
            self._quiet_run = 0
        else:
            self._quiet_run += 1
        if not self.talking and sum(self._recent) >= settings.onset_frames:
            self.talking = True
            self.onset_frame = self.frames - len(self._recent) + 1
            return True
        if self.talking and self._quiet_run >= settings.quiet_frames:
            self.talking = False
        return False


def _levels(samples: npt.NDArray[np.int16]) -> list[float]:
    """dB full scale of each whole 10 ms frame."""
    usable = len(samples) - len(samples) % FRAME
    frames = samples[:usable].astype(np.float64).reshape(-1, FRAME)
    power = np.mean(frames * frames, axis=1) / (32768.0 * 32768.0)
    with np.errstate(divide="ignore"):
        levels = np.where(power > 0, 10.0 * np.log10(power), _SILENCE_DB)
    return [float(level) for level in levels]
