"""The referee under load: real threads, an instant opponent and a flood of intents.

    python -m benchmarks.stress [--actions N] [--flood N]

An opponent with no reaction time at all plays on the referee's real clock
thread while another thread posts random intents as fast as it can: concrete
moves from the whole action universe (mostly illegal), resolvers that pick a
move or raise, and now and then pause, resume, ready or faster. After the
flood that thread plays on properly (the rules wait for a human who can still
play) until the match ends. Matches follow one another until N actions were
applied. Any deadlock, exception, lost or reordered event or lost card fails.
`tests/test_match_stress.py` runs a smaller dose of the same.
"""

from __future__ import annotations

import argparse
import itertools
import random
import threading
import time
from dataclasses import dataclass, field

from voicespit.clock import RealClock
from voicespit.engine import Rules
from voicespit.engine.actions import Action
from voicespit.engine.invariants import check_cards, every_action
from voicespit.engine.state import IllegalActionError
from voicespit.match.events import Stamped
from voicespit.match.intents import ActionIntent, Control, ControlIntent, Intent, State
from voicespit.match.referee import Match, MatchSettings
from voicespit.opponent import FixedPace, Opponent

SETTINGS = MatchSettings(auto_start=True, countdown_from=0, slap_window_seconds=0.02)
WAIT_SECONDS = 60.0


def random_intent(rng: random.Random, universe: list[Action]) -> Intent:
    roll = rng.random()
    if roll < 0.01:
        return ControlIntent(0, rng.choice(list(Control)[:-1]))  # anything but quit
    if roll < 0.2:
        give_up = rng.random() < 0.3

        def resolver(state: State) -> Action:
            legal = state.legal_actions(0)
            if give_up or not legal:
                raise IllegalActionError("nothing heard that fits")
            return legal[0]
        return ActionIntent(0, resolver=resolver)
    return ActionIntent(0, rng.choice(universe))


def first_legal(state: State) -> Action:
    legal = state.legal_actions(0)
    if not legal:
        raise IllegalActionError("nothing to do")
    return legal[0]


@dataclass
class Flood:
    """The human seat's thread: `size` random intents, then proper play to the end."""

    match: Match
    rng: random.Random
    size: int
    posted: int = 0
    failures: list[str] = field(default_factory=list)

    def run(self) -> None:
        universe = list(every_action(self.match.snapshot()))
        try:
            for count in range(self.size):
                self.match.post(random_intent(self.rng, universe))
                self.posted += 1
                if count % 250 == 0:
                    check_cards(self.match.snapshot())
            self.match.post(ControlIntent(0, Control.RESUME))  # never leave it paused
            deadline = time.monotonic() + WAIT_SECONDS
            while not self.match.is_over and time.monotonic() < deadline:
                self.match.post(ActionIntent(0, resolver=first_legal))
                self.posted += 1
                time.sleep(0.001)
        except Exception as error:  # reported by `flooded_match`
            self.failures.append(repr(error))


@dataclass
class FloodedMatch:
    match: Match
    log: list[Stamped]
    posted: int


def flooded_match(rules: Rules, seed: int, flood_size: int) -> FloodedMatch:
    """One match under a flood; raises AssertionError on any broken promise."""
    clock = RealClock(name=f"stress-{seed}")
    match = Match(rules, clock, seed=seed, settings=SETTINGS)
    log: list[Stamped] = []
    match.subscribe(log.append)
    Opponent(match, FixedPace(0.0), random.Random(seed), motor_seconds=0.0)
    flood = Flood(match, random.Random(f"flood:{seed}"), flood_size)
    flooder = threading.Thread(target=flood.run, name="flood")
    match.start()
    flooder.start()
    flooder.join(timeout=2 * WAIT_SECONDS)
    assert not flooder.is_alive(), "posting never blocks"
    match.run_until_over(timeout=WAIT_SECONDS)
    check_cards(match.snapshot())
    match.close()
    clock.close()
    assert flood.failures == [], flood.failures
    assert match.errors == [] and match.listener_errors == []
    assert [s.sequence for s in log] == list(range(1, len(log) + 1)), "in order, none lost"
    assert all(a.time <= b.time for a, b in itertools.pairwise(log))
    return FloodedMatch(match, log, flood.posted)


def run(actions_wanted: int, flood_size: int) -> dict[str, float]:
    rules = Rules.for_game("spit")
    applied = published = posted = matches = 0
    started = time.perf_counter()
    for seed in itertools.count():
        result = flooded_match(rules, seed, flood_size)
        applied += result.match.actions_applied
        published += len(result.log)
        posted += result.posted
        matches += 1
        if applied >= actions_wanted:
            break
    seconds = time.perf_counter() - started
    return {"matches": matches, "intents_posted": posted, "actions_applied": applied,
            "events_published": published, "seconds": round(seconds, 2),
            "intents_per_second": round(posted / seconds)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--flood", type=int, default=5_000)
    args = parser.parse_args()
    print(run(args.actions, args.flood))


if __name__ == "__main__":
    main()
