"""Fuzzing at scale: complete matches of every game and variant, by random and adversarial players.

    python -m benchmarks.fuzz [--matches N] [--workers W] [--seed S] [--check-every K]
                              [--referee-every R] [--json]
    python -m benchmarks.fuzz --replay CONFIGURATION:MATCH     # one match again, verbose

The matches are shared evenly among all 80 combinations of the variants (Spit:
stockpiles, slap, alternating colours, scoring, turning up and filling by hand;
Speed: side piles, alternating colours, scoring, drawing by hand) and played on
W processes (default: every core). What each match checks is in
`benchmarks/fuzz_match.py`: cards conserved at every action and refusal, refusals
with a reason that change nothing, results the rule book allows. One match in K
also runs the full `voicespit simulate --check` after every action, and one in R
is played through the real referee on a fake clock, with late and illegal intents.

Prints a table per game and, with `--json`, ends with one JSON line: `matches`,
`errors`, `seconds`, and more. Any error names its match for `--replay`.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import multiprocessing
import os
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final

from benchmarks.fuzz_match import (
    MatchTally,
    match_rng,
    play_engine_match,
    play_referee_match,
    player_kinds,
)
from voicespit.engine import Rules

Configuration = tuple[str, tuple[str, ...]]


def configurations() -> list[Configuration]:
    """Every game with every combination of its variants (target scores at their defaults)."""
    spit = itertools.product(("5", "4"), ("true", "false"), ("false", "true"),
                             ("standard", "points"), ("true", "false"), ("true", "false"))
    found: list[Configuration] = [
        ("spit", (f"stockpiles={piles}", f"slap={slap}", f"alternating_colours={colours}",
                  f"scoring={scoring}", f"auto_turn_up={turn}", f"auto_fill={fill}"))
        for piles, slap, colours, scoring, turn, fill in spit]
    speed = itertools.product(("10", "5"), ("false", "true"), ("standard", "points"),
                              ("true", "false"))
    found.extend(
        ("speed", (f"side_pile_size={side}", f"alternating_colours={colours}",
                   f"scoring={scoring}", f"auto_turn_up={draw}"))
        for side, colours, scoring, draw in speed)
    return found


def label(configuration: Configuration) -> str:
    game, variants = configuration
    return f"{game} {Rules.for_game(game, variants).variant_text() or '(standard)'}"


@dataclass(frozen=True)
class Chunk:
    """Matches `first`..`first + count - 1` of one configuration."""

    configuration: int
    first: int
    count: int
    seed: int
    check_every: int
    referee_every: int

    def is_checked(self, number: int) -> bool:
        return self._position(number) % self.check_every == 0

    def is_refereed(self, number: int) -> bool:
        return self._position(number) % self.referee_every == 1

    def _position(self, number: int) -> int:
        # Shifted by the configuration, so that every configuration has its share of
        # the samples (and a run of a few matches each still samples many of them).
        return number + self.configuration


@dataclass
class Tally:
    matches: int = 0
    actions: int = 0
    refusals: int = 0
    rounds: int = 0
    checked: int = 0
    refereed: int = 0
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    """Process time spent playing (summed over workers)."""

    def add(self, other: Tally) -> None:
        for name in ("matches", "actions", "refusals", "rounds", "checked", "refereed",
                     "seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.errors.extend(other.errors)


def play_match(rules: Rules, chunk: Chunk, number: int) -> MatchTally:
    rng = match_rng(chunk.seed, chunk.configuration, number)
    kinds = player_kinds(rng)
    if chunk.is_refereed(number):
        return play_referee_match(rules, rng, kinds)
    return play_engine_match(rules, rng, kinds, full_check=chunk.is_checked(number))


def play_chunk(chunk: Chunk) -> tuple[int, Tally]:
    """Play one chunk of matches (in a worker process); every failure is counted."""
    configuration = CONFIGURATIONS[chunk.configuration]
    rules = rules_of(chunk.configuration)
    tally = Tally()
    started = time.process_time()
    for number in range(chunk.first, chunk.first + chunk.count):
        try:
            played = play_match(rules, chunk, number)
        except Exception as error:  # counting every failure is the point of the run
            tally.errors.append(f"{label(configuration)} match {number}: "
                                f"{type(error).__name__}: {error} "
                                f"({replay_flags(chunk, number)})")
            continue
        tally.matches += 1
        tally.actions += played.actions
        tally.refusals += played.refusals
        tally.rounds += played.rounds
        tally.checked += chunk.is_checked(number)
        tally.refereed += chunk.is_refereed(number)
    tally.seconds = time.process_time() - started
    return chunk.configuration, tally


CONFIGURATIONS: Final = configurations()


@functools.cache
def rules_of(configuration: int) -> Rules:
    """Built once per process: a `Rules` precomputes which card goes on which."""
    return Rules.for_game(*CONFIGURATIONS[configuration])


def chunks(matches: int, seed: int, check_every: int, referee_every: int,
           size: int) -> Iterator[Chunk]:
    """The run cut into chunks, the configurations interleaved so every core has a mix."""
    per_configuration = -(-matches // len(CONFIGURATIONS))
    for first in range(0, per_configuration, size):
        count = min(size, per_configuration - first)
        for index in range(len(CONFIGURATIONS)):
            yield Chunk(index, first, count, seed, check_every, referee_every)


def run(matches: int, workers: int, seed: int, check_every: int, referee_every: int,
        chunk_size: int = 25) -> tuple[dict[str, Tally], float]:
    """Play the run; returns a tally per game and the wall-clock seconds."""
    started = time.perf_counter()
    per_game: dict[str, Tally] = {"spit": Tally(), "speed": Tally()}
    work = list(chunks(matches, seed, check_every, referee_every, chunk_size))
    if workers == 1:
        results: Iterator[tuple[int, Tally]] = map(play_chunk, work)
        for index, tally in results:
            per_game[CONFIGURATIONS[index][0]].add(tally)
    else:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for index, tally in pool.imap_unordered(play_chunk, work):
                per_game[CONFIGURATIONS[index][0]].add(tally)
    return per_game, time.perf_counter() - started


def replay_flags(chunk: Chunk, number: int) -> str:
    """The flags that play this match again as it was played: whether it went through
    the referee or was fully checked depends on the run's own flags, not on the match."""
    return (f"--replay {chunk.configuration}:{number} --seed {chunk.seed} "
            f"--check-every {chunk.check_every} --referee-every {chunk.referee_every}")


def replay(spec: str, seed: int, check_every: int, referee_every: int) -> None:
    """Play one match again in this process, with the full check, and show any failure."""
    index_text, _, number_text = spec.partition(":")
    chunk = Chunk(int(index_text), int(number_text), 1, seed, check_every, referee_every)
    configuration = CONFIGURATIONS[chunk.configuration]
    print(f"{label(configuration)}, match {chunk.first}, "
          f"{'referee' if chunk.is_refereed(chunk.first) else 'engine'}")
    try:
        played = play_match(rules_of(chunk.configuration), chunk, chunk.first)
    except Exception:
        traceback.print_exc()
        raise SystemExit(1) from None
    print(f"ok: {played}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check-every", type=int, default=200,
                        help="run the full --check on one match in this many")
    parser.add_argument("--referee-every", type=int, default=50,
                        help="play one match in this many through the real referee")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--replay", metavar="CONFIGURATION:MATCH")
    args = parser.parse_args()
    if args.replay:
        replay(args.replay, args.seed, args.check_every, args.referee_every)
        return
    load_before = os.getloadavg()[0]
    per_game, seconds = run(args.matches, args.workers, args.seed, args.check_every,
                            args.referee_every)
    load = (round(load_before, 1), round(os.getloadavg()[0], 1))
    total = Tally()
    print(f"{len(CONFIGURATIONS)} configurations, {args.workers} workers, seed {args.seed}")
    print("| game | matches | actions | refusals tried | full --check | via referee "
          "| errors | matches/s per core |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for game, tally in per_game.items():
        total.add(tally)
        rate = tally.matches / tally.seconds if tally.seconds else 0.0
        print(f"| {game} | {tally.matches:,} | {tally.actions:,} | {tally.refusals:,} "
              f"| {tally.checked:,} | {tally.refereed:,} | {len(tally.errors)} | {rate:,.0f} |")
    for error in total.errors[:20]:
        print(f"error: {error}")
    print(f"{total.matches:,} matches in {seconds:.0f} s ({total.seconds:.0f} s of processor "
          f"time), {len(total.errors)} errors; 1-minute load {load[0]} before, {load[1]} after")
    if args.json:
        print(json.dumps({
            "matches": total.matches, "errors": len(total.errors), "seconds": round(seconds, 1),
            "cpu_seconds": round(total.seconds, 1), "load_before_after": load,
            "actions": total.actions, "refusals": total.refusals, "rounds": total.rounds,
            "checked_matches": total.checked, "referee_matches": total.refereed,
            "configurations": len(CONFIGURATIONS), "workers": args.workers,
            "first_errors": total.errors[:5],
        }))


if __name__ == "__main__":
    main()
