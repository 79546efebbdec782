"""What players ask the match to do: intents, posted from any thread.

A player never changes the game: the keyboard, the speech recognizer, the
computer opponent and the simulated human all *post* an intent with
`Match.post(intent)`, and the match applies it in arrival order on its own
thread (see `voicespit.match.referee`).

An `ActionIntent` carries either a concrete engine action or a *resolver*: a
function the match calls on its own thread at apply time with the state as it
is then, so "seven on left" finds the seven in whatever stockpile holds it when
the command lands. A resolver may raise `VoiceSpitError` (including the
engine's `IllegalActionError`); its message becomes the spoken refusal.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from voicespit.engine.actions import Action
from voicespit.engine.speed import SpeedState
from voicespit.engine.spit import SpitState

State = SpitState | SpeedState
Resolver = Callable[[State], Action]
"""Turns a command into an engine action against the state at apply time.

Runs on the match's thread: it must be quick and must not keep the state."""


@dataclass(frozen=True, slots=True)
class ActionIntent:
    """A player's move: exactly one of `action` and `resolver`."""

    player: int
    action: Action | None = None
    resolver: Resolver | None = None
    based_on: int | None = None
    """The last event sequence the player knew of when they decided (None: the
    last one announced when the intent was posted). A move that was legal then
    and is not any more is refused as "too late" rather than as a mistake."""
    said: str = ""
    """What the player said or pressed, as understood ("seven on left"), for logs and
    for naming it in a refusal; never interpreted."""

    def __post_init__(self) -> None:
        if (self.action is None) == (self.resolver is None):
            raise ValueError("an ActionIntent needs exactly one of action and resolver")

    def __str__(self) -> str:
        what = self.said or (str(self.action) if self.action is not None else "a command")
        return f"P{self.player} intends {what}"


class Control(enum.Enum):
    """Commands about the match rather than the cards."""

    READY = "ready"
    """Ready for the spit that starts the round (saying "spit" counts too)."""
    PAUSE = "pause"
    """Freeze the match: every timer and the opponent stop until RESUME."""
    RESUME = "resume"
    FASTER = "faster"
    """Make the computer opponent quicker (its mean seconds per card shrinks)."""
    SLOWER = "slower"
    QUIT = "quit"
    """End the match now (published as `MatchQuit`)."""


@dataclass(frozen=True, slots=True)
class ControlIntent:
    player: int
    control: Control
    said: str = ""
    """What the player said ("ready"), so a refusal can name it; never interpreted."""

    def __str__(self) -> str:
        return f"P{self.player} says {self.control.value}"


Intent = ActionIntent | ControlIntent
