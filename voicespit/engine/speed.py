"""The rules of Speed (the hand-held game), as a state that lists and applies actions.

Choices where RULES.md is silent:

- Each player turns cards from the side pile on their side onto the centre pile
  on their side (seat 0: left, seat 1: right), as in Spit.
- When both side piles are empty at a stalemate, the centre piles under their
  tops are shuffled and split into two new side piles (the left one takes the
  odd card). If one side pile still has cards, only that one is turned.
- A deal is *blocked* when nobody can play and no card left to turn could ever
  be played on (checked exactly: no card under the tops or in the side piles is
  one rank from any card in either hand). That is the loop RULES.md asks the
  engine to break: the deal ends and the player holding fewer cards wins it (a
  tie is a drawn deal). This is also why a deal always ends: every other
  stalemate turns up a card that somebody can play within a bounded number of
  turns.
- Scoring (`scoring=points`): the winner of a deal scores one point per card
  left in the opponent's draw pile (RULES.md: the rule book's "stock"; the hand
  does not count), also when they won a blocked deal by holding fewer cards;
  deals continue until a player reaches `target_score`. Without scoring, one
  deal is the match. See `SPEED_TARGET_SCORE` for what a deal scores.
- Asking for new cards while a move is left is refused naming that move.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from voicespit.engine import actions as act
from voicespit.engine.actions import PILE_NAMES, Action
from voicespit.engine.cards import DECK, Card
from voicespit.engine.events import (
    CardDrawn,
    CardPlayed,
    CardSpat,
    Event,
    GameOver,
    LayoutDealt,
    RoundOver,
    RoundStarted,
    ScoresChanged,
    SidePilesRebuilt,
    Stalemate,
)
from voicespit.engine.reasons import still_possible
from voicespit.engine.rules import Rules
from voicespit.engine.state import IllegalActionError, Phase, copy_rng

HAND_SIZE = 5
OTHER = (1, 0)


def _card_of(player: int, action: Action) -> Card | None:
    return action.card if type(action) is act.PlayCard else None


class SpeedState:
    """A Speed match: hands, draw piles, side piles, centre piles, deals and scores."""

    def __init__(self, rules: Rules, rng: random.Random) -> None:
        self.rules = rules
        self.rng = rng
        self.phase = Phase.READY
        self.round = 1
        self.scores = [0, 0]
        self.winner: int | None = None
        self.game_over_reason = ""
        self.hands: list[list[Card]] = [[], []]
        self.draw_piles: list[list[Card]] = [[], []]
        """Each player's face-down draw pile; the next card is last."""
        self.side_piles: list[list[Card]] = [[], []]
        self.middle: list[Card] = []
        """The two face-down cards that start the centre piles."""
        self.piles: list[list[Card]] = [[], []]
        """The centre piles, left and right; the top is last."""
        self.deal_events: list[Event] = self._deal()

    # ------------------------------------------------------------------ reading

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def piles_in_use(self) -> Sequence[int]:
        return (0, 1)

    def pile_top(self, pile: int) -> Card | None:
        cards = self.piles[pile]
        return cards[-1] if cards else None

    def cards_held(self, player: int) -> int:
        return len(self.hands[player]) + len(self.draw_piles[player])

    def all_cards(self) -> list[Card]:
        cards: list[Card] = list(self.middle)
        for player in (0, 1):
            cards.extend(self.hands[player])
            cards.extend(self.draw_piles[player])
            cards.extend(self.side_piles[player])
            cards.extend(self.piles[player])
        return cards

    def clone(self, rng: random.Random | None = None) -> SpeedState:
        """An independent copy; its shuffle generator is `rng`, or by default a copy of
        this one's in the same state (copying it is most of the cost of a clone)."""
        other = SpeedState.__new__(SpeedState)
        other.__dict__.update(self.__dict__)
        other.rng = copy_rng(self.rng) if rng is None else rng
        other.scores = list(self.scores)
        other.hands = [list(cards) for cards in self.hands]
        other.draw_piles = [list(cards) for cards in self.draw_piles]
        other.side_piles = [list(cards) for cards in self.side_piles]
        other.piles = [list(cards) for cards in self.piles]
        other.middle = list(self.middle)
        other.deal_events = list(self.deal_events)
        return other

    # ------------------------------------------------------------ legal actions

    def legal_actions(self, player: int) -> list[Action]:
        phase = self.phase
        if phase is Phase.PLAY:
            accepts = self.rules.accepts
            moves: list[Action] = []
            tops = [(pile, cards[-1].index) for pile, cards in enumerate(self.piles) if cards]
            for card in self.hands[player]:
                for pile, top in tops:
                    if accepts[top][card.index]:
                        moves.append(act.PLAY_CARDS[card.index][pile])
            if self._can_draw(player):
                moves.append(act.DRAW)
            return moves
        if phase is Phase.READY or phase is Phase.STALEMATE:
            return [act.SPIT]
        return []

    def _can_draw(self, player: int) -> bool:
        return len(self.hands[player]) < HAND_SIZE and bool(self.draw_piles[player])

    def _has_move(self, player: int) -> bool:
        if self._can_draw(player):
            return True
        accepts = self.rules.accepts
        tops = [cards[-1].index for cards in self.piles if cards]
        return any(accepts[top][card.index] for card in self.hands[player] for top in tops)

    # ------------------------------------------------------------------ apply

    def apply(self, player: int, action: Action) -> list[Event]:
        if player not in (0, 1):
            raise IllegalActionError(f"there is no player {player}")
        kind = type(action)
        if kind is act.PlayCard:
            self._require_play_phase()
            return self._play(player, action.card, action.pile)  # type: ignore[union-attr]
        if kind is act.Draw:
            self._require_play_phase()
            return self._draw_action(player)
        if kind is act.Spit:
            if self.phase is Phase.READY or self.phase is Phase.STALEMATE:
                return self._spit()
            if self.phase is Phase.PLAY:
                raise IllegalActionError(still_possible(self.legal_actions, player, _card_of))
            raise IllegalActionError("the game is over")
        raise IllegalActionError(f"{action} is not a move in Speed")

    def _require_play_phase(self) -> None:
        if self.phase is Phase.PLAY:
            return
        if self.phase is Phase.READY:
            raise IllegalActionError("the deal has not started: say ready first")
        if self.phase is Phase.STALEMATE:
            raise IllegalActionError("nobody can play: it is time to spit")
        raise IllegalActionError("the game is over")

    def _play(self, player: int, card: Card, pile: int) -> list[Event]:
        hand = self.hands[player]
        if card not in hand:
            raise IllegalActionError(f"you have no {card.name} in your hand")
        if pile not in (0, 1):
            raise IllegalActionError(f"there is no pile {pile}")
        target = self.piles[pile]
        top = target[-1]
        if not self.rules.accepts[top.index][card.index]:
            raise IllegalActionError(self.rules.why_not_on(card, top, PILE_NAMES[pile]))
        hand.remove(card)
        target.append(card)
        events: list[Event] = [CardPlayed(player, card, pile, top, None)]
        if self.rules.auto_turn_up:
            while self._can_draw(player):
                self._draw(player, events)
        self._after_move(player, events)
        return events

    def _draw_action(self, player: int) -> list[Event]:
        if not self.draw_piles[player]:
            raise IllegalActionError("your draw pile is empty")
        if len(self.hands[player]) >= HAND_SIZE:
            raise IllegalActionError("your hand is full: five cards")
        events: list[Event] = []
        self._draw(player, events)
        self._after_move(player, events)
        return events

    def _draw(self, player: int, events: list[Event]) -> None:
        card = self.draw_piles[player].pop()
        self.hands[player].append(card)
        events.append(CardDrawn(player, card))

    def _after_move(self, player: int, events: list[Event]) -> None:
        if not self.hands[player] and not self.draw_piles[player]:
            why = f"P{player} played every card"
            events.append(RoundOver(self.round, "cleared", player, why))
            self._end_deal(player, why, events)
            return
        self._check_stalemate(events)

    def _check_stalemate(self, events: list[Event]) -> None:
        if self._has_move(0) or self._has_move(1):
            self.phase = Phase.PLAY
            return
        if self._is_blocked_forever():
            held = (self.cards_held(0), self.cards_held(1))
            winner = None if held[0] == held[1] else (0 if held[0] < held[1] else 1)
            why = "nobody can play and no card left to turn would help"
            events.append(RoundOver(self.round, "blocked", None, why))
            if winner is None:
                why += "; both hold the same number of cards"
            else:
                why += f"; P{winner} holds fewer cards"
            self._end_deal(winner, why, events)
            return
        self.phase = Phase.STALEMATE
        events.append(Stalemate())

    def _is_blocked_forever(self) -> bool:
        """True when no card that could still come up is playable from either hand."""
        accepts = self.rules.accepts
        hand_cards = [card.index for hand in self.hands for card in hand]
        pool = [card for pile in self.piles for card in pile[:-1]]
        pool.extend(card for side in self.side_piles for card in side)
        return not any(accepts[card.index][mine] for card in pool for mine in hand_cards)

    # ------------------------------------------------------------------- spit

    def _spit(self) -> list[Event]:
        events: list[Event] = []
        if self.phase is Phase.READY:
            events.append(RoundStarted(self.round))
            for player in (0, 1):
                card = self.middle[player]
                self.piles[player].append(card)
                events.append(CardSpat(player, player, card))
            self.middle = []
        else:
            if not self.side_piles[0] and not self.side_piles[1]:
                self._rebuild_side_piles(events)
            for player in (0, 1):
                side = self.side_piles[player]
                if side:
                    card = side.pop()
                    self.piles[player].append(card)
                    events.append(CardSpat(player, player, card))
        self._check_stalemate(events)
        return events

    def _rebuild_side_piles(self, events: list[Event]) -> None:
        pool: list[Card] = []
        for pile in self.piles:
            pool.extend(pile[:-1])
            del pile[:-1]
        self.rng.shuffle(pool)
        half = (len(pool) + 1) // 2
        self.side_piles = [pool[:half], pool[half:]]
        events.append(SidePilesRebuilt((half, len(pool) - half)))

    # -------------------------------------------------------------- deal end

    def _end_deal(self, winner: int | None, why: str, events: list[Event]) -> None:
        if self.rules.scoring != "points":
            self._finish(winner, why, events)
            return
        if winner is not None:
            gained = [0, 0]
            gained[winner] = len(self.draw_piles[OTHER[winner]])
            self.scores[winner] += gained[winner]
            events.append(ScoresChanged((gained[0], gained[1]), (self.scores[0], self.scores[1]),
                                        winner))
        target = self.rules.target_score
        if max(self.scores) >= target:
            leader = 0 if self.scores[0] > self.scores[1] else 1
            self._finish(leader, f"P{leader} reached {target} points", events)
            return
        if self.round >= self.rules.max_rounds:
            high = max(self.scores)
            leaders = [player for player in (0, 1) if self.scores[player] == high]
            self._finish(leaders[0] if len(leaders) == 1 else None,
                         f"the deal limit of {self.rules.max_rounds} was reached", events)
            return
        self.round += 1
        events.extend(self._deal())

    def _finish(self, winner: int | None, reason: str, events: list[Event]) -> None:
        self.winner = winner
        self.game_over_reason = reason
        self.phase = Phase.GAME_OVER
        events.append(GameOver(winner, reason))

    # ------------------------------------------------------------------- deal

    def _deal(self) -> list[Event]:
        deck = list(DECK)
        self.rng.shuffle(deck)
        side = self.rules.side_pile_size
        self.side_piles = [deck[:side], deck[side:2 * side]]
        self.middle = deck[2 * side:2 * side + 2]
        rest = deck[2 * side + 2:]
        half = len(rest) // 2
        self.draw_piles = [rest[:half], rest[half:]]
        self.hands = [[], []]
        self.piles = [[], []]
        events: list[Event] = []
        for player in (0, 1):
            for _ in range(HAND_SIZE):
                self.hands[player].append(self.draw_piles[player].pop())
            events.append(LayoutDealt(player, (len(self.hands[player]),),
                                      len(self.draw_piles[player])))
        self.phase = Phase.READY
        return events
