"""Shared set-up for the real-time tests: a match on a fake clock with a recorder."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from voicespit.clock import FakeClock
from voicespit.engine import Rules
from voicespit.engine.actions import Action
from voicespit.engine.state import Phase
from voicespit.match.events import Stamped
from voicespit.match.intents import ActionIntent, State
from voicespit.match.referee import Match, MatchSettings
from voicespit.opponent.strategy import sensible_choice

T = TypeVar("T")


@dataclass
class Table:
    """A match, its fake clock and every event it published, in order."""

    match: Match
    clock: FakeClock
    log: list[Stamped] = field(default_factory=list)

    @property
    def state(self) -> State:
        return self.match.state

    def events(self, kind: type[T]) -> list[T]:
        return [stamped.event for stamped in self.log if isinstance(stamped.event, kind)]

    def timed(self, kind: type[T]) -> list[tuple[float, T]]:
        """(match time, event) of every event of one kind."""
        return [(stamped.time, stamped.event) for stamped in self.log
                if isinstance(stamped.event, kind)]

    def post(self, player: int, action: Action) -> None:
        self.match.post(ActionIntent(player, action))

    def settle(self) -> None:
        """Handle everything posted so far (what is due now), without moving time."""
        self.clock.advance(0.0)

    def play_until(self, done: Callable[[State], bool], limit: int = 5000) -> None:
        """Both seats play sensible moves, one at a time, until `done(state)`."""
        rng = random.Random(0)
        turn = 0
        for _ in range(limit):
            state = self.state
            if done(state):
                return
            if state.phase is Phase.PLAY:
                for player in (turn % 2, 1 - turn % 2):
                    legal = state.legal_actions(player)
                    action = sensible_choice(state, player, legal, rng)
                    if action is not None:
                        self.post(player, action)
                        break
                turn += 1
                self.settle()
            elif not self.clock.run_next():
                raise AssertionError(f"stuck in phase {state.phase.value}")
        raise AssertionError("the wanted position never came")


def new_table(seed: int | str = 1, game: str = "spit", variants: tuple[str, ...] = (),
              settings: MatchSettings | None = None, start: bool = True) -> Table:
    """A match with no computer player attached: the test plays both seats."""
    clock = FakeClock()
    settings = settings or MatchSettings(auto_start=True, countdown_from=0)
    match = Match(Rules.for_game(game, variants), clock, seed=seed, settings=settings)
    table = Table(match, clock)
    match.subscribe(table.log.append, inline=True)
    if start:
        match.start()
        table.settle()
    return table
