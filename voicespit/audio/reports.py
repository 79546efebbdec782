"""What every speaker reports, and the settings every speaker shares.

Reports:
- `speaking_started(time)` / `speaking_finished(time)`: speech began to be heard,
  and all queued speech has been heard. The app wires these to the microphone
  gate so the game does not hear itself. Earcons do not open or close the gate:
  they are short, and gating them would cut off a player talking over the
  opponent's cards.
- `words_played(text, start, end)`: an announcement's words began to be heard at
  clock time `start` and run to `end` if not cut. The app hands them to the
  listener, which refuses a command that only repeats what the game was saying
  (`speech/listening/self_echo.py`).
- `announcement_finished(sequence)`: every announcement of the events up to
  `sequence` has been heard, cut off, replaced or dropped. The app passes it to
  `Match.announcement_finished`, which starts the opponent's reaction clock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from voicespit.audio.tts import GAME_VOICES, OPPONENT_VOICE, YOUR_VOICE, Voice
from voicespit.narration.announcement import Announcement

TimeListener = Callable[[float], None]
WordsListener = Callable[[str, float, float], None]
SequenceListener = Callable[[int], None]
CutListener = Callable[[Announcement], None]
MIN_RATE = 80
MAX_RATE = 450
RATE_STEP = 25
"""Words a minute added by "speak faster" (taken by "speak slower")."""


class HeardTracker:
    """Turns "this part is done" notes into in-order `announcement_finished` reports.

    An event may have several parts (a cue and words, or two announcements), and
    parts finish out of order (a cue ends before the words queued ahead of it).
    A sequence is reported only once every part of it and of every earlier
    sequence is done, so the match never starts the clock on something unheard.
    """

    def __init__(self) -> None:
        self._outstanding: dict[int, int] = {}
        self._highest_seen = 0
        self.reported = 0

    def expect(self, sequence: int, parts: int = 1) -> None:
        self._outstanding[sequence] = self._outstanding.get(sequence, 0) + parts
        self._highest_seen = max(self._highest_seen, sequence)

    def done(self, sequence: int | None) -> int | None:
        """One part of `sequence` is over; returns a sequence to report, if any."""
        if sequence is None:
            return None
        left = self._outstanding.get(sequence, 0) - 1
        if left > 0:
            self._outstanding[sequence] = left
        else:
            self._outstanding.pop(sequence, None)
        return self._advance()

    def silent(self, sequence: int) -> int | None:
        """An event with nothing to present: done as soon as everything before it is."""
        self._highest_seen = max(self._highest_seen, sequence)
        return self._advance()

    def _advance(self) -> int | None:
        heard = min(self._outstanding) - 1 if self._outstanding else self._highest_seen
        if heard > self.reported:
            self.reported = heard
            return heard
        return None


@dataclass
class SpeechSettings:
    """Rate, volume and a voice per seat: from config, and changed by voice command."""

    rate: int = 175
    """Words a minute (espeak's own default, and config's `output.rate`)."""
    volume: float = 1.0
    """0..1, applied to speech and earcons alike."""
    earcons: bool = True
    """False: words only (config's `output.earcons`)."""
    voices: dict[int | None, Voice] = field(
        default_factory=lambda: {None: YOUR_VOICE, 0: YOUR_VOICE, 1: OPPONENT_VOICE})
    """By seat: 0 you (and the game, None), 1 the opponent."""

    def voice_for(self, seat: int | None) -> Voice:
        return self.voices.get(seat, self.voices[None])


class SpeakerBase:
    """Listener lists and settings: the parts every speaker shares."""

    def __init__(self, settings: SpeechSettings | None = None) -> None:
        self.settings = settings or SpeechSettings()
        self.history: list[tuple[str, Announcement]] = []
        """How each announcement's words ended: "spoken", "cut", "dropped" (replaced or
        flushed before they were said), "expired", "failed" (the engine failed)."""
        self._tracker = HeardTracker()
        self._reports: list[Callable[[], None]] = []
        """Reports waiting to be delivered once the speaker's state is settled."""
        self._started: list[TimeListener] = []
        self._finished: list[TimeListener] = []
        self._heard: list[SequenceListener] = []
        self._cut_by_player: list[CutListener] = []
        self._words: list[WordsListener] = []

    def begin_match(self) -> None:
        """A new match numbers its events from one again: forget the last match's."""
        self._tracker = HeardTracker()

    def plays_cue(self, announcement: Announcement) -> bool:
        return announcement.cue is not None and self.settings.earcons

    def _expect(self, announcement: Announcement) -> None:
        """Count the parts that must end before `announcement` is heard (none: heard now)."""
        if announcement.sequence is None:
            return
        parts = self.plays_cue(announcement) + bool(announcement.text)
        if parts:
            self._tracker.expect(announcement.sequence, parts)
        else:  # a cue alone with earcons switched off: nothing to wait for
            self._report(self._tracker.silent(announcement.sequence))

    def _report(self, sequence: int | None) -> None:
        if sequence is not None:
            self._reports.append(lambda: self._emit_heard(sequence))

    def _record(self, status: str, announcement: Announcement) -> None:
        """The words of `announcement` are over (said, cut or dropped): one part heard."""
        self.history.append((status, announcement))
        self._report(self._tracker.done(announcement.sequence))

    def on_speaking_started(self, listener: TimeListener) -> None:
        self._started.append(listener)

    def on_speaking_finished(self, listener: TimeListener) -> None:
        self._finished.append(listener)

    def on_announcement_finished(self, listener: SequenceListener) -> None:
        self._heard.append(listener)

    def on_words_played(self, listener: WordsListener) -> None:
        """Called with each announcement's words, when and until when they are heard."""
        self._words.append(listener)

    def _emit_words(self, text: str, start: float, end: float) -> None:
        for listener in self._words:
            listener(text, start, end)

    def on_cut_by_player(self, listener: CutListener) -> None:
        """Called with the announcement the player talked over and so stopped (barge-in)."""
        self._cut_by_player.append(listener)

    def barge_in(self, time: float) -> None:
        """The player has started speaking over the game: stop talking and wait for them.
        (A speaker that plays nothing out loud has nothing to stop.)"""

    def player_done(self, time: float) -> None:
        """The player's utterance that barged in is over: speech may go on."""

    def hush(self, hushed: bool) -> None:
        """The player may be starting to talk over the game: speak far more quietly until
        told otherwise (or until `barge_in` stops the words). Nothing to do for a speaker
        that plays nothing out loud."""

    def _emit_cut_by_player(self, announcement: Announcement) -> None:
        for listener in self._cut_by_player:
            listener(announcement)

    def _emit_started(self, time: float) -> None:
        for listener in self._started:
            listener(time)

    def _emit_finished(self, time: float) -> None:
        for listener in self._finished:
            listener(time)

    def _emit_heard(self, sequence: int | None) -> None:
        if sequence is not None:
            for listener in self._heard:
                listener(sequence)

    @property
    def rate(self) -> int:
        return self.settings.rate

    def set_rate(self, words_per_minute: int) -> None:
        """Takes effect from the next announcement; clamped to 80..450."""
        self.settings.rate = max(MIN_RATE, min(MAX_RATE, int(words_per_minute)))

    @property
    def volume(self) -> float:
        return self.settings.volume

    def set_volume(self, volume: float) -> None:
        """Takes effect from the next sound; clamped to 0..1."""
        self.settings.volume = max(0.0, min(1.0, float(volume)))

    def set_voice(self, seat: int | None, voice: Voice) -> None:
        """The voice for one seat (0 you, 1 opponent, None the game)."""
        self.settings.voices[seat] = voice

    def voice_for(self, seat: int | None) -> Voice:
        return self.settings.voice_for(seat)

    def voice_choices(self) -> tuple[Voice, ...]:
        """Without a speech engine to ask (words printed only), espeak-ng's."""
        return GAME_VOICES
