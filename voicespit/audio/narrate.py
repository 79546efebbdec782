"""A whole computer-versus-computer game, heard: speech and earcons on one stereo timeline.

This is the project's demo and the regression test of the audio path: the real
referee (`voicespit.match.referee`) with the real computer opponent in seat 1 and a
simulated human in seat 0 ("you"), the real narration, the real speech engine
(pyttsx3 writing files) and the real speaker rules (stale dropping,
interruptions, reports back to the match), in fake time, so an hour of game
renders in seconds and the same seed gives the same file.

Everything runs on one thread, the fake clock's: the match, both players'
reactions, the narration (an inline listener) and the speaker's timers.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from voicespit.audio.announcer import Announcer, TextMirror
from voicespit.audio.earcons import SAMPLE_RATE
from voicespit.audio.reports import SpeechSettings
from voicespit.audio.timeline import Timeline, TimelineSpeaker
from voicespit.audio.tts import Pyttsx3Renderer, SpeechRenderer
from voicespit.clock import FakeClock
from voicespit.engine import Rules
from voicespit.engine.events import CardPlayed
from voicespit.errors import VoiceSpitError
from voicespit.match.events import IntentRefused, Stamped
from voicespit.match.intents import State
from voicespit.match.referee import Match, MatchSettings
from voicespit.narration.announcement import Verbosity
from voicespit.narration.narrator import Narrator
from voicespit.opponent import FixedPace, HumanModel, Opponent, SimulatedHuman

MAX_GAME_SECONDS = 4 * 3600.0
"""A guard: a game that has not ended after this much (fake) time is a bug."""


class NarrateError(VoiceSpitError):
    """The narrated game did not come to an end, or the match reported a failure."""


OPPONENT_PACE = "brisk"
"""The computer in seat 1: two seconds a card, a practice pace a listener can follow."""
HUMAN = HumanModel(seconds_per_card=2.0)
"""Seat 0, "you": as quick as the opponent on average, so the cards are contested and
either side can win; with the model's slips (a missed chance, a wrong command)."""
ANNOUNCEMENT_TIMEOUT = 60.0
"""The match's fallback for a speaker that never reports. The timeline speaker always
reports, and the news at a round's end (the slap, the piles taken, the new deal, a
refusal) can take longer to say than the live default of 8 s: with that default the
players would act on a deal nobody had heard yet."""


def build_match(rules: Rules, seed: int, clock: FakeClock) -> Match:
    """The real referee with the real opponent against a simulated human, on `clock`.

    Each player's reaction starts only once the change has been heard
    (`wait_for_announcements`): the fairness rule a blind player relies on, and
    the rule this demo exists to let anyone hear.
    """
    settings = MatchSettings(wait_for_announcements=True,
                             announcement_timeout_seconds=ANNOUNCEMENT_TIMEOUT)
    match = Match(rules, clock, seed=f"narrate:{seed}", settings=settings)
    # The players keep themselves alive through the match's observer list.
    Opponent(match, FixedPace.named(OPPONENT_PACE), random.Random(f"narrate opponent:{seed}"))
    SimulatedHuman(match, HUMAN, random.Random(f"narrate human:{seed}"))
    return match


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
    final_state: State | None = None
    """The table when the game ended (every card is somewhere on it)."""

    @property
    def plays(self) -> int:
        return sum(isinstance(stamped.event, CardPlayed) for stamped in self.events)

    @property
    def too_late(self) -> int:
        """Moves refused because the other player got there first (either seat)."""
        return sum(isinstance(stamped.event, IntentRefused) and stamped.event.too_late
                   for stamped in self.events)

    @property
    def mistakes(self) -> int:
        """Moves refused as against the rules (the simulated human's slips)."""
        return sum(isinstance(stamped.event, IntentRefused) and not stamped.event.too_late
                   for stamped in self.events)

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
        failed: list[Exception] = []

        def on_event(stamped: Stamped) -> None:
            if failed:
                return
            try:
                events.append(stamped)
                announcer.announce(stamped, match.state)
            except Exception as error:  # raised again below, outside the match
                failed.append(error)

        # Inline: announced on the referee's own (the fake clock's) thread, in order, before
        # time moves on, so the whole run is single-threaded and repeats exactly.
        match.subscribe(on_event, inline=True)
        speaker.on_announcement_finished(match.announcement_finished)
        match.start()
        while clock.run_next():
            # The match logs and survives a failing listener (a live game must go on);
            # narrate stops at the first, as itself (a closed pipe, a speech failure).
            if failed:
                raise failed[0]
            if clock.now() > MAX_GAME_SECONDS:
                raise NarrateError(f"no end after {MAX_GAME_SECONDS:.0f} s of play (seed {seed})")
        if not match.is_over:
            raise NarrateError(f"the game stalled at {clock.now():.1f} s in phase "
                               f"{match.state.phase.value} (seed {seed})")
        if match.errors:  # a referee or player bug: the demo must not hide one
            raise NarrateError(f"the match reported {len(match.errors)} failures (seed {seed}): "
                               + "; ".join(match.errors[:3]))
        timeline.write_wav(out)
    finally:
        if own_renderer:
            speech.close()
    return NarrateResult(timeline, Counter(status for status, _ in speaker.history),
                         mirror.lines, events, getattr(speech, "retries", 0), match.state)
