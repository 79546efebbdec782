"""Rendering what a listener would hear onto one timeline, in fake time, into a WAV file.

`TimelineSpeaker` follows exactly the rules of the live speaker (the same queue,
the same interruptions, the same reports) but on a `Clock` that the caller moves:
earcons land at the moment of their event, speech starts when the speech channel
is free (after `speech_delay`, the time a live render takes) and ends when its
samples end, at which point the clock fires the end-of-speech report. Speech is
one channel, so two announcements never talk over each other; an interruption
truncates the speech it cuts at that instant, with a short fade.
"""

from __future__ import annotations

import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from voicespit.audio.earcons import EarconBank, Stereo
from voicespit.audio.output import DUCK_DEPTH, FADE_SECONDS, duck_amount
from voicespit.audio.reports import SpeakerBase, SpeechSettings
from voicespit.audio.speaker import SPEECH_GAIN, CueSpacing, is_urgent
from voicespit.audio.speech_queue import AnnouncementQueue, interrupts
from voicespit.audio.tts import SpeechRenderer, Voice
from voicespit.clock import Clock, Timer
from voicespit.narration.announcement import Announcement
from voicespit.resampling import resample


@dataclass(eq=False)
class Placed:
    """One sound on the timeline (compared by identity: two placings are two sounds,
    and comparing their samples by value would be slow and ambiguous).

    It keeps a reference to its samples (the renderer's and the earcon bank's
    cached arrays, shared by every repeat of a phrase) and how to play them, so a
    half-hour game costs little memory until it is mixed, chunk by chunk.
    """

    start: float
    source: npt.NDArray[np.float32]
    """Mono samples (spread by `gains`) or stereo (frames x 2, played as they are)."""
    kind: str
    """"speech" or "cue"."""
    announcement: Announcement
    sample_rate: int
    gains: tuple[float, float] = (1.0, 1.0)
    frames: int = -1
    """How many frames of `source` are heard (fewer once cut)."""
    status: str = "spoken"
    """Speech: "spoken" in full, or "cut" short by an interruption."""

    def __post_init__(self) -> None:
        if self.frames < 0:
            self.frames = len(self.source)

    @property
    def end(self) -> float:
        return self.start + self.frames / self.sample_rate

    def segment(self, first: int, last: int) -> Stereo:
        """Stereo frames [first, last) of the sound as heard (gains, and the fade of a cut)."""
        part = self.source[first:last]
        if part.ndim == 1:
            stereo = np.stack([part * np.float32(self.gains[0]),
                               part * np.float32(self.gains[1])], axis=1)
        else:
            stereo = part * np.float32(self.gains[0])
        if self.status == "cut":
            fade = max(1, round(FADE_SECONDS * self.sample_rate))
            fade_start = self.frames - fade
            if last > fade_start:
                positions = np.arange(first, last) - fade_start
                ramp = np.clip(1.0 - positions / fade, 0.0, 1.0).astype(np.float32)
                stereo = stereo * ramp[:, None]
        return stereo.astype(np.float32, copy=False)


class Timeline:
    """Sounds placed at times; mixed down to stereo 16-bit PCM at the end."""

    def __init__(self, sample_rate: int) -> None:
        self.sample_rate = sample_rate
        self.entries: list[Placed] = []

    def place(self, start: float, source: npt.NDArray[np.float32], kind: str,
              announcement: Announcement, gains: tuple[float, float] = (1.0, 1.0)) -> Placed:
        placed = Placed(start, source, kind, announcement, self.sample_rate, gains)
        self.entries.append(placed)
        return placed

    def cut(self, placed: Placed, at: float) -> None:
        """Truncate a sound at time `at`; it fades out over its last 5 ms, so it does not click."""
        placed.frames = max(0, min(placed.frames, round((at - placed.start) * self.sample_rate)))
        placed.status = "cut"

    @property
    def duration(self) -> float:
        return max((placed.end for placed in self.entries), default=0.0)

    def mix(self, first: int, last: int) -> Stereo:
        """Frames [first, last) of everything summed (speech ducked under cues), clipped."""
        out = np.zeros((last - first, 2), dtype=np.float32)
        ducked = np.zeros(last - first, dtype=np.float32)
        spans = []
        for placed in self.entries:
            start = round(placed.start * self.sample_rate)
            lo, hi = max(first, start), min(last, start + placed.frames)
            if lo < hi:
                spans.append((placed, start, lo, hi))
                if placed.kind == "cue":
                    amount = duck_amount(placed.frames, lo - start, hi - start, self.sample_rate)
                    np.maximum(ducked[lo - first:hi - first], amount,
                               out=ducked[lo - first:hi - first])
        speech_gain = 1.0 - DUCK_DEPTH * ducked
        for placed, start, lo, hi in spans:
            segment = placed.segment(lo - start, hi - start)
            if placed.kind == "speech":
                segment = segment * speech_gain[lo - first:hi - first, None]
            out[lo - first:hi - first] += segment
        return np.clip(out, -1.0, 1.0, out=out)

    def write_wav(self, path: Path, tail: float = 0.5, chunk_seconds: float = 30.0) -> None:
        """A stereo 16-bit WAV of the whole timeline, mixed a chunk at a time."""
        total = round((self.duration + tail) * self.sample_rate)
        chunk = round(chunk_seconds * self.sample_rate)
        ordered = sorted(self.entries, key=lambda placed: placed.start)
        with wave.open(str(path), "wb") as out:
            out.setnchannels(2)
            out.setsampwidth(2)
            out.setframerate(self.sample_rate)
            for first in range(0, total, chunk):
                last = min(total, first + chunk)
                window = Timeline(self.sample_rate)
                window.entries = [p for p in ordered
                                  if p.start * self.sample_rate < last
                                  and p.end * self.sample_rate > first]
                pcm = np.round(window.mix(first, last) * 32767.0).astype("<i2")
                out.writeframes(pcm.tobytes())


class TimelineSpeaker(SpeakerBase):
    """A speaker in fake time that renders to a `Timeline` (single-threaded: the clock's)."""

    def __init__(self, renderer: SpeechRenderer, timeline: Timeline, clock: Clock,
                 earcons: EarconBank | None = None, settings: SpeechSettings | None = None,
                 speech_delay: float = 0.02) -> None:
        super().__init__(settings)
        self.renderer = renderer
        self.timeline = timeline
        self.clock = clock
        self.earcons = earcons or EarconBank(timeline.sample_rate)
        self.speech_delay = speech_delay
        self._queue = AnnouncementQueue()
        self._current: tuple[Placed, Timer] | None = None
        self._spacing = CueSpacing()
        self._words_after: dict[int, float] = {}
        self._speaking = False

    def voice_choices(self) -> tuple[Voice, ...]:
        return self.renderer.game_voices()

    def say(self, announcement: Announcement) -> None:
        now = self.clock.now()
        self._expect(announcement)
        volume = self.settings.volume
        if announcement.cue is not None and self.plays_cue(announcement):
            cue = self.earcons.sound(announcement.cue, announcement.rank, announcement.pan)
            start = self._spacing.cue_start(now, len(cue) / self.timeline.sample_rate,
                                            is_urgent(announcement))
            placed = self.timeline.place(start, cue, "cue", announcement, (volume, volume))
            self.clock.call_at(placed.end, lambda: self._cue_done(announcement))
            if announcement.text:
                self._words_after[id(announcement)] = placed.end
        if announcement.text:
            for stale in self._queue.push(announcement, now):
                self._finish("dropped", stale)
            if self._current is not None:
                speaking, timer = self._current
                if interrupts(speaking.announcement, announcement):
                    timer.cancel()
                    self._current = None
                    self._interrupt(speaking, now, speaking.announcement.topic
                                    == announcement.topic)
            if self._current is None:
                self._start_next()
        self._deliver()

    def note_silent(self, sequence: int) -> None:
        self._report(self._tracker.silent(sequence))
        self._deliver()

    def silence(self) -> None:
        for waiting in self._queue.clear():
            self._finish("dropped", waiting)
        if self._current is not None:
            speaking, timer = self._current
            timer.cancel()
            self.timeline.cut(speaking, self.clock.now())
            self._current = None
            self._finish("cut", speaking.announcement)
            self._start_next()
        self._deliver()

    def close(self) -> None:
        pass

    # ---------------------------------------------------------------- inside

    def _interrupt(self, speaking: Placed, now: float, superseded: bool) -> None:
        """Cut the words at `now`; words still waiting for their cue go back in the queue."""
        unheard = now <= speaking.start and not superseded
        if unheard and self._queue.requeue(speaking.announcement, now):
            self.timeline.entries.remove(speaking)
            return
        self.timeline.cut(speaking, now)
        self._finish("cut", speaking.announcement)

    def _start_next(self) -> None:
        now = self.clock.now()
        announcement, expired = self._queue.pop(now)
        for old in expired:
            self._finish("expired", old)
        if announcement is None:
            if self._speaking:
                self._speaking = False
                self._reports.append(lambda: self._emit_finished(now))
            return
        voice = self.settings.voice_for(announcement.about)
        mono = self.renderer.render(announcement.text, voice, self.settings.rate)
        mono = resample(mono, self.renderer.sample_rate, self.timeline.sample_rate)
        gain = SPEECH_GAIN * self.settings.volume
        start = max(now + self.speech_delay, self._words_after.pop(id(announcement), now))
        placed = self.timeline.place(start, mono, "speech", announcement, (gain, gain))
        self._current = (placed, self.clock.call_at(placed.end, self._speech_done))
        if not self._speaking:
            self._speaking = True
            self._reports.append(lambda: self._emit_started(start))

    def _speech_done(self) -> None:
        if self._current is None:
            return
        placed, _ = self._current
        self._current = None
        self._finish("spoken", placed.announcement)
        self._start_next()
        self._deliver()

    def _cue_done(self, announcement: Announcement) -> None:
        self._report(self._tracker.done(announcement.sequence))
        self._deliver()

    def _finish(self, status: str, announcement: Announcement) -> None:
        self._words_after.pop(id(announcement), None)
        self._record(status, announcement)

    def _deliver(self) -> None:
        # State is settled before anyone hears about it: a listener may call say().
        while self._reports:
            self._reports.pop(0)()
