"""The referee under load (voicespit/match.py): real threads, a flood of intents, no mercy.

An opponent with no reaction time at all plays on the referee's real clock
thread while another thread posts thousands of random intents as fast as it
can: concrete moves from the whole action universe (mostly illegal), resolvers
that pick a move or raise, and now and then pause, resume, ready or faster.
"""

from __future__ import annotations

import itertools
import random
import threading
import time
from dataclasses import dataclass

from voicespit.clock import RealClock
from voicespit.engine import Rules
from voicespit.engine.actions import Action
from voicespit.engine.invariants import check_cards, every_action
from voicespit.engine.state import IllegalActionError
from voicespit.intents import ActionIntent, Control, ControlIntent, Intent, State
from voicespit.match import Match, MatchSettings
from voicespit.match_events import Stamped
from voicespit.opponent import FixedPace, Opponent

ACTIONS_WANTED = 3000
FLOOD_PER_MATCH = 3000
SETTINGS = MatchSettings(auto_start=True, countdown_from=0, slap_window_seconds=0.02)


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


@dataclass
class Flood:
    match: Match
    rng: random.Random
    failures: list[str]

    def run(self) -> None:
        universe = list(every_action(self.match.snapshot()))
        try:
            for count in range(FLOOD_PER_MATCH):
                self.match.post(random_intent(self.rng, universe))
                if count % 250 == 0:
                    check_cards(self.match.snapshot())
            self.match.post(ControlIntent(0, Control.RESUME))  # never leave it paused
            # Then play on properly: the rules wait for a human who can still play.
            deadline = time.monotonic() + 60
            while not self.match.is_over and time.monotonic() < deadline:
                self.match.post(ActionIntent(0, resolver=first_legal))
                time.sleep(0.001)
        except Exception as error:  # reported by the test's assertion
            self.failures.append(repr(error))


def first_legal(state: State) -> Action:
    legal = state.legal_actions(0)
    if not legal:
        raise IllegalActionError("nothing to do")
    return legal[0]


def flooded_match(rules: Rules, seed: int) -> tuple[Match, list[Stamped]]:
    clock = RealClock(name=f"stress-{seed}")
    match = Match(rules, clock, seed=seed, settings=SETTINGS)
    log: list[Stamped] = []
    match.subscribe(log.append)
    Opponent(match, FixedPace(0.0), random.Random(seed), motor_seconds=0.0)
    flood = Flood(match, random.Random(f"flood:{seed}"), [])
    flooder = threading.Thread(target=flood.run, name="flood")
    match.start()
    flooder.start()
    flooder.join(timeout=60)
    assert not flooder.is_alive(), "posting never blocks"
    match.run_until_over(timeout=60)
    check_cards(match.snapshot())
    match.close()
    clock.close()
    assert flood.failures == [] and match.errors == [] and match.listener_errors == []
    return match, log


def test_a_flood_of_intents_against_an_instant_opponent_never_jams_or_loses_a_card() -> None:
    rules = Rules.for_game("spit")
    applied = published = 0
    for seed in itertools.count():
        match, log = flooded_match(rules, seed)
        assert [s.sequence for s in log] == list(range(1, len(log) + 1)), "in order, none lost"
        assert all(a.time <= b.time for a, b in itertools.pairwise(log))
        applied += match.actions_applied
        published += len(log)
        if applied >= ACTIONS_WANTED:
            break
    assert published > applied >= ACTIONS_WANTED
