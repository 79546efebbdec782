"""One resampling for whole clips, used for speech into the recognizer and out to the card."""

from __future__ import annotations

import numpy as np

from voicespit.resampling import resample


def tone(rate: int, seconds: float, frequency: float) -> np.ndarray:
    times = np.arange(round(rate * seconds)) / rate
    return np.sin(2 * np.pi * frequency * times)


def test_the_length_follows_the_rate_and_the_float_type_is_kept() -> None:
    mono = tone(22_050, 1.0, 440).astype(np.float32)
    up = resample(mono, 22_050, 48_000)
    assert len(up) == 48_000 and up.dtype == np.float32
    assert resample(mono, 22_050, 22_050) is mono


def test_a_tone_keeps_its_pitch_and_level() -> None:
    down = resample(tone(44_100, 1.0, 1000), 44_100, 16_000)
    expected = tone(16_000, 1.0, 1000)
    assert np.max(np.abs(down[100:-100] - expected[100:-100])) < 0.01


def test_going_down_removes_what_the_new_rate_cannot_carry() -> None:
    # 12 kHz is above 16 kHz's limit of 8 kHz: it must vanish, not fold down to 4 kHz.
    down = resample(tone(48_000, 1.0, 12_000), 48_000, 16_000)
    assert np.sqrt(np.mean(down ** 2)) < 0.01
