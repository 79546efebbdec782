"""The opponent's pace and judgement, measured on the fake clock (issue 3's targets).

    python -m benchmarks.pace [--runs R] [--games N] [--only adaptive|named|strategy]
    python -m benchmarks.pace --first-match [--matches M] [--json]

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

--first-match measures how fast the adaptive opponent meets a new player: M first
matches (default 20, each a fresh pace, seeds 1000..) per simulated human of 1, 2.5
and 6 s a card, and the opponent's seconds per card just after the human's 10th
measured card over the human's pace (the mean time it takes to answer a card it
has noticed). Median [range] over the matches, for a steady human (the default
model), for one who now and then misses a card for 20 s (one card in 20), and for
that one against a pace starting from a profile far off (the 0.5 s floor, the
15 s ceiling). With --json the last line holds, per human pace, `human_pace` and
`ratio_at_card_10` (the steady human from the default start) and the other ratios.
The tests tune nothing on these seeds (tests/test_adaptive.py plays seeds 500..).

Fake time, so the machine's load changes only how long the run takes.
"""

from __future__ import annotations

import argparse
import functools
import json
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
from voicespit.simulation.realtime import RealtimeResult, pace_at_card, simulate_realtime

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
    for human_pace in HUMAN_PACES:
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


HUMAN_PACES = (1.0, 2.5, 6.0)
FIRST_MATCH_CASES: dict[str, tuple[float, float | None]] = {
    # name: (lapse rate of the human, the pace's start; None: the default 3 s)
    "ratio_at_card_10": (0.0, None),
    "ratio_at_card_10_with_lapses": (0.05, None),
    "ratio_at_card_10_from_floor": (0.05, 0.5),
    "ratio_at_card_10_from_ceiling": (0.05, 15.0),
}


def first_match_ratios(human_pace: float, lapse_rate: float, start: float | None,
                       matches: int) -> list[float]:
    human = HumanModel(human_pace, lapse_rate=lapse_rate)
    ratios = []
    for number in range(matches):
        pace = AdaptivePace() if start is None else AdaptivePace(initial_seconds=start)
        at_ten = pace_at_card(SPIT, 1000 + number, human, pace)
        if at_ten is None:
            raise SystemExit(f"first match {number} at {human_pace} s ended before card 10")
        ratios.append(at_ten / human_pace)
    return ratios


def first_match(matches: int, as_json: bool) -> None:
    print(f"\nfirst matches against the adaptive opponent: {matches} per cell, opponent "
          "s/card after the human's 10th card over the human's pace, median [range]")
    names = list(FIRST_MATCH_CASES)
    print("| human s/card | steady, default start | with lapses | lapses, from 0.5 s "
          "| lapses, from 15 s |")
    print("|---:|---:|---:|---:|---:|")
    rows: list[dict[str, float]] = []
    for human_pace in HUMAN_PACES:
        row: dict[str, float] = {"human_pace": human_pace}
        cells = []
        for name in names:
            ratios = first_match_ratios(human_pace, *FIRST_MATCH_CASES[name], matches)
            row[name] = round(statistics.median(ratios), 3)
            cells.append(median_range(ratios))
        rows.append(row)
        print(f"| {human_pace:g} | {' | '.join(cells)} |")
    if as_json:
        print(json.dumps({"matches_per_pace": matches, "paces": rows}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--only", choices=("adaptive", "named", "strategy"))
    parser.add_argument("--first-match", action="store_true",
                        help="how fast the adaptive opponent meets a new player")
    parser.add_argument("--matches", type=int, default=20, help="first matches per line")
    parser.add_argument("--json", action="store_true", help="with --first-match")
    args = parser.parse_args()
    if args.first_match:
        first_match(args.matches, args.json)
        return
    if args.only in (None, "adaptive"):
        adaptive(args.runs, args.games)
    if args.only in (None, "named"):
        named(args.runs, max(20, args.games // 4))
    if args.only in (None, "strategy"):
        strategy(args.runs, args.games)


if __name__ == "__main__":
    main()
