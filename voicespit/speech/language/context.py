"""What can matter now: the commands worth listening for in one game state.

Narrowing the recognizer's vocabulary to the state raises accuracy (fewer words
to confuse), but it must never remove what a player may sensibly say: a rank is
kept while it lies face up in front of the player even when it cannot be played,
so "seven on left" on a six-less table is heard and refused with a reason rather
than forced onto another rank. Information and control commands are always kept.
"""

from __future__ import annotations

import dataclasses

from voicespit.engine.cards import RANK_COUNT
from voicespit.engine.speed import SpeedState
from voicespit.engine.spit import SpitState
from voicespit.engine.state import Phase
from voicespit.speech.language.commands import GrammarContext, Group, Verb

ALWAYS = frozenset(verb for verb in Verb if verb.group in (Group.INFO, Group.CONTROL))


def context_for(state: SpitState | SpeedState, player: int) -> GrammarContext:
    """The commands that can matter to `player` in `state` (pure; reads only)."""
    verbs = set(ALWAYS)
    ranks: set[int] = set()
    stocks: set[int] = set()
    targets: set[int] = set()
    phase = state.phase
    if phase is Phase.READY:
        verbs |= {Verb.SPIT, Verb.READY}
    elif phase is Phase.STALEMATE:
        verbs |= {Verb.SPIT, Verb.READY}
        if isinstance(state, SpeedState):
            verbs.add(Verb.FLIP)
    elif phase is Phase.ROUND_OVER:
        verbs.add(Verb.SLAP)
    if isinstance(state, SpitState) and phase in (Phase.PLAY, Phase.STALEMATE):
        for slot, cards in enumerate(state.stocks[player]):
            top = state.stock_top(player, slot)
            if top is not None:
                ranks.add(top.rank)
                if len(cards) > 1:
                    stocks.add(slot)
            elif cards:
                stocks.add(slot)
                verbs.add(Verb.FLIP)
            else:
                targets.add(slot)
        if stocks and targets:
            verbs.add(Verb.MOVE)
    if isinstance(state, SpeedState) and phase in (Phase.PLAY, Phase.STALEMATE):
        ranks = {card.rank for card in state.hands[player]}
        if state.draw_piles[player]:
            verbs.add(Verb.DRAW)
    if ranks:
        # Kept at a stalemate too: a player who has not noticed hears why not.
        verbs.add(Verb.PLAY)
    return GrammarContext(frozenset(verbs), frozenset(ranks), frozenset(state.piles_in_use),
                          frozenset(stocks), frozenset(targets))


def prior_for(state: SpitState | SpeedState, player: int) -> GrammarContext:
    """What the recognizer favours in `state`: what can matter now (`context_for`), with
    every rank whenever a card can be played at all.

    The table says whether a card can be played, never which one was said. A prior for
    the ranks in front of the player broke near ties between ranks towards a card they
    hold, and so turned a rank they did not hold into one they did: on the tuning voices
    "play nine on left" into "play eight on left", a card nobody said, played if it fits
    (`benchmarks.prior`, round 29). Shared by every rank, the prior still favours a spit
    at a stalemate, a slap at a round's end and a stockpile that can be turned over.
    """
    return with_every_rank(context_for(state, player))


def with_every_rank(context: GrammarContext) -> GrammarContext:
    """`context` with every rank in it when a play can matter at all."""
    if Verb.PLAY not in context.verbs:
        return context
    return dataclasses.replace(context, ranks=frozenset(range(RANK_COUNT)))
