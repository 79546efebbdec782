"""Events of the real-time match that the rules engine does not know about.

The match publishes every event (these and the engine's own) wrapped in a
`Stamped` with a sequence number and the clock time. Listeners that play audio
report back with `Match.announcement_finished(sequence)` once everything up to
that event has been heard, which is when the opponent's reaction clock starts.
"""

from __future__ import annotations

from dataclasses import dataclass

from voicespit.engine.actions import PILE_NAMES, Action
from voicespit.engine.events import Event


@dataclass(frozen=True, slots=True)
class IntentRefused:
    """A player's move was refused when the match applied it.

    `too_late` is True when it was legal when asked for but the other player got
    there first ("too late: left is now a nine").
    """

    player: int
    action: Action | None
    reason: str
    too_late: bool = False
    said: str = ""
    """What the player said or pressed, as the game understood it ("seven on left"), so
    the answer can name it; "" when unknown."""

    def __str__(self) -> str:
        return f"P{self.player} refused: {self.reason}"


@dataclass(frozen=True, slots=True)
class PlayerReady:
    """A player said they are ready for the next spit."""

    player: int

    def __str__(self) -> str:
        return f"P{self.player} ready"


@dataclass(frozen=True, slots=True)
class SpitCountdown:
    """The countdown before a spit: 3, 2, 1 (then the engine's CardSpat events)."""

    seconds_left: int

    def __str__(self) -> str:
        return f"countdown {self.seconds_left}"


@dataclass(frozen=True, slots=True)
class SlapWindowOpened:
    """The round is over: the slap race is on until `closes_at` (match time, `Match.clock`)."""

    closes_at: float
    smaller_pile: int | None
    """Which pile is smaller (None when they are equal)."""

    def __str__(self) -> str:
        smaller = "equal" if self.smaller_pile is None else PILE_NAMES[self.smaller_pile]
        return f"slap now (smaller: {smaller})"


@dataclass(frozen=True, slots=True)
class Paused:
    def __str__(self) -> str:
        return "paused"


@dataclass(frozen=True, slots=True)
class Resumed:
    def __str__(self) -> str:
        return "resumed"


@dataclass(frozen=True, slots=True)
class PaceChanged:
    """The opponent's mean seconds per card changed (by a command or by adapting)."""

    seconds_per_card: float
    reason: str
    requested: bool = False
    """True when a player asked for it ("speed up"): an answer, not news."""

    def __str__(self) -> str:
        return f"opponent pace {self.seconds_per_card:.1f} s per card ({self.reason})"


@dataclass(frozen=True, slots=True)
class MatchQuit:
    """The match was stopped before its end: `player` said quit. Nothing follows."""

    player: int

    def __str__(self) -> str:
        return f"P{self.player} quit"


MatchEvent = IntentRefused | PlayerReady | SpitCountdown | SlapWindowOpened | Paused | Resumed \
    | PaceChanged | MatchQuit


@dataclass(frozen=True, slots=True)
class Stamped:
    """One published event: its place in the stream and when it happened."""

    sequence: int
    time: float
    event: Event | MatchEvent

    def __str__(self) -> str:
        return f"{self.time:9.3f} #{self.sequence} {self.event}"
