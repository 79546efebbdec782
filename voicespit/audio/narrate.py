"""A whole computer-versus-computer game, heard: speech and earcons on one stereo timeline.

This is the project's demo and the regression test of the audio path: the real
narration, the real speech engine (pyttsx3 writing files) and the real speaker
rules (stale dropping, interruptions, reports back to the match), in fake time,
so an hour of game renders in seconds and the same seed gives the same file.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TextIO

from voicespit.audio.announcer import Announcer, TextMirror
from voicespit.audio.demo_match import DemoMatch
from voicespit.audio.earcons import SAMPLE_RATE
from voicespit.audio.reports import SpeechSettings
from voicespit.audio.timeline import Timeline, TimelineSpeaker
from voicespit.audio.tts import Pyttsx3Renderer, SpeechRenderer
from voicespit.clock import FakeClock
from voicespit.engine import Rules
from voicespit.engine.events import CardPlayed
from voicespit.errors import VoiceSpitError
from voicespit.match_events import IntentRefused, Stamped
from voicespit.narration import Narrator, State, Verbosity

MAX_GAME_SECONDS = 4 * 3600.0
"""A guard: a game that has not ended after this much (fake) time is a bug."""


class NarrateError(VoiceSpitError):
    """The narrated game did not come to an end."""


class MatchLike(Protocol):
    """What narrate needs of a match: the real Match's surface."""

    @property
    def state(self) -> State: ...

    @property
    def is_over(self) -> bool: ...

    def subscribe(self, listener: Callable[[Stamped], None]) -> None: ...

    def start(self) -> None: ...

    def announcement_finished(self, sequence: int) -> None: ...


def build_match(rules: Rules, seed: int, clock: FakeClock) -> MatchLike:
    """The match narrate plays. When voicespit/match.py lands, build it here instead."""
    return DemoMatch(rules, seed, clock)


@dataclass
class NarrateResult:
    timeline: Timeline
    history: Counter[str]
    """How each spoken announcement ended: spoken, cut, dropped, expired."""
    lines: list[str]
    """The text mirror: every announcement, in order, with its time."""
    events: list[Stamped]
    """Everything the match published."""
    speech_retries: int = 0
    """Utterances the speech engine had to render again. espeak-ng's output shifts by a
    few samples with every utterance a process renders, so a run with retries is the
    same game but not the same file, byte for byte."""

    @property
    def plays(self) -> int:
        return sum(isinstance(stamped.event, CardPlayed) for stamped in self.events)

    @property
    def refusals(self) -> int:
        return sum(isinstance(stamped.event, IntentRefused) for stamped in self.events)

    @property
    def seconds(self) -> float:
        return self.timeline.duration


def narrate_game(rules: Rules, seed: int, out: Path, stream: TextIO,
                 verbosity: Verbosity = Verbosity.NORMAL,
                 settings: SpeechSettings | None = None,
                 renderer: SpeechRenderer | None = None) -> NarrateResult:
    """Play one game to its end, print the transcript to `stream`, write the WAV to `out`."""
    clock = FakeClock()
    match = build_match(rules, seed, clock)
    own_renderer = renderer is None
    speech = renderer if renderer is not None else Pyttsx3Renderer()
    try:
        timeline = Timeline(SAMPLE_RATE)
        speaker = TimelineSpeaker(speech, timeline, clock, settings=settings)
        mirror = TextMirror(stream, clock)
        announcer = Announcer(Narrator(verbosity), speaker, mirror)
        events: list[Stamped] = []

        def on_event(stamped: Stamped) -> None:
            events.append(stamped)
            announcer.announce(stamped, match.state)

        match.subscribe(on_event)
        speaker.on_announcement_finished(match.announcement_finished)
        match.start()
        while clock.run_next():
            if clock.now() > MAX_GAME_SECONDS:
                raise NarrateError(f"no end after {MAX_GAME_SECONDS:.0f} s of play (seed {seed})")
        if not match.is_over:
            raise NarrateError(f"the game stalled at {clock.now():.1f} s in phase "
                               f"{match.state.phase.value} (seed {seed})")
        timeline.write_wav(out)
    finally:
        if own_renderer:
            speech.close()
    return NarrateResult(timeline, Counter(status for status, _ in speaker.history),
                         mirror.lines, events, getattr(speech, "retries", 0))
