"""The far end: what the output played, read back at 16 kHz by clock time."""

from __future__ import annotations

import weakref

import numpy as np

from voicespit.speech.listening.far_end import PlaybackReference

RATE = 22_050


def tone(seconds: float, frequency: float = 440.0, start: float = 0.0) -> np.ndarray:
    t = start + np.arange(round(seconds * RATE)) / RATE
    mono = (0.5 * np.sin(2 * np.pi * frequency * t)).astype(np.float32)
    return np.stack([mono, mono], axis=1)


def push_blocks(reference: PlaybackReference, sound: np.ndarray, at: float,
                block: int = 256) -> None:
    for first in range(0, len(sound), block):
        reference.push(sound[first:first + block], at + first / RATE)


def test_a_played_tone_is_read_back_at_16_khz_at_the_time_it_was_heard() -> None:
    reference = PlaybackReference(RATE)
    push_blocks(reference, tone(1.0), at=100.0)
    read = reference.read(100.5, 1600).astype(np.float64) / 32767
    t = 0.5 + np.arange(1600) / 16_000
    expected = 0.5 * np.sin(2 * np.pi * 440.0 * t)
    assert np.max(np.abs(read - expected)) < 0.05  # within half a sample of 16 kHz


def test_before_and_after_the_sound_the_far_end_is_silent() -> None:
    reference = PlaybackReference(RATE)
    push_blocks(reference, tone(0.5), at=10.0)
    assert not reference.read(9.0, 1600).any()
    assert not reference.read(11.0, 1600).any()
    half = reference.read(10.4, 3200)
    assert half[:1000].any() and not half[2000:].any()


def test_a_gap_in_the_output_starts_a_new_anchor_and_stays_silent_in_between() -> None:
    reference = PlaybackReference(RATE)
    push_blocks(reference, tone(0.2), at=5.0)
    push_blocks(reference, tone(0.2, start=0.2), at=6.0)
    assert not reference.read(5.5, 3200).any()
    assert reference.resyncs == 1
    assert reference.read(6.05, 160).any()


def test_old_sound_is_let_go() -> None:
    reference = PlaybackReference(RATE, history=1.0)
    push_blocks(reference, tone(5.0), at=0.0)
    assert not reference.read(0.5, 160).any()
    assert reference.read(4.5, 160).any()


def test_a_stereo_far_end_keeps_left_and_right_apart() -> None:
    reference = PlaybackReference(RATE, channels=2)
    sound = tone(1.0)
    sound[:, 1] = 0.0  # only the left loudspeaker plays
    push_blocks(reference, sound, at=100.0)
    read = reference.read(100.5, 1600)
    assert read.shape == (1600, 2)
    t = 0.5 + np.arange(1600) / 16_000
    assert np.max(np.abs(read[:, 0] / 32767 - 0.5 * np.sin(2 * np.pi * 440.0 * t))) < 0.05
    assert not read[:, 1].any()


def test_a_mono_output_plays_the_same_on_both_sides_of_a_stereo_far_end() -> None:
    reference = PlaybackReference(RATE, channels=2)
    mono = tone(0.5)[:, 0]
    for first in range(0, len(mono), 256):
        reference.push(mono[first:first + 256], 10.0 + first / RATE)
    read = reference.read(10.1, 1600)
    assert read[:, 0].any() and np.array_equal(read[:, 0], read[:, 1])


def test_closed_it_lets_its_converters_go_and_hears_nothing_more() -> None:
    # The game's end: the listener may still ask, and must get silence, not an error;
    # the converters must be freed now, not at the interpreter's end (see
    # test_faults_output.py: soxr's binding reports what is left then, on the terminal).
    reference = PlaybackReference(RATE)
    push_blocks(reference, tone(0.5), at=10.0)
    assert reference.read(10.1, 1600).any()
    converters = [weakref.ref(stream) for stream in reference._resamplers]
    assert converters
    reference.close()
    assert all(converter() is None for converter in converters), "still held"
    push_blocks(reference, tone(0.5), at=20.0)
    assert not reference.read(20.1, 1600).any()
