"""Speakers: announcements in, sound (and reports of what was heard) out.

`Speaker` is the protocol the app talks to. Implementations:
- `LiveSpeaker`: pyttsx3 renders each announcement to samples on the speaker's
  own thread, and the mixer plays them; urgent news stops the speech playing at
  the next audio block (we never rely on pyttsx3's `stop()`).
- `TimelineSpeaker` (timeline.py): the same rules in fake time, rendered to a WAV.
- `RecordingSpeaker`: remembers what it was asked to say, for tests.

Wiring in the app (see reports.py for what each report means):

    speaker.on_speaking_started(mic_gate.speaking_started)
    speaker.on_speaking_finished(mic_gate.speaking_finished)
    speaker.on_announcement_finished(match.announcement_finished)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from voicespit.audio.earcons import EarconBank, Stereo
from voicespit.audio.output import Mixer, Playing, sounding_seconds
from voicespit.audio.render_worker import RENDER_TIMEOUT, RenderWorker
from voicespit.audio.reports import (
    CutListener,
    SequenceListener,
    SpeakerBase,
    SpeechSettings,
    TimeListener,
    WordsListener,
)
from voicespit.audio.speech_queue import AnnouncementQueue, interrupts
from voicespit.audio.tts import SpeechRenderer, SpeechRenderError, Voice
from voicespit.narration.announcement import Announcement, Priority
from voicespit.resampling import resample

SPEECH_GAIN = 0.7
"""Speech sits in the centre at this level; earcons (gain 0.45) play over it without clipping."""
SPEECH_FAILING = "The game's voice is not working; everything is printed as text."
"""Told once when the speech engine fails or stops answering (again only after it recovers)."""
TroubleListener = Callable[[str], None]
"""Given a sentence for the player about a failure the game is riding out."""


class Speaker(Protocol):
    def say(self, announcement: Announcement) -> None:
        """Present it: the cue at once, the words when their turn comes (or never, if stale)."""
        ...

    def note_silent(self, sequence: int) -> None:
        """Event `sequence` has nothing to present; count it heard after those before it."""
        ...

    def silence(self) -> None:
        """Stop speaking and forget everything waiting ("quiet")."""
        ...

    @property
    def rate(self) -> int: ...

    def set_rate(self, words_per_minute: int) -> None: ...

    @property
    def volume(self) -> float: ...

    def set_volume(self, volume: float) -> None: ...

    def set_voice(self, seat: int | None, voice: Voice) -> None: ...

    def voice_for(self, seat: int | None) -> Voice:
        """The voice one seat speaks in (0 you, 1 the opponent, None the game)."""
        ...

    def voice_choices(self) -> tuple[Voice, ...]:
        """The voices the game's own can be changed to, the default first."""
        ...

    def on_speaking_started(self, listener: TimeListener) -> None: ...

    def on_speaking_finished(self, listener: TimeListener) -> None: ...

    def on_announcement_finished(self, listener: SequenceListener) -> None: ...

    def on_cut_by_player(self, listener: CutListener) -> None: ...

    def on_words_played(self, listener: WordsListener) -> None: ...

    def barge_in(self, time: float) -> None:
        """The player started speaking over the game: stop now, hold what waits."""
        ...

    def player_done(self, time: float) -> None:
        """The player has finished: what waits may be said."""
        ...

    def hush(self, hushed: bool) -> None:
        """The player may be talking over the game: speak far more quietly (or again aloud)."""
        ...

    def begin_match(self) -> None:
        """A new match starts: its events are numbered from one again."""
        ...

    def close(self) -> None: ...


MAX_HOLD = 6.0
"""After a barge-in, speech waits for the player at most this long (a player_done lost
in a failure must not silence the game)."""
MAX_CUE_WAIT = 0.2
"""A cue waits at most this long for the cue before it to end, then plays over it."""


class CueSpacing:
    """When cues play: one after another, never on top of each other.

    Two cues at once (the two spit cards, left and right) blur into one sound from
    the middle; spaced, each is heard from its own side. And an announcement's
    words wait for its own cue: "tick - Left: nine.", the cue first, then words.
    """

    def __init__(self) -> None:
        self.free_at = float("-inf")

    def cue_start(self, now: float, seconds: float, urgent: bool = False) -> float:
        """When a cue of `seconds` asked for at `now` should start (urgent ones: at once)."""
        wait = self.free_at - now
        start = now + wait if 0 < wait <= MAX_CUE_WAIT and not urgent else now
        self.free_at = max(self.free_at, start + seconds)
        return start


def is_urgent(announcement: Announcement) -> bool:
    return announcement.priority is Priority.URGENT


def centred(mono: np.ndarray, gain: float) -> Stereo:
    """Mono speech to both ears equally."""
    scaled = (mono * np.float32(gain)).astype(np.float32)
    return np.stack([scaled, scaled], axis=1)


@dataclass
class _Speech:
    """The announcement the speaker is rendering or playing now."""

    announcement: Announcement
    playing: Playing | None = None
    interrupted: bool = False
    superseded: bool = False
    """Cut because newer words on its topic came: never to be said again."""
    started: bool = False
    said_at: float = 0.0
    """When `say()` was called for it: the start of its latency."""
    cue: Playing | None = None
    """Its own cue: the words start on the frame the cue ends."""
    duration: float = 0.0
    """Seconds its words last, once rendered."""
    sounding: float = 0.0
    """Seconds until its last word ends (`duration` but the silence after it)."""


class LiveSpeaker(SpeakerBase):
    """Speaks through a `Mixer` with a render thread; every method is thread-safe.

    `history` lists how each announcement's words ended (see SpeakerBase).
    `latencies` lists, for each announcement that reached the ear, the seconds
    from `say()` to its first speech sample.

    The speech engine renders on a thread of its own (`RenderWorker`): when it
    raises or does not answer within `render_timeout`, the words are dropped as
    "failed" (they are heard at once, so the match never waits for them; the
    text mirror has them), `on_trouble` listeners are told once, and speech
    resumes as soon as the engine answers again.
    """

    def __init__(self, renderer: SpeechRenderer, mixer: Mixer, earcons: EarconBank | None = None,
                 settings: SpeechSettings | None = None,
                 now: Callable[[], float] = time.monotonic,
                 render_timeout: float = RENDER_TIMEOUT) -> None:
        super().__init__(settings)
        self.renderer = renderer
        self.render_timeout = render_timeout
        self._worker = RenderWorker(renderer)
        self._trouble: list[TroubleListener] = []
        self._speech_failing = False
        self.mixer = mixer
        self.earcons = earcons or EarconBank(mixer.sample_rate)
        self._now = now
        self._queue = AnnouncementQueue()
        self._cond = threading.Condition()
        self._current: _Speech | None = None
        self._speaking = False
        self._delivering = False
        self._closed = False
        self._timing: dict[int, tuple[float, Playing | None]] = {}
        """id(announcement) -> (when it was said, its cue playing)."""
        self._spacing = CueSpacing()
        self._held_until: float | None = None
        """While the player talks over the game (barge-in), no new speech starts before this."""
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self._thread = threading.Thread(target=self._run, name="speaker", daemon=True)
        self._thread.start()

    # --------------------------------------------------------------- callers

    def voice_choices(self) -> tuple[Voice, ...]:
        return self.renderer.game_voices()

    def say(self, announcement: Announcement) -> None:
        requested = self._now()
        volume = self.settings.volume
        with self._cond:
            if self._closed:
                return
            self._expect(announcement)
            cue = None
            if self.plays_cue(announcement):
                cue = self._play_cue(announcement, requested, volume)
            if not announcement.text:
                return
            self._timing[id(announcement)] = (requested, cue)
            for stale in self._queue.push(announcement, requested):
                self._drop("dropped", stale)
            current = self._current
            if current is not None and interrupts(current.announcement, announcement):
                self._interrupt(current, superseded=current.announcement.topic
                                == announcement.topic)
            self._cond.notify_all()

    def note_silent(self, sequence: int) -> None:
        with self._cond:
            self._report(self._tracker.silent(sequence))
            self._cond.notify_all()

    def silence(self) -> None:
        with self._cond:
            for waiting in self._queue.clear():
                self._drop("dropped", waiting)
            if self._current is not None:
                self._interrupt(self._current, superseded=True)
            self._cond.notify_all()

    def begin_match(self) -> None:
        with self._cond:
            super().begin_match()

    def on_trouble(self, listener: TroubleListener) -> None:
        """Be told, in a sentence fit to say, when speech stops working."""
        self._trouble.append(listener)

    def barge_in(self, time: float) -> None:
        """Stop the words playing (at the next audio block, with a 5 ms fade) and hold back
        what waits until `player_done`. What was cut is reported to `on_cut_by_player`
        (so "say again" says it) and is not put back in the queue."""
        cut = None
        with self._cond:
            self._held_until = self._now() + MAX_HOLD
            current = self._current
            if current is not None and not current.interrupted:
                self._interrupt(current, superseded=True)
                cut = current.announcement
            self._cond.notify_all()
        if cut is not None:
            self._emit_cut_by_player(cut)

    def hush(self, hushed: bool) -> None:
        """Take the words playing (and any that start) down to a murmur, or back up: the
        mixer ramps them in 5 ms from its next block, so the player's first syllables are
        not spoken over at full voice while the listener makes sure it is them."""
        self.mixer.hush(hushed)

    def player_done(self, time: float) -> None:
        with self._cond:
            self._held_until = None
            self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            if self._current is not None and self._current.playing is not None:
                self._current.playing.stop()
            self._cond.notify_all()
        self._thread.join(timeout=5.0)
        self._worker.close()

    def wait_until_idle(self, timeout: float = 10.0) -> bool:
        """Block until nothing is playing or waiting to be said (tests, and the end of a game)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while (self._current is not None or len(self._queue) or self._reports
                   or self._delivering):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    # ---------------------------------------------------- with the lock held

    def _play_cue(self, announcement: Announcement, now: float, volume: float) -> Playing:
        """Start the cue, after the cue before it unless that would take too long."""
        assert announcement.cue is not None
        cue = self.earcons.sound(announcement.cue, announcement.rank, announcement.pan)
        rate = self.mixer.sample_rate
        start = self._spacing.cue_start(now, len(cue) / rate, is_urgent(announcement))
        lead = round((start - now) * rate)
        sound = np.concatenate([np.zeros((lead, 2), dtype=np.float32), cue]) if lead else cue
        if volume != 1.0:
            sound = sound * np.float32(volume)
        return self.mixer.play(sound, on_finish=lambda _at, _done: self._part_done(announcement),
                               cue_from=lead)

    def _interrupt(self, speech: _Speech, superseded: bool) -> None:
        speech.interrupted = True
        speech.superseded = speech.superseded or superseded
        if speech.playing is not None:
            speech.playing.stop()

    def _drop(self, status: str, announcement: Announcement) -> None:
        self._timing.pop(id(announcement), None)
        self._record(status, announcement)

    def _part_done(self, announcement: Announcement) -> None:
        with self._cond:
            self._report(self._tracker.done(announcement.sequence))
            self._cond.notify_all()

    # ------------------------------------------------------ the speaker thread

    def _run(self) -> None:
        while True:
            with self._cond:
                while not (self._closed or self._reports
                           or (self._current is None and len(self._queue) and not self._holding())):
                    self._cond.wait(None if self._held_until is None
                                    else max(0.01, self._held_until - self._now()))
                if self._closed:
                    return
                reports, self._reports = self._reports, []
                self._delivering = bool(reports)
                speech = self._next_speech() if self._current is None \
                    and not self._holding() else None
            for report in reports:
                report()
            if reports:
                with self._cond:
                    self._delivering = False
                    self._cond.notify_all()
            if speech is not None:
                self._render_and_play(speech)

    def _holding(self) -> bool:
        if self._held_until is not None and self._now() >= self._held_until:
            self._held_until = None
        return self._held_until is not None

    def _next_speech(self) -> _Speech | None:
        announcement, expired = self._queue.pop(self._now())
        for old in expired:
            self._drop("expired", old)
        if announcement is None:
            if self._speaking:
                self._speaking = False
                now = self._now()
                self._reports.append(lambda: self._emit_finished(now))
            return None
        said_at, cue = self._timing.get(id(announcement), (0.0, None))
        self._current = _Speech(announcement, said_at=said_at, cue=cue)
        return self._current

    def _render_and_play(self, speech: _Speech) -> None:
        announcement = speech.announcement
        voice = self.settings.voice_for(announcement.about)
        try:
            mono = self._worker.render(announcement.text, voice, self.settings.rate,
                                       self.render_timeout)
        except SpeechRenderError as error:
            mono = np.zeros(0, dtype=np.float32)
            self._speech_failed(error)
        else:
            self._speech_failing = False
        mono = resample(mono, self.renderer.sample_rate, self.mixer.sample_rate)
        with self._cond:
            if speech.interrupted or not len(mono):
                # Nothing of it was heard: put it back unless news replaced it.
                self._current = None
                if not len(mono):
                    self._drop("failed", announcement)
                elif speech.superseded or not self._queue.requeue(announcement, self._now()):
                    self._drop("dropped", announcement)
                self._cond.notify_all()
                return
            sound = centred(mono, SPEECH_GAIN * self.settings.volume)
            speech.duration = len(sound) / self.mixer.sample_rate
            speech.sounding = sounding_seconds(sound, self.mixer.sample_rate)
            speech.playing = self.mixer.play(
                sound, on_start=lambda at: self._speech_started(speech, at),
                on_finish=lambda at, completed: self._speech_finished(speech, at, completed),
                is_speech=True, after=speech.cue)

    def _speech_failed(self, error: SpeechRenderError) -> None:
        """On the speaker thread: the words are lost; tell the player once per outage."""
        self.errors.append(str(error))
        if self._speech_failing:
            return
        self._speech_failing = True
        for listener in self._trouble:
            listener(SPEECH_FAILING)

    def _speech_started(self, speech: _Speech, at: float) -> None:
        with self._cond:
            speech.started = True
            self.latencies.append(at - speech.said_at)
            text, end = speech.announcement.text, at + speech.sounding
            self._reports.append(lambda: self._emit_words(text, at, end))
            if not self._speaking:
                self._speaking = True
                self._reports.append(lambda: self._emit_started(at))
            self._cond.notify_all()

    def _speech_finished(self, speech: _Speech, at: float, completed: bool) -> None:
        with self._cond:
            if self._current is speech:
                self._current = None
            unheard = not completed and not speech.started and not speech.superseded
            if not (unheard and self._queue.requeue(speech.announcement, self._now())):
                self._drop("spoken" if completed else "cut", speech.announcement)
            if not len(self._queue) and self._speaking:
                self._speaking = False
                self._reports.append(lambda: self._emit_finished(at))
            self._cond.notify_all()


class RecordingSpeaker(SpeakerBase):
    """For tests of what gets announced: remembers every call; everything is heard at once."""

    def __init__(self, settings: SpeechSettings | None = None) -> None:
        super().__init__(settings)
        self.said: list[Announcement] = []
        self.silent: list[int] = []
        self.silenced = 0

    def say(self, announcement: Announcement) -> None:
        self.said.append(announcement)
        if announcement.sequence is not None:
            self._tracker.expect(announcement.sequence)
            self._emit_heard(self._tracker.done(announcement.sequence))

    def note_silent(self, sequence: int) -> None:
        self.silent.append(sequence)
        self._emit_heard(self._tracker.silent(sequence))

    def silence(self) -> None:
        self.silenced += 1

    def close(self) -> None:
        pass
