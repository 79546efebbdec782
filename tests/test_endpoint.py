"""The speech detector (voicespit/speech/listening/endpoint.py): start, pause, end, and a changing room."""

from __future__ import annotations

import dataclasses

import pytest

from benchmarks.make_real_corpus import in_its_own_room, read_clip
from tests.conftest import REAL_VOICES
from tests.real_room import ENDPOINT_BEFORE_ROUND_46, frame_energies, frames_of, room_with_words
from voicespit.speech.listening.endpoint import EndpointSettings, FrameEvent, SpeechDetector
from voicespit.speech.recognizers.whisper_recognizer import WhisperSettings

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


def test_a_steady_fan_that_starts_is_the_room_within_a_second_and_nothing_was_said() -> None:
    settings = EndpointSettings()
    assert settings.room_window_frames is not None
    detector = SpeechDetector(settings)
    feed(detector, [QUIET] * 20)
    # A fan starts: loud by the floor, so it starts an utterance, but it stays flat:
    # after a second it is the room, and nothing was said.
    events = feed(detector, [60.0] * (settings.room_window_frames + 5))
    assert events.count(FrameEvent.STARTED) == 1 and events.count(FrameEvent.ROOM) == 1
    assert FrameEvent.ENDED not in events and FrameEvent.TOO_LONG not in events
    assert not detector.in_speech
    assert detector.floor_db is not None and detector.floor_db > 55
    events = feed(detector, [60.0] * 50 + [75.0] * 10)
    assert FrameEvent.STARTED in events


def test_a_sound_that_never_settles_is_cut_when_too_long_and_its_quiet_part_is_the_floor() -> None:
    settings = EndpointSettings()
    detector = SpeechDetector(settings)
    feed(detector, [QUIET] * 20)
    # Never a second flat (a radio's voices): cut at max_frames, and not before.
    babble = ([72.0] * 10 + [50.0] * 10) * (settings.max_frames // 20 + 2)
    events = feed(detector, babble)
    assert FrameEvent.TOO_LONG in events and FrameEvent.ROOM not in events
    assert FrameEvent.ENDED not in events[:events.index(FrameEvent.TOO_LONG)]
    assert detector.floor_db is not None and detector.floor_db >= 50.0


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
    from_the_floor_alone = events(EndpointSettings(room_spreads=0.0, room_start_spreads=0.0,
                                                   room_window_frames=None))
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
    return frame_energies(in_its_own_room(clip, rate, name))


def test_a_long_digital_silence_learnt_as_the_room_does_not_leave_it_deaf() -> None:
    # Where digital silence is the room (before round 46, a muted microphone's; still, a
    # recording's silence where no room was heard before it), the floor falls to
    # nothing. The fluttering room after it is loud by that floor yet within its own
    # flutter, so it is not speech; it must still teach the floor and the room again,
    # or no word is ever loud enough to start (the room benchmark heard nothing for 190 s).
    settings = EndpointSettings(dropout_frames=30, room_window_frames=None)
    flutter = [44.0, 47.0, 41.0, 45.0, 43.0, 48.0, 40.0, 46.0]
    detector = SpeechDetector(settings)
    feed(detector, flutter * 25)
    feed(detector, [0.0] * 33)
    assert detector.floor_db is not None and detector.floor_db < 5.0
    events = feed(detector, flutter * 25)
    assert FrameEvent.STARTED not in events, "the room is not speech"
    assert detector.floor_db > 30.0, "the room taught the floor again"
    events = feed(detector, [66.0] * 30)
    assert FrameEvent.STARTED in events
    # A soft onset is still not the room: fewer frames than that in a row teach nothing.
    assert settings.room_learns_after > 20


@pytest.mark.parametrize("silent_frames", [4, 300, 30_000], ids=["dropout", "muted", "muted long"])
def test_digital_silence_in_a_fluttering_room_teaches_nothing(silent_frames: int) -> None:
    # Digital silence where a room was heard is a gap in the signal (a dropout, a muted
    # microphone): the floor stays the room's, the room after it is not speech, and a
    # word right after it starts as it would have.
    flutter = [44.0, 47.0, 41.0, 45.0, 43.0, 48.0, 40.0, 46.0]
    detector = SpeechDetector()
    feed(detector, flutter * 25)
    floor = detector.floor_db
    assert FrameEvent.STARTED not in feed(detector, [0.0] * silent_frames + flutter * 3)
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
    energies = frame_energies(room_with_words(noise_name, 4.0, [(2.25, word)],
                                              silent=[(2.0, 2.04)]))
    said = frames_of(2.25, word)
    settings = WhisperSettings().endpoint
    events = feed(SpeechDetector(settings), energies)
    starts = [frame for frame, event in enumerate(events) if event is FrameEvent.STARTED]
    assert len(starts) == 1 and starts[0] in said
    deaf = feed(SpeechDetector(dataclasses.replace(settings, dropout_room_db=None)), energies)
    assert FrameEvent.STARTED not in deaf, "the dropout as the room: the word is lost"


NOISE_NAMES = ["running_tap.wav", "exercise_bike.wav", "white_noise.wav"]


def events_at(events: list[FrameEvent], kind: FrameEvent) -> list[int]:
    return [frame for frame, event in enumerate(events) if event is kind]


@pytest.mark.skipif(not REAL_VOICES.is_dir(), reason="the real recordings are not beside the repo")
@pytest.mark.parametrize("noise_name", NOISE_NAMES)
def test_a_microphone_that_opens_with_digital_silence_learns_the_real_room_within_a_second(
        noise_name: str) -> None:
    # Many sound devices deliver zeros for their first blocks. The floor learnt from
    # them is nothing, and the real room after them is loud by it: it starts an
    # utterance, which used to run until `max_frames` cut it five seconds later, the
    # noise decided as a command and the words said meanwhile lost with it.
    word = "4_theo_8.wav"
    energies = frame_energies(room_with_words(noise_name, 4.0, [(2.0, word)],
                                              silent=[(0.0, 0.1)]))
    settings = WhisperSettings().endpoint
    assert settings.room_window_frames is not None
    events = feed(SpeechDetector(settings), energies)
    said = frames_of(2.0, word)
    room, starts = events_at(events, FrameEvent.ROOM), events_at(events, FrameEvent.STARTED)
    assert len(room) == 1 and room[0] < 10 + settings.room_window_frames + 10
    assert len(starts) == 2 and starts[0] < 20 and starts[1] in said, "the room, then the word"
    ended = events_at(events, FrameEvent.ENDED)
    assert len(ended) == 1 and ended[0] > said.stop
    as_before = feed(SpeechDetector(dataclasses.replace(settings, room_window_frames=None)),
                     energies)
    assert events_at(as_before, FrameEvent.STARTED) == [starts[0]], "the word was lost in the room"


@pytest.mark.skipif(not REAL_VOICES.is_dir(), reason="the real recordings are not beside the repo")
@pytest.mark.parametrize("noise_name", NOISE_NAMES)
def test_a_word_said_as_the_microphone_is_unmuted_ends_and_the_next_one_is_heard(
        noise_name: str) -> None:
    # Muted for two seconds (digital silence: the room's level falls to nothing), then
    # unmuted with a word at once: it is heard, not forgotten as the room, and the
    # room after it is learnt, so the next word is an utterance of its own.
    first, second = "7_yweweler_5.wav", "9_jackson_6.wav"
    energies = frame_energies(room_with_words(noise_name, 7.0, [(3.0, first), (5.5, second)],
                                              silent=[(1.0, 3.0)]))
    settings = WhisperSettings().endpoint
    events = feed(SpeechDetector(settings), energies)
    starts, ended = events_at(events, FrameEvent.STARTED), events_at(events, FrameEvent.ENDED)
    assert FrameEvent.ROOM not in events and FrameEvent.TOO_LONG not in events
    assert len(starts) == 2 and starts[0] in frames_of(3.0, first)
    assert starts[1] in frames_of(5.5, second)
    assert len(ended) == 2 and ended[0] < starts[1] < ended[1]
    as_before = feed(SpeechDetector(ENDPOINT_BEFORE_ROUND_46), energies)
    assert len(events_at(as_before, FrameEvent.STARTED)) == 1, "the second word was lost"
