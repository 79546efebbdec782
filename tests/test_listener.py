"""The listening thread, with the real Vosk recognizer and a fake clock.

Audio arrives as from a microphone: each 100 ms block after the (fake) clock has
moved on by 100 ms, so clock time equals stream time and the game's speech can be
placed exactly. The spoken commands are espeak-ng Korean, decoded by the real
Korean model: "여덟 왼쪽" (eight left) from 1.0 s, "오른쪽" (right) from about
3.3 s, "멈춤" (pause) from about 5.2 s.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest

from tests.vosk_support import KOREAN_PHRASES, SILENCE, korean_speech, loaded_korean_model
from voicespit.clock import FakeClock
from voicespit.errors import VoiceSpitError
from voicespit.speech.listening.gate import ListeningGate
from voicespit.speech.listening.listener import Listener, VoiceStoppedError
from voicespit.speech.listening.microphone import MicrophoneError
from voicespit.speech.listening.sources import AudioBlock
from voicespit.speech.listening.talk_over import TalkHooks
from voicespit.speech.recognizer import Recognition
from voicespit.speech.recognizers.vosk_recognizer import VoskRecognizer

BLOCK = 3_200


def spoken(*commands: str) -> tuple[bytes, list[tuple[float, float]]]:
    """Silence, each command, a second of silence after each; and where each one lies."""
    audio, places = SILENCE, []
    for command in commands:
        speech = korean_speech(command)
        places.append((len(audio) / 32_000, (len(audio) + len(speech)) / 32_000))
        audio += speech + SILENCE
    return audio, places


THREE, PLACES = spoken("여덟 왼쪽", "오른쪽", "멈춤")


class PacedSource:
    """Prepared audio delivered in real-time order against a fake clock.

    `fail_at`: raise MicrophoneError (an unplugged device) when reaching this byte the
    first time blocks() is asked; `endless`: silence after the audio until closed.
    """

    def __init__(self, pcm: bytes, clock: FakeClock, *, endless: bool = False,
                 fail_at: int | None = None) -> None:
        self.pcm, self.clock, self.endless, self.fail_at = pcm, clock, endless, fail_at
        self.position = 0
        self.closed = threading.Event()

    def blocks(self) -> Iterator[AudioBlock]:
        while not self.closed.is_set():
            if self.fail_at is not None and self.position >= self.fail_at:
                self.fail_at = None
                raise MicrophoneError("the microphone was unplugged")
            chunk = self.pcm[self.position:self.position + BLOCK]
            if not chunk:
                if not self.endless:
                    return
                chunk = SILENCE[:BLOCK]
            self.clock.advance(len(chunk) / 32_000)
            yield AudioBlock(chunk, self.position / 32_000)
            self.position += len(chunk)

    def close(self) -> None:
        self.closed.set()


class Heard:
    def __init__(self) -> None:
        self.results: list[Recognition] = []
        self.threads: set[str] = set()
        self.errors: list[VoiceSpitError] = []

    def __call__(self, result: Recognition) -> None:
        self.results.append(result)
        self.threads.add(threading.current_thread().name)

    @property
    def texts(self) -> list[str]:
        return [result.text for result in self.results]


def vosk() -> VoskRecognizer:
    model = loaded_korean_model()
    return VoskRecognizer(model.path, KOREAN_PHRASES, model=model)


def listen(pcm: bytes, gate: ListeningGate | None = None,
           before_start: Callable[[Listener], None] | None = None,
           **options: object) -> tuple[Heard, Listener]:
    """The listener (Korean Vosk) on `pcm` in real block order on a fake clock, run to the
    end; `before_start` may change it first."""
    clock = FakeClock()
    heard = Heard()
    listener = Listener(PacedSource(pcm, clock), vosk(), gate or ListeningGate(), heard, clock,
                        on_error=heard.errors.append, **options)  # type: ignore[arg-type]
    if before_start is not None:
        before_start(listener)
    listener.start()
    assert listener.wait(60)
    return heard, listener


def test_commands_come_out_once_each_on_the_listener_thread_with_source_times() -> None:
    heard, listener = listen(THREE)
    assert heard.texts == ["여덟 왼쪽", "오른쪽", "멈춤"]
    assert heard.threads == {"listener"} and heard.errors == []
    for result, (start, end) in zip(heard.results, PLACES, strict=True):
        assert result.is_final
        assert result.speech_start == pytest.approx(start, abs=0.15)
        assert result.speech_end is not None and start < result.speech_end <= end
    assert not listener.is_running


def test_partial_results_reach_their_own_callback_when_asked() -> None:
    partials: list[str] = []
    heard, _ = listen(spoken("여덟 왼쪽")[0], on_partial=lambda r: partials.append(r.text))
    assert heard.texts == ["여덟 왼쪽"] and partials[0] == "여덟"


def test_the_game_talking_over_a_command_drops_it_whole_and_the_next_one_is_heard() -> None:
    start, second_start = PLACES[0][0], PLACES[1][0]
    gate = ListeningGate(tail_ms=100)
    gate.speaking_started(start + 0.3)  # a short cue cuts into the first word
    gate.speaking_finished(start + 0.4)  # and it is over before the second word
    dropped: list[float] = []
    heard, listener = listen(THREE, gate, talk=TalkHooks(dropped=dropped.append))
    # Neither the first half ("eight") nor the second ("left") comes out on its own...
    assert heard.texts == ["오른쪽", "멈춤"]
    assert listener.utterances_dropped == 1
    # ...and the loss is reported, once, so the player hears "say it again".
    assert len(dropped) == 1
    # Times are still on the source's timeline, though stretches were never decoded.
    assert heard.results[0].speech_start == pytest.approx(second_start, abs=0.15)


def test_a_command_spoken_entirely_while_the_game_speaks_is_not_heard() -> None:
    gate = ListeningGate()
    gate.speaking_started(PLACES[1][0] - 0.5)
    gate.speaking_finished(PLACES[1][1] + 0.1)
    heard, listener = listen(THREE, gate)
    assert heard.texts == ["여덟 왼쪽", "멈춤"]
    assert listener.utterances_dropped == 0  # nothing was being said when it began


def test_with_headphones_a_command_over_the_games_speech_is_heard() -> None:
    gate = ListeningGate("headphones")
    gate.speaking_started(0.5)
    heard, _ = listen(THREE, gate)
    assert heard.texts == ["여덟 왼쪽", "오른쪽", "멈춤"]


def test_the_player_starting_to_speak_over_the_game_barges_in_once_per_command() -> None:
    gate = ListeningGate("headphones")
    gate.speaking_started(0.5)
    barged: list[float] = []
    done: list[float] = []
    heard, listener = listen(THREE, gate, talk=TalkHooks(barge_in=barged.append,
                                                         player_done=done.append))
    assert len(barged) == 3 == listener.barge_ins and len(done) == 3
    for at, (start, _end) in zip(barged, PLACES, strict=True):
        assert start <= at <= start + 0.2  # the clock is the stream here
    assert heard.texts == ["여덟 왼쪽", "오른쪽", "멈춤"]


def test_push_to_talk_hears_one_command_per_press() -> None:
    gate = ListeningGate("push_to_talk", talk_window=5.0)
    gate.talk_key_pressed(PLACES[1][0] - 0.5)  # pressed before "right" only
    heard, _ = listen(THREE, gate)
    assert heard.texts == ["오른쪽"]  # "pause" after it needed another press


def test_a_command_at_the_very_end_of_a_file_is_flushed_out() -> None:
    heard, _ = listen(SILENCE + korean_speech("멈춤"))
    assert heard.texts == ["멈춤"]


def test_stop_ends_listening_promptly_and_releases_the_source() -> None:
    clock = FakeClock()
    source = PacedSource(SILENCE, clock, endless=True)
    listener = Listener(source, vosk(), ListeningGate(), Heard(), clock)
    listener.start()
    time.sleep(0.1)
    assert listener.is_running
    assert listener.stop(timeout=5.0)
    assert source.closed.is_set() and not listener.is_running


def test_an_unplugged_microphone_is_reported_not_a_silently_dead_thread() -> None:
    clock = FakeClock()
    heard = Heard()
    listener = Listener(PacedSource(THREE, clock, fail_at=BLOCK * 5), vosk(), ListeningGate(),
                        heard, clock, on_error=heard.errors.append)
    listener.start()
    assert listener.wait(10)
    assert [str(error) for error in heard.errors] == ["the microphone was unplugged"]
    assert listener.errors == heard.errors and heard.texts == []


def test_with_reconnection_listening_resumes_after_the_device_returns() -> None:
    clock = FakeClock()
    heard = Heard()
    listener = Listener(PacedSource(THREE, clock, fail_at=BLOCK * 5), vosk(), ListeningGate(),
                        heard, clock, on_error=heard.errors.append, reconnect_after=3.0)
    listener.start()
    deadline = time.monotonic() + 10
    while not heard.errors and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(heard.errors) == 1 and listener.is_running  # waiting to try again
    clock.advance(3.0)
    assert listener.wait(60)
    assert heard.texts == ["여덟 왼쪽", "오른쪽", "멈춤"]


def test_stop_while_waiting_to_reconnect_ends_at_once() -> None:
    clock = FakeClock()
    heard = Heard()
    listener = Listener(PacedSource(THREE, clock, fail_at=0), vosk(), ListeningGate(), heard,
                        clock, on_error=heard.errors.append, reconnect_after=1000.0)
    listener.start()
    deadline = time.monotonic() + 10
    while not heard.errors and time.monotonic() < deadline:
        time.sleep(0.01)
    assert listener.is_running
    assert listener.stop(timeout=30.0)  # the fake clock never reaches the reconnect


def test_a_failing_result_handler_is_reported_and_listening_goes_on() -> None:
    heard = Heard()

    def clumsy(result: Recognition) -> None:
        if not heard.results:
            heard.results.append(result)
            raise RuntimeError("the match queue is closed")
        heard(result)

    clock = FakeClock()
    listener = Listener(PacedSource(THREE, clock), vosk(), ListeningGate(), clumsy, clock,
                        on_error=heard.errors.append)
    listener.start()
    assert listener.wait(60)
    assert heard.texts == ["여덟 왼쪽", "오른쪽", "멈춤"]
    [error] = heard.errors
    assert "the match queue is closed" in str(error) and "still listening" in str(error)


class BreakingRecognizer(VoskRecognizer):
    """The real recognizer, made to fail after a while (a fault no real input provokes)."""

    calls = 0

    def accept_audio(self, pcm: bytes) -> list[Recognition]:
        self.calls += 1
        if self.calls > 20:
            raise RuntimeError("decoder state corrupted")
        return super().accept_audio(pcm)


def test_a_failing_recognizer_is_reported_and_listening_stops() -> None:
    model = loaded_korean_model()
    clock = FakeClock()
    heard = Heard()
    listener = Listener(PacedSource(THREE, clock),
                        BreakingRecognizer(model.path, KOREAN_PHRASES, model=model),
                        ListeningGate(), heard, clock, on_error=heard.errors.append)
    listener.start()
    assert listener.wait(10)
    [error] = heard.errors
    assert isinstance(error, VoiceStoppedError)
    assert str(error) == "speech recognition stopped working", "plain words for the player"
    assert "decoder state corrupted" in error.detail, "the cause is kept for the log"
