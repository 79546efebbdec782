"""Silero VAD through its adapter (voicespit/speech/silero.py), on a real voice."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import REAL_VOICES
from voicespit.speech.audio import read_wav
from voicespit.speech.signal import FRAME, to_samples
from voicespit.speech.silero import SileroActivity


def probabilities(activity: SileroActivity, samples: np.ndarray) -> list[float]:
    return [activity.push(samples[offset:offset + FRAME])
            for offset in range(0, len(samples) - FRAME + 1, FRAME)]


@pytest.mark.skipif(not REAL_VOICES.is_dir(), reason="the real recordings are not beside the repo")
def test_a_spoken_word_is_speech_and_the_silence_around_it_is_not() -> None:
    pcm, _ = read_wav(REAL_VOICES / "7_theo_0.wav")
    word = to_samples(pcm).astype(np.float64)
    silence = np.zeros(SILENCE_FRAMES * FRAME)
    activity = SileroActivity()
    heard = probabilities(activity, np.concatenate([silence, word, silence]))
    before, during = heard[:SILENCE_FRAMES], heard[SILENCE_FRAMES:-SILENCE_FRAMES]
    after = heard[-SILENCE_FRAMES // 2:]
    assert max(before) < 0.2 and max(during) > 0.8 and max(after) < 0.2


def test_a_fresh_stream_forgets_the_last_one() -> None:
    activity = SileroActivity()
    # 22 frames: six chunks and 448 samples left over, which one more frame would complete.
    noise = np.random.default_rng(7).normal(0, 3000, 22 * FRAME)
    probabilities(activity, noise)
    activity.reset()
    assert activity.probability == 0.0
    # The leftover is gone: one frame is less than a chunk, so no new answer yet.
    assert activity.push(np.zeros(FRAME)) == 0.0


SILENCE_FRAMES = 50
