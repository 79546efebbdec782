"""The speech/no-speech detector: when speech starts and stops, in silence and in noise."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from tests.vosk_support import korean_speech
from voicespit.speech.listening.activity import VoiceActivity

RATE = 16_000


def pcm(samples: npt.NDArray[np.float64]) -> bytes:
    return np.clip(np.rint(samples), -32768, 32767).astype("<i2").tobytes()


def silence(seconds: float) -> npt.NDArray[np.float64]:
    return np.zeros(round(seconds * RATE))


def noise(seconds: float, dbfs: float, seed: int = 1) -> npt.NDArray[np.float64]:
    rms = 32768 * 10 ** (dbfs / 20)
    samples: npt.NDArray[np.float64] = np.random.default_rng(seed).normal(
        0, rms, round(seconds * RATE))
    return samples


def tone(seconds: float, dbfs: float, frequency: float = 300.0) -> npt.NDArray[np.float64]:
    rms = 32768 * 10 ** (dbfs / 20)
    times = np.arange(round(seconds * RATE)) / RATE
    samples: npt.NDArray[np.float64] = np.sqrt(2) * rms * np.sin(2 * np.pi * frequency * times)
    return samples


def test_silence_is_not_speech() -> None:
    activity = VoiceActivity()
    activity.feed(pcm(silence(2)))
    assert not activity.heard_speech and activity.trailing_quiet == 0.0
    assert activity.now == pytest.approx(2.0)


def test_a_sound_after_silence_is_timed_to_within_a_frame_or_two() -> None:
    activity = VoiceActivity()
    activity.feed(pcm(np.concatenate([silence(1.0), tone(0.5, -20), silence(0.4)])))
    assert activity.speech_started_at == pytest.approx(1.0, abs=0.02)
    assert activity.last_speech_at == pytest.approx(1.5, abs=0.02)
    assert activity.trailing_quiet == pytest.approx(0.4, abs=0.02)
    assert not activity.is_speaking


def test_espeak_speech_is_found_where_it_was_put() -> None:
    speech = np.frombuffer(korean_speech("여덟 왼쪽"), dtype="<i2").astype(np.float64)
    activity = VoiceActivity()
    activity.feed(pcm(np.concatenate([silence(1.0), speech, silence(0.5)])))
    voiced = np.flatnonzero(np.abs(speech) > 1000)  # where espeak's voice is clearly on
    assert activity.speech_started_at == pytest.approx(1.0 + voiced[0] / RATE, abs=0.05)
    assert activity.last_speech_at == pytest.approx(1.0 + voiced[-1] / RATE, abs=0.1)


def test_a_steady_fan_is_learnt_as_the_room_and_a_voice_over_it_is_still_heard() -> None:
    activity = VoiceActivity()
    activity.feed(pcm(noise(3, dbfs=-35)))
    assert activity.noise_floor_db is not None and -42 < activity.noise_floor_db < -33
    activity.feed(pcm(noise(2, dbfs=-35, seed=2)))
    assert not activity.heard_speech
    room = noise(0.5, dbfs=-35, seed=3)
    activity.feed(pcm(room + tone(0.5, dbfs=-20)))  # a voice 15 dB above the fan
    assert activity.heard_speech and activity.is_speaking


def test_a_click_is_not_speech() -> None:
    activity = VoiceActivity()
    click = np.zeros(RATE)
    click[8000:8100] = 20000  # one loud frame
    activity.feed(pcm(click))
    assert not activity.heard_speech


def test_resetting_an_utterance_keeps_what_was_learnt_about_the_room() -> None:
    activity = VoiceActivity()
    activity.feed(pcm(np.concatenate([noise(2, dbfs=-40), tone(0.3, -15)])))
    floor = activity.noise_floor_db
    activity.reset_utterance()
    assert not activity.heard_speech and activity.noise_floor_db == floor


def test_blocks_of_any_size_give_the_same_answer() -> None:
    audio = pcm(np.concatenate([silence(0.7), tone(0.4, -25), silence(0.3)]))
    whole, pieces = VoiceActivity(), VoiceActivity()
    whole.feed(audio)
    for start in range(0, len(audio), 777):
        pieces.feed(audio[start:start + 777])
    assert (whole.speech_started_at, whole.last_speech_at) == (
        pieces.speech_started_at, pieces.last_speech_at)
