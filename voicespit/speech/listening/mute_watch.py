"""Is any sound coming from the microphone at all?

A microphone muted by its switch or by the system, or turned all the way down, sends
digital silence: every sample zero, or within a step or two of it. Then every command
the player says is lost without a word, and a blind player cannot see the mute light.
A live microphone never does this: its own hiss peaks at 6 steps or more in every
30 ms block of all 1,500 real recordings (FSDD's, some of whose rooms lie near digital
silence). So digital silence that lasts is told, once, and so is the sound
coming back, so that the player knows unmuting worked.

A noise gate that sends zeros between words (some noise suppressors do) looks the same
while the player is quiet; the telling stops after `MOST_TELLINGS`, so such a
microphone is not talked about all game.
"""

from __future__ import annotations

import enum

import numpy as np

DIGITAL_SILENCE_PEAK = 2
"""A block whose samples all lie within this many steps of zero is digital silence."""
SILENT_AFTER_SECONDS = 10.0
"""Digital silence this long is told: a pause between commands is shorter, and a
microphone that opens with zeros gives a tenth of a second of them."""
MOST_TELLINGS = 2
"""Times per game the silence is told."""


class MicrophoneNews(enum.Enum):
    SILENT = "silent"
    """Nothing but digital silence for `SILENT_AFTER_SECONDS`."""
    BACK = "back"
    """Sound again, after `SILENT` was told."""


class MuteWatch:
    """Fed every block the microphone sends, as it sends it; says when to tell."""

    def __init__(self, after_seconds: float = SILENT_AFTER_SECONDS,
                 most_tellings: int = MOST_TELLINGS) -> None:
        self.after_seconds = after_seconds
        self.most_tellings = most_tellings
        self.silent_seconds = 0.0
        """How long the digital silence has lasted (0: sound in the last block)."""
        self.tellings = 0
        self._told = False

    def hear(self, pcm: bytes, seconds: float) -> MicrophoneNews | None:
        """`seconds` of s16le audio: the news to tell now, if any."""
        samples = np.frombuffer(pcm[:len(pcm) - len(pcm) % 2], dtype="<i2").astype(np.int32)
        if samples.size and int(np.abs(samples).max()) > DIGITAL_SILENCE_PEAK:
            self.silent_seconds = 0.0
            if self._told:
                self._told = False
                return MicrophoneNews.BACK
            return None
        self.silent_seconds += seconds
        if self._told or self.silent_seconds < self.after_seconds \
                or self.tellings >= self.most_tellings:
            return None
        self._told = True
        self.tellings += 1
        return MicrophoneNews.SILENT
