"""Where speech starts, pauses and stops, frame by frame, against an adaptive noise floor.

The WebRTC-style VAD that PocketSphinx ships never declared the end of speech in
10 dB white noise (SPEECH_NOTES.md), so this detector compares each 10 ms
frame's energy with a noise floor it tracks itself: the floor follows quiet
frames down at once and drifts up slowly while nobody speaks, so a steady fan
or hiss becomes the new silence. The floor is thus the room's quietest moments;
a room whose level flutters (a hum, a microphone's own noise: a few dB from one
10 ms frame to the next) is louder than that most of the time, so within an
utterance a frame also counts as quiet when it is no louder than the room
usually is (`room_spreads`), or the end of a command would never be found;
and to start one a frame must stand clear of that flutter too
(`room_start_spreads`), or the room's louder moments are taken for words.

It only reports; the recognizer decides. A short pause (`pause_frames`) is the
moment to ask the decoder whether a whole command was said; a long one
(`end_frames`) ends the utterance whatever the decoder thinks.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from voicespit.speech.signal import flat_floor


@dataclass(frozen=True)
class EndpointSettings:
    start_db: float = 9.0
    """A frame this far above the floor is speech."""
    continue_db: float = 4.0
    """Within an utterance, a frame this far above the floor is still speech."""
    start_frames: int = 3
    """Consecutive speech frames that start an utterance (a click is not a command)."""
    pause_frames: int = 8
    """Quiet frames after which the decoder is asked whether the command is complete."""
    settle_frames: int = 25
    """Quiet frames after which a command that could have gone on ("seven", which
    "seven on left" begins) is taken as said."""
    clear_db: float = 30.0
    """Speech this far above the floor is clear; below it the pauses are waited out longer."""
    clear_of_quiet: bool = False
    """Judge `clear_db` from the level under which a frame counts as quiet within an
    utterance (`room_spreads` above the room's typical level) rather than from the
    floor (its quietest moments, several dB lower where the room flutters): the weak
    sounds that drown are the ones below that level. Whisper's path sets it: espeak-ng
    in 20 dB of white noise peaks 30 dB above the floor but only 24 above that level,
    and "six on the left" was cut after "six" (docs/speech-record.md)."""
    noisy_extra_frames: int = 6
    """Extra quiet frames before asking or settling when the speech is not clear."""
    end_frames: int = 35
    """Quiet frames that end an utterance whatever the decoder says."""
    preroll_frames: int = 30
    """Audio kept from before the start: onsets (the s of six) are quieter than the trigger."""
    max_frames: int = 500
    """The longest utterance; past it the utterance is cut (noise that never stops)."""
    floor_rise: float = 0.02
    """How fast the floor climbs towards louder quiet frames (per frame, 0..1)."""
    room_follow: float = 0.05
    """How fast the room's typical level and its flutter follow the frames heard while
    nobody speaks (per frame, 0..1)."""
    room_spreads: float = 3.0
    """Within an utterance, a frame no louder than the room's typical level plus this
    many of its typical deviations is quiet (0: only `continue_db` above the floor).
    On the real voices' tuning split, padded with their own background as a
    microphone hears it, the settle of a bare rank went from the file's end (p95
    1.2 s: never found) to 230 ms at p95 (docs/speech-record.md, benchmarks/LEVERS.md)."""
    room_start_spreads: float = 4.0
    """A frame starts speech only when it is also this many typical deviations above
    the room's typical level (0: only `start_db` above the floor). On the same split,
    the room started an utterance of its own after 3.3 % of quiet files, and 0.3 %
    with this (docs/speech-record.md)."""
    dropout_room_db: float | None = 20.0
    """Digital silence (`DIGITAL_SILENCE_DB`) heard between utterances where the room's
    typical level stands at least this high is a gap in the microphone's signal (a
    dropout, a glitch of the device, the microphone muted), not the room: it teaches
    neither the floor nor the room, however long it lasts (`dropout_frames`). Learnt,
    40 ms of it dropped the floor to nothing, and the room's return lifted its typical
    flutter so far that words no longer stood clear of it: in real noise at 10 dB the
    detector was deaf to the commands of the next seconds, which got no answer at all
    (`benchmarks.voice_matches`, round 45). Below this level the room itself is near
    digital silence (espeak-ng's files, a silent recording). None: digital silence is
    always the room, as before round 45."""
    dropout_frames: int | None = None
    """Digital silence that goes on this long is heard as it came, the frames held back
    first: the floor and the room then stand where they would have stood had no frame
    been held. None: never; the room heard before it is the room after it. Round 45
    held 30 frames (a dropout) and heard a muted microphone's silence as the room: after
    two seconds muted in real noise the room came back far above the floor, the first
    word after it went into one long utterance with the room, and the next was lost
    (`benchmarks.silent_microphone`, round 46). Every benchmark split streamed through
    the detector decides the same frame events either way."""
    room_window_frames: int | None = 100
    """An utterance whose last this many frames are flat is over: no frame of them
    stands `start_db` above their own quiet part (their tenth percentile), so they are
    the room, come back louder than the floor knew (a microphone that opens with
    digital silence, no room heard before it to keep; a tap turned on). The detector
    learns the room from them, and if nothing before them stood `start_db` above it
    either, nothing was said (`FrameEvent.ROOM`); else the words before them ended
    (`ENDED`). Without it, a stream that began with 0.1 s of digital silence in real
    noise took the room for one utterance until `max_frames` cut it: deaf for five
    seconds, then the noise decided, once as a command ("how am I doing"), else "Say
    again?" to nobody (round 46). One second: in windows that long the real noises
    spread at most 7 dB (the exercise bike; 90th against 10th percentile), a real word
    said from silence at least 26 dB (FSDD's tuning takes, 1,350 clips). None: as before
    round 46."""
    room_learns_after: int = 50
    """Frames loud by the floor but not speech by the room teach neither (a soft onset
    must not raise the bar it has to pass), unless this many come in a row: then they
    are the room, which got louder than the floor knew. Without it, 30 ms of digital
    silence (a noise recording's first samples; a muted microphone, a noise gate)
    dropped the floor to nothing, every frame of the room after it was loud by the
    floor and below the bar, and nothing taught either again: the room benchmark's
    game-silent run heard no command for 190 s (45 of 88 right; 79 through the
    cancellers, whose output never went digitally silent)."""


DIGITAL_SILENCE_DB = 1.0
"""A frame's speech-band energy below this is digital silence: every sample zero or
nearly (10 log10 of its power plus one; a real microphone's own hiss stands higher)."""


class FrameEvent(enum.Enum):
    QUIET = "quiet"
    """Nothing going on (or still waiting for enough speech frames)."""
    STARTED = "started"
    """This frame starts an utterance."""
    SPEAKING = "speaking"
    PAUSED = "paused"
    """The utterance has been quiet for exactly `pause_after` or `settle_after` frames."""
    ENDED = "ended"
    """Quiet for `end_frames`: the utterance is over."""
    TOO_LONG = "too long"
    """The utterance reached `max_frames` without ending."""
    ROOM = "room"
    """What started was the room, not a voice (`room_window_frames`): nothing was said,
    and the utterance is forgotten."""


class SpeechDetector:
    """Feed it one frame energy at a time; it says what that frame means."""

    def __init__(self, settings: EndpointSettings = EndpointSettings()) -> None:
        self.settings = settings
        self.floor_db: float | None = None
        self.in_speech = False
        self._loud_run = 0
        self._quiet_run = 0
        self._length = 0
        self._energies: list[float] = []
        self._peak_db: float | None = None
        """The loudest frame of the utterance in progress (read on every frame)."""
        self._recent: list[float] = []
        self._room_db: float | None = None
        """The typical level of the frames heard while nobody speaks."""
        self._room_spread_db = 0.0
        """Their typical distance from that level."""
        self._unheard_run = 0
        """Frames in a row loud by the floor but not speech (`room_learns_after`)."""
        self._gap: list[float] = []
        """The frames of digital silence held back as a dropout (`dropout_room_db`)."""

    def reset(self) -> None:
        """Forget the utterance in progress; the noise floor is kept (it is the room's)."""
        self.in_speech = False
        self._loud_run = self._quiet_run = self._length = self._unheard_run = 0
        self._energies = []
        self._peak_db = None

    @property
    def quiet_frames(self) -> int:
        """Quiet frames since the last speech frame of the utterance in progress."""
        return self._quiet_run

    @property
    def peak_above_floor_db(self) -> float | None:
        """How far the utterance in progress peaks above the noise floor, in dB (None:
        no utterance): roughly its signal-to-noise ratio."""
        if self._peak_db is None or self.floor_db is None:
            return None
        return self._peak_db - self.floor_db

    def stands_below(self, level_db: float) -> bool:
        """The utterance in progress peaks less than `level_db` above the floor."""
        above = self.peak_above_floor_db
        return above is not None and above < level_db

    @property
    def is_noisy(self) -> bool:
        """The utterance in progress stands less than `clear_db` above the floor
        (`clear_of_quiet`: above the level under which its frames count as quiet).

        In noise the weak sounds between words (the th of three, a stop's
        closure) drown, so the gaps between words look longer than they are.
        """
        if self.settings.clear_of_quiet and self._peak_db is not None:
            return self._peak_db - self._quiet_below() < self.settings.clear_db
        return self.stands_below(self.settings.clear_db)

    @property
    def pause_after(self) -> int:
        """Quiet frames before the decoder is asked, for the utterance in progress."""
        extra = self.settings.noisy_extra_frames if self.is_noisy else 0
        return self.settings.pause_frames + extra

    @property
    def settle_after(self) -> int:
        extra = self.settings.noisy_extra_frames if self.is_noisy else 0
        return self.settings.settle_frames + extra

    def push(self, frame_energy_db: float) -> FrameEvent:
        """The meaning of the next frame, given its energy in dB."""
        if not self.in_speech and self._is_a_gap(frame_energy_db):
            held_at_most = self.settings.dropout_frames
            if held_at_most is None:
                return FrameEvent.QUIET
            self._gap.append(frame_energy_db)
            if len(self._gap) < held_at_most:
                return FrameEvent.QUIET
            held, self._gap = self._gap, []
            return [self._heard(energy) for energy in held][-1]
        self._gap = []  # a dropout: over, and forgotten
        return self._heard(frame_energy_db)

    def _heard(self, frame_energy_db: float) -> FrameEvent:
        """`push` for a frame that is not held back as a dropout."""
        settings = self.settings
        # The median of three frames: one frame's flutter or click is not speech.
        self._recent = [*self._recent[-2:], frame_energy_db]
        energy_db = sorted(self._recent)[len(self._recent) // 2]
        if self.floor_db is None:
            self.floor_db = energy_db
        if not self.in_speech:
            if energy_db > self.floor_db + settings.start_db:
                # Loud by the floor: speech when also clear of the room's flutter, and
                # either way not the room (a soft onset must not teach it its own level).
                if energy_db <= self._speech_above():
                    self._loud_run = 0
                    self._unheard_run += 1
                    if self._unheard_run >= settings.room_learns_after:
                        self._learn_room(energy_db)
                    return FrameEvent.QUIET
                self._unheard_run = 0
                self._loud_run += 1
                if self._loud_run >= settings.start_frames:
                    self.in_speech = True
                    self._quiet_run = 0
                    self._length = self._loud_run
                    self._energies = [energy_db]
                    self._peak_db = energy_db
                    return FrameEvent.STARTED
                return FrameEvent.QUIET
            self._loud_run = self._unheard_run = 0
            self._learn_room(energy_db)
            return FrameEvent.QUIET
        self._length += 1
        self._energies.append(energy_db)
        self._peak_db = energy_db if self._peak_db is None else max(self._peak_db, energy_db)
        if energy_db > self._quiet_below():
            self._quiet_run = 0
        else:
            self._quiet_run += 1
        if self._quiet_run >= settings.end_frames:
            self.reset()
            return FrameEvent.ENDED
        flat = self._flat_room()
        if flat is not None:
            return flat
        if self._length >= settings.max_frames:
            # Sound that never stops is the room now: its quieter part is the new floor.
            self.floor_db = sorted(self._energies)[len(self._energies) // 10]
            self.reset()
            return FrameEvent.TOO_LONG
        if self._quiet_run in (self.pause_after, self.settle_after):
            return FrameEvent.PAUSED
        return FrameEvent.SPEAKING

    def _flat_room(self) -> FrameEvent | None:
        """`ROOM` or `ENDED` when the utterance's last `room_window_frames` are the room
        (learnt from them), else None."""
        window_frames = self.settings.room_window_frames
        if window_frames is None or len(self._energies) < window_frames:
            return None
        window = self._energies[-window_frames:]
        quiet_part = flat_floor(window, self.settings.start_db)
        if quiet_part is None:
            return None
        speech_above = quiet_part + self.settings.start_db
        said = any(energy >= speech_above for energy in self._energies[:-window_frames])
        self.floor_db = quiet_part
        self._room_db = sum(window) / len(window)
        self._room_spread_db = sum(abs(energy - self._room_db) for energy in window) \
            / len(window)
        self.reset()
        return FrameEvent.ENDED if said else FrameEvent.ROOM

    def _is_a_gap(self, frame_energy_db: float) -> bool:
        """Digital silence where a room has been heard (`dropout_room_db`)."""
        above = self.settings.dropout_room_db
        return above is not None and frame_energy_db < DIGITAL_SILENCE_DB \
            and self._room_db is not None and self._room_db >= above

    def _learn_room(self, energy_db: float) -> None:
        """A frame of the room: the floor follows it (down at once, up slowly), and so
        does the room's typical level and flutter."""
        assert self.floor_db is not None
        if energy_db < self.floor_db:
            self.floor_db = energy_db
        else:
            self.floor_db += self.settings.floor_rise * (energy_db - self.floor_db)
        self._hear_room(energy_db)

    def _hear_room(self, energy_db: float) -> None:
        """A frame heard while nobody speaks: the room's typical level and flutter."""
        if self._room_db is None:
            self._room_db = energy_db
            return
        follow = self.settings.room_follow
        self._room_spread_db += follow * (abs(energy_db - self._room_db) - self._room_spread_db)
        self._room_db += follow * (energy_db - self._room_db)

    def _speech_above(self) -> float:
        """Before an utterance, the level a frame must pass to be speech."""
        return self._clear_of_room(self.settings.start_db, self.settings.room_start_spreads)

    def _quiet_below(self) -> float:
        """Within an utterance, the loudest a quiet frame can be."""
        return self._clear_of_room(self.settings.continue_db, self.settings.room_spreads)

    def _clear_of_room(self, above_floor_db: float, spreads: float) -> float:
        """`above_floor_db` above the floor, or `spreads` typical deviations above the
        room's typical level, whichever is higher."""
        assert self.floor_db is not None
        level = self.floor_db + above_floor_db
        if self._room_db is None or not spreads:
            return level
        return max(level, self._room_db + spreads * self._room_spread_db)
