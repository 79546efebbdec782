"""The computer opponent: a sensible strategy at a human-like, adjustable pace.

    opponent = Opponent(match, pace=AdaptivePace(), rng=random.Random(seed))

It sits in seat 1 and plays through `match.post` like anybody else. Its hand
takes `motor_seconds` (at most half the reaction) from decision to landing, so
it can lose a race it decided on a moment too early. An adaptive pace is fed
the human's measured reaction times and the round and game results; when the
pace moves by more than a tenth at a round's end the match announces it.
"""

from __future__ import annotations

import random

from voicespit.engine.events import GameOver, LayoutDealt, RoundOver
from voicespit.engine.speed import SpeedState
from voicespit.engine.state import Phase
from voicespit.match.hearing import Perception
from voicespit.match.reaction_meter import ReactionMeter
from voicespit.match.referee import Match
from voicespit.opponent.pace import Pace
from voicespit.opponent.reacting import ReactingPlayer
from voicespit.opponent.strategy import Strategy, sensible_choice

ANNOUNCE_CHANGE = 0.1
"""Announce the pace when it has moved by this fraction since last announced."""


class Opponent(ReactingPlayer):
    def __init__(self, match: Match, pace: Pace, rng: random.Random, *, seat: int = 1,
                 strategy: Strategy = sensible_choice, motor_seconds: float = 0.25,
                 meter: ReactionMeter | None = None) -> None:
        super().__init__(match, seat, strategy, rng)
        self.pace = pace
        self.motor_seconds = motor_seconds
        self._announced = pace.seconds_per_card
        match.set_pace_control(self._on_request)
        (meter or ReactionMeter(match)).on_sample(self._on_sample)
        match.observe(self._on_results)

    def reaction_delay(self, phase: Phase) -> float:
        return self.pace.delay(self.rng)

    def execution_seconds(self, delay: float) -> float:
        return min(self.motor_seconds, delay / 2)

    def _on_request(self, faster: bool) -> float:
        self._announced = self.pace.change(faster)
        return self._announced

    def _on_sample(self, player: int, seconds: float) -> None:
        if player != self.seat:
            self.pace.observe_reaction(seconds)

    def _on_results(self, perception: Perception) -> None:
        """Tell the pace how the game stands after each round (see `AdaptivePace`)."""
        view = perception.state
        for stamped in perception.events:
            event = stamped.event
            if isinstance(event, GameOver):
                won = event.winner
                self.pace.observe_outlook(0.5 if won is None else float(won == self.seat))
            elif isinstance(event, LayoutDealt) and event.player == self.seat:
                if view.round == 1 or isinstance(view, SpeedState):
                    self.pace.start_game()  # every Speed deal starts from even
                    continue
                mine, theirs = view.cards_held(self.seat), view.cards_held(1 - self.seat)
                self.pace.observe_outlook(theirs / (mine + theirs))
            elif isinstance(event, RoundOver) and isinstance(view, SpeedState) \
                    and event.first_out is not None:
                self.pace.observe_outlook(float(event.first_out == self.seat))
            else:
                continue
            seconds = self.pace.seconds_per_card
            if abs(seconds - self._announced) > ANNOUNCE_CHANGE * self._announced:
                self._announced = seconds
                self.match.report_pace(seconds, "adapting to your play")
