"""Engine throughput: complete matches per second, actions per second, peak memory.

    python -m benchmarks.engine [--games N] [--repeats R] [--seed S]

Runs the same seeded batch R times for each game and variant (no checks, one
core) and prints the median of each figure; peak memory comes from a separate
traced run, because tracing slows the engine down.
"""

from __future__ import annotations

import argparse
import statistics

from voicespit.engine import Rules
from voicespit.simulation.full_speed import simulate

CONFIGURATIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("spit", ()),
    ("spit", ("stockpiles=4",)),
    ("spit", ("slap=false",)),
    ("spit", ("alternating_colours=true",)),
    ("spit", ("scoring=points",)),
    ("speed", ()),
    ("speed", ("side_pile_size=5",)),
    ("speed", ("scoring=points",)),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{args.games} matches x {args.repeats} runs per line; medians")
    print("| game | variant | matches/s | actions/s | actions/match | rounds/match | peak KiB |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for game, variants in CONFIGURATIONS:
        rules = Rules.for_game(game, variants)
        runs = [simulate(rules, args.games, args.seed) for _ in range(args.repeats)]
        if any(run.errors for run in runs):
            raise SystemExit(f"{game} {variants}: errors {runs[0].error_messages[:3]}")
        games_per_second = statistics.median(run.games / run.seconds for run in runs)
        actions_per_second = statistics.median(run.actions / run.seconds for run in runs)
        memory = simulate(rules, min(args.games, 20), args.seed, measure_memory=True)
        first = runs[0]
        print(f"| {game} | {' '.join(variants) or '-'} | {games_per_second:,.0f} "
              f"| {actions_per_second:,.0f} | {first.actions / first.games:.0f} "
              f"| {first.rounds / first.games:.1f} | {memory.peak_memory_kb} |")


if __name__ == "__main__":
    main()
