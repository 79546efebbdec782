"""A microphone in a real noisy room, for tests and benchmarks: real noise under real
words at a chosen level, with stretches where the signal is digital silence (the
microphone opening, muted, or dropping out)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from benchmarks.make_real_corpus import NOISES, read_clip, upsample
from tests.conftest import REAL_VOICES
from voicespit.speech.language.grammar import sentences
from voicespit.speech.listening.endpoint import EndpointSettings
from voicespit.speech.recognizer import SAMPLE_RATE, Recognition
from voicespit.speech.recognizers.whisper_model import WhisperModel
from voicespit.speech.recognizers.whisper_recognizer import WhisperRecognizer, WhisperSettings
from voicespit.speech.signal import FRAME, speech_band_energy_db

VOICE_RMS = 3000.0
"""The words' level (about -21 dBFS: a voice at arm's length from a laptop)."""

NOISE_LEAD_SAMPLES = 640
"""Both real noise recordings that begin with digital silence begin with 40 ms of it."""


def room_with_words(noise_name: str, seconds: float, words: Sequence[tuple[float, str]],
                    silent: Sequence[tuple[float, float]] = (), snr_db: float = 10.0,
                    ) -> npt.NDArray[np.float64]:
    """`seconds` of the real noise `noise_name`, `snr_db` under the words; each word (an
    FSDD file name) said from its onset in seconds; the `silent` stretches (start, end
    in seconds) digital silence, under which nothing is heard, words included."""
    noise, _ = read_clip(NOISES / noise_name)
    noise = noise[NOISE_LEAD_SAMPLES:]
    length = round(seconds * SAMPLE_RATE)
    assert len(noise) >= length, "the recordings are longer than any test needs"
    noise_rms = VOICE_RMS / 10 ** (snr_db / 20)
    audio: npt.NDArray[np.float64] = noise[:length] * (noise_rms / np.sqrt(np.mean(noise ** 2)))
    for onset, name in words:
        clip, rate = read_clip(REAL_VOICES / name)
        speech = upsample(clip, rate)
        speech *= VOICE_RMS / np.sqrt(np.mean(speech ** 2))
        start = round(onset * SAMPLE_RATE)
        audio[start:start + len(speech)] += speech[:max(0, length - start)]
    for silent_from, silent_to in silent:
        audio[round(silent_from * SAMPLE_RATE):round(silent_to * SAMPLE_RATE)] = 0.0
    return audio


def frame_energies(audio: npt.NDArray[np.float64]) -> list[float]:
    """The speech-band energy of each 10 ms frame, as the endpointer hears it."""
    return [speech_band_energy_db(audio[offset:offset + FRAME])
            for offset in range(0, len(audio) - FRAME + 1, FRAME)]


def frames_of(onset_seconds: float, name: str) -> range:
    """The frames a word said from `onset_seconds` spans."""
    clip, rate = read_clip(REAL_VOICES / name)
    first = round(onset_seconds * SAMPLE_RATE) // FRAME
    return range(first, first + round(len(clip) * SAMPLE_RATE / rate) // FRAME + 1)


ENDPOINT_BEFORE_ROUND_46 = dataclasses.replace(
    WhisperSettings().endpoint, room_window_frames=None, dropout_frames=30)
"""The Whisper path's endpointer before round 46: no room window, and digital silence
held back only as a dropout (30 frames), longer silence learnt as the room."""


def whisper_finals(model: WhisperModel, pcm: bytes,
                   endpoint: EndpointSettings | None = None) -> list[Recognition]:
    """What the real Whisper, with the whole grammar, makes of one stream: its finals,
    with the endpointer's settings as given (None: the recognizer's own)."""
    settings = WhisperSettings()
    if endpoint is not None:
        settings = dataclasses.replace(settings, endpoint=endpoint)
    recognizer = WhisperRecognizer(model, sentences(), settings=settings)
    heard = recognizer.accept_audio(pcm) + recognizer.finish()
    return [result for result in heard if result.is_final]
