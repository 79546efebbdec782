"""A microphone that delivers digital silence in a noisy room: opening (many devices'
first blocks are zeros) or muted for a while. The real Whisper recognizer, the real
listener and real noise under real voices; the room must be learnt as the room, not
heard as a voice for seconds, swallowing the commands said meanwhile."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import REAL_VOICES
from tests.real_room import ENDPOINT_BEFORE_ROUND_46, room_with_words, whisper_finals
from tests.test_listener import listen
from voicespit.speech.listening.activity import ActivitySettings, VoiceActivity
from voicespit.speech.listening.gate import ListeningGate
from voicespit.speech.listening.talk_over import TalkHooks
from voicespit.speech.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer
from voicespit.speech.recognizers.whisper_model import WhisperModel
from voicespit.speech.signal import to_pcm

pytestmark = pytest.mark.skipif(not REAL_VOICES.is_dir(),
                                reason="the real recordings are not beside the repo")

NOISE_NAMES = ["running_tap.wav", "exercise_bike.wav", "white_noise.wav"]

OPENS = ([(0.0, 0.1)], (2.0, 4.5))
"""The microphone's first 0.1 s are zeros; words from 2 s and 4.5 s."""
ROOM_ONLY = 15 * 2 * 16_000 // 10
"""Bytes of the first 1.5 s of a stream (16 kHz s16le)."""
UNMUTED = ([(1.0, 3.0)], (3.5, 6.0))
"""Muted from 1 s to 3 s; words from 3.5 s and 6 s."""


@pytest.mark.parametrize("noise_name", NOISE_NAMES)
@pytest.mark.parametrize(("scenario", "words"), [
    (OPENS, ("8_yweweler_6.wav", "4_jackson_12.wav")),
    (UNMUTED, ("2_theo_11.wav", "9_yweweler_13.wav")),
], ids=["opens", "unmuted"])
def test_both_words_are_heard_and_nothing_else_is_answered(
        whisper_model: WhisperModel, noise_name: str,
        scenario: tuple[list[tuple[float, float]], tuple[float, float]],
        words: tuple[str, str]) -> None:
    silent, onsets = scenario
    audio = room_with_words(noise_name, 8.0, list(zip(onsets, words, strict=True)), silent=silent)
    said = [{"2": "two", "4": "four", "8": "eight", "9": "nine"}[word[0]] for word in words]
    heard = whisper_finals(whisper_model, to_pcm(audio))
    assert [(result.text, result.rejected) for result in heard] == [(word, False) for word in said]
    for result, onset in zip(heard, onsets, strict=True):
        start, end = result.speech_span
        assert start - 0.3 <= onset < end, "the word lies in what was heard"
    # The room taken for one long utterance: both words went into it, and it was refused.
    as_before = whisper_finals(whisper_model, to_pcm(audio), ENDPOINT_BEFORE_ROUND_46)
    assert len(as_before) == 1 and as_before[0].rejected


def test_the_listeners_activity_learns_a_real_room_after_digital_silence() -> None:
    audio = room_with_words("running_tap.wav", 3.0, [(2.0, "5_theo_6.wav")], silent=[(0.0, 0.1)])
    pcm = to_pcm(audio)
    activity = VoiceActivity()
    activity.feed(pcm[:ROOM_ONLY])
    assert not activity.heard_speech and not activity.is_speaking
    activity.feed(pcm[ROOM_ONLY:])
    assert activity.heard_speech and activity.speech_started_at is not None
    assert 1.95 < activity.speech_started_at < 2.3, "the word, where it was said"
    # A run of frames as long as the whole stream never settles: the room is "speech".
    stubborn = VoiceActivity(ActivitySettings(room_window_frames=10_000))
    stubborn.feed(pcm[:ROOM_ONLY])
    assert stubborn.heard_speech and stubborn.speech_started_at == pytest.approx(0.1, abs=0.03)


def test_under_the_echo_guard_nobody_speaking_is_never_told_to_say_it_again() -> None:
    # The guard stops listening while the game talks, and says "I was talking: say it
    # again" when the player's voice was cut. A room taken for a voice after the
    # microphone's first zeros made that happen at every sentence, with nobody there.
    audio = room_with_words("exercise_bike.wav", 8.0, [], silent=[(0.0, 0.1)])
    gate = ListeningGate()
    for start in (2.0, 4.5, 7.0):
        gate.speaking_started(start)
        gate.speaking_finished(start + 0.8)
    dropped: list[float] = []
    _, listener = listen(to_pcm(audio), gate, talk=TalkHooks(dropped=dropped.append))
    assert dropped == [] and listener.utterances_dropped == 0
    # The same room with a voice in it, cut by the game: the player is told.
    voiced = room_with_words("exercise_bike.wav", 8.0, [(4.3, "7_jackson_5.wav")],
                             silent=[(0.0, 0.1)])
    _, listener = listen(to_pcm(voiced), gate, talk=TalkHooks(dropped=dropped.append))
    assert len(dropped) == 1 and listener.utterances_dropped == 1
    assert np.isclose(dropped[0], 4.5, atol=0.15)


@pytest.mark.parametrize("noise_name", NOISE_NAMES)
def test_under_the_echo_guard_the_game_saying_the_microphone_is_back_is_not_taken_for_a_cut(
        noise_name: str) -> None:
    # Muted for 12 s in a room, unmuted: the game says at once that it hears the
    # microphone again, and the guard closes for it. The room learnt as muted silence
    # came back as "speech" for the listener's voice detector, cut by the game's words:
    # "I was talking: say it again", nobody talking.
    audio = room_with_words(noise_name, 16.0, [], silent=[(2.0, 14.0)])
    gate = ListeningGate()
    gate.speaking_started(14.05)
    gate.speaking_finished(15.5)
    dropped: list[float] = []
    listen(to_pcm(audio), gate, talk=TalkHooks(dropped=dropped.append))
    assert dropped == []


@pytest.mark.parametrize("noise_name", NOISE_NAMES)
def test_pocketsphinx_answers_nothing_for_the_room_after_the_microphone_opens(
        noise_name: str) -> None:
    # The same endpointer in front of the other recognizer: the room it took for a voice
    # is forgotten, not decoded into a "Say again?" or a command out of nothing.
    audio = room_with_words(noise_name, 6.0, [(3.0, "8_yweweler_6.wav")], silent=[(0.0, 0.1)])
    recognizer = PocketSphinxRecognizer()
    heard = recognizer.accept_audio(to_pcm(audio)) + recognizer.finish()
    finals = [result for result in heard if result.is_final]
    assert finals, "the word gets an answer"
    for result in finals:
        start, end = result.speech_span
        assert 3.0 - 0.5 <= start < end, f"an answer to the room: {result}"
        # On the stream's clock: answered after the word, not when the room's utterance,
        # which the word had become part of, was cut at `max_frames`.
        assert result.emitted_at < 3.0 + 1.5
