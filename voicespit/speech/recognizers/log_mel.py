"""Whisper's input features: an 80-band log-mel spectrogram of 16 kHz audio, in numpy.

The same recipe as OpenAI's `whisper.audio.log_mel_spectrogram` (25 ms Hann
window, 10 ms hop, Slaney mel filters, log10 floored 8 decades below the
loudest value, scaled to about -1..1), without torch. Whisper pads its input to
30 s; the game computes features for the utterance, a short margin and silence up
to 5 s (`WhisperSettings.window_seconds`), which is what makes the encoder fast
enough for a race (SPEECH_NOTES.md).
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt

from voicespit.speech.recognizer import SAMPLE_RATE

WINDOW = 400
"""Samples per analysis window (25 ms)."""
HOP = 160
"""Samples between frames (10 ms): 100 feature frames a second."""
MEL_BANDS = 80
DYNAMIC_RANGE = 8.0
"""Decades of power below the loudest that are kept (quieter is clamped)."""

Floats = npt.NDArray[np.float32]


@functools.cache
def _hann() -> npt.NDArray[np.float64]:
    # Periodic, as torch.hann_window: the window of a length-400 DFT.
    return 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(WINDOW) / WINDOW)


def _hz_to_mel(hz: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Slaney's mel scale: linear to 1 kHz, logarithmic above."""
    linear = hz / (200.0 / 3)
    logarithmic = 15.0 + np.log(np.maximum(hz, 1e-10) / 1000.0) / (np.log(6.4) / 27.0)
    return np.where(hz >= 1000.0, logarithmic, linear)


def _mel_to_hz(mel: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    linear = mel * (200.0 / 3)
    logarithmic = 1000.0 * np.exp((np.log(6.4) / 27.0) * (mel - 15.0))
    return np.where(mel >= 15.0, logarithmic, linear)


@functools.cache
def mel_filters() -> npt.NDArray[np.float64]:
    """The 80 x 201 triangular filters, area-normalised (librosa's `norm="slaney"`)."""
    bins = np.linspace(0, SAMPLE_RATE / 2, WINDOW // 2 + 1)
    edges = _mel_to_hz(np.linspace(_hz_to_mel(np.array(0.0)), _hz_to_mel(np.array(SAMPLE_RATE / 2.0)),
                                   MEL_BANDS + 2))
    widths = np.diff(edges)
    rising = (bins[None, :] - edges[:-2, None]) / widths[:-1, None]
    falling = (edges[2:, None] - bins[None, :]) / widths[1:, None]
    filters = np.maximum(0.0, np.minimum(rising, falling))
    return filters * (2.0 / (edges[2:] - edges[:-2]))[:, None]


def log_mel(samples: npt.NDArray[np.floating]) -> Floats:
    """Features of `samples` (floats in -1..1 at 16 kHz): shape (80, len // 160)."""
    audio = np.asarray(samples, dtype=np.float64)
    if len(audio) < 2:
        audio = np.zeros(WINDOW, dtype=np.float64)
    padded = np.pad(audio, WINDOW // 2, mode="reflect") if len(audio) > WINDOW // 2 \
        else np.pad(audio, WINDOW // 2)
    count = 1 + (len(padded) - WINDOW) // HOP
    frames = np.lib.stride_tricks.as_strided(
        padded, shape=(count, WINDOW), strides=(padded.strides[0] * HOP, padded.strides[0]))
    power = np.abs(np.fft.rfft(frames * _hann(), axis=1)) ** 2
    # Whisper drops the last frame (its STFT yields one more than len / hop).
    mel = mel_filters() @ power[:-1].T
    log_spec = np.log10(np.maximum(mel, 1e-10))
    log_spec = np.maximum(log_spec, log_spec.max() - DYNAMIC_RANGE)
    return np.asarray((log_spec + 4.0) / 4.0, dtype=np.float32)
