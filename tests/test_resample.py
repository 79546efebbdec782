"""Converting a sound card's own rate to 16 kHz, block by block."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from voicespit.speech.listening.resample import Resampler


def sine(rate: int, seconds: float, frequency: float, amplitude: float = 10_000,
         delay: float = 0.0) -> npt.NDArray[np.float64]:
    times = np.arange(round(rate * seconds)) / rate - delay
    return amplitude * np.sin(2 * np.pi * frequency * times)


def in_blocks(resampler: Resampler, samples: npt.NDArray[np.int16],
              block: int) -> npt.NDArray[np.int16]:
    return np.concatenate([resampler.process(samples[start:start + block])
                           for start in range(0, len(samples), block)])


@pytest.mark.parametrize("rate", [48_000, 44_100, 22_050, 8_000])
def test_a_tone_comes_out_at_16_khz_unchanged_but_for_the_filter_delay(rate: int) -> None:
    resampler = Resampler(rate)
    tone = sine(rate, 2.0, 440).astype(np.int16)
    out = in_blocks(resampler, tone, rate // 10 + 7)  # blocks that do not divide evenly
    assert len(out) == 32_000
    expected = sine(16_000, 2.0, 440, delay=resampler.delay_seconds)
    error = np.sqrt(np.mean((out[200:].astype(np.float64) - expected[200:]) ** 2))
    assert error < 0.001 * 10_000 * 3  # under 0.3 % of the amplitude, rounding included


def test_hiss_above_8_khz_does_not_fold_down_into_the_speech_band() -> None:
    high = sine(48_000, 1.0, 12_000).astype(np.int16)
    out = Resampler(48_000).process(high).astype(np.float64)
    assert np.sqrt(np.mean(out[100:] ** 2)) < 10  # 60 dB below the 7,071 rms tone


def test_block_boundaries_leave_no_trace() -> None:
    rng = np.random.default_rng(7)
    audio = rng.normal(0, 3000, 44_100).astype(np.int16)
    whole = Resampler(44_100).process(audio)
    assert np.array_equal(in_blocks(Resampler(44_100), audio, 441), whole)
    assert np.array_equal(in_blocks(Resampler(44_100), audio, 1000), whole)


def test_16_khz_passes_through_untouched() -> None:
    audio = np.arange(-500, 500, dtype=np.int16)
    assert np.array_equal(Resampler(16_000).process(audio), audio)
    assert Resampler(16_000).delay_seconds == 0.0
