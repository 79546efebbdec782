"""A player who reacts to what they hear, after a delay, with one hand.

The computer opponent and the simulated human share this loop; they differ in
how long they take and how they choose. The loop, on the match's thread:

1. When the player hears a change and has nothing under way, and the table as
   heard offers them a move, a reaction starts *now* (so the clock of a
   reaction starts when the announcement of the change has finished).
2. After `delay - execution` seconds they decide, looking at the table as heard
   then; after `execution` more (the hand moving, or the command being spoken
   and recognized) the intent lands in the match's queue. A move decided on an
   old picture of the table can lose the race: the match refuses it as too late.
3. One hand: nothing new starts until the match's answer to the last intent is
   heard (its events or a refusal), or until a phase change makes it moot.

Every timer is set on `match.clock`, so a pause freezes the player and the end
of the match cancels it: the player never acts while paused or after the end.
"""

from __future__ import annotations

import random

from voicespit.clock import Timer
from voicespit.engine.actions import Action
from voicespit.engine.events import (
    CardDrawn,
    CardMoved,
    CardPlayed,
    CardSpat,
    CardTurnedUp,
    GameOver,
    LayoutDealt,
    PileSlapped,
    RoundOver,
    RoundStarted,
    Stalemate,
)
from voicespit.engine.state import Phase
from voicespit.match.events import IntentRefused, MatchQuit, PlayerReady, SlapWindowOpened
from voicespit.match.hearing import Perception
from voicespit.match.intents import ActionIntent, Control, ControlIntent, State
from voicespit.match.reaction_meter import playable_cards, played_card
from voicespit.match.referee import Match
from voicespit.opponent.strategy import Strategy

_OWN_RESULTS = (CardPlayed, CardTurnedUp, CardMoved, CardDrawn, PileSlapped, PlayerReady,
                IntentRefused)
_MOOT_AFTER = (RoundOver, RoundStarted, LayoutDealt, GameOver, MatchQuit)


class ReactingPlayer:
    """The reaction loop; subclasses give `reaction_delay`, `execution_seconds`, `decide`."""

    answer_timeout = 15.0
    """Give up waiting for the answer to an intent after this long (match seconds) with
    nothing left unheard: an answer may be waiting behind the news still being said."""

    def __init__(self, match: Match, seat: int, strategy: Strategy, rng: random.Random) -> None:
        self.match = match
        self.seat = seat
        self.strategy = strategy
        self.rng = rng
        self.intents_posted = 0
        self._plan: Timer | None = None
        self._awaiting: Timer | None = None
        self._ready_round = 0
        self._reaching_for: set[int] = set()
        """The cards playable when the current reaction started: the ones it is about."""
        self._slap_closes_at: float | None = None
        self._said_spit = False
        """Said "spit" at this stalemate already: the match refuses a second one ("you are
        ready"), so saying it again would only repeat the refusal while the other waits."""
        match.observe(self._on_perception)

    # ----------------------------------------------------- for subclasses

    def reaction_delay(self, phase: Phase) -> float:
        """Seconds from noticing a chance to the intent landing."""
        raise NotImplementedError

    def execution_seconds(self, delay: float) -> float:
        """The part of `delay` after the decision (the hand or the voice on its way)."""
        return 0.0

    def decide(self, view: State) -> ActionIntent | None:
        """The intent to post, looking at the table as heard (None: nothing now)."""
        legal = self.legal_now(view)
        action = self.strategy(view, self.seat, legal, self.rng)
        return None if action is None else ActionIntent(self.seat, action)

    def legal_now(self, view: State) -> list[Action]:
        """The moves this reaction may make: none with a card it was not reacting to."""
        legal = view.legal_actions(self.seat)
        if not self._reaching_for:
            return legal
        return [action for action in legal
                if (card := played_card(view, self.seat, action)) is None
                or card in self._reaching_for]

    def ready_delay(self) -> float:
        """Seconds before saying "ready" for a new round."""
        return 0.0

    # -------------------------------------------------------------- loop

    def _on_perception(self, perception: Perception) -> None:
        for stamped in perception.events:
            event = stamped.event
            if isinstance(event, RoundOver):
                # A new slap race: the last round's bell says nothing about this one's.
                self._slap_closes_at = None
            elif isinstance(event, SlapWindowOpened):
                self._slap_closes_at = event.closes_at
            if isinstance(event, PlayerReady) and event.player == self.seat:
                self._said_spit = True
            elif isinstance(event, Stalemate | LayoutDealt | CardSpat):
                self._said_spit = False
            if self._awaiting is not None and (
                    isinstance(event, _MOOT_AFTER)
                    or (isinstance(event, _OWN_RESULTS) and event.player == self.seat)):
                self._answered()
        self._consider()

    def _answered(self) -> None:
        if self._awaiting is not None:
            self._awaiting.cancel()
            self._awaiting = None

    def _consider(self) -> None:
        """Start a reaction if the hand is free and the table as heard offers a move."""
        if self._plan is not None or self._awaiting is not None or self.match.is_over:
            return
        view = self.match.heard_state()
        phase = view.phase
        if phase is Phase.READY:
            if not self.match.settings.auto_start and self._ready_round != view.round:
                self._ready_round = view.round
                self._plan = self.match.clock.call_later(self.ready_delay(), self._say_ready)
            return
        if phase is Phase.STALEMATE and (self.match.settings.auto_spit or self._said_spit):
            return  # the match counts down and spits by itself, or waits for the other
        if phase is Phase.GAME_OVER or not view.legal_actions(self.seat):
            return
        delay = self.reaction_delay(phase)
        if phase is Phase.ROUND_OVER and self._slap_closes_at is not None:
            # Land before the bell: a hand that arrives later is the bell's anyway.
            delay = max(0.0, min(delay, self._slap_closes_at - self.match.clock.now() - 0.01))
        execution = min(self.execution_seconds(delay), delay)
        self._reaching_for = playable_cards(view, self.seat)
        self._plan = self.match.clock.call_later(
            delay - execution, lambda: self._decide(phase, execution))

    def _decide(self, phase: Phase, execution: float) -> None:
        self._plan = None
        view = self.match.heard_state()
        if view.phase is not phase or not self._still_there(view):
            # The table changed under the reaching hand: react afresh to what is there now.
            self._consider()
            return
        intent = self.decide(view)
        if intent is None:
            return
        based_on = self.match.heard_through
        intent = ActionIntent(intent.player, intent.action, intent.resolver, based_on, intent.said)
        self._plan = self.match.clock.call_later(execution, lambda: self._post(intent))

    def _still_there(self, view: State) -> bool:
        """Whether a card the reaction was about is still playable (or it was not about cards).

        A card that turned playable after the reaction began gets a reaction of
        its own; taking it now would make this player quicker than its pace.
        """
        if not self._reaching_for:
            return True
        return bool(self._reaching_for & playable_cards(view, self.seat))

    def _post(self, intent: ActionIntent | ControlIntent) -> None:
        self._plan = None
        self._awaiting = self.match.clock.call_later(self.answer_timeout, self._gave_up)
        self.intents_posted += 1
        self.match.post(intent)

    def _say_ready(self) -> None:
        self._post(ControlIntent(self.seat, Control.READY))

    def _gave_up(self) -> None:
        if not self.match.all_heard:
            # Acting now would be acting on a table known to be out of date. The wait
            # is bounded: the match hears everything after its announcement timeout.
            self._awaiting = self.match.clock.call_later(self.answer_timeout, self._gave_up)
            return
        self._awaiting = None
        self._consider()
