"""Earcons: short, distinct, pitched by rank and panned by pile."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from voicespit.audio.earcons import (
    CARD_CUES,
    SAMPLE_RATE,
    EarconBank,
    Mono,
    pan,
    rank_frequency,
    synthesize,
)
from voicespit.engine.cards import RANK_NAMES
from voicespit.narration.announcement import Cue

ORDER_OF_RANKS = [RANK_NAMES.index(name) for name in (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace")]


def energy(samples: np.ndarray) -> float:
    return float(np.sum(np.asarray(samples, dtype=np.float64) ** 2))


def dominant_frequency(mono: Mono) -> float:
    spectrum = np.abs(np.fft.rfft(mono, n=1 << 16))
    return float(np.argmax(spectrum) * SAMPLE_RATE / (1 << 16))


@pytest.mark.parametrize("cue", [cue for cue in Cue if cue in CARD_CUES])
def test_per_card_cues_last_at_most_150_ms(cue: Cue) -> None:
    for rank in range(13):
        assert len(synthesize(cue, rank)) / SAMPLE_RATE <= 0.150


@pytest.mark.parametrize("cue", list(Cue))
def test_every_cue_starts_and_ends_at_silence_and_never_clips(cue: Cue) -> None:
    sound = synthesize(cue, 5)
    assert len(sound) > 0
    assert np.max(np.abs(sound)) <= 1.0
    assert abs(float(sound[0])) < 0.05 and abs(float(sound[-1])) < 0.05, "no click at the edges"


def test_pitch_rises_with_rank_from_two_to_ace() -> None:
    frequencies = [dominant_frequency(synthesize(Cue.YOUR_PLAY, rank)) for rank in ORDER_OF_RANKS]
    assert all(low < high for low, high in itertools.pairwise(frequencies)), frequencies
    assert rank_frequency(RANK_NAMES.index("ace")) == pytest.approx(
        2 * rank_frequency(RANK_NAMES.index("two")), rel=0.06)


def test_the_opponents_play_is_a_different_sound_at_the_same_rank() -> None:
    for rank in range(13):
        yours, theirs = synthesize(Cue.YOUR_PLAY, rank), synthesize(Cue.OPPONENT_PLAY, rank)
        frames = min(len(yours), len(theirs))
        a, b = yours[:frames].astype(np.float64), theirs[:frames].astype(np.float64)
        similarity = abs(float(np.dot(a, b))) / np.sqrt(energy(a) * energy(b))
        assert similarity < 0.3, f"rank {rank}: the two plays sound alike ({similarity:.2f})"
        assert dominant_frequency(theirs) < dominant_frequency(yours)


def test_all_cues_differ_from_one_another() -> None:
    sounds = {cue: synthesize(cue, 7) for cue in Cue}
    for (cue_a, a), (cue_b, b) in itertools.combinations(sounds.items(), 2):
        frames = min(len(a), len(b))
        x, y = a[:frames].astype(np.float64), b[:frames].astype(np.float64)
        similarity = abs(float(np.dot(x, y))) / np.sqrt(energy(x) * energy(y))
        assert similarity < 0.5, f"{cue_a.value} and {cue_b.value} are too alike"


def test_panning_puts_a_pile_cue_clearly_on_its_own_side() -> None:
    bank = EarconBank()
    left = bank.sound(Cue.OPPONENT_PLAY, 4, -1.0)
    right = bank.sound(Cue.OPPONENT_PLAY, 4, 1.0)
    assert energy(left[:, 0]) > 20 * energy(left[:, 1])
    assert energy(right[:, 1]) > 20 * energy(right[:, 0])
    centre = bank.sound(Cue.REFUSED)
    assert energy(centre[:, 0]) == pytest.approx(energy(centre[:, 1]))


def test_panning_keeps_the_loudness_the_same_anywhere() -> None:
    mono = synthesize(Cue.COUNTDOWN)
    totals = [energy(pan(mono, position)) for position in (-1.0, -0.5, 0.0, 0.7, 1.0)]
    assert max(totals) == pytest.approx(min(totals), rel=1e-4)


def test_the_bank_builds_each_sound_once() -> None:
    bank = EarconBank()
    bank.warm()
    first = bank.sound(Cue.YOUR_PLAY, 9, 1.0)
    assert bank.sound(Cue.YOUR_PLAY, 9, 1.0) is first
    assert not first.flags.writeable, "shared sounds cannot be changed by accident"
