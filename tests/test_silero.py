"""Silero VAD through its adapter (voicespit/speech/silero.py), on a real voice."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import REAL_VOICES
from voicespit.speech.listening.endpoint import EndpointSettings, FrameEvent
from voicespit.speech.listening.silero import SileroActivity
from voicespit.speech.listening.sources import read_wav
from voicespit.speech.listening.voiced_endpoint import MODES, VoicedEndpointer
from voicespit.speech.signal import FRAME, to_samples


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


@pytest.mark.skipif(not REAL_VOICES.is_dir(), reason="the real recordings are not beside the repo")
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("snr_db", [None, 10.0])
def test_every_endpointer_mode_finds_one_utterance_around_a_real_word(
        mode: str, snr_db: float | None) -> None:
    pcm, _ = read_wav(REAL_VOICES / "7_theo_0.wav")
    word = to_samples(pcm).astype(np.float64)
    audio = np.concatenate([np.zeros(SILENCE_FRAMES * FRAME), word,
                            np.zeros(SILENCE_FRAMES * FRAME)])
    if snr_db is not None:  # steady hiss 10 dB below the word: the noisy path
        loudness = float(np.sqrt(np.mean(word ** 2)))
        audio += np.random.default_rng(3).normal(0, loudness / 10 ** (snr_db / 20), len(audio))
    endpointer = VoicedEndpointer(EndpointSettings(), mode)
    events = [endpointer.push(audio[offset:offset + FRAME])
              for offset in range(0, len(audio) - FRAME + 1, FRAME)]
    started = [index for index, event in enumerate(events) if event is FrameEvent.STARTED]
    ended = [index for index, event in enumerate(events) if event is FrameEvent.ENDED]
    assert len(started) == 1 and len(ended) == 1
    # It starts within the word and ends after it.
    assert SILENCE_FRAMES <= started[0] < SILENCE_FRAMES + len(word) // FRAME
    assert ended[0] > SILENCE_FRAMES + len(word) // FRAME


def test_an_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="voice activity"):
        VoicedEndpointer(EndpointSettings(), "loudness")
