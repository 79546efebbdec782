"""The tutorial's opponent: it waits while you have a card to play, and never slaps first.

A new player learning by ear must not lose the card they were just told to
play, so the patient opponent plays only when nothing of the player's fits a
pile, and then a card that gives the player something to play again if it can.
It says "ready" and "spit" like any opponent (the round cannot go on without
it) and leaves the slap to the player: the other pile comes to it anyway. Where
nobody slaps (`slap = false`) and the choice is its own, it takes the smaller pile.
"""

from __future__ import annotations

import random

from voicespit.engine import actions as act
from voicespit.engine.actions import Action
from voicespit.engine.spit import SpitState
from voicespit.engine.state import Phase
from voicespit.match.intents import ActionIntent, State
from voicespit.match.referee import Match
from voicespit.opponent.reacting import ReactingPlayer

PLAYER = 0
SEAT = 1
PATIENT_SECONDS = 2.0
"""Time from a chance to the opponent's card: long enough to hear what happened."""
STALEMATE_SECONDS = 0.3


def player_plays(view: State, player: int = PLAYER) -> list[Action]:
    """The cards `player` could put on a pile now (plays only: no turn-ups, no moves)."""
    if view.phase is not Phase.PLAY:
        return []
    return [action for action in view.legal_actions(player)
            if isinstance(action, act.Play | act.PlayCard)]


def kind_choice(view: State, player: int, legal: list[Action],
                rng: random.Random) -> Action | None:
    """A play after which the other player can play again, if there is one."""
    if not legal:
        return None
    plays = [action for action in legal if isinstance(action, act.Play)]
    if view.phase is not Phase.PLAY or not plays or not isinstance(view, SpitState):
        return legal[0]

    def helps(action: Action) -> bool:
        after = view.clone()
        after.apply(player, action)
        return bool(player_plays(after, 1 - player))

    helpful = [action for action in plays if helps(action)]
    return rng.choice(helpful or plays)


class PatientOpponent(ReactingPlayer):
    def __init__(self, match: Match, rng: random.Random,
                 seconds_per_card: float = PATIENT_SECONDS) -> None:
        super().__init__(match, SEAT, kind_choice, rng)
        self.seconds_per_card = seconds_per_card

    def reaction_delay(self, phase: Phase) -> float:
        # Ready for the spit at once: the player is the one learning to say it.
        return self.seconds_per_card if phase is Phase.PLAY else STALEMATE_SECONDS

    def decide(self, view: State) -> ActionIntent | None:
        if view.phase is Phase.ROUND_OVER and not view.rules.slap:
            return self._choice(view)
        if view.phase is Phase.ROUND_OVER or player_plays(view):
            return None  # the player's turn to learn; it waits for the next change
        return super().decide(view)

    def _choice(self, view: State) -> ActionIntent | None:
        """Its own choice of a pile (the smaller), or None when the choice is the player's."""
        if not view.legal_actions(SEAT):
            return None
        sizes = [len(pile) for pile in view.piles]
        return ActionIntent(SEAT, act.CHOICES[0 if sizes[0] <= sizes[1] else 1])
