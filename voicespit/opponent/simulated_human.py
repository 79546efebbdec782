"""A simulated human for tests and benchmarks: a voice player with a pace and flaws.

It plays seat 0 through the same intent queue as a real player and hears the
table the same way. Its model:

- `seconds_per_card`: the mean time from a card becoming playable to the play
  landing, all included. Each reaction is log-normal around that mean
  (`spread` as for the opponent's pace);
- `miss_rate`: the chance a chance goes unnoticed for one more reaction time
  (the base reaction is shortened so the mean stays `seconds_per_card`);
- `lapse_rate`: the chance a card goes unnoticed for much longer, about
  `lapse_seconds` more (a card nobody named, the doorbell). Lapses come on top
  of `seconds_per_card`, which stays the pace of the cards the player notices:
  what a player means by "I answer in about a second and a half";
- `wrong_rate`: the chance a command is wrong (a card named onto a pile it
  does not fit, or the wrong pile slapped): refused, then tried again;
- `command_seconds`: how long saying and recognizing a command takes (at most
  60% of the reaction): the decision is made that long before the command
  lands, so a quick opponent can beat it to the pile.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from voicespit.engine import actions as act
from voicespit.engine.actions import Action
from voicespit.engine.spit import SpitState
from voicespit.engine.state import Phase
from voicespit.match.intents import ActionIntent, State
from voicespit.match.referee import Match
from voicespit.opponent.pace import DEFAULT_SPREAD, reaction_delay
from voicespit.opponent.reacting import ReactingPlayer
from voicespit.opponent.strategy import Strategy, sensible_choice


@dataclass(frozen=True)
class HumanModel:
    seconds_per_card: float
    spread: float = DEFAULT_SPREAD
    miss_rate: float = 0.1
    wrong_rate: float = 0.05
    command_seconds: float = 0.8
    lapse_rate: float = 0.0
    lapse_seconds: float = 20.0

    def __post_init__(self) -> None:
        if self.seconds_per_card <= 0:
            raise ValueError("a simulated human needs a pace above 0 s per card")
        if not all(0 <= rate < 1 for rate in (self.miss_rate, self.wrong_rate, self.lapse_rate)):
            raise ValueError("miss, wrong and lapse rates are chances from 0 to below 1")


class SimulatedHuman(ReactingPlayer):
    def __init__(self, match: Match, model: HumanModel, rng: random.Random, *, seat: int = 0,
                 strategy: Strategy = sensible_choice) -> None:
        super().__init__(match, seat, strategy, rng)
        self.model = model
        self.wrong_commands = 0

    def reaction_delay(self, phase: Phase) -> float:
        model = self.model
        # With misses, a reaction takes 1 + miss_rate draws on average; keep the mean.
        mean = model.seconds_per_card / (1 + model.miss_rate)
        delay = reaction_delay(mean, model.spread, self.rng)
        if self.rng.random() < model.miss_rate:
            delay += reaction_delay(mean, model.spread, self.rng)
        if model.lapse_rate and self.rng.random() < model.lapse_rate:
            delay += reaction_delay(model.lapse_seconds, model.spread, self.rng)
        return delay

    def execution_seconds(self, delay: float) -> float:
        return min(self.model.command_seconds, 0.6 * delay)

    def ready_delay(self) -> float:
        return reaction_delay(self.model.seconds_per_card, self.model.spread, self.rng)

    def decide(self, view: State) -> ActionIntent | None:
        if view.phase in (Phase.PLAY, Phase.ROUND_OVER) \
                and self.rng.random() < self.model.wrong_rate:
            wrong = self._wrong_action(view)
            if wrong is not None:
                self.wrong_commands += 1
                return ActionIntent(self.seat, wrong, said="a wrong command")
        return super().decide(view)

    def _wrong_action(self, view: State) -> Action | None:
        """A command a flustered player might give: a real card onto a pile it does not fit."""
        legal = set(view.legal_actions(self.seat))
        if view.phase is Phase.ROUND_OVER:
            if not view.rules.slap:
                return None
            sizes = [len(pile) for pile in view.piles]
            return act.SLAPS[0 if sizes[0] > sizes[1] else 1]
        candidates: list[Action] = []
        if isinstance(view, SpitState):
            for slot in range(len(view.stocks[self.seat])):
                for pile in view.piles_in_use:
                    if view.stock_top(self.seat, slot) is not None:
                        candidates.append(act.PLAYS[slot][pile])
        else:
            for card in view.hands[self.seat]:
                candidates.extend(act.PLAY_CARDS[card.index])
        candidates = [action for action in candidates if action not in legal]
        return self.rng.choice(candidates) if candidates else None
