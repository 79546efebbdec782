"""Checks that must hold after every action, used by `voicespit simulate --check` and tests.

They are the engine's contract stated as code: all 52 cards exist exactly once;
every listed action is accepted; actions that are not listed are refused with a
reason, and a refusal changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from voicespit.engine import actions as act
from voicespit.engine.actions import Action
from voicespit.engine.cards import DECK
from voicespit.engine.speed import SpeedState
from voicespit.engine.spit import SpitState
from voicespit.engine.state import IllegalActionError

State = SpitState | SpeedState


_DECK = frozenset(DECK)


class InvariantError(AssertionError):
    """The engine broke its own contract (a bug, never a player's mistake)."""


def check_cards(state: State) -> None:
    """All 52 cards are somewhere, each exactly once."""
    cards = state.all_cards()
    # The fast path, run after every action of a fuzzing run: cards are the 52
    # singletons of DECK, so 52 distinct ones, all from DECK, are the deck once each.
    distinct = set(cards)
    if len(cards) == 52 and len(distinct) == 52 and distinct <= _DECK:
        return
    indices = sorted(card.index for card in cards)
    if indices != list(range(52)):
        seen = set(indices)
        missing = [i for i in range(52) if i not in seen]
        doubled = sorted({i for i in indices if indices.count(i) > 1})
        raise InvariantError(f"cards missing {missing}, doubled {doubled}")


def same_state(state: State, other: State, generator: bool = True) -> bool:
    """Whether two states are equal in everything the game is made of, the shuffle
    generator's state included (unless `generator` is False: comparing it is slow)."""
    mine, theirs = vars(state), vars(other)
    if mine.keys() != theirs.keys():
        return False
    for name, value in mine.items():
        if name == "rng":
            if generator and state.rng.getstate() != other.rng.getstate():
                return False
        elif name != "deal_events" and value != theirs[name]:
            return False
    return True


def every_action(state: State) -> Iterator[Action]:
    """The whole action universe of the game, legal or not, plus a few malformed ones."""
    if isinstance(state, SpeedState):
        for by_pile in act.PLAY_CARDS:
            yield from by_pile
        yield act.DRAW
    else:
        for plays in act.PLAYS:
            yield from plays
        yield from act.TURN_UPS
        for fills in act.FILLS:
            yield from fills
        yield from act.SLAPS
        yield from act.CHOICES
        yield act.Play(7, 0)
        yield act.Fill(0, 9)
    yield act.SPIT
    yield act.Play(0, 5) if isinstance(state, SpitState) else act.Slap(0)


_SCRATCH = random.Random(0)
"""The generator of trial copies: what a trial shuffles is thrown away with it."""


def check_actions(state: State, rng: random.Random, refused_sample: int = 6) -> None:
    """Each listed action applies cleanly; a sample of unlisted ones is refused unchanged.

    The unlisted ones are tried on `state` itself (a refusal must leave it exactly as
    it was, which is what is checked), so only the listed ones need copies. The
    shuffle generator is compared once, at the end.
    """
    before = state.clone()
    for player in (0, 1):
        legal = state.legal_actions(player)
        for action in legal:
            try:
                state.clone(_SCRATCH).apply(player, action)
            except IllegalActionError as error:
                raise InvariantError(
                    f"P{player}: listed action {action} refused: {error.reason}") from error
        listed = set(legal)
        unlisted = [action for action in every_action(state) if action not in listed]
        for action in rng.sample(unlisted, min(refused_sample, len(unlisted))):
            try:
                state.apply(player, action)
            except IllegalActionError as error:
                if not error.reason:
                    raise InvariantError(f"P{player}: {action} refused without a reason") from error
                if not same_state(state, before, generator=False):
                    raise InvariantError(
                        f"P{player}: refusing {action} changed the state") from error
                continue
            raise InvariantError(f"P{player}: unlisted action {action} was accepted")
    if not same_state(state, before):
        raise InvariantError("checking the actions changed the state (or its generator)")
