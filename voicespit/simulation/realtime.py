"""Whole real-time matches on a fake clock: the simulated human against the opponent.

`voicespit simulate --human-pace SECONDS` runs this. Each game is a real
`Match` with an `Opponent` in seat 1 and a `SimulatedHuman` in seat 0, both
playing through the intent queue with their reaction times; a `FakeClock`
jumps from one timer to the next, so an hour of play takes milliseconds. One
pace object serves every game in a row, so an adaptive pace learns across the
session as it would against one person.

The pace and win-rate figures are taken over the last half of the games, once
an adaptive pace has had the first half to settle.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass, field

from voicespit.clock import FakeClock
from voicespit.engine import Rules
from voicespit.engine.invariants import check_cards
from voicespit.match.events import IntentRefused, Stamped
from voicespit.match.reaction_meter import ReactionMeter, SampleListener
from voicespit.match.referee import Match, MatchSettings
from voicespit.match.refusals import is_beaten_to_a_pile
from voicespit.opponent.pace import Pace
from voicespit.opponent.player import Opponent
from voicespit.opponent.simulated_human import HumanModel, SimulatedHuman
from voicespit.opponent.strategy import Strategy, sensible_choice
from voicespit.simulation.full_speed import SimulationResult

HUMAN, OPPONENT = 0, 1


@dataclass
class RealtimeResult(SimulationResult):
    opponent_wins_last_half: int = 0
    decided_last_half: int = 0
    """Games of the last half that somebody won (draws left out of the win rate)."""
    human_seconds: list[float] = field(default_factory=list)
    opponent_seconds: list[float] = field(default_factory=list)
    contested: int = 0
    match_seconds: list[float] = field(default_factory=list)
    final_pace: float = 0.0

    @property
    def opponent_win_rate(self) -> float | None:
        if not self.decided_last_half:
            return None
        return self.opponent_wins_last_half / self.decided_last_half

    def as_json(self) -> dict[str, object]:
        result = super().as_json()
        result.update({
            "opponent_win_rate": _rounded(self.opponent_win_rate),
            "human_mean_seconds_per_card": _rounded(_mean(self.human_seconds)),
            "opponent_mean_seconds_per_card": _rounded(_mean(self.opponent_seconds)),
            "contested": self.contested,
            "mean_match_minutes": _rounded(_mean(self.match_seconds), 60.0),
            "opponent_final_seconds_per_card": round(self.final_pace, 3),
        })
        return result


def _mean(values: list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def _rounded(value: float | None, unit: float = 1.0) -> float | None:
    return None if value is None else round(value / unit, 3)


def _is_contested(stamped: Stamped) -> bool:
    event = stamped.event
    return isinstance(event, IntentRefused) and is_beaten_to_a_pile(event)


def play_realtime_game(rules: Rules, seed: int, game: int, human: HumanModel, pace: Pace, *,
                       settings: MatchSettings | None = None, check: bool = False,
                       human_strategy: Strategy = sensible_choice,
                       opponent_strategy: Strategy = sensible_choice,
                       on_sample: SampleListener | None = None,
                       ) -> tuple[Match, ReactionMeter, int]:
    """One match to its end; returns the match, its meter and the contested plays.

    `on_sample(player, seconds)` hears each measured play after the opponent's pace has.
    """
    clock = FakeClock()
    match = Match(rules, clock, seed=f"voicespit:{seed}:{game}", settings=settings)
    meter = ReactionMeter(match)
    Opponent(match, pace, random.Random(f"opponent:{seed}:{game}"), meter=meter,
             strategy=opponent_strategy)
    if on_sample is not None:
        meter.on_sample(on_sample)
    SimulatedHuman(match, human, random.Random(f"human:{seed}:{game}"), strategy=human_strategy)
    contested = 0

    def count(stamped: Stamped) -> None:
        nonlocal contested
        contested += _is_contested(stamped)
        if check:
            check_cards(match.state)
    match.subscribe(count, inline=True)
    match.start()
    match.run_until_over()
    return match, meter, contested


def pace_at_card(rules: Rules, seed: int, human: HumanModel, pace: Pace,
                 card: int = 10) -> float | None:
    """The opponent's seconds per card just after the human's `card`-th measured play
    of one match (None if the match ended sooner)."""
    seen: list[float] = []

    def on_sample(player: int, seconds: float) -> None:
        if player == HUMAN:
            seen.append(pace.seconds_per_card)
    play_realtime_game(rules, seed, 0, human, pace, on_sample=on_sample)
    return seen[card - 1] if len(seen) >= card else None


def simulate_realtime(rules: Rules, games: int, seed: int, human: HumanModel, pace: Pace, *,
                      settings: MatchSettings | None = None, check: bool = False,
                      human_strategy: Strategy = sensible_choice,
                      opponent_strategy: Strategy = sensible_choice) -> RealtimeResult:
    """Play `games` matches in a row against one pace; figures as in the module doc."""
    result = RealtimeResult()
    started = time.perf_counter()
    for game in range(games):
        try:
            match, meter, contested = play_realtime_game(
                rules, seed, game, human, pace, settings=settings, check=check,
                human_strategy=human_strategy, opponent_strategy=opponent_strategy)
            failures = match.errors + match.listener_errors
            if failures:
                raise RuntimeError("; ".join(failures[:3]))
        except Exception as error:  # counting every failure is the point of the run
            result.errors += 1
            result.error_messages.append(f"game {game}: {error}")
            continue
        state = match.state
        result.games += 1
        result.actions += match.actions_applied
        result.rounds += state.round
        result.contested += contested
        result.match_seconds.append(match.clock.now())
        result.winners["draw" if state.winner is None else str(state.winner)] += 1
        if game >= games // 2:
            if state.winner is not None:
                result.decided_last_half += 1
                result.opponent_wins_last_half += state.winner == OPPONENT
            result.human_seconds.extend(s.seconds for s in meter.samples[HUMAN])
            result.opponent_seconds.extend(s.seconds for s in meter.samples[OPPONENT])
    result.seconds = time.perf_counter() - started
    result.final_pace = pace.seconds_per_card
    return result
