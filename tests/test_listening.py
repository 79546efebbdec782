"""Choosing how the game listens: always with a canceller, else the echo guard, said plainly."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tests.app_harness import Harness
from tests.conftest import REAL_VOICES
from tests.test_listener import PacedSource
from tests.test_voice import script
from voicespit.app.listening import NO_CANCELLER, choose_listening
from voicespit.app.session import TALKED_OVER
from voicespit.app.voice import VoiceInput, open_voice_input
from voicespit.config import load_settings
from voicespit.speech.listening.echo import CancellerError, EchoCanceller, EchoStage, WebRtcCanceller
from voicespit.speech.listening.far_end import PlaybackReference
from voicespit.speech.listening.gate import ListeningGate
from voicespit.speech.listening.linear_echo import SpeexCanceller
from voicespit.speech.listening.sources import read_wav
from voicespit.speech.recognizer import SAMPLE_RATE
from voicespit.speech.recognizers.whisper_model import WhisperModel
from voicespit.speech.recognizers.whisper_recognizer import WhisperRecognizer


def no_canceller() -> EchoCanceller:
    raise CancellerError("the echo canceller is not installed")


def test_by_default_with_loudspeakers_it_does_not_listen_while_it_speaks() -> None:
    # The canceller's leftovers were still taken for commands in the room benchmark:
    # by default a loudspeaker means the echo guard, which answers what it lost.
    listening = choose_listening("auto", loudspeaker=True)
    assert listening.mode == "echo_guard"
    assert listening.canceller is None and not listening.barge_in
    assert listening.sentence == "I stop listening while I speak."


def test_asked_for_always_it_cancels_its_voice_and_listens_all_the_time() -> None:
    listening = choose_listening("always", loudspeaker=True)
    assert listening.mode == "always"
    assert isinstance(listening.canceller, WebRtcCanceller)
    assert isinstance(listening.linear, SpeexCanceller)  # what the recognizer hears
    assert listening.barge_in
    assert "interrupt" in listening.sentence


def test_without_speexdsp_always_still_listens_through_aec3_alone() -> None:
    listening = choose_listening("always", loudspeaker=True, make_linear=lambda: None)
    assert listening.mode == "always"
    assert isinstance(listening.canceller, WebRtcCanceller)
    assert listening.linear is None


def test_without_a_canceller_it_says_it_will_not_listen_while_speaking_and_guards() -> None:
    listening = choose_listening("always", loudspeaker=True, make_canceller=no_canceller)
    assert listening.mode == "echo_guard"
    assert listening.canceller is None and not listening.barge_in
    assert listening.sentence == NO_CANCELLER
    assert "will not listen while I speak" in listening.sentence
    # Plain words: no library, no jargon.
    assert not re.search(r"webrtc|aec|echo cancel|library|\(", listening.sentence, re.I)


def test_with_nothing_coming_out_of_a_loudspeaker_there_is_nothing_to_cancel() -> None:
    listening = choose_listening("auto", loudspeaker=False, make_canceller=no_canceller)
    assert listening.mode == "headphones" and listening.canceller is None


@pytest.mark.parametrize("asked", ["echo_guard", "headphones", "push_to_talk"])
def test_the_other_modes_are_taken_as_asked(asked: str) -> None:
    listening = choose_listening(asked, loudspeaker=True)
    assert listening.mode == asked and listening.canceller is None
    assert listening.barge_in == (asked == "headphones")


def test_the_game_says_it_when_the_canceller_library_is_missing_and_guards_instead(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole start-up path: settings `listen = always`, loudspeakers, no library."""
    monkeypatch.setitem(sys.modules, "pywebrtc_audio", None)  # as if it were not installed
    harness = Harness()
    settings = load_settings(overrides={"input": {"input": "wav", "listen": "always",
                                                  "recognizer": "pocketsphinx"}})
    assert settings.input.listen == "always"
    voice, how = open_voice_input(settings, script(tmp_path), harness.session, harness.speaker,
                                  clock=harness.clock, playback=PlaybackReference(22_050))
    assert voice is not None
    assert voice.gate.mode == "echo_guard"
    assert how.details.endswith(NO_CANCELLER)
    assert voice.listener.echo is not None and voice.listener.echo.canceller is None
    assert voice.listener.talk is not None and voice.listener.talk.barge_in is None
    voice.stop()


def said_over_by_the_game(whisper_model: WhisperModel, cut: bool) -> list[str]:
    """A real "seven" with the echo guard on; with `cut`, the game starts speaking 0.15 s
    into it (a cue), and is done before the word is."""
    recording = REAL_VOICES / "7_theo_2.wav"
    if not recording.is_file():
        pytest.skip("needs the shared real voices")
    word, _ = read_wav(recording)
    silence = bytes(2 * SAMPLE_RATE)
    onset = len(silence) / (2 * SAMPLE_RATE)
    harness = Harness()
    gate = ListeningGate("echo_guard", tail_ms=100)
    if cut:
        gate.speaking_started(onset + 0.15)
        gate.speaking_finished(onset + 0.25)
    source = PacedSource(silence + word + silence + silence, harness.clock)
    voice = VoiceInput(source, WhisperRecognizer(whisper_model), gate, harness.session,
                       harness.clock, echo=EchoStage(None, PlaybackReference(22_050)))
    voice.start()
    assert voice.listener.wait(60)
    return harness.lines()


def test_with_the_echo_guard_a_command_the_game_talked_over_is_never_lost_in_silence(
        whisper_model: WhisperModel) -> None:
    assert TALKED_OVER in said_over_by_the_game(whisper_model, cut=True)
    # The same word with the game silent is simply heard: the answer is the cut's doing.
    assert TALKED_OVER not in said_over_by_the_game(whisper_model, cut=False)
