"""Changing a recording's sample rate, for both directions of sound.

Speech from a file or a microphone comes down to the recognizers' 16 kHz;
synthesized speech goes up or down to the sound card's rate; what the loudspeakers
played comes down to 16 kHz as the echo canceller's reference.

Whole clips (a command from a file, an announcement) go through `resample`: one
band-limited resampling by the FFT, exact for the clip's length, keeping everything
up to the new Nyquist frequency and nothing above it. It stays ours because it
measured better than soxr for them: soxr's high quality gives up the top 0.5 kHz
below 8 kHz (-10 dB at 7.7 kHz), and Whisper hears espeak-ng's voice worse without
it (the whole Spit match by voice: 99 of 159 commands heard right instead of 65 of
82; the real voices recorded at 8 kHz, at 10 dB SNR: 0.808 instead of 0.833).

An endless stream (a microphone that will not record at 16 kHz, the loudspeakers'
output) goes through a `Resampler`, block by block, which is soxr (the SoX
resampler): its passband reaches 7.5 kHz (the polyphase filter it replaced stopped
at 7.2) and nothing above the new Nyquist frequency folds back.

It is its own module, outside `audio` and `speech`, because both need it and
neither may import the other.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

QUALITY = "HQ"
"""soxr's high quality for streams: -93 dB left of a tone above the new Nyquist
frequency, for 10-12 ms of stream held back at 44.1 or 48 kHz."""

Floats = npt.NDArray[np.floating]


def resample(samples: Floats, rate: int, target: int) -> Floats:
    """`samples` at `rate` Hz, resampled to `target` Hz, in the same float type.

    The length follows the rate (`round(len(samples) * target / rate)`).
    """
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


class Resampler:
    """Converts a stream of int16 samples from `input_rate` to `output_rate`, block by block.

    Output sample k is the stream at time k / `output_rate`, exactly as it would be had
    the whole stream been converted at once; block boundaries leave no trace. The
    newest few milliseconds (`pending_seconds`) are held back until the samples after
    them arrive, since the filter needs them.
    """

    def __init__(self, input_rate: int, output_rate: int, quality: str = QUALITY) -> None:
        if input_rate <= 0 or output_rate <= 0:
            raise ValueError("sample rates must be positive")
        self.input_rate = input_rate
        self.output_rate = output_rate
        self._stream: Any = None  # soxr.ResampleStream, which has no type hints
        if input_rate != output_rate:
            import soxr

            # In float: soxr's own int16 path rounds differently as the blocks fall.
            self._stream = soxr.ResampleStream(input_rate, output_rate, 1, dtype="float32",
                                               quality=quality)

    @property
    def pending_seconds(self) -> float:
        """How much of the stream received is still held back, in seconds."""
        if self._stream is None:
            return 0.0
        return float(self._stream.delay()) / self.output_rate

    def process(self, samples: npt.NDArray[np.int16]) -> npt.NDArray[np.int16]:
        """The next converted samples (none at all for the first few milliseconds)."""
        if self._stream is None:
            return samples.copy()
        converted = self._stream.resample_chunk(samples.astype(np.float32))
        rounded: npt.NDArray[np.int16] = np.clip(np.rint(converted), -32768, 32767).astype(np.int16)
        return rounded
