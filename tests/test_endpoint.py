"""The speech detector (voicespit/speech/listening/endpoint.py): start, pause, end, and a changing room."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from benchmarks.make_real_corpus import NOISES, in_its_own_room, read_clip, upsample
from tests.conftest import REAL_VOICES
from voicespit.speech.listening.endpoint import EndpointSettings, FrameEvent, SpeechDetector
from voicespit.speech.recognizers.whisper_recognizer import WhisperSettings
from voicespit.speech.signal import FRAME, speech_band_energy_db

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


def test_words_in_a_fluttering_room_wait_longer_before_settling() -> None:
    # A room that flutters 3 dB from frame to frame: its quietest moments (the floor)
    # lie 3 dB under its typical level, and a frame within an utterance counts as quiet
    # up to three flutters above that level. A voice peaking 32 dB above the floor
    # is clear by the floor, but its weak sounds (the ks of six, the onset of "on")
    # drown 26 dB below its peak: the gap between "six" and "on the left" looks like
    # 18 quiet frames. Judged from the quiet level it is noisy speech, and the settle
    # (16 frames, 22 in noise) waits the gap out.
    room = [40.0 + (3.0 if index % 2 else -3.0) for index in range(200)]
    said = room + [72.0] * 25 + room[:18] + [72.0] * 30

    from_the_floor = SpeechDetector(EndpointSettings(settle_frames=16))
    from_the_quiet = SpeechDetector(EndpointSettings(settle_frames=16, clear_of_quiet=True))
    floor_events = feed(from_the_floor, said)
    quiet_events = feed(from_the_quiet, said)
    assert from_the_floor.in_speech and from_the_quiet.in_speech
    assert not from_the_floor.is_noisy and from_the_quiet.is_noisy
    gap = slice(len(room) + 25, len(room) + 25 + 18)
    # Paused at 8 and settled at 16 quiet frames from the floor: "six" would go out.
    assert floor_events[gap].count(FrameEvent.PAUSED) == 2
    # From the quiet level only asked at 14: "six on the left" is still being said.
    assert quiet_events[gap].count(FrameEvent.PAUSED) == 1


@pytest.mark.skipif(not REAL_VOICES.is_dir(), reason="the real recordings are not beside the repo")
def test_a_real_voice_in_its_own_fluttering_room_is_one_utterance_that_ends() -> None:
    # jackson's room (a few dB up and down from one 10 ms frame to the next), continued
    # around his word as a microphone would hear it. The floor follows the room's
    # quietest moments: measured from the floor alone, the room's louder moments
    # started a second utterance and the first never ended.
    energies = energies_in_its_own_room("1_jackson_10.wav")

    def events(settings: EndpointSettings) -> list[FrameEvent]:
        return feed(SpeechDetector(settings), energies)

    heard = events(EndpointSettings())
    assert heard.count(FrameEvent.STARTED) == 1 and heard.count(FrameEvent.ENDED) == 1
    from_the_floor_alone = events(EndpointSettings(room_spreads=0.0, room_start_spreads=0.0))
    assert FrameEvent.ENDED not in from_the_floor_alone
    starting_from_the_floor = events(EndpointSettings(room_start_spreads=0.0))
    assert starting_from_the_floor.count(FrameEvent.STARTED) > 1


@pytest.mark.skipif(not REAL_VOICES.is_dir(), reason="the real recordings are not beside the repo")
def test_a_soft_onset_does_not_teach_the_room_its_own_level() -> None:
    # jackson's "two" rises over 100 ms. Its first frames are loud by the floor but
    # still within the room's flutter; had they counted as the room, its level and
    # flutter would have climbed with the word and the word never started.
    events = feed(SpeechDetector(), energies_in_its_own_room("2_jackson_24.wav"))
    assert events.count(FrameEvent.STARTED) == 1 and events.count(FrameEvent.ENDED) == 1


def energies_in_its_own_room(name: str) -> list[float]:
    """The frame energies of a real recording in its own room, as the corpus hears it."""
    clip, rate = read_clip(REAL_VOICES / name)
    audio = in_its_own_room(clip, rate, name)
    return [speech_band_energy_db(audio[offset:offset + FRAME])
            for offset in range(0, len(audio) - FRAME + 1, FRAME)]


def test_a_long_digital_silence_in_a_fluttering_room_does_not_leave_it_deaf() -> None:
    # A muted microphone, or a recording's silence: long enough, it is the room, and the
    # floor falls to nothing. The fluttering room after it is loud by that floor yet
    # within its own flutter, so it is not speech; it must still teach the floor and
    # the room again, or no word is ever loud enough to start (the room benchmark heard
    # nothing for 190 s).
    settings = EndpointSettings()
    flutter = [44.0, 47.0, 41.0, 45.0, 43.0, 48.0, 40.0, 46.0]
    detector = SpeechDetector(settings)
    feed(detector, flutter * 25)
    feed(detector, [0.0] * (settings.dropout_frames + 3))
    assert detector.floor_db is not None and detector.floor_db < 5.0
    events = feed(detector, flutter * 25)
    assert FrameEvent.STARTED not in events, "the room is not speech"
    assert detector.floor_db > 30.0, "the room taught the floor again"
    events = feed(detector, [66.0] * 30)
    assert FrameEvent.STARTED in events
    # A soft onset is still not the room: fewer frames than that in a row teach nothing.
    assert settings.room_learns_after > 20


def test_a_dropout_in_a_fluttering_room_teaches_nothing() -> None:
    # A few frames of digital silence where a room was heard are a gap in the signal:
    # the floor stays the room's, and a word right after it starts as it would have.
    flutter = [44.0, 47.0, 41.0, 45.0, 43.0, 48.0, 40.0, 46.0]
    detector = SpeechDetector()
    feed(detector, flutter * 25)
    floor = detector.floor_db
    assert FrameEvent.STARTED not in feed(detector, [0.0] * 4 + flutter * 3)
    assert detector.floor_db == floor
    assert FrameEvent.STARTED in feed(detector, [66.0] * 10)


@pytest.mark.skipif(not REAL_VOICES.is_dir(), reason="the real recordings are not beside the repo")
@pytest.mark.parametrize("noise_name", ["running_tap.wav", "exercise_bike.wav"])
@pytest.mark.parametrize("word", ["7_jackson_5.wav", "5_theo_6.wav", "2_yweweler_8.wav"])
def test_a_real_word_after_a_dropout_in_real_noise_is_heard(noise_name: str, word: str) -> None:
    # Real noise 10 dB under a real voice, 40 ms of digital silence in it a quarter of a
    # second before the word (as both recordings begin). Learnt as the room, the
    # silence lifted the room's flutter above the word, which never started: a command
    # with no answer at all (benchmarks.voice_matches).
    noise, _ = read_clip(NOISES / noise_name)
    noise = noise[640:]  # past the recording's own first 40 ms of silence
    clip, rate = read_clip(REAL_VOICES / word)
    speech = upsample(clip, rate)
    speech *= 3000 / np.sqrt(np.mean(speech ** 2))
    audio = noise[:4 * 16_000] * (3000 / 10 ** 0.5 / np.sqrt(np.mean(noise ** 2)))
    audio[2 * 16_000:2 * 16_000 + 640] = 0.0
    onset = 2 * 16_000 + 4_000
    audio[onset:onset + len(speech)] += speech
    energies = [speech_band_energy_db(audio[offset:offset + FRAME])
                for offset in range(0, len(audio) - FRAME + 1, FRAME)]
    settings = WhisperSettings().endpoint
    events = feed(SpeechDetector(settings), energies)
    starts = [frame for frame, event in enumerate(events) if event is FrameEvent.STARTED]
    assert len(starts) == 1 and onset // FRAME <= starts[0] < (onset + len(speech)) // FRAME
    deaf = feed(SpeechDetector(dataclasses.replace(settings, dropout_room_db=None)), energies)
    assert FrameEvent.STARTED not in deaf, "the dropout as the room: the word is lost"
