"""A linear echo canceller beside AEC3: the player's voice as the recognizer should hear it.

AEC3 removes the game's echo in two stages, an adaptive filter and then a suppressor
that turns down every part of the spectrum where echo may remain. While the player
talks over the game, that suppressor turns the player down with it: on the room
benchmark (tuning split, 0.5 s room, echo +10 dB over the player) the player's voice
came out of AEC3 at a scale-invariant SDR of -2.6 dB, and Whisper, given each command
cut exactly where it was said, heard 5 of 24 (8 wrong). speexdsp's canceller is only a
filter: it leaves more of the game (15 dB removed against AEC3's 33) but the player
whole (9.0 dB), and from the same cuts Whisper heard 14 of 24 (4 wrong); 21 of 24 with
the game silent. So both run: AEC3's output, where the game's residual is far below the
player, decides whether the player is talking (the talk detector, the echo mask); the
linear output is what the recognizer hears of the stretches let through.

`open_linear_canceller()` returns None when speexdsp cannot run here (the Python
binding or Debian's libspeexdsp1 missing): the game then listens through AEC3 alone,
as before, with nothing to tell the player.
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np
import numpy.typing as npt

from voicespit.speech.recognizer import SAMPLE_RATE

Int16 = npt.NDArray[np.int16]

log = logging.getLogger(__name__)

TAIL_MS = 300
"""The filter's length: a 600 ms filter removed no more of the 0.5 s room's echo."""


class SpeexCanceller:
    """speexdsp's echo canceller (a frequency-domain adaptive filter, no suppressor),
    10 ms frames, a mono far end."""

    name = "speexdsp"
    latency = 0.0
    """Measured on the room benchmark: the output lines up with the input."""
    channels = 1

    def __init__(self, tail_ms: int = TAIL_MS) -> None:
        from speexdsp_aec import SpeexAec  # ImportError: the caller decides

        self._tail_ms = tail_ms
        self._aec: Any = SpeexAec(SAMPLE_RATE, frame_ms=10, filter_tail_ms=tail_ms)

    def process(self, near: Int16, far: Int16) -> Int16:
        out: Int16 = np.frombuffer(self._aec.process(near, far), dtype="<i2").astype(np.int16)
        return out

    def reset(self) -> None:
        self._aec.close()
        self._aec = type(self._aec)(SAMPLE_RATE, frame_ms=10, filter_tail_ms=self._tail_ms)


def open_linear_canceller() -> SpeexCanceller | None:
    """speexdsp's canceller, or None (logged) when it cannot run here."""
    try:
        canceller = SpeexCanceller()
        silence = np.zeros(160, dtype=np.int16)
        if len(canceller.process(silence, silence)) != len(silence):
            raise RuntimeError("the canceller returned the wrong length")
    except (ImportError, OSError, RuntimeError) as error:
        log.info("no linear echo canceller: %s", error)
        return None
    return canceller
