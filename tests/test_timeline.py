"""The timeline speaker: the live speaker's rules in fake time, rendered to a WAV."""

from __future__ import annotations

import itertools
import wave
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from voicespit.audio.earcons import SAMPLE_RATE
from voicespit.audio.output import DUCK_DEPTH
from voicespit.audio.reports import SpeechSettings
from voicespit.audio.timeline import Timeline, TimelineSpeaker
from voicespit.audio.tts import Pyttsx3Renderer
from voicespit.clock import FakeClock
from voicespit.narration.announcement import Announcement, Cue, Priority


@pytest.fixture(scope="module")
def renderer() -> Iterator[Pyttsx3Renderer]:
    speech = Pyttsx3Renderer()
    yield speech
    speech.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def speaker(renderer: Pyttsx3Renderer, clock: FakeClock) -> TimelineSpeaker:
    return TimelineSpeaker(renderer, Timeline(SAMPLE_RATE), clock, speech_delay=0.0)


def play(rank: str, pile: str = "left", sequence: int | None = None,
         cue: Cue | None = Cue.OPPONENT_PLAY) -> Announcement:
    return Announcement(f"{pile.title()}: {rank}.", f"pile:{pile}", Priority.NORMAL, cue,
                        -1.0 if pile == "left" else 1.0, 4, 1, sequence=sequence)


def speech_entries(speaker: TimelineSpeaker) -> list[tuple[float, float, str]]:
    return [(p.start, p.end, p.announcement.text)
            for p in speaker.timeline.entries if p.kind == "speech"]


def run_out(clock: FakeClock) -> None:
    while clock.run_next():
        pass


def test_the_cue_sounds_at_the_event_and_the_words_follow_it(
        speaker: TimelineSpeaker, clock: FakeClock) -> None:
    clock.advance(2.0)
    speaker.say(play("nine"))
    cue, words = speaker.timeline.entries
    assert (cue.kind, cue.start) == ("cue", 2.0)
    assert words.kind == "speech" and words.start == pytest.approx(cue.end)


def test_two_cues_at_once_are_played_one_after_the_other(
        speaker: TimelineSpeaker) -> None:
    speaker.say(play("nine", "left", cue=Cue.CARD_SPAT))
    speaker.say(play("four", "right", cue=Cue.CARD_SPAT))
    first, second = (p for p in speaker.timeline.entries if p.kind == "cue")
    assert second.start == pytest.approx(first.end)


def test_an_urgent_cue_does_not_wait_for_another(speaker: TimelineSpeaker) -> None:
    speaker.say(play("nine", "left", cue=Cue.CARD_SPAT))
    speaker.say(Announcement("Slap now!", "slap", Priority.URGENT, Cue.SLAP_NOW))
    starts = [p.start for p in speaker.timeline.entries if p.kind == "cue"]
    assert starts == [0.0, 0.0]


def test_a_newer_top_cuts_the_stale_words_at_that_instant(
        speaker: TimelineSpeaker, clock: FakeClock) -> None:
    speaker.say(play("nine", cue=None))
    clock.advance(0.3)
    speaker.say(play("ten", cue=None))
    run_out(clock)
    (_start_nine, end_nine, _), (start_ten, _, text) = speech_entries(speaker)
    assert end_nine == pytest.approx(0.3, abs=1 / SAMPLE_RATE) and start_ten == 0.3
    assert text == "Left: ten."
    assert [status for status, _ in speaker.history] == ["cut", "spoken"]


def test_words_waiting_are_replaced_by_newer_ones_and_never_overlap(
        speaker: TimelineSpeaker, clock: FakeClock) -> None:
    speaker.say(Announcement("Round one. Your cards: jack, four, nine.", "deal:0"))
    for time_offset, rank in ((0.1, "two"), (0.2, "three"), (0.3, "four")):
        clock.advance_to(time_offset)
        speaker.say(play(rank, "right"))
        speaker.say(play(rank, "left"))
    run_out(clock)
    spoken = [text for _, _, text in speech_entries(speaker)]
    assert spoken == ["Round one. Your cards: jack, four, nine.", "Right: four.", "Left: four."]
    entries = sorted(speech_entries(speaker))
    assert all(a_end <= b_start + 1e-9 for (_, a_end, _), (b_start, _, _)
               in itertools.pairwise(entries))


def test_heard_is_reported_when_the_words_end_in_fake_time(
        speaker: TimelineSpeaker, clock: FakeClock) -> None:
    heard: list[tuple[int, float]] = []
    speaker.on_announcement_finished(lambda sequence: heard.append((sequence, clock.now())))
    speaker.say(play("nine", sequence=1))
    speaker.note_silent(2)
    assert heard == []
    run_out(clock)
    (_, end, _), = speech_entries(speaker)
    assert [sequence for sequence, _ in heard] == [2]
    assert heard[0][1] == pytest.approx(end)


def test_the_wav_is_the_mix_of_the_timeline(speaker: TimelineSpeaker, clock: FakeClock,
                                            tmp_path: Path) -> None:
    speaker.say(play("nine"))
    clock.advance(0.05)
    speaker.say(play("king", "right"))
    run_out(clock)
    path = tmp_path / "out.wav"
    speaker.timeline.write_wav(path, chunk_seconds=0.37)
    with wave.open(str(path)) as recording:
        assert (recording.getnchannels(), recording.getsampwidth(),
                recording.getframerate()) == (2, 2, SAMPLE_RATE)
        pcm = np.frombuffer(recording.readframes(recording.getnframes()), dtype="<i2")
    written = pcm.reshape(-1, 2) / 32767.0
    expected = speaker.timeline.mix(0, len(written))
    assert np.max(np.abs(written - expected)) < 1e-4


def test_speech_is_ducked_under_a_cue_in_the_mix() -> None:
    timeline = Timeline(SAMPLE_RATE)
    words = Announcement("x", "x")
    timeline.place(0.0, np.full(4000, 0.5, dtype=np.float32), "speech", words)
    timeline.place(0.05, np.zeros((1000, 2), dtype=np.float32), "cue", words)
    mixed = timeline.mix(0, 4000)[:, 0]
    under_cue = round(0.05 * SAMPLE_RATE) + 500
    assert mixed[100] == pytest.approx(0.5)
    assert mixed[under_cue] == pytest.approx(0.5 * (1 - DUCK_DEPTH))


def test_with_earcons_off_only_words_are_heard(renderer: Pyttsx3Renderer,
                                               clock: FakeClock) -> None:
    quiet = TimelineSpeaker(renderer, Timeline(SAMPLE_RATE), clock,
                            settings=SpeechSettings(earcons=False), speech_delay=0.0)
    heard: list[int] = []
    quiet.on_announcement_finished(heard.append)
    quiet.say(play("nine", sequence=1))
    run_out(clock)
    assert [(p.kind, p.start) for p in quiet.timeline.entries] == [("speech", 0.0)]
    assert heard == [1]


def test_a_cue_alone_with_earcons_off_is_heard_at_once(renderer: Pyttsx3Renderer,
                                                       clock: FakeClock) -> None:
    quiet = TimelineSpeaker(renderer, Timeline(SAMPLE_RATE), clock,
                            settings=SpeechSettings(earcons=False))
    heard: list[int] = []
    quiet.on_announcement_finished(heard.append)
    quiet.say(Announcement("", "countdown", Priority.URGENT, Cue.COUNTDOWN, sequence=5))
    assert heard == [5], "nothing to wait for: the match must not stall on it"


def test_words_still_waiting_for_their_cue_come_after_an_urgent_cut_in(
        speaker: TimelineSpeaker, clock: FakeClock) -> None:
    speaker.say(play("nine"))
    clock.advance(0.02)  # the 90 ms cue is playing; the words wait for it
    speaker.say(Announcement("Say again?", "refusal", Priority.URGENT, sequence=2))
    run_out(clock)
    assert [text for _, _, text in speech_entries(speaker)] == ["Say again?", "Left: nine."]
    assert [status for status, _ in speaker.history] == ["spoken", "spoken"]


def test_words_cut_before_a_sound_of_them_go_back_even_beside_a_sound_of_the_same_start(
        speaker: TimelineSpeaker, clock: FakeClock) -> None:
    # "Left: nine." is replaced at once: its cut entry stays on the timeline at the
    # same start as "Left: ten.", which an urgent refusal then puts back in the queue.
    # Entries are found by identity: two different sounds never compare equal.
    speaker.say(play("nine", cue=None))
    speaker.say(play("ten", cue=None))
    speaker.say(Announcement("Too late.", "refusal", Priority.URGENT, sequence=3))
    run_out(clock)
    assert [text for _, _, text in speech_entries(speaker)] == [
        "Left: nine.", "Too late.", "Left: ten."]
    assert [status for status, _ in speaker.history] == ["cut", "spoken", "spoken"]
