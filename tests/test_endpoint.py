"""The speech detector (voicespit/speech/listening/endpoint.py): start, pause, end, and a changing room."""

from __future__ import annotations

import numpy as np

from voicespit.speech.listening.endpoint import EndpointSettings, FrameEvent, SpeechDetector

QUIET, LOUD = 40.0, 70.0


def feed(detector: SpeechDetector, energies: list[float]) -> list[FrameEvent]:
    return [detector.push(energy) for energy in energies]


def test_speech_starts_after_a_few_loud_frames_not_one_click() -> None:
    detector = SpeechDetector()
    assert FrameEvent.STARTED not in feed(detector, [QUIET] * 20 + [LOUD] + [QUIET] * 20)
    events = feed(detector, [LOUD] * 5)
    assert FrameEvent.STARTED in events and detector.in_speech


def test_a_short_pause_asks_twice_and_a_long_one_ends_the_utterance() -> None:
    settings = EndpointSettings()
    detector = SpeechDetector(settings)
    feed(detector, [QUIET] * 20 + [LOUD] * 30)
    events = feed(detector, [QUIET] * (settings.end_frames + 3))
    paused = [index for index, event in enumerate(events) if event is FrameEvent.PAUSED]
    ended = events.index(FrameEvent.ENDED)
    assert len(paused) == 2 and paused[0] < paused[1] < ended
    assert not detector.in_speech


def test_speech_that_resumes_after_a_short_pause_is_the_same_utterance() -> None:
    detector = SpeechDetector()
    feed(detector, [QUIET] * 20 + [LOUD] * 20 + [QUIET] * 12 + [LOUD] * 20)
    assert detector.in_speech and detector.quiet_frames == 0


def test_a_steady_noise_becomes_the_new_floor() -> None:
    settings = EndpointSettings()
    detector = SpeechDetector(settings)
    feed(detector, [QUIET] * 20)
    # A fan starts: it is loud at first, cut off as too long, then it is the room.
    events = feed(detector, [60.0] * (settings.max_frames + 5))
    assert FrameEvent.TOO_LONG in events
    assert not detector.in_speech
    assert detector.floor_db is not None and detector.floor_db > 55
    events = feed(detector, [60.0] * 50 + [75.0] * 10)
    assert FrameEvent.STARTED in events




def test_a_room_that_flutters_does_not_hold_the_utterance_open() -> None:
    # A hum or a microphone's own noise: a few dB up and down from one 10 ms frame to
    # the next. The floor follows its quietest moments, so "4 dB above the floor" is
    # most of the room; the end must still be found.
    flutter = (QUIET + 2.5 * np.random.default_rng(3).standard_normal(300)).tolist()
    settings = EndpointSettings()
    detector = SpeechDetector(settings)
    feed(detector, flutter[:100] + [LOUD] * 30)
    assert FrameEvent.ENDED in feed(detector, flutter[100:100 + settings.end_frames + 5])

    only_the_floor = SpeechDetector(EndpointSettings(room_spreads=0.0))
    feed(only_the_floor, flutter[:100] + [LOUD] * 30)
    assert FrameEvent.ENDED not in feed(only_the_floor, flutter[100:])
