"""The opponent's pace and judgement, measured on the fake clock (issue 3's targets).

    python -m benchmarks.pace [--runs R] [--games N] [--only adaptive|named|strategy]

Every figure is the median over R sessions with different seeds (the range in
brackets), each session N games in a row against one pace object, exactly as
`voicespit simulate --human-pace ...` plays them:

- adaptive: simulated humans at 1.0, 2.5 and 6.0 s per card against the default
  adaptive opponent (target 0.5); the opponent's win rate over the second half
  of the games and its seconds per card over the human's (second half);
- named: each named pace against a human of the same pace; the opponent's
  measured seconds per card against the nominal value;
- strategy: the sensible strategy against uniformly random choices, both at
  2 s per card with no misses, no wrong commands and the same hand speed.

Fake time, so the machine's load changes only how long the run takes.
"""

from __future__ import annotations

import argparse
import functools
import statistics
from collections.abc import Callable, Sequence

from voicespit.engine import Rules
from voicespit.opponent import (
    NAMED_PACES,
    AdaptivePace,
    FixedPace,
    HumanModel,
    Pace,
    Strategy,
    random_choice,
    sensible_choice,
)
from voicespit.realtime_simulation import RealtimeResult, simulate_realtime

SPIT = Rules.for_game("spit")


def median_range(values: Sequence[float], digits: int = 2) -> str:
    return (f"{statistics.median(values):.{digits}f} "
            f"[{min(values):.{digits}f}-{max(values):.{digits}f}]")


def sessions(runs: int, rules: Rules, games: int, human: HumanModel,
             new_pace: Callable[[], Pace], human_strategy: Strategy = sensible_choice
             ) -> list[RealtimeResult]:
    """`runs` sessions from different seeds, each with a fresh pace."""
    results = [simulate_realtime(rules, games, 1000 + run, human, new_pace(),
                                 human_strategy=human_strategy) for run in range(runs)]
    for result in results:
        if result.errors:
            raise SystemExit(f"errors: {result.error_messages[:3]}")
    return results


def second_half(result: RealtimeResult, key: str) -> float:
    value = result.as_json()[key]
    assert isinstance(value, float)
    return value


def adaptive(runs: int, games: int) -> None:
    print(f"\nadaptive opponent, target 0.5: {runs} sessions x {games} games; "
          "medians [range], second half of each session")
    print("| human s/card | opponent win rate | opponent s/card | human s/card measured "
          "| pace ratio | contested/game |")
    print("|---:|---:|---:|---:|---:|---:|")
    for human_pace in (1.0, 2.5, 6.0):
        results = sessions(runs, SPIT, games, HumanModel(human_pace), AdaptivePace)
        rates = [second_half(r, "opponent_win_rate") for r in results]
        mine = [second_half(r, "opponent_mean_seconds_per_card") for r in results]
        theirs = [second_half(r, "human_mean_seconds_per_card") for r in results]
        ratios = [m / h for m, h in zip(mine, theirs, strict=True)]
        contested = [r.contested / r.games for r in results]
        print(f"| {human_pace:.1f} | {median_range(rates)} | {median_range(mine)} "
              f"| {median_range(theirs)} | {median_range(ratios)} "
              f"| {median_range(contested, 1)} |")


def named(runs: int, games: int) -> None:
    print(f"\nnamed paces against a human of the same pace: {runs} sessions x {games} games")
    print("| pace | nominal s/card | measured s/card | off by |")
    print("|---|---:|---:|---:|")
    for name, nominal in NAMED_PACES.items():
        results = sessions(runs, SPIT, games, HumanModel(nominal),
                           functools.partial(FixedPace.named, name))
        measured = [second_half(r, "opponent_mean_seconds_per_card") for r in results]
        off = [m / nominal - 1 for m in measured]
        print(f"| {name} | {nominal:.1f} | {median_range(measured)} "
              f"| {statistics.median(off):+.1%} |")


def strategy(runs: int, games: int) -> None:
    print(f"\nsensible against random at equal pace (2 s, no flaws): {runs} sessions x "
          f"{games} games")
    print("| game | variants | sensible wins |")
    print("|---|---|---:|")
    equal = HumanModel(2.0, miss_rate=0.0, wrong_rate=0.0, command_seconds=0.25)
    for game, variants in (("spit", ()), ("spit", ("stockpiles=4",)),
                           ("spit", ("auto_turn_up=false", "auto_fill=false")),
                           ("speed", ())):
        rules = Rules.for_game(game, variants)
        results = sessions(runs, rules, games, equal, functools.partial(FixedPace, 2.0),
                           human_strategy=random_choice)
        shares = [r.winners["1"] / r.games for r in results]
        print(f"| {game} | {' '.join(variants) or '-'} | {median_range(shares)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--only", choices=("adaptive", "named", "strategy"))
    args = parser.parse_args()
    if args.only in (None, "adaptive"):
        adaptive(args.runs, args.games)
    if args.only in (None, "named"):
        named(args.runs, max(20, args.games // 4))
    if args.only in (None, "strategy"):
        strategy(args.runs, args.games)


if __name__ == "__main__":
    main()
