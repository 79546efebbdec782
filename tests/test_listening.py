"""Choosing how the game listens: always with a canceller, else the echo guard, said plainly."""

from __future__ import annotations

import dataclasses
import json
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from benchmarks.make_corpus import speak, trim
from benchmarks.room import impulse_response, levelled
from tests.app_harness import Harness
from tests.conftest import REAL_VOICES
from tests.test_listener import PacedSource
from tests.test_voice import script
from voicespit.app.listening import (
    FELL_BACK,
    FELL_BACK_AGAIN,
    LISTENING_AGAIN,
    LIVELY_ROOM,
    NO_CANCELLER,
    SENTENCES,
    choose_listening,
)
from voicespit.app.session import TALKED_OVER
from voicespit.app.voice import VoiceInput, open_voice_input
from voicespit.clock import FakeClock
from voicespit.config import load_settings
from voicespit.speech.listening.echo import (
    CancellerError,
    EchoCanceller,
    EchoStage,
    WebRtcCanceller,
    open_canceller,
)
from voicespit.speech.listening.far_end import PlaybackReference
from voicespit.speech.listening.gate import ListeningGate
from voicespit.speech.listening.linear_echo import SpeexCanceller
from voicespit.speech.listening.listener import Listener
from voicespit.speech.listening.sources import AudioBlock, read_wav
from voicespit.speech.recognizer import SAMPLE_RATE
from voicespit.speech.recognizers.whisper_acceptance import FITTED
from voicespit.speech.recognizers.whisper_model import WhisperModel
from voicespit.speech.recognizers.whisper_recognizer import WhisperRecognizer, WhisperSettings


def no_canceller() -> EchoCanceller:
    raise CancellerError("the echo canceller is not installed")


def test_by_default_with_loudspeakers_it_listens_over_its_voice_and_watches_the_room() -> None:
    # With a canceller, `auto` lets the player talk over the game and interrupt it, as
    # `always` does; unlike `always`, it falls back to the watched echo guard if the room
    # turns out too lively (`room_watch`).
    listening = choose_listening("auto", loudspeaker=True)
    assert listening.mode == "always"
    assert isinstance(listening.canceller, WebRtcCanceller)
    assert isinstance(listening.linear, SpeexCanceller)
    assert listening.barge_in and listening.watch_room and not listening.watched_guard
    assert listening.sentence == "I listen even while I speak: talk over me to interrupt."
    asked = choose_listening("always", loudspeaker=True)
    assert not asked.watch_room, "asked for by name, it never falls back"


def test_without_a_canceller_the_default_guard_is_the_same_promise_unwatched() -> None:
    listening = choose_listening("auto", loudspeaker=True, make_canceller=no_canceller)
    assert listening.mode == "echo_guard" and listening.canceller is None
    assert not listening.watched_guard and not listening.barge_in and not listening.watch_room
    # Nothing to apologise for: it still stops listening while it speaks, as it says.
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
    assert listening.mode == asked
    # The echo guard asked for by name is watched as the default one is.
    assert (listening.canceller is not None) == listening.watched_guard == (asked == "echo_guard")
    assert listening.barge_in == (asked == "headphones")
    assert not listening.watch_room


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


def listening_over_the_game(whisper_model: WhisperModel
                            ) -> tuple[Harness, ListeningGate, Listener]:
    """`auto` with a canceller, as the game sets it up: listening over the game, the room
    watched, the greeting's sentence about it in place."""
    harness = Harness()
    gate = ListeningGate("always")
    voice = VoiceInput(PacedSource(bytes(SAMPLE_RATE), harness.clock),
                       WhisperRecognizer(whisper_model), gate, harness.session,
                       harness.clock, echo=EchoStage(open_canceller(), PlaybackReference(22_050)),
                       barge_in=True, watch_room=True)
    harness.session.setup = "Listening on the microphone. " + SENTENCES["always"]
    return harness, gate, voice.listener


def test_falling_back_to_the_watched_guard_the_game_says_so_once_and_stops_interrupting(
        whisper_model: WhisperModel) -> None:
    # What the room watch triggers: the listener stops acting on what it hears under the
    # game's voice, stops hushing and stopping the game for it, and the player is told in
    # plain words, once.
    harness, gate, listener = listening_over_the_game(whisper_model)
    assert listener.room_watch is not None and listener.talk_over is not None
    assert listener.talk_over.talk.barge_in is not None and listener.talk_over.talk.hush
    listener.fall_back_to_watched_guard()
    listener.fall_back_to_watched_guard()
    assert harness.lines().count(FELL_BACK) == 1
    assert harness.session.setup == "Listening on the microphone. " + LIVELY_ROOM
    assert gate.mode == "echo_guard" and listener.watch_under_guard
    assert listener.talk_over.talk.barge_in is None and listener.talk_over.talk.hush is None
    assert listener.room_watch is not None and listener.fell_back_at is not None
    for said in (FELL_BACK, LIVELY_ROOM, LISTENING_AGAIN):
        assert not re.search(r"cancel|library|\d|\(", said, re.I), "plain words"


def test_turned_down_after_falling_back_the_game_listens_over_itself_again_and_says_so(
        whisper_model: WhisperModel) -> None:
    # The fall-back asks the player to turn the game down or use headphones; when the room
    # watch finds they did, everything listening over the game had comes back: the gate,
    # the hush and the barge-in, what "how do you hear me" says, and a sentence to say so.
    harness, gate, listener = listening_over_the_game(whisper_model)
    assert listener.talk_over is not None
    over_the_game = listener.talk_over.talk
    listener.listen_over_the_game_again()  # not fallen back: nothing to come back from
    assert LISTENING_AGAIN not in harness.lines()
    listener.fall_back_to_watched_guard()
    listener.listen_over_the_game_again()
    listener.listen_over_the_game_again()
    assert harness.lines().count(LISTENING_AGAIN) == 1
    assert harness.session.setup == "Listening on the microphone. " + SENTENCES["always"]
    assert gate.mode == "always" and not listener.watch_under_guard
    assert listener.talk_over.talk is over_the_game
    assert len(listener.fell_back_times) == len(listener.listening_again_times) == 1
    listener.fall_back_to_watched_guard()  # and the room can be judged lively again
    assert gate.mode == "echo_guard"
    assert harness.lines().count(FELL_BACK) == 1, "the long account is given once"
    assert harness.lines().count(FELL_BACK_AGAIN) == 1, "then: turned down, not far enough"
    assert harness.session.setup == "Listening on the microphone. " + LIVELY_ROOM
    assert not re.search(r"cancel|library|\d|\(", FELL_BACK_AGAIN, re.I), "plain words"


def test_without_the_room_watch_listening_over_the_game_never_falls_back(
        whisper_model: WhisperModel) -> None:
    harness = Harness()
    voice = VoiceInput(PacedSource(bytes(SAMPLE_RATE), harness.clock),
                       WhisperRecognizer(whisper_model), ListeningGate("always"),
                       harness.session, harness.clock,
                       echo=EchoStage(open_canceller(), PlaybackReference(22_050)),
                       barge_in=True)
    assert voice.listener.room_watch is None


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


class RoomWithTheGameTalking:
    """A microphone in a room where the game talks all along (its narration, echoed by a
    0.5 s room at the player's level) and the player says one word at 8 s, the canceller
    having learnt the room by then; blocks come in real-time order on the fake clock, and
    what the game plays goes to the far end as it is played."""

    BLOCK = 480

    def __init__(self, word: np.ndarray, clock: FakeClock, reference: PlaybackReference,
                 line_said: str = "Left: nine. Right: four, opponent. Stock one shows a king. "
                                  "Say ready.", echo: bool = True) -> None:
        with tempfile.TemporaryDirectory() as folder:
            line = trim(speak(line_said, "en-us", 175, Path(folder))).astype(np.float64)
        self.said = [(line_said, 1.0 + index * len(line) / SAMPLE_RATE,
                      1.0 + (index + 1) * len(line) / SAMPLE_RATE) for index in range(40)]
        """Each time the game says its line: (words, start, end), clock seconds."""
        # A second of the room alone first, as before the game's greeting.
        self.game = np.concatenate([np.zeros(SAMPLE_RATE), np.tile(line, 40)])[:14 * SAMPLE_RATE]
        player = levelled(word)
        if echo:
            room = impulse_response(0.5, 45.0, SAMPLE_RATE, np.random.default_rng(2))
            heard = levelled(np.convolve(self.game, room)[:len(self.game)])  # as loud as the player
        else:  # headphones, or a loudspeaker the microphone does not hear
            heard = np.zeros(len(self.game))
        near = np.random.default_rng(3).standard_normal(len(heard)) * 32768 * 10 ** (-60 / 20)
        near[8 * SAMPLE_RATE:8 * SAMPLE_RATE + len(player)] += player
        self.microphone = np.clip(heard + near, -32768, 32767).astype(np.int16)
        self.clock, self.reference = clock, reference

    def blocks(self) -> Iterator[AudioBlock]:
        for first in range(0, len(self.microphone) - self.BLOCK, self.BLOCK):
            played = self.game[first:first + self.BLOCK] / 32768
            self.reference.push(played.astype(np.float32), first / SAMPLE_RATE)
            self.clock.advance(self.BLOCK / SAMPLE_RATE)
            yield AudioBlock(self.microphone[first:first + self.BLOCK].tobytes(),
                             first / SAMPLE_RATE)

    def close(self) -> None:
        pass


def said_over_the_game_with_the_canceller(whisper_model: WhisperModel, recording: str,
                                           answer_after: float | None = None,
                                           acceptance_file: Path | None = None,
                                           line_said: str | None = None, echo: bool = True,
                                           linear: bool = False) -> list[str]:
    """What the player hears after saying a real word over the game, with `listen = always`:
    the canceller, talk detector, echo mask, listener and Whisper are the game's own.
    `answer_after`: seconds of quiet before the recognizer answers (None: as it does);
    `acceptance_file`: the acceptance model (None: the shipped one); `line_said`: what the
    game says, over and over (None: a table announcement); `echo`: whether the microphone
    hears it; `linear`: speexdsp beside AEC3, as the game runs it."""
    path = REAL_VOICES / recording
    if not path.is_file():
        pytest.skip("needs the shared real voices")
    word, _ = read_wav(path)
    harness = Harness()
    reference = PlaybackReference(SAMPLE_RATE)
    gate = ListeningGate("always")
    gate.speaking_started(0.0)
    room = RoomWithTheGameTalking(np.frombuffer(word, dtype="<i2").astype(np.float64),
                                  harness.clock, reference, echo=echo,
                                  **({} if line_said is None else {"line_said": line_said}))
    settings = WhisperSettings(acceptance_file=acceptance_file)
    if answer_after is not None:
        frames = round(answer_after * 100)
        settings = dataclasses.replace(settings, endpoint=dataclasses.replace(
            settings.endpoint, pause_frames=frames, settle_frames=frames, end_frames=frames,
            room_window_frames=frames))
    voice = VoiceInput(room, WhisperRecognizer(whisper_model, settings=settings), gate,
                       harness.session, harness.clock,
                       echo=EchoStage(open_canceller(), reference,
                                      linear=SpeexCanceller() if linear else None),
                       barge_in=True)
    if line_said is not None:  # the words the game said, as its speaker reports them
        for words, start, end in room.said:
            assert voice.listener.spoken is not None
            voice.listener.spoken.played(words, start, end)
    voice.start()
    assert voice.listener.wait(120)
    assert voice.listener.barge_ins == 1, "the game stopped for the player, once"
    return harness.lines()


def test_talking_over_the_game_a_word_refused_as_doubtful_is_answered_say_again(
        whisper_model: WhisperModel, tmp_path: Path) -> None:
    # "Zero" is no command. Whether the shipped model refuses this take over the game is
    # a near thing that the processor decides (on one build machine it was "yeah", a
    # harmless answer, on others refused), so the refusal is made certain here by the
    # shipped model with a threshold no command reaches: what is tested is that a refusal
    # while the game talks reaches the player as "Say again?".
    model = json.loads(FITTED.read_text())
    model["threshold"] = 1.01
    refusing = tmp_path / "refuses_everything.json"
    refusing.write_text(json.dumps(model))
    assert said_over_the_game_with_the_canceller(whisper_model, "0_jackson_1.wav",
                                                 acceptance_file=refusing) == ["Say again?"]


def test_talking_over_the_game_a_command_the_game_speaks_over_again_is_never_lost_in_silence(
        whisper_model: WhisperModel) -> None:
    # The recognizer takes longer to answer than the game waits after the player stops
    # (`answer_wait`): the game speaks again, the echo mask keeps the rest of "seven", its
    # end included, from the recognizer, and the command is lost. The player is told.
    assert said_over_the_game_with_the_canceller(whisper_model, "7_jackson_3.wav",
                                                 answer_after=2.5) == [TALKED_OVER]


def test_with_no_echo_a_word_the_game_keeps_saying_said_over_it_is_the_players(
        whisper_model: WhisperModel) -> None:
    # Headphones on `auto`, or a loudspeaker the microphone does not hear: the game says
    # "seven" over and over and the player says it over the game, 8 s in. With an echo it
    # is not acted on (it may be the game's own word, heard back); with none, the game's
    # words never reach the microphone, and it is the player's (round 24's loudspeaker
    # play: "yes" said as "Quit this game? Say yes or no." ended was refused as its echo).
    said = said_over_the_game_with_the_canceller(whisper_model, "7_jackson_3.wav",
                                                 line_said="Seven. Say seven.", echo=False,
                                                 linear=True)
    assert said and said[0].startswith("Seven"), said
    assert "Say again?" not in said
    echoed = said_over_the_game_with_the_canceller(whisper_model, "7_jackson_3.wav",
                                                   line_said="Seven. Say seven.", echo=True,
                                                   linear=True)
    assert echoed and not any(line.startswith("Seven") for line in echoed), \
        "with an echo, the game's own word is not acted on (but the player is answered)"
