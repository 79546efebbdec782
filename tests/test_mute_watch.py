"""A muted microphone is told (voicespit/speech/listening/mute_watch.py): digital silence
that lasts, never a live microphone's quietest room, and the sound coming back."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.make_real_corpus import in_its_own_room, read_clip
from tests.app_harness import Harness
from tests.conftest import REAL_VOICES
from tests.real_room import room_with_words
from tests.test_listener import PacedSource, listen
from voicespit.app.listening import MICROPHONE_BACK, MICROPHONE_SILENT
from voicespit.app.voice import VoiceInput
from voicespit.speech.listening.gate import ListeningGate
from voicespit.speech.listening.mute_watch import (
    SILENT_AFTER_SECONDS,
    MicrophoneNews,
    MuteWatch,
)
from voicespit.speech.listening.talk_over import TalkHooks
from voicespit.speech.recognizer import SAMPLE_RATE
from voicespit.speech.recognizers.whisper_model import WhisperModel
from voicespit.speech.recognizers.whisper_recognizer import WhisperRecognizer
from voicespit.speech.signal import to_pcm

BLOCK_SECONDS = 0.03
BLOCK = bytes(2 * round(BLOCK_SECONDS * SAMPLE_RATE))
needs_voices = pytest.mark.skipif(not REAL_VOICES.is_dir(),
                                  reason="the real recordings are not beside the repo")


def news_of(watch: MuteWatch, pcm: bytes) -> list[MicrophoneNews]:
    size = len(BLOCK)
    found = [watch.hear(pcm[start:start + size], BLOCK_SECONDS)
             for start in range(0, len(pcm), size)]
    return [news for news in found if news is not None]


def zeros(seconds: float) -> bytes:
    return BLOCK * round(seconds / BLOCK_SECONDS)


def test_digital_silence_that_lasts_is_told_once_and_the_sound_coming_back_too() -> None:
    watch = MuteWatch()
    assert news_of(watch, zeros(SILENT_AFTER_SECONDS - 0.1)) == []
    assert news_of(watch, zeros(0.2)) == [MicrophoneNews.SILENT]
    assert news_of(watch, zeros(30.0)) == [], "told once, however long it lasts"
    sound = to_pcm(np.full(len(BLOCK) // 2, 300.0))
    assert news_of(watch, sound + sound) == [MicrophoneNews.BACK]
    # A pause of a few seconds between commands is nothing to tell.
    assert news_of(watch, zeros(5.0) + sound) == []


def test_a_step_of_dither_is_still_silence_and_the_telling_stops_after_twice() -> None:
    # Some devices send a step or two of dither for silence; a noise gate that sends
    # zeros between words looks muted whenever the player is quiet, so it is told twice.
    dither = to_pcm(np.random.default_rng(1).integers(-1, 2, 40 * SAMPLE_RATE).astype(float))
    sound = to_pcm(np.full(len(BLOCK) // 2, 300.0))
    watch = MuteWatch()
    assert news_of(watch, dither[:len(dither) // 2] + sound) == [
        MicrophoneNews.SILENT, MicrophoneNews.BACK]
    assert news_of(watch, zeros(12.0) + sound) == [MicrophoneNews.SILENT, MicrophoneNews.BACK]
    assert news_of(watch, zeros(60.0) + sound) == []


@needs_voices
@pytest.mark.parametrize("speaker", ["jackson", "theo", "yweweler"])
def test_the_quietest_real_room_is_never_taken_for_a_muted_microphone(speaker: str) -> None:
    # yweweler's room lies near digital silence; its quietest 30 ms still peak above 2 steps.
    clip, rate = read_clip(REAL_VOICES / f"0_{speaker}_1.wav")
    room = in_its_own_room(clip, rate, f"0_{speaker}_1.wav")
    quietest = room[:round(0.4 * SAMPLE_RATE)]  # the room continued before the word
    assert news_of(MuteWatch(), to_pcm(np.tile(quietest, 40))) == []


@needs_voices
def test_the_listener_tells_the_game_when_the_microphone_goes_silent_and_comes_back() -> None:
    muted_until = SILENT_AFTER_SECONDS + 3.0
    audio = room_with_words("exercise_bike.wav", muted_until + 3.0,
                            [(muted_until + 1.0, "7_theo_2.wav")],
                            silent=[(1.0, 1.0 + muted_until)], snr_db=20.0)
    silent: list[float] = []
    back: list[float] = []
    listen(to_pcm(audio), talk=TalkHooks(microphone_silent=silent.append,
                                         microphone_back=back.append))
    assert silent == [pytest.approx(1.0 + SILENT_AFTER_SECONDS, abs=0.15)]
    assert back == [pytest.approx(1.0 + muted_until, abs=0.15)]


@needs_voices
def test_a_player_whose_microphone_is_muted_hears_so_and_hears_it_back(
        whisper_model: WhisperModel) -> None:
    # Muted from the start; unmuted, the player hears it is back, then speaks.
    muted_until = SILENT_AFTER_SECONDS + 2.0
    audio = room_with_words("white_noise.wav", muted_until + 5.0,
                            [(muted_until + 2.5, "7_theo_2.wav")],
                            silent=[(0.0, muted_until)], snr_db=30.0)
    harness = Harness()
    voice = VoiceInput(PacedSource(to_pcm(audio), harness.clock),
                       WhisperRecognizer(whisper_model), ListeningGate("headphones"),
                       harness.session, harness.clock)
    voice.start()
    assert voice.listener.wait(60)
    lines = harness.lines()
    assert lines.count(MICROPHONE_SILENT) == 1 and lines.count(MICROPHONE_BACK) == 1
    after = lines[lines.index(MICROPHONE_BACK) + 1:]
    assert lines.index(MICROPHONE_SILENT) < lines.index(MICROPHONE_BACK)
    assert any(line.startswith("Seven") for line in after), "the word after it is heard"
    # The same room with no mute: nothing about the microphone is said.
    harness = Harness()
    unmuted = room_with_words("white_noise.wav", muted_until + 5.0,
                              [(muted_until + 2.5, "7_theo_2.wav")], snr_db=30.0)
    voice = VoiceInput(PacedSource(to_pcm(unmuted), harness.clock),
                       WhisperRecognizer(whisper_model), ListeningGate("headphones"),
                       harness.session, harness.clock)
    voice.start()
    assert voice.listener.wait(60)
    assert MICROPHONE_SILENT not in harness.lines() and MICROPHONE_BACK not in harness.lines()
