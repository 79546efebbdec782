"""The speaker: stale speech is dropped, urgent speech cuts in, and it reports what was heard.

The live tests use the real pyttsx3 engine writing files and play through a
virtual sound card that runs in real time and records every block with the time
it played (this machine has no sound card). Timings are measured from that
recording, not from the speaker's own bookkeeping.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np
import pytest

from voicespit.audio.output import Mixer, PacedOutput
from voicespit.audio.reports import HeardTracker, SpeechSettings
from voicespit.audio.speaker import LiveSpeaker, RecordingSpeaker
from voicespit.audio.tts import YOUR_VOICE, Pyttsx3Renderer
from voicespit.narration.announcement import Announcement, Cue, Priority

LONG = "Round one. Your cards: queen, nine, seven, three, queen."
BLOCK = 128
RATE = SpeechSettings().rate
STARTED = 30.0
IDLE = 30.0
"""Guards only, for a speaker that never starts or never finishes: on a loaded machine
rendering and playing take longer, and no test here depends on how long."""


@pytest.fixture(scope="module")
def renderer() -> Iterator[Pyttsx3Renderer]:
    speech = Pyttsx3Renderer()
    speech.render("Warming up.", YOUR_VOICE, RATE)
    yield speech
    speech.close()


@dataclass
class Ears:
    """A speaker wired to a recording virtual sound card, and everything it reported."""

    speaker: LiveSpeaker
    output: PacedOutput
    reports: list[tuple[str, float]] = field(default_factory=list)
    heard: list[int] = field(default_factory=list)
    started: threading.Event = field(default_factory=threading.Event)

    def recording(self) -> np.ndarray:
        return self.output.recording()

    def time_of_frame(self, frame: int) -> float:
        block_time, _ = self.output.blocks[frame // BLOCK]
        return block_time + (frame % BLOCK) / self.output.mixer.sample_rate


@pytest.fixture
def ears(renderer: Pyttsx3Renderer) -> Iterator[Ears]:
    mixer = Mixer(renderer.sample_rate)
    output = PacedOutput(mixer, block_frames=BLOCK, keep=True)
    speaker = LiveSpeaker(renderer, mixer)
    result = Ears(speaker, output)

    def started(at: float) -> None:
        result.reports.append(("started", at))
        result.started.set()

    speaker.on_speaking_started(started)
    speaker.on_speaking_finished(lambda at: result.reports.append(("finished", at)))
    speaker.on_announcement_finished(result.heard.append)
    output.start()
    yield result
    speaker.close()
    output.close()


def locate(recording: np.ndarray, template: np.ndarray) -> tuple[int, float]:
    """Where `template` best matches in `recording`, and how well (1.0: exactly, up to gain)."""
    n, total = len(template), len(recording)
    if total < n:
        return 0, 0.0
    size = 1 << int(np.ceil(np.log2(total + n)))
    spectrum = np.fft.rfft(recording, size) * np.conj(np.fft.rfft(template, size))
    dots = np.fft.irfft(spectrum, size)[:total - n + 1]
    window = np.concatenate([[0.0], np.cumsum(recording.astype(np.float64) ** 2)])
    energies = window[n:] - window[:-n]
    scores = dots / (np.linalg.norm(template) * np.sqrt(np.maximum(energies, 1e-12)))
    best = int(np.argmax(scores))
    return best, float(scores[best])


def pile(rank: str, sequence: int, cue: bool = False) -> Announcement:
    return Announcement(f"Left: {rank}.", "pile:left", Priority.NORMAL,
                        Cue.OPPONENT_PLAY if cue else None, -1.0, 4, 1, sequence=sequence)


def test_a_burst_of_pile_changes_speaks_only_the_newest_top(
        ears: Ears, renderer: Pyttsx3Renderer) -> None:
    ears.speaker.say(Announcement(LONG, "deal:0", sequence=1))
    assert ears.started.wait(STARTED)
    ranks = ["two", "three", "four", "five", "six", "seven", "eight", "nine"]
    for sequence, rank in enumerate(ranks, start=2):
        ears.speaker.say(pile(rank, sequence, cue=True))
    assert ears.speaker.wait_until_idle(IDLE)
    history = [(status, a.text) for status, a in ears.speaker.history]
    assert history == ([("dropped", f"Left: {rank}.") for rank in ranks[:-1]]
                       + [("spoken", LONG), ("spoken", "Left: nine.")])
    # The recording itself: "Left: nine." was played in full, no older top at all.
    heard = ears.recording()[:, 0]
    for rank in ranks:
        template = renderer.render(f"Left: {rank}.", ears.speaker.settings.voice_for(1), RATE)
        _, match = locate(heard, template)
        if rank == "nine":
            assert match > 0.99, "the newest top is in the recording, whole"
        else:
            assert match < 0.9, f"the stale 'Left: {rank}.' was heard"
    assert ears.heard[-1] == len(ranks) + 1, "every sequence counts as heard in the end"


def test_urgent_words_cut_in_and_the_rest_of_the_speech_is_never_heard(
        ears: Ears, renderer: Pyttsx3Renderer) -> None:
    # How soon they cut in is a measurement: benchmarks/audio_latency.py.
    ears.speaker.say(Announcement(LONG, "deal:0", sequence=1))
    assert ears.started.wait(STARTED)
    time.sleep(0.4)
    urgent_text = "Too late: left shows a ten."  # not in the cache: a cold render
    # Counted in blocks the output finished before the words were raised, not by the clock:
    # a busy machine can stamp a block before the raise and render it after.
    raised = len(ears.output.blocks) * BLOCK
    ears.speaker.say(Announcement(urgent_text, "refusal", Priority.URGENT, sequence=2))
    assert ears.speaker.wait_until_idle(IDLE)
    recording = ears.recording()[:, 0]
    template = renderer.render(urgent_text, YOUR_VOICE, RATE)
    frame, match = locate(recording, template)
    assert match > 0.99, "the urgent words were played whole"
    assert frame >= raised, "and only after they were raised"
    statuses = [(status, a.text) for status, a in ears.speaker.history]
    assert statuses == [("cut", LONG), ("spoken", urgent_text)]
    # What the long speech had not said when it was cut was never heard at all.
    long_template = renderer.render(LONG, YOUR_VOICE, RATE)
    second = renderer.sample_rate
    begun, _ = locate(recording, long_template[:second // 4])
    said = raised - begun + second // 10  # and the block playing then
    assert said < len(long_template) // 2, "cut before the half, else this proves little"
    assert locate(recording, long_template[said:])[1] < 0.9


def test_an_urgent_cue_stops_the_speech_and_is_heard(ears: Ears) -> None:
    ears.speaker.say(Announcement(LONG, "deal:0", sequence=1))
    assert ears.started.wait(STARTED)
    time.sleep(0.3)
    # Counted in blocks the output finished before the cue was raised, not by the clock: a
    # busy machine can stamp a block before the cue and render it after.
    raised = len(ears.output.blocks) * BLOCK
    ears.speaker.say(Announcement("Slap now! Left is smaller.", "slap", Priority.URGENT,
                                  Cue.SLAP_NOW, -1.0, sequence=2, flush=True))
    assert ears.speaker.wait_until_idle(IDLE)
    recording = ears.recording()
    side = np.abs(recording[:, 0] - recording[:, 1])  # speech is centred: only cues are here
    assert not np.any(side[:raised] > 1e-3), "no cue before it was raised"
    assert np.any(side[raised:] > 1e-3), "the slap cue was played"
    assert [(status, a.topic) for status, a in ears.speaker.history] == [
        ("cut", "deal:0"), ("spoken", "slap")]


def test_words_still_waiting_for_their_cue_are_said_after_an_urgent_cut_in(ears: Ears) -> None:
    ears.speaker.say(pile("nine", 1, cue=True))
    time.sleep(0.04)  # rendered by now (about 12 ms), its 90 ms cue still playing
    ears.speaker.say(Announcement("Say again?", "refusal", Priority.URGENT, sequence=2))
    assert ears.speaker.wait_until_idle(IDLE)
    assert [(status, a.text) for status, a in ears.speaker.history][-1] == (
        "spoken", "Left: nine."), "never heard, so not lost"


def test_newer_words_on_the_same_topic_stop_the_stale_ones_mid_word(ears: Ears) -> None:
    ears.speaker.say(Announcement("Left: two, and a long story about it.", "pile:left",
                                  sequence=1))
    assert ears.started.wait(STARTED)
    ears.speaker.say(pile("three", 2))
    assert ears.speaker.wait_until_idle(IDLE)
    assert [status for status, _ in ears.speaker.history] == ["cut", "spoken"]


def test_reports_bracket_the_speech_and_count_every_event_heard_in_order(ears: Ears) -> None:
    ears.speaker.say(pile("two", 1, cue=True))
    ears.speaker.note_silent(2)
    ears.speaker.say(Announcement("Stock three shows a jack.", "stock:2", sequence=3))
    ears.speaker.note_silent(4)
    assert ears.speaker.wait_until_idle(IDLE)
    assert ears.heard == sorted(ears.heard) and ears.heard[-1] == 4
    kinds = [kind for kind, _ in ears.reports]
    assert kinds == ["started", "finished"], "one span of speech: the gate closes once"
    (_, started), (_, finished) = ears.reports
    recording = ears.recording()
    # Words are centred (left equals right); a pile's cue is not, and is not speech.
    centred = np.abs(recording[:, 0] - recording[:, 1]) < 1e-6
    speech = np.flatnonzero((np.abs(recording[:, 0] + recording[:, 1]) > 1e-3) & centred)
    first_sound = ears.time_of_frame(int(speech[0]))
    last_sound = ears.time_of_frame(int(speech[-1]))
    assert started <= first_sound + 0.01 and finished >= last_sound - 0.01


def test_the_words_are_reported_with_when_they_are_heard(ears: Ears) -> None:
    words: list[tuple[str, float, float]] = []
    ears.speaker.on_words_played(lambda text, start, end: words.append((text, start, end)))
    ears.speaker.say(Announcement("Left: seven.", "pile:left", sequence=1))
    ears.speaker.say(Announcement("Stock three shows a jack.", "stock:2", sequence=2))
    assert ears.speaker.wait_until_idle(IDLE)
    assert [text for text, _, _ in words] == ["Left: seven.", "Stock three shows a jack."]
    recording = ears.recording()
    sound = np.flatnonzero(np.abs(recording[:, 0]) > 1e-3)
    (_, first_start, first_end), (_, second_start, second_end) = words
    assert first_start <= ears.time_of_frame(int(sound[0])) + 0.01
    assert first_end <= second_start + 0.01, "each announcement's own span, in order"
    # Each span ends with its last word, not with the silence the speech engine leaves
    # after it (the self-echo check times the game's words within it).
    times = np.array([ears.time_of_frame(frame) for frame in range(len(recording))])
    for start, end, until in ((first_start, first_end, second_start),
                              (second_start, second_end, np.inf)):
        own = np.flatnonzero((times >= start) & (times < until))
        level = np.abs(recording[own, 0])
        last_word = times[own[np.flatnonzero(level >= 0.02 * level.max())[-1]]]
        assert abs(end - last_word) <= 0.01, (start, end, last_word)
        assert end < times[own[-1]] - 0.1, "the silence after the last word is left out"


def test_speaking_faster_takes_effect_on_the_next_announcement(ears: Ears) -> None:
    spans = []  # in samples played, which a busy machine does not stretch
    for rate in (150, 300):
        ears.speaker.set_rate(rate)
        before = len(ears.recording())
        ears.speaker.say(Announcement(f"Right: queen. {rate}.", "x"))
        assert ears.speaker.wait_until_idle(IDLE)
        sound = np.flatnonzero(np.abs(ears.recording()[before:, 0]) > 1e-3)
        spans.append(int(sound[-1] - sound[0]))
    assert spans[1] < 0.7 * spans[0], spans


def test_silence_stops_speaking_and_forgets_what_waits(ears: Ears) -> None:
    ears.speaker.say(Announcement(LONG, "deal:0", sequence=1))
    ears.speaker.say(pile("two", 2))
    assert ears.started.wait(STARTED)
    ears.speaker.silence()
    assert ears.speaker.wait_until_idle(IDLE)
    assert sorted(status for status, _ in ears.speaker.history) == ["cut", "dropped"]
    assert ears.heard[-1] == 2


def test_the_player_talking_over_it_stops_the_words_and_holds_the_rest_until_they_finish(
        ears: Ears) -> None:
    cut: list[Announcement] = []
    ears.speaker.on_cut_by_player(cut.append)
    ears.speaker.say(Announcement(LONG, "deal:0", sequence=1))
    ears.speaker.say(pile("two", 2))
    assert ears.started.wait(2.0)
    ears.speaker.barge_in(time.monotonic())
    deadline = time.monotonic() + 2.0
    while not ears.speaker.history and time.monotonic() < deadline:
        time.sleep(0.01)
    assert [status for status, _ in ears.speaker.history] == ["cut"]
    assert [a.text for a in cut] == [LONG], "what was cut goes to 'say again'"
    time.sleep(0.5)
    assert len(ears.speaker.history) == 1, "nothing new is said while the player talks"
    ears.speaker.player_done(time.monotonic())
    assert ears.speaker.wait_until_idle(10.0)
    assert [status for status, _ in ears.speaker.history] == ["cut", "spoken"]
    assert ears.heard[-1] == 2


# ------------------------------------------------------------------- pure parts


def test_heard_is_reported_only_when_everything_before_is_heard() -> None:
    tracker = HeardTracker()
    tracker.expect(1)
    tracker.expect(2, parts=2)  # a cue and words
    assert tracker.silent(3) is None, "3 has nothing to say, but 1 and 2 are not heard yet"
    assert tracker.done(2) is None
    assert tracker.done(1) == 1
    assert tracker.done(2) == 3, "2's second part ends: 2 and the silent 3 are heard"
    assert tracker.silent(4) == 4


def test_the_recording_speaker_hears_everything_at_once() -> None:
    speaker = RecordingSpeaker()
    heard: list[int] = []
    speaker.on_announcement_finished(heard.append)
    speaker.say(pile("two", 1))
    speaker.note_silent(2)
    speaker.say(Announcement("Piles.", "answer", Priority.HIGH))
    assert heard == [1, 2] and len(speaker.said) == 2 and speaker.silent == [2]
