"""Streaming sample-rate conversion to the recognizers' 16 kHz, in numpy.

Needed when a sound card will not record at 16 kHz itself (many USB microphones
offer only 44.1 or 48 kHz when opened directly, and Windows WASAPI records only at
the mixer's rate). A polyphase windowed-sinc filter, so 48 kHz -> 16 kHz does not
fold hiss above 8 kHz down into the speech band; state carries across blocks, so
block boundaries leave no clicks.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from voicespit.speech.recognizer import SAMPLE_RATE


class Resampler:
    """Converts a stream of int16 samples from `input_rate` to `output_rate`, block by block."""

    def __init__(self, input_rate: int, output_rate: int = SAMPLE_RATE,
                 taps_per_phase: int = 32) -> None:
        if input_rate <= 0 or output_rate <= 0:
            raise ValueError("sample rates must be positive")
        common = math.gcd(input_rate, output_rate)
        self.up = output_rate // common
        self.down = input_rate // common
        self.input_rate = input_rate
        self.output_rate = output_rate
        self._taps = taps_per_phase
        self._phases = _polyphase_filter(self.up, self.down, taps_per_phase)
        self._history = np.zeros(taps_per_phase - 1, dtype=np.float64)
        self._consumed = 0
        """Input samples received so far."""
        self._produced = 0
        """Output samples produced so far."""

    @property
    def delay_seconds(self) -> float:
        """How far the output lags the input: half the filter's length."""
        if self.up == self.down:
            return 0.0
        return (self._taps * self.up - 1) / 2 / (self.input_rate * self.up)

    def process(self, samples: npt.NDArray[np.int16]) -> npt.NDArray[np.int16]:
        if self.up == self.down:
            return samples.copy()
        buffer = np.concatenate([self._history, samples.astype(np.float64)])
        buffer_start = self._consumed - (self._taps - 1)
        self._consumed += len(samples)
        # Output k sits at input position k*down/up; it can be made once that input is here.
        last_output = (self._consumed * self.up - 1) // self.down
        outputs = np.arange(self._produced, last_output + 1, dtype=np.int64)
        self._produced = last_output + 1
        self._history = buffer[len(buffer) - (self._taps - 1):]
        if not len(outputs):
            return np.zeros(0, dtype=np.int16)
        positions = outputs * self.down
        phases = positions % self.up
        bases = positions // self.up - buffer_start
        window = bases[:, None] - np.arange(self._taps)[None, :]
        values: npt.NDArray[np.float64] = np.einsum("ij,ij->i", buffer[window],
                                                    self._phases[phases])
        converted: npt.NDArray[np.int16] = np.clip(np.rint(values), -32768, 32767).astype(np.int16)
        return converted


def _polyphase_filter(up: int, down: int, taps_per_phase: int) -> npt.NDArray[np.float64]:
    """A low-pass at 90 % of the lower Nyquist frequency, split into `up` phases."""
    length = taps_per_phase * up
    cutoff = 0.5 / max(up, down) * 0.9  # cycles per sample at the up-sampled rate
    centre = (length - 1) / 2
    n = np.arange(length) - centre
    prototype = 2 * cutoff * np.sinc(2 * cutoff * n) * np.kaiser(length, 8.0) * up
    # phase p, tap j multiplies input sample (base - j): coefficient prototype[p + up*j]
    phases: npt.NDArray[np.float64] = prototype.reshape(taps_per_phase, up).T.copy()
    return phases
