"""Is someone speaking? A small energy detector with an adaptive noise floor.

Used where a decision must not wait for the recognizer: ending a command soon
after the player stops talking (Vosk's own endpoint waits about a second of
silence), and not feeding the recognizer the second half of a word the player
began while the game was speaking.

Levels are measured per 10 ms frame in dB relative to full scale. The noise
floor follows the quietest recent frames: it drops at once to a quieter frame
and rises slowly, so a steady fan or hum is learnt within seconds while a
spoken word (loud for a fraction of a second) barely moves it. A frame counts
as speech when it stands `margin_db` above the floor and above an absolute
minimum, so digital silence or a faint hiss is never speech.
"""

from __future__ import annotations

import collections
import math
from dataclasses import dataclass

import numpy as np

from voicespit.speech.listening.loudest import LoudestHeard
from voicespit.speech.recognizer import SAMPLE_RATE
from voicespit.speech.signal import FRAME, flat_floor, to_samples

FRAME_SAMPLES = FRAME
"""10 ms frames, as the recognizer's endpointer uses."""

FRAME_SECONDS = FRAME_SAMPLES / SAMPLE_RATE

_SILENCE_DB = -100.0
"""The level given to digital silence (log of zero)."""
DIGITAL_SILENCE_DBFS = -90.0
"""A frame below this is digital silence: its samples within a step of zero (one step
is -90.3 dBFS; a live microphone's own hiss stands well above it)."""


@dataclass(frozen=True, slots=True)
class ActivitySettings:
    margin_db: float = 12.0
    """How far above the noise floor a frame must be to count as speech."""
    minimum_db: float = -55.0
    """No frame quieter than this is speech, whatever the floor (a whisper at arm's length),
    at a microphone as loud as an ordinary one (`follow_gain`)."""
    follow_gain: bool = True
    """Lower `minimum_db` with a microphone turned down (`loudest.LoudestHeard`). Fixed, a
    word from a microphone turned down 40 dB (-61 dBFS) was never speech, and under the
    echo guard one the game cut was lost without "I was talking: say it again" (round 47)."""
    onset_frames: int = 3
    """Consecutive loud frames that start speech, so a click or a tap is not a word."""
    floor_rise_db_per_second: float = 1.5
    """How fast the floor climbs while the room is loud (a louder fan is learnt in seconds)."""
    floor_follow: float = 0.05
    """Fraction of the gap the floor closes per quiet frame, toward the level of that frame."""
    room_window_frames: int = 100
    """A run of loud frames whose last this many are flat (none stands `margin_db` above
    their tenth percentile) is the room, not a voice: the floor becomes that percentile
    at once, and if the run was all the speech heard, none was. Digital silence drops
    the floor to nothing (a microphone that opens, or is unmuted, with zeros), and
    climbing back at `floor_rise_db_per_second` took half a minute in real noise at
    10 dB under a voice, all of it "speech": under the echo guard every sentence the
    game said was answered "I was talking: say it again", with nobody talking (round
    46). One second, as the recognizer's endpointer (`EndpointSettings.room_window_frames`)."""


class VoiceActivity:
    """Feeds on 16 kHz s16le audio; tells whether, when, and how long ago speech was heard.

    Times are seconds of audio fed since creation (the stream's own timeline).
    `reset_utterance()` forgets the speech heard so far but keeps the noise floor,
    which belongs to the room rather than to one utterance.
    """

    def __init__(self, settings: ActivitySettings | None = None) -> None:
        self.settings = settings or ActivitySettings()
        self._floor_db: float | None = None
        self._loudest = LoudestHeard()
        """How loud this microphone gets: `minimum_db` follows it down (`follow_gain`)."""
        self._pending = b""
        self._frames = 0
        self._loud_run = 0
        self._loud_levels: collections.deque[float] = collections.deque(
            maxlen=self.settings.room_window_frames)
        """The levels of the current run of loud frames, the last `room_window_frames`."""
        self._speech_began_in_run = False
        """The utterance's speech began in the current run of loud frames."""
        self._in_speech = False
        self.speech_started_at: float | None = None
        """Stream time at which the current utterance's speech began (None: none yet)."""
        self.last_speech_at: float | None = None
        """Stream time of the end of the last speech frame in the current utterance."""

    @property
    def now(self) -> float:
        """Stream time of the end of the audio fed so far (whole frames)."""
        return self._frames * FRAME_SECONDS

    @property
    def heard_speech(self) -> bool:
        return self.speech_started_at is not None

    @property
    def is_speaking(self) -> bool:
        """True while the latest frames are speech."""
        return self._in_speech

    @property
    def trailing_quiet(self) -> float:
        """Seconds since the last speech frame of this utterance (0 while speaking or before)."""
        if self.last_speech_at is None or self._in_speech:
            return 0.0
        return self.now - self.last_speech_at

    @property
    def noise_floor_db(self) -> float | None:
        return self._floor_db

    def reset_utterance(self) -> None:
        self.speech_started_at = None
        self.last_speech_at = None
        self._end_loud_run()

    def feed(self, pcm: bytes) -> None:
        data = self._pending + pcm
        usable = len(data) - len(data) % (2 * FRAME_SAMPLES)
        self._pending = data[usable:]
        if not usable:
            return
        frames = to_samples(data[:usable]).reshape(-1, FRAME_SAMPLES)
        power = np.mean(frames * frames, axis=1) / (32768.0 * 32768.0)
        levels = [10.0 * math.log10(frame_power) if frame_power > 0 else _SILENCE_DB
                  for frame_power in power.tolist()]
        if self.settings.follow_gain:
            self._loudest.heard(levels)
        for level_db in levels:
            self._feed_frame(level_db)

    def _feed_frame(self, level_db: float) -> None:
        settings = self.settings
        self._frames += 1
        if level_db < DIGITAL_SILENCE_DBFS and self._floor_db is not None \
                and self._floor_db >= DIGITAL_SILENCE_DBFS:
            # A room was heard, and this is a gap in the signal (a dropout, the microphone
            # muted), not the room: learnt, the floor fell to nothing and the room after
            # it was "speech" until `room_window_frames` (under the echo guard, the game's
            # "I hear your microphone again" was answered "I was talking: say it again").
            self._end_loud_run()
            return
        if self._floor_db is None:
            self._floor_db = level_db
        threshold = max(self._floor_db + settings.margin_db,
                        self._loudest.bar(settings.minimum_db))
        is_loud = level_db >= threshold
        if level_db < self._floor_db:
            self._floor_db = level_db
        elif is_loud:
            self._floor_db += settings.floor_rise_db_per_second * FRAME_SECONDS
        else:
            self._floor_db += settings.floor_follow * (level_db - self._floor_db)

        if is_loud:
            self._loud_run += 1
            self._loud_levels.append(level_db)
            if self._loud_run >= settings.onset_frames:
                if not self._in_speech and self.speech_started_at is None:
                    self.speech_started_at = self.now - self._loud_run * FRAME_SECONDS
                    self._speech_began_in_run = True
                self._in_speech = True
                self.last_speech_at = self.now
            if len(self._loud_levels) >= settings.room_window_frames:
                self._room_in_the_run()
        else:
            self._end_loud_run()

    def _end_loud_run(self) -> None:
        """A frame that is not speech: the run of loud frames, if any, is over."""
        self._loud_run = 0
        self._loud_levels.clear()
        self._speech_began_in_run = False
        self._in_speech = False

    def _room_in_the_run(self) -> None:
        """The current loud run's last `room_window_frames`, if flat, are the room."""
        quiet_part = flat_floor(self._loud_levels, self.settings.margin_db)
        if quiet_part is None:
            return
        self._floor_db = quiet_part
        if self._speech_began_in_run:
            self.speech_started_at = self.last_speech_at = None  # the room was all of it
        self._end_loud_run()
