"""Sample-rate conversion (voicespit/resampling.py, soxr): whole clips for speech into the
recognizer and out to the card, and streams block by block from a sound card's own rate."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from voicespit.resampling import Resampler, resample


def tone(rate: int, seconds: float, frequency: float, amplitude: float = 1.0) -> npt.NDArray[np.float64]:
    times = np.arange(round(rate * seconds)) / rate
    return amplitude * np.sin(2 * np.pi * frequency * times)


def test_the_length_follows_the_rate_and_the_float_type_is_kept() -> None:
    mono = tone(22_050, 1.0, 440).astype(np.float32)
    up = resample(mono, 22_050, 48_000)
    assert len(up) == 48_000 and up.dtype == np.float32
    assert len(resample(mono[:1001], 22_050, 48_000)) == round(1001 * 48_000 / 22_050)
    assert resample(mono, 22_050, 22_050) is mono


def test_a_tone_keeps_its_pitch_and_level() -> None:
    down = resample(tone(44_100, 1.0, 1000), 44_100, 16_000)
    expected = tone(16_000, 1.0, 1000)
    assert np.max(np.abs(down[100:-100] - expected[100:-100])) < 0.01


def test_going_down_removes_what_the_new_rate_cannot_carry() -> None:
    # 12 kHz is above 16 kHz's limit of 8 kHz: it must vanish, not fold down to 4 kHz.
    down = resample(tone(48_000, 1.0, 12_000), 48_000, 16_000)
    assert np.sqrt(np.mean(down ** 2)) < 0.01


def in_blocks(resampler: Resampler, samples: npt.NDArray[np.int16],
              block: int) -> npt.NDArray[np.int16]:
    return np.concatenate([resampler.process(samples[start:start + block])
                           for start in range(0, len(samples), block)])


@pytest.mark.parametrize("rate", [48_000, 44_100, 22_050, 8_000])
def test_a_streamed_tone_comes_out_at_16_khz_in_line_with_the_input(rate: int) -> None:
    resampler = Resampler(rate, 16_000)
    out = in_blocks(resampler, tone(rate, 2.0, 440, 10_000).astype(np.int16), rate // 10 + 7)
    # All of it but what the filter still holds, and sample k at time k / 16 kHz.
    assert len(out) + round(resampler.pending_seconds * 16_000) == 32_000
    assert 0 < resampler.pending_seconds < 0.04
    expected = tone(16_000, 2.0, 440, 10_000)[:len(out)]
    error = np.sqrt(np.mean((out[200:].astype(np.float64) - expected[200:]) ** 2))
    assert error < 0.001 * 10_000 * 3  # under 0.3 % of the amplitude, rounding included


def test_streamed_hiss_above_8_khz_does_not_fold_down_into_the_speech_band() -> None:
    out = Resampler(48_000, 16_000).process(tone(48_000, 1.0, 12_000, 10_000).astype(np.int16))
    assert np.sqrt(np.mean(out[100:].astype(np.float64) ** 2)) < 10  # 60 dB below the tone


def test_block_boundaries_leave_no_trace() -> None:
    audio = np.random.default_rng(7).normal(0, 3000, 44_100).astype(np.int16)
    whole = Resampler(44_100, 16_000).process(audio)
    for block in (441, 1000):
        pieces = in_blocks(Resampler(44_100, 16_000), audio, block)
        shared = min(len(pieces), len(whole))
        assert shared > 15_000 and np.array_equal(pieces[:shared], whole[:shared])


def test_the_same_rate_passes_through_untouched() -> None:
    audio = np.arange(-500, 500, dtype=np.int16)
    resampler = Resampler(16_000, 16_000)
    assert np.array_equal(resampler.process(audio), audio)
    assert resampler.pending_seconds == 0.0


def test_rates_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        Resampler(0, 16_000)
