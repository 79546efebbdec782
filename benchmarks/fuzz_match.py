"""One fuzzed match: random and adversarial players against the engine or the referee.

Used by `benchmarks.fuzz`. Each function plays one complete match from a seed and
raises `InvariantError` (or whatever broke) at the first contract the game breaks:

- the engine: after every action all 52 cards are there once; a refused action
  has a reason and leaves every card, flag and count as it was (with the full
  check, the shuffle generator too); a listed action is never refused; the match ends;
  at its end the result follows the rule book (a standard Spit game is won by a
  player with no cards left, a points match ends only at the target score, unless
  the loop guard stopped it). With `full_check` every step also runs the whole
  `voicespit simulate --check` (`check_actions`).
- the referee (`Match` on a fake clock): intents decided on an old table (late)
  or never legal, posted in bursts; all 52 cards after every published batch; a
  move never legal on the table it was decided on is never called "too late",
  and every "too late" says so; the referee never fails; the match ends.

Players: "random" picks uniformly among its legal actions; "adversarial" also,
one step in four, tries an action from the whole action universe (mostly
illegal: wrong phase, empty or face-down stockpiles, cards not held, the other
player's choice) or a *late* action, one that was legal for it a few steps ago.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from voicespit.clock import FakeClock
from voicespit.engine import Rules, new_game
from voicespit.engine.actions import Action, Slap
from voicespit.engine.invariants import (
    InvariantError,
    check_actions,
    check_cards,
    every_action,
    same_state,
)
from voicespit.engine.speed import SpeedState
from voicespit.engine.spit import SpitState
from voicespit.engine.state import IllegalActionError, Phase
from voicespit.match.events import IntentRefused, Stamped
from voicespit.match.intents import ActionIntent
from voicespit.match.referee import Match, MatchSettings
from voicespit.match.refusals import TOO_LATE

State = SpitState | SpeedState
PLAYER_KINDS = ("random", "adversarial")
MAX_ACTIONS = 200_000
"""Far above any real match (a few thousand actions at most): reaching it means a loop."""
ATTEMPT_RATE = 0.25
"""How often an adversarial player tries something other than a listed action."""
LATE_MEMORY = 8
"""A late action is one of the player's last this many listed actions."""


@dataclass
class MatchTally:
    actions: int = 0
    refusals: int = 0
    rounds: int = 0
    winner: int | None = None


def match_rng(seed: int, configuration: int, number: int) -> random.Random:
    return random.Random(f"fuzz:{seed}:{configuration}:{number}")


def player_kinds(rng: random.Random) -> tuple[str, str]:
    return (rng.choice(PLAYER_KINDS), rng.choice(PLAYER_KINDS))


def fingerprint(state: State) -> tuple[object, ...]:
    """Everything the game is made of but the shuffle generator, as one comparable value.

    A tenth of the cost of `clone` plus `same_state` (copying a generator's state is
    most of that). A refusal that touched the generator would have to have shuffled,
    which changes the cards too; the full check compares the generator as well.
    """
    return tuple(_frozen(value) for name, value in vars(state).items()
                 if name != "rng" and name != "deal_events")


def _frozen(value: object) -> object:
    if type(value) is not list:
        return value
    if value and type(value[0]) is list:
        return tuple(map(_frozen, value))
    return tuple(value)  # cards and flags: immutable already


def _refusal_changes_nothing(state: State, player: int, action: object,
                             exactly: bool) -> bool:
    """Apply an action expected to be refused; check the refusal. False: it was accepted.

    `exactly`: compare the whole state, generator included, rather than `fingerprint`.
    """
    before: object = state.clone() if exactly else fingerprint(state)
    try:
        state.apply(player, action)  # type: ignore[arg-type]
    except IllegalActionError as error:
        if not error.reason:
            raise InvariantError(f"P{player}: {action} refused without a reason") from error
        unchanged = same_state(state, before) if isinstance(before, SpitState | SpeedState) \
            else fingerprint(state) == before
        if not unchanged:
            raise InvariantError(f"P{player}: refusing {action} changed the state") from error
        return True
    return False


def play_engine_match(rules: Rules, rng: random.Random, kinds: Sequence[str],
                      full_check: bool = False) -> MatchTally:
    """A whole match on the engine; see the module doc for what is checked."""
    state = new_game(rules, random.Random(rng.getrandbits(64)))
    universe = list(every_action(state))
    late: tuple[list[Action], list[Action]] = ([], [])
    tally = MatchTally()
    check_cards(state)
    while not state.is_over:
        player = rng.randrange(2)
        legal = state.legal_actions(player)
        if not legal:
            player = 1 - player
            legal = state.legal_actions(player)
            if not legal:
                raise InvariantError(f"nobody can act in phase {state.phase.value}")
        if kinds[player] == "adversarial" and rng.random() < ATTEMPT_RATE:
            pool = late[player] if late[player] and rng.random() < 0.5 else universe
            attempt = rng.choice(pool)
            if attempt not in legal:
                # Unchanged means every card is where it was: conserved.
                if not _refusal_changes_nothing(state, player, attempt, full_check):
                    raise InvariantError(f"P{player}: unlisted {attempt} was accepted")
                tally.refusals += 1
                continue
        action = rng.choice(legal)
        memory = late[player]
        memory.append(action)
        if len(memory) > LATE_MEMORY:
            del memory[0]
        try:
            state.apply(player, action)
        except IllegalActionError as error:
            raise InvariantError(f"P{player}: listed {action} refused: {error.reason}") from error
        tally.actions += 1
        check_cards(state)
        if full_check:
            check_actions(state, rng)
        if tally.actions > MAX_ACTIONS:
            raise InvariantError(f"no end after {MAX_ACTIONS} actions")
    check_result(state)
    tally.rounds, tally.winner = state.round, state.winner
    return tally


def check_result(state: State) -> None:
    """The match ended the way the rule book says it can."""
    rules = state.rules
    if state.phase is not Phase.GAME_OVER or state.winner not in (0, 1, None):
        raise InvariantError(f"ended in phase {state.phase.value}, winner {state.winner}")
    at_limit = state.round >= rules.max_rounds
    if rules.scoring == "points":
        if max(state.scores) < rules.target_score and not at_limit:
            raise InvariantError(f"points match ended at {state.scores} below "
                                 f"{rules.target_score}: {state.game_over_reason}")
        low = min(state.scores)
        lowest = [p for p in (0, 1) if state.scores[p] == low]
        best = lowest if rules.game == "spit" else \
            [p for p in (0, 1) if state.scores[p] == max(state.scores)]
        expected = best[0] if len(best) == 1 else None
        if state.winner != expected:
            raise InvariantError(f"winner {state.winner} with scores {state.scores}")
    elif isinstance(state, SpitState) and not at_limit and (
            state.winner is None or state.cards_held(state.winner) != 0):
        raise InvariantError(f"standard Spit won by P{state.winner} holding cards: "
                                 f"{state.game_over_reason}")


def play_referee_match(rules: Rules, rng: random.Random, kinds: Sequence[str]) -> MatchTally:
    """A whole match through the real referee on a fake clock (see the module doc)."""
    clock = FakeClock()
    settings = MatchSettings(auto_start=True, countdown_from=rng.choice((0, 1)),
                             slap_window_seconds=rng.choice((0.5, 5.0)))
    match = Match(rules, clock, seed=rng.getrandbits(64), settings=settings)
    refusals: list[IntentRefused] = []

    def on_event(stamped: Stamped) -> None:
        if isinstance(stamped.event, IntentRefused):
            refusals.append(stamped.event)
        check_cards(match.state)
    match.subscribe(on_event, inline=True)
    match.start()
    clock.advance(0.0)
    tables: list[tuple[int, State]] = [(match.heard_through, match.snapshot())]
    universe = list(every_action(match.state))
    tally = MatchTally()
    steps = 0
    while not match.is_over:
        steps += 1
        if steps > MAX_ACTIONS:
            raise InvariantError(f"no end after {MAX_ACTIONS} steps")
        phase = match.state.phase
        # Nothing but the players moves play on; the round's end also has the bell.
        if phase is Phase.PLAY or (phase is Phase.ROUND_OVER and rng.random() < 0.9):
            for _ in range(rng.randint(1, 3)):
                seat = rng.randrange(2)
                sequence, table = tables[-1] if rng.random() < 0.6 else rng.choice(tables)
                legal = table.legal_actions(seat)
                odd = kinds[seat] == "adversarial" and rng.random() < ATTEMPT_RATE
                action = rng.choice(universe if odd or not legal else legal)
                refused_before = len(refusals)
                match.post(ActionIntent(seat, action, based_on=sequence))
                clock.advance(0.0)
                for refusal in refusals[refused_before:]:
                    check_refusal(refusal, action in legal)
                tally.refusals += len(refusals) - refused_before
            tables.append((match.heard_through, match.snapshot()))
            del tables[:-LATE_MEMORY]
        elif not clock.run_next():
            raise InvariantError(f"the referee is stuck in phase {phase.value}")
    failures = match.errors + match.listener_errors
    if failures:
        raise InvariantError(f"referee failures: {failures[:3]}")
    match.close()
    check_result(match.state)
    tally.actions, tally.rounds, tally.winner = (match.actions_applied, match.state.round,
                                                 match.state.winner)
    return tally


def check_refusal(refusal: IntentRefused, was_legal: bool) -> None:
    if not refusal.reason:
        raise InvariantError(f"{refusal.action} refused without a reason")
    if refusal.too_late and not refusal.reason.startswith(TOO_LATE):
        raise InvariantError(f"too late without saying so: {refusal.reason!r}")
    # A slap is exempt: the engine's own slap race says who was first to any late slap.
    if refusal.too_late and not was_legal and not isinstance(refusal.action, Slap):
        raise InvariantError(f"{refusal.action}, never legal, was called too late: "
                             f"{refusal.reason!r}")
