"""A stand-in for the real-time Match: two computer players at a human pace, on a clock.

`voicespit narrate` needs a whole game whose events come at plausible times and
that waits for its announcements to be heard, as the real Match does. Until
`voicespit/match.py` lands this small referee provides that, with the Match's
surface (`subscribe`, `start`, `announcement_finished`, `state`, `is_over`), so
swapping it for the Match is a change to `build_match` in cli/narrate.py.

How it plays, deliberately like the Match's design:
- Events are published as `Stamped(sequence, clock time, event)`.
- A player decides only once everything published has been heard: after the
  last `announcement_finished`, each player without a move in hand picks one
  (the greedy player) and makes it after a reaction delay drawn around a mean.
- A move is re-checked when it is made; if the state moved on it fails with
  `IntentRefused(..., too_late=True)`, as "first card to touch wins" demands.
- The spit is a countdown (3, 2, 1) then a spit; the end of a Spit round opens a
  slap window, and both players race for the smaller pile.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from voicespit.clock import Clock, Timer
from voicespit.engine import Rules, new_game
from voicespit.engine import actions as act
from voicespit.engine.actions import Action
from voicespit.engine.events import Event
from voicespit.engine.spit import SpitState
from voicespit.engine.state import IllegalActionError, Phase
from voicespit.match_events import (
    IntentRefused,
    MatchEvent,
    SlapWindowOpened,
    SpitCountdown,
    Stamped,
)
from voicespit.simulation import Chooser, State, game_rng, greedy_choice

Listener = Callable[[Stamped], None]


@dataclass(frozen=True)
class Pace:
    """Reaction delays in seconds, drawn from a normal distribution and clipped."""

    play_mean: float = 0.9
    play_spread: float = 0.3
    slap_mean: float = 0.6
    slap_spread: float = 0.2
    fastest: float = 0.3
    countdown_step: float = 0.8
    slap_window: float = 3.0
    committed: float = 0.4
    """A move due within this long is already under way when news comes (the player
    is speaking it): it goes ahead and may fail "too late". An earlier one is rethought."""


class DemoMatch:
    """Computer versus computer on `clock`, deterministic from `seed`."""

    def __init__(self, rules: Rules, seed: int, clock: Clock, pace: Pace | None = None,
                 choose: Chooser = greedy_choice) -> None:
        self.rules = rules
        self.clock = clock
        self.pace = pace or Pace()
        self.choose = choose
        self.state: State = new_game(rules, game_rng(seed, 0))
        self._rng = random.Random(f"demo pace:{seed}")
        self._listeners: list[Listener] = []
        self._published = 0
        self._heard = 0
        self._moves: dict[int, Timer] = {}
        self._planned_actions: dict[int, Action] = {}
        self._countdown: Timer | None = None
        self._slap_window_open = False
        self.moves_made = 0
        self.moves_refused = 0

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def start(self) -> None:
        """Publish the deal; play begins once it has been heard."""
        self._publish(list(self.state.deal_events))

    def announcement_finished(self, sequence: int) -> None:
        """Everything up to `sequence` has been heard (from the speaker)."""
        self._heard = max(self._heard, sequence)
        if self._heard >= self._published:
            self._react()

    # ------------------------------------------------------------------ inside

    def _publish(self, events: Sequence[Event | MatchEvent]) -> None:
        for event in events:
            self._published += 1
            stamped = Stamped(self._published, self.clock.now(), event)
            for listener in self._listeners:
                listener(stamped)

    def _react(self) -> None:
        phase = self.state.phase
        if phase is Phase.GAME_OVER:
            return
        if phase is Phase.READY or phase is Phase.STALEMATE:
            if self._countdown is None:
                self._count_down(3)
            return
        if phase is Phase.ROUND_OVER and self.rules.slap and not self._slap_window_open:
            self._slap_window_open = True
            self._publish([SlapWindowOpened(self.clock.now() + self.pace.slap_window,
                                            self._smaller_pile())])
            return
        for player in (0, 1):
            self._rethink(player)
            if player not in self._moves:
                self._plan(player)

    def _rethink(self, player: int) -> None:
        """Drop a planned move that the news made illegal, unless it is already under way."""
        planned = self._moves.get(player)
        if planned is None or planned.due - self.clock.now() <= self.pace.committed:
            return
        if self._planned_actions[player] not in self.state.legal_actions(player):
            planned.cancel()
            del self._moves[player]

    def _smaller_pile(self) -> int | None:
        sizes = [len(pile) for pile in self.state.piles]
        return None if sizes[0] == sizes[1] else (0 if sizes[0] < sizes[1] else 1)

    def _count_down(self, seconds_left: int) -> None:
        self._publish([SpitCountdown(seconds_left)])
        step = self.pace.countdown_step
        if seconds_left > 1:
            self._countdown = self.clock.call_later(
                step, lambda: self._count_down(seconds_left - 1))
        else:
            self._countdown = self.clock.call_later(step, self._spit)

    def _spit(self) -> None:
        self._countdown = None
        self._slap_window_open = False
        self.moves_made += 1
        self._publish(self.state.apply(0, act.SPIT))

    def _plan(self, player: int) -> None:
        legal = [a for a in self.state.legal_actions(player) if type(a) is not act.Spit]
        if not legal:
            return
        action = self.choose(self.state, player, legal, self._rng)
        if self.state.phase is Phase.ROUND_OVER:
            mean, spread = self.pace.slap_mean, self.pace.slap_spread
        else:
            mean, spread = self.pace.play_mean, self.pace.play_spread
        delay = max(self.pace.fastest, self._rng.gauss(mean, spread))
        self._planned_actions[player] = action
        self._moves[player] = self.clock.call_later(delay, lambda: self._move(player, action))

    def _move(self, player: int, action: Action) -> None:
        del self._moves[player]
        try:
            events = self.state.apply(player, action)
        except IllegalActionError as error:
            self.moves_refused += 1
            self._publish([IntentRefused(player, action, error.reason, too_late=True)])
            return
        self.moves_made += 1
        if isinstance(self.state, SpitState) and self.state.phase is not Phase.ROUND_OVER:
            self._slap_window_open = False
        if self.state.is_over:
            for planned in self._moves.values():
                planned.cancel()
            self._moves.clear()
        self._publish(events)
