"""A recording given the room a microphone hears around it (voicespit/speech/recording_room.py)."""

from __future__ import annotations

import numpy as np
import pytest

from voicespit.speech.recording_room import (
    LEAD_SECONDS,
    ROOM_BELOW_PEAK_DB,
    TAIL_SECONDS,
    room_around,
)

RATE = 16_000


def power_db(samples: np.ndarray) -> float:
    return float(10 * np.log10(np.mean(samples ** 2)))


def a_word_in_a_room(room_level: float, seed: int = 1) -> np.ndarray:
    """0.2 s of a room's hiss, a 0.4 s tone standing far above it, 0.2 s of hiss."""
    rng = np.random.default_rng(seed)
    hiss = rng.standard_normal(round(0.8 * RATE)) * room_level
    tone = 8000 * np.sin(2 * np.pi * 440 * np.arange(round(0.4 * RATE)) / RATE)
    hiss[round(0.2 * RATE):round(0.6 * RATE)] += tone
    return hiss


def test_the_recording_is_kept_whole_between_its_own_room() -> None:
    clip = a_word_in_a_room(30.0)
    around = room_around(clip, RATE, seed=7)
    lead, tail = round(LEAD_SECONDS * RATE), round(TAIL_SECONDS * RATE)
    assert len(around) == lead + len(clip) + tail
    assert np.array_equal(around[lead:lead + len(clip)], clip)
    # The room continued is as loud as the recording's own quiet moments (within 2 dB),
    # not digital silence and not the voice.
    added = np.concatenate([around[:lead], around[lead + len(clip):]])
    assert abs(power_db(added) - power_db(clip[:round(0.2 * RATE)])) < 2.0


def test_a_recording_trimmed_inside_the_word_gets_a_room_well_below_its_voice() -> None:
    # Nothing but voice: its quietest frames are speech too, so the room is made at
    # least ROOM_BELOW_PEAK_DB under its loudest.
    clip = 8000 * np.sin(2 * np.pi * 300 * np.arange(RATE // 2) / RATE)
    around = room_around(clip, RATE, seed=3)
    added = around[:round(LEAD_SECONDS * RATE)]
    assert power_db(added) <= power_db(clip) - ROOM_BELOW_PEAK_DB + 0.5


def test_digital_silence_and_a_clip_too_short_to_measure_are_padded_with_silence() -> None:
    silent = room_around(np.zeros(RATE // 4), RATE, seed=1)
    assert not silent.any()
    click = np.full(100, 500.0)  # shorter than a 16 ms frame
    around = room_around(click, RATE, seed=1)
    lead = round(LEAD_SECONDS * RATE)
    assert not around[:lead].any() and np.array_equal(around[lead:lead + 100], click)


@pytest.mark.parametrize("seed", [0, 5])
def test_the_same_seed_gives_the_same_room(seed: int) -> None:
    clip = a_word_in_a_room(30.0)
    assert np.array_equal(room_around(clip, RATE, seed), room_around(clip, RATE, seed))
    assert not np.array_equal(room_around(clip, RATE, seed), room_around(clip, RATE, seed + 1))
