"""What a deal of Speed scores, and how many deals a points match to each target lasts.

    python -m benchmarks.speed_points [--matches N] [--targets 1,2,3,5]

A deal's winner scores the cards left in the opponent's draw pile (RULES.md). The
figures come from whole real-time matches on the fake clock: a simulated human at
1, 2.5 and 6 s a card against the default adaptive opponent, one pace object per
session (as in `voicespit simulate --human-pace`), for side piles of 10 and of 5.
Per line: the mean points a deal scores, the share of deals that score anything,
and, for each target, the median number of deals in a match to it [range] and the
median match length in minutes. A last table does the same for the engine's
quick computer players at equal speed (`voicespit simulate`).
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from voicespit.clock import FakeClock
from voicespit.engine import Rules, new_game
from voicespit.engine.events import RoundOver, ScoresChanged
from voicespit.match.events import Stamped
from voicespit.match.referee import Match
from voicespit.opponent import AdaptivePace, HumanModel, Opponent, SimulatedHuman
from voicespit.simulation.full_speed import game_rng, greedy_choice

HUMAN_PACES = (1.0, 2.5, 6.0)


@dataclass
class Tally:
    """Deal scores and match lengths of a batch of matches to one target."""

    deal_points: list[int] = field(default_factory=list)
    deals: list[int] = field(default_factory=list)
    minutes: list[float] = field(default_factory=list)


def rules_for(side_pile_size: int, target: int) -> Rules:
    return Rules.for_game("speed", ["scoring=points", f"side_pile_size={side_pile_size}",
                                    f"target_score={target}"])


def realtime_matches(rules: Rules, human_pace: float, matches: int, seed: int) -> Tally:
    tally = Tally()
    pace = AdaptivePace()
    for number in range(matches):
        match = Match(rules, FakeClock(), seed=f"speed-points:{seed}:{number}")
        Opponent(match, pace, random.Random(f"opponent:{seed}:{number}"))
        SimulatedHuman(match, HumanModel(human_pace), random.Random(f"human:{seed}:{number}"))
        scored: list[int] = []

        def record(stamped: Stamped, scored: list[int] = scored) -> None:
            event = stamped.event
            if isinstance(event, RoundOver):
                scored.append(0)
            elif isinstance(event, ScoresChanged):
                scored[-1] = max(event.gained)
        match.subscribe(record, inline=True)
        match.start()
        match.run_until_over()
        if match.errors:
            raise SystemExit(f"errors: {match.errors[:3]}")
        tally.deal_points.extend(scored)
        tally.deals.append(match.state.round)
        tally.minutes.append(match.clock.now() / 60)
    return tally


def quick_matches(rules: Rules, matches: int, seed: int) -> Tally:
    """The engine's greedy players, no clock: who acts next is a coin toss."""
    tally = Tally()
    for number in range(matches):
        state = new_game(rules, game_rng(seed, number))
        turns = random.Random(f"turns:{seed}:{number}")
        while not state.is_over:
            player = turns.randrange(2)
            if not state.legal_actions(player):
                player = 1 - player
            legal = state.legal_actions(player)
            for event in state.apply(player, greedy_choice(state, player, legal, turns)):
                if isinstance(event, RoundOver):
                    tally.deal_points.append(0)
                elif isinstance(event, ScoresChanged):
                    tally.deal_points[-1] = max(event.gained)
        tally.deals.append(state.round)
    return tally


def median_range(values: Sequence[float], digits: int = 0) -> str:
    return (f"{statistics.median(values):.{digits}f} "
            f"[{min(values):.{digits}f}-{max(values):.{digits}f}]")


def deal_figures(points: list[int]) -> str:
    scoring = sum(1 for value in points if value) / len(points)
    return f"{statistics.fmean(points):.2f} | {scoring:.0%}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20, help="matches per line")
    parser.add_argument("--targets", default="1,2,3,5")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    targets = [int(value) for value in args.targets.split(",")]
    header = " | ".join(f"deals to {t} | min to {t}" for t in targets)
    print(f"real-time, against the adaptive opponent: {args.matches} matches per cell")
    print(f"| side piles | human s/card | points/deal | deals scoring | {header} |")
    print("|---:|---:|---:|---:|" + "---:|---:|" * len(targets))
    for side in (10, 5):
        for human_pace in HUMAN_PACES:
            cells: list[str] = []
            points: list[int] = []
            for target in targets:
                tally = realtime_matches(rules_for(side, target), human_pace, args.matches,
                                         args.seed)
                points.extend(tally.deal_points)
                cells.append(f"{median_range(tally.deals)} | "
                             f"{statistics.median(tally.minutes):.0f}")
            print(f"| {side} | {human_pace:g} | {deal_figures(points)} | {' | '.join(cells)} |")
    print(f"\nquick computer players at equal speed: {args.matches * 5} matches per cell")
    print("| side piles | points/deal | deals scoring | "
          + " | ".join(f"deals to {t}" for t in targets) + " |")
    print("|---:|---:|---:|" + "---:|" * len(targets))
    for side in (10, 5):
        points = []
        cells = []
        for target in targets:
            rules = rules_for(side, target)
            tally = quick_matches(rules, args.matches * 5, args.seed)
            points.extend(tally.deal_points)
            cells.append(median_range(tally.deals))
        print(f"| {side} | {deal_figures(points)} | {' | '.join(cells)} |")


if __name__ == "__main__":
    main()
