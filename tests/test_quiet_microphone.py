"""A microphone turned down: every sound it hears quieter, over its converter's own hiss.
The real Whisper recognizer and the real listener on real words in real noise: a voice
at -51 dBFS is heard, and one at -61 dBFS is still a voice, so the player is told when
the game cut it."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from benchmarks.room import turned_down
from tests.conftest import REAL_VOICES
from tests.real_room import room_with_words, whisper_finals
from tests.test_listener import listen
from voicespit.speech.listening.activity import ActivitySettings, VoiceActivity
from voicespit.speech.listening.gate import ListeningGate
from voicespit.speech.listening.talk_over import TalkHooks
from voicespit.speech.recognizers.whisper_model import WhisperModel
from voicespit.speech.signal import to_pcm

pytestmark = pytest.mark.skipif(not REAL_VOICES.is_dir(),
                                reason="the real recordings are not beside the repo")

def through_turned_down(audio: npt.NDArray[np.float64], gain_db: float, seed: int = 0) -> bytes:
    """What a microphone turned down by `gain_db` records of `audio`, as PCM."""
    return to_pcm(turned_down(audio, gain_db, np.random.default_rng(seed)))


def guarded_game() -> ListeningGate:
    """The echo guard with the game talking from 2 s, 4.5 s and 7 s, 0.8 s each."""
    gate = ListeningGate()
    for start in (2.0, 4.5, 7.0):
        gate.speaking_started(start)
        gate.speaking_finished(start + 0.8)
    return gate


def test_whisper_hears_real_words_from_a_microphone_turned_down(
        whisper_model: WhisperModel) -> None:
    # Turned down 30 dB: the words at -51 dBFS (`real_room.VOICE_RMS`), the room 20 dB
    # under them. 40 dB down, the converter's hiss begins to tell: "six" lost its end.
    audio = room_with_words("running_tap.wav", 8.0, [(2.0, "6_jackson_9.wav"),
                                                     (5.0, "3_theo_14.wav")], snr_db=20.0)
    heard = whisper_finals(whisper_model, through_turned_down(audio, -30.0))
    assert [(result.text, result.rejected) for result in heard] == [("six", False),
                                                                    ("three", False)]


@pytest.mark.parametrize("noise_name", ["running_tap.wav", "exercise_bike.wav", "white_noise.wav"])
def test_under_the_echo_guard_a_quiet_players_word_cut_by_the_game_is_told(
        noise_name: str) -> None:
    # The guard stops listening while the game talks and says "I was talking: say it
    # again" when it cut the player. Turned down 40 dB, the words at -61 dBFS: a voice
    # detector whose bar stood at -55 dBFS never heard them, and the cut one was lost
    # unanswered. The bar follows the microphone once it has heard the player (a word
    # said before the game spoke) or the game.
    voiced = room_with_words(noise_name, 8.0, [(0.8, "2_theo_11.wav"),
                                               (4.3, "7_jackson_5.wav")])
    dropped: list[float] = []
    _, listener = listen(through_turned_down(voiced, -40.0), guarded_game(),
                         talk=TalkHooks(dropped=dropped.append))
    assert len(dropped) == 1 and listener.utterances_dropped == 1
    assert np.isclose(dropped[0], 4.5, atol=0.15)
    # The same room with nobody in it: nobody is told.
    empty = room_with_words(noise_name, 8.0, [])
    listen(through_turned_down(empty, -40.0), guarded_game(),
           talk=TalkHooks(dropped=dropped.append))
    assert len(dropped) == 1


def test_the_listeners_voice_detector_hears_a_quiet_word_where_it_was_said() -> None:
    audio = room_with_words("white_noise.wav", 5.0, [(1.0, "9_yweweler_13.wav"),
                                                     (3.0, "5_theo_6.wav")])
    pcm = through_turned_down(audio, -40.0)
    first_word = 2 * 16_000 * 2  # bytes of the first 2 s
    activity = VoiceActivity()
    activity.feed(pcm[:first_word])
    activity.reset_utterance()
    activity.feed(pcm[first_word:])
    assert activity.speech_started_at is not None and activity.last_speech_at is not None
    assert 2.95 < activity.speech_started_at < 3.2
    assert activity.last_speech_at < 3.0 + 0.8, "the word, not the room after it"
    # The bar before round 47: no frame of either word reached it.
    before = VoiceActivity(ActivitySettings(follow_gain=False))
    before.feed(pcm)
    assert not before.heard_speech
