"""Changing a recording's sample rate, for both directions of sound.

Speech from a file or a microphone comes down to the recognizer's 16 kHz;
synthesized speech goes up or down to the sound card's rate. Both are short,
whole clips (a command, an announcement), so one band-limited resampling by the
FFT serves: exact for the clip's length, and no aliasing when going down.
(A microphone's endless stream is resampled block by block elsewhere:
`voicespit.speech.listening.resample.Resampler`.)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.floating]


def resample(samples: Floats, rate: int, target: int) -> Floats:
    """`samples` at `rate` Hz, resampled to `target` Hz, in the same float type."""
    if len(samples) == 0 or rate == target:
        return samples
    length = max(1, round(len(samples) * target / rate))
    spectrum = np.fft.rfft(samples)
    kept = length // 2 + 1
    if kept <= len(spectrum):
        spectrum = spectrum[:kept]
    else:
        spectrum = np.concatenate([spectrum, np.zeros(kept - len(spectrum), complex)])
    resampled = np.fft.irfft(spectrum, n=length) * (length / len(samples))
    return resampled.astype(samples.dtype, copy=False)
