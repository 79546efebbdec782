"""Complete games between two computer players with no delays (`voicespit simulate`).

This is the engine's throughput benchmark and its randomized referee check. Both
players act "at once": each step a random player with something to do acts, so
the interleavings differ from game to game, reproducibly from the seed.
"""

from __future__ import annotations

import random
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from voicespit.engine import Rules, new_game
from voicespit.engine import actions as act
from voicespit.engine.actions import Action
from voicespit.engine.invariants import InvariantError, check_actions, check_cards
from voicespit.engine.speed import SpeedState
from voicespit.engine.spit import SpitState
from voicespit.engine.state import IllegalActionError, Phase

State = SpitState | SpeedState
Chooser = Callable[[State, int, list[Action], random.Random], Action]


def greedy_choice(state: State, player: int, legal: list[Action], rng: random.Random) -> Action:
    """A quick, sensible player: play a card if it can, else tidy, else slap the smaller pile."""
    plays = [a for a in legal if type(a) is act.Play or type(a) is act.PlayCard]
    if plays:
        return plays[0] if len(plays) == 1 else rng.choice(plays)
    if state.phase is Phase.ROUND_OVER:
        sizes = [len(pile) for pile in state.piles]
        smaller = 0 if sizes[0] <= sizes[1] else 1
        for action in legal:
            if getattr(action, "pile", None) == smaller:
                return action
    return legal[0]


@dataclass
class SimulationResult:
    games: int = 0
    rounds: int = 0
    actions: int = 0
    seconds: float = 0.0
    errors: int = 0
    winners: Counter[str] = field(default_factory=Counter)
    error_messages: list[str] = field(default_factory=list)
    peak_memory_kb: int | None = None

    def as_json(self) -> dict[str, object]:
        per_second = self.games / self.seconds if self.seconds else 0.0
        result: dict[str, object] = {
            "games": self.games,
            "rounds": self.rounds,
            "actions": self.actions,
            "seconds": round(self.seconds, 4),
            "errors": self.errors,
            "winners": {seat: self.winners[seat] for seat in ("0", "1", "draw")},
            "games_per_second": round(per_second, 1),
            "actions_per_second": round(self.actions / self.seconds, 0) if self.seconds else 0.0,
        }
        if self.peak_memory_kb is not None:
            result["peak_memory_kb"] = self.peak_memory_kb
        if self.error_messages:
            result["first_errors"] = self.error_messages[:5]
        return result


def game_rng(seed: int, game: int) -> random.Random:
    """The shuffle generator of game number `game` in a run seeded `seed`."""
    return random.Random(f"voicespit:{seed}:{game}")


def play_one(rules: Rules, seed: int, game: int, check: bool = False,
             choose: Chooser = greedy_choice, max_actions: int = 200_000,
             transcript: list[str] | None = None) -> tuple[State, int]:
    """Play one match to its end; returns the final state and the number of actions.

    With `transcript`, appends each action ("> P0: play ...") and the events it caused.
    """
    state = new_game(rules, game_rng(seed, game))
    if transcript is not None:
        transcript.extend(f"  {event}" for event in state.deal_events)
    turn_rng = random.Random(f"turns:{seed}:{game}")
    check_rng = random.Random(f"check:{seed}:{game}")
    actions = 0
    if check:
        check_cards(state)
        check_actions(state, check_rng)
    while not state.is_over:
        first = 0 if turn_rng.random() < 0.5 else 1
        legal = state.legal_actions(first)
        player = first
        if not legal:
            player = 1 - first
            legal = state.legal_actions(player)
            if not legal:
                raise InvariantError(f"nobody can act in phase {state.phase.value}")
        action = choose(state, player, legal, turn_rng)
        try:
            events = state.apply(player, action)
        except IllegalActionError as error:
            raise InvariantError(f"listed action {action} refused: {error.reason}") from error
        actions += 1
        if transcript is not None:
            transcript.append(f"> P{player}: {action}")
            transcript.extend(f"  {event}" for event in events)
        if check:
            check_cards(state)
            check_actions(state, check_rng)
        if actions > max_actions:
            raise InvariantError(f"no end after {max_actions} actions")
    return state, actions


def simulate(rules: Rules, games: int, seed: int, check: bool = False,
             measure_memory: bool = False) -> SimulationResult:
    """Play `games` matches; count rounds, actions, winners and contract violations."""
    result = SimulationResult()
    if measure_memory:
        tracemalloc.start()
    started = time.perf_counter()
    for game in range(games):
        try:
            state, actions = play_one(rules, seed, game, check)
        except Exception as error:  # counting every failure is the point of the run
            result.errors += 1
            result.error_messages.append(f"game {game}: {error}")
            continue
        result.games += 1
        result.actions += actions
        result.rounds += state.round
        result.winners["draw" if state.winner is None else str(state.winner)] += 1
    result.seconds = time.perf_counter() - started
    if measure_memory:
        result.peak_memory_kb = tracemalloc.get_traced_memory()[1] // 1024
        tracemalloc.stop()
    return result
