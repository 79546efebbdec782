"""How fast each player plays: seconds from a card becoming playable to its play landing.

This one measure serves the adaptive opponent (it follows the human's pace) and
the simulation's report (both players' seconds per card), so the two are
always compared like for like. For a play it is the time from the later of
- the moment that card became playable *as heard* (its stockpile top or hand
  card first fitting a pile in use, as the player learned of it), and
- the player's previous play landing (one hand: nobody plays two cards at once),
to the moment the play was applied. Speech, recognition and the reaction
itself are all inside it. A card played before it was heard to be playable (a
lucky guess) gives no sample.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from voicespit.engine import actions as act
from voicespit.engine.actions import Action
from voicespit.engine.events import CardPlayed
from voicespit.engine.spit import SpitState
from voicespit.match.hearing import Perception
from voicespit.match.intents import State
from voicespit.match.referee import Match

SampleListener = Callable[[int, float], None]
"""Called with (player, seconds) for each new sample."""


@dataclass(frozen=True, slots=True)
class ReactionSample:
    time: float
    """Match time when the play landed."""
    seconds: float


def played_card(state: State, player: int, action: Action) -> int | None:
    """The index of the card `action` would play (None when it plays no card)."""
    if type(action) is act.Play and isinstance(state, SpitState):
        top = state.stock_top(player, action.stock)
        return None if top is None else top.index
    if type(action) is act.PlayCard:
        return action.card.index
    return None


def playable_cards(state: State, player: int) -> set[int]:
    """Indices of the cards `player` could play on some pile right now."""
    cards: set[int] = set()
    for action in state.legal_actions(player):
        card = played_card(state, player, action)
        if card is not None:
            cards.add(card)
    return cards


class ReactionMeter:
    """Watches one match as the players hear it and times every play."""

    def __init__(self, match: Match) -> None:
        self.samples: tuple[list[ReactionSample], list[ReactionSample]] = ([], [])
        self._playable_since: list[dict[int, float]] = [{}, {}]
        """Per player: card index -> match time since which it has been playable."""
        self._last_play: list[float] = [float("-inf"), float("-inf")]
        self._listeners: list[SampleListener] = []
        match.observe(self._on_perception)

    def on_sample(self, listener: SampleListener) -> None:
        self._listeners.append(listener)

    def mean(self, player: int) -> float | None:
        """Mean seconds per card of `player` so far (None before the first play)."""
        samples = self.samples[player]
        return sum(s.seconds for s in samples) / len(samples) if samples else None

    def _on_perception(self, perception: Perception) -> None:
        for stamped in perception.events:
            event = stamped.event
            if not isinstance(event, CardPlayed):
                continue
            player = event.player
            since = self._playable_since[player].get(event.card.index)
            if since is not None:
                seconds = stamped.time - max(since, self._last_play[player])
                if seconds >= 0:
                    self.samples[player].append(ReactionSample(stamped.time, seconds))
                    for listener in self._listeners:
                        listener(player, seconds)
            self._last_play[player] = stamped.time
        for player in (0, 1):
            before = self._playable_since[player]
            self._playable_since[player] = {
                card: before.get(card, perception.time)
                for card in playable_cards(perception.state, player)}
