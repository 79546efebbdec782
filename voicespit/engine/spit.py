"""The rules of Spit, as a state that lists legal actions and applies one.

The play is here; the table, the end of a round and the deal are in spit_table.py.

Choices where RULES.md is silent (each follows the common game or keeps it finite):

- Each player's *own* spit pile is the pile on their side: seat 0 spits onto
  left, seat 1 onto right. A player spitting alone keeps to their own pile.
- Filling an empty slot needs a source stockpile with a card under its face-up
  top. Moving a lone card only moves the gap, gains nothing and could be
  repeated forever, so it is not a move.
- A stalemate is declared only when neither player has *any* move: a play, a
  card to turn up, or a slot to fill. Then the only move is to spit.
- Slapping is a race the first slap settles: the first slapper takes the pile
  they slapped and the other player takes the other pile, which is what both
  "different piles" and "same pile, hand underneath" come to. A later slap is
  refused with "too late" and says which pile that player got.
- When a player has no spit cards at the deal (15 cards or fewer; 10 with four
  stockpiles), only the other player's own pile is used and nobody slaps: the
  player who clears first takes nothing from the centre and the other takes the
  pile. If play is blocked instead, the pile goes to the player with more
  stockpile cards left, or on a tie to the player without spit cards. A slap
  before the next spit is refused with why there was no slap and who took the pile.
- With `slap=false`, the first out chooses. If play was blocked, the player with
  fewer stockpile cards chooses; on a tie each takes the pile on their own side.
- A player who plays their last stockpile card with no spit cards left has got
  rid of every card (RULES.md), with one pile in use or two. Nobody slaps: the
  game is decided, and nobody takes a pile back. In the points match that deal
  is scored and, below the target, every card is gathered, shuffled and dealt
  again, half each (26 in a whole deck); the re-deal is a new round.
- Points: a tie at the end of the points match is a draw.
- `max_rounds` guards the match: past it, the player holding fewer cards wins;
  in the points match the lowest score wins, as it does at the target.
"""

from __future__ import annotations

import random

from voicespit.engine import actions as act
from voicespit.engine.actions import PILE_NAMES, STOCK_NAMES, Action
from voicespit.engine.cards import Card
from voicespit.engine.events import (
    CardMoved,
    CardPlayed,
    CardSpat,
    CardTurnedUp,
    Event,
    RoundStarted,
    Stalemate,
)
from voicespit.engine.reasons import still_possible
from voicespit.engine.spit_table import SpitTable
from voicespit.engine.state import IllegalActionError, Phase, copy_rng


class SpitState(SpitTable):
    """A whole Spit match: layouts, spit cards, spit piles, rounds and the winner.

    `SpitState(rules, rng)` deals a new match (see `SpitTable`); this class adds
    the play: the legal actions and applying one.
    """

    def clone(self, rng: random.Random | None = None) -> SpitState:
        """An independent copy; its shuffle generator is `rng`, or by default a copy of
        this one's in the same state (copying it is most of the cost of a clone)."""
        other = SpitState.__new__(SpitState)
        other.__dict__.update(self.__dict__)
        other.rng = copy_rng(self.rng) if rng is None else rng
        other.scores = list(self.scores)
        other.stocks = [[list(s) for s in stocks] for stocks in self.stocks]
        other.face_up = [list(flags) for flags in self.face_up]
        other.spit_cards = [list(cards) for cards in self.spit_cards]
        other.piles = [list(pile) for pile in self.piles]
        other.deal_events = list(self.deal_events)
        return other

    # ------------------------------------------------------------ legal actions

    def legal_actions(self, player: int) -> list[Action]:
        phase = self.phase
        if phase is Phase.PLAY:
            return self._moves(player)
        if phase is Phase.READY or phase is Phase.STALEMATE:
            return [act.SPIT]
        if phase is Phase.ROUND_OVER:
            if self.rules.slap:
                return list(act.SLAPS)
            return list(act.CHOICES) if player == self.chooser else []
        return []

    def _moves(self, player: int) -> list[Action]:
        accepts = self.rules.accepts
        stocks = self.stocks[player]
        face_up = self.face_up[player]
        tops = [(pile, cards[-1].index) for pile, cards in enumerate(self.piles) if cards]
        if self.only_pile is not None:
            tops = [(pile, top) for pile, top in tops if pile == self.only_pile]
        moves: list[Action] = []
        empty_slots: list[int] = []
        sources: list[int] = []
        for slot, cards in enumerate(stocks):
            if not cards:
                empty_slots.append(slot)
            elif not face_up[slot]:
                moves.append(act.TURN_UPS[slot])
            else:
                card = cards[-1].index
                for pile, top in tops:
                    if accepts[top][card]:
                        moves.append(act.PLAYS[slot][pile])
                if len(cards) > 1:
                    sources.append(slot)
        for source in sources:
            for target in empty_slots:
                moves.append(act.FILLS[source][target])
        return moves

    def _has_move(self, player: int) -> bool:
        accepts = self.rules.accepts
        tops = [cards[-1].index for pile, cards in enumerate(self.piles)
                if cards and (self.only_pile is None or pile == self.only_pile)]
        face_up = self.face_up[player]
        has_gap = has_source = False
        for slot, cards in enumerate(self.stocks[player]):
            if not cards:
                has_gap = True
                continue
            if not face_up[slot]:
                return True
            card = cards[-1].index
            for top in tops:
                if accepts[top][card]:
                    return True
            if len(cards) > 1:
                has_source = True
        return has_gap and has_source

    # ------------------------------------------------------------------ apply

    def apply(self, player: int, action: Action) -> list[Event]:
        if player not in (0, 1):
            raise IllegalActionError(f"there is no player {player}")
        phase = self.phase
        if type(action) is act.Play:
            self._require_play_phase()
            return self._play(player, action.stock, action.pile)
        if type(action) is act.TurnUp:
            self._require_play_phase()
            return self._turn_up_action(player, action.stock)
        if type(action) is act.Fill:
            self._require_play_phase()
            return self._fill_action(player, action.source, action.target)
        if type(action) is act.Spit:
            if phase is Phase.READY or phase is Phase.STALEMATE:
                return self._spit()
            raise IllegalActionError(self._why_not_spit(player))
        if type(action) is act.Slap:
            return self._slap(player, action.pile)
        if type(action) is act.ChoosePile:
            return self._choose(player, action.pile)
        raise IllegalActionError(f"{action} is not a move in Spit")

    def _require_play_phase(self) -> None:
        phase = self.phase
        if phase is Phase.PLAY:
            return
        if phase is Phase.READY:
            raise IllegalActionError("the round has not started: say ready first")
        if phase is Phase.STALEMATE:
            raise IllegalActionError("nobody can play: it is time to spit")
        if phase is Phase.ROUND_OVER:
            raise IllegalActionError(self._round_over_hint())
        raise IllegalActionError("the game is over")

    def _round_over_hint(self) -> str:
        if self.rules.slap:
            return "the round is over: slap the smaller pile"
        return "the round is over: the pile is being chosen"

    def _why_not_spit(self, player: int) -> str:
        if self.phase is Phase.PLAY:
            return still_possible(self.legal_actions, player, self._card_of)
        if self.phase is Phase.ROUND_OVER:
            return self._round_over_hint()
        return "the game is over"

    def _card_of(self, player: int, action: Action) -> Card | None:
        return self.stock_top(player, action.stock) if type(action) is act.Play else None

    def _check_slot(self, player: int, slot: int) -> list[Card]:
        stocks = self.stocks[player]
        if not 0 <= slot < len(stocks):
            raise IllegalActionError(_no_stockpile(slot, len(stocks)))
        cards = stocks[slot]
        if not cards:
            raise IllegalActionError(f"stockpile {STOCK_NAMES[slot]} is empty")
        return cards

    def _play(self, player: int, slot: int, pile: int) -> list[Event]:
        cards = self._check_slot(player, slot)
        if not self.face_up[player][slot]:
            raise IllegalActionError(f"stockpile {STOCK_NAMES[slot]} is face down: turn it over")
        if pile not in (0, 1):
            raise IllegalActionError(f"there is no pile {pile}")
        if self.only_pile is not None and pile != self.only_pile:
            raise IllegalActionError(f"only the {PILE_NAMES[self.only_pile]} pile is in use")
        card = cards[-1]
        target = self.piles[pile]
        if not target:
            raise IllegalActionError(f"{PILE_NAMES[pile]} is empty")
        top = target[-1]
        if not self.rules.accepts[top.index][card.index]:
            raise IllegalActionError(self.rules.why_not_on(card, top, PILE_NAMES[pile]))
        cards.pop()
        # The card beneath, if any, is face down until turned up.
        self.face_up[player][slot] = False
        target.append(card)
        events: list[Event] = [CardPlayed(player, card, pile, top, slot)]
        self._tidy(player, events)
        self._after_move(player, events)
        return events

    def _turn_up_action(self, player: int, slot: int) -> list[Event]:
        cards = self._check_slot(player, slot)
        if self.face_up[player][slot]:
            raise IllegalActionError(f"stockpile {STOCK_NAMES[slot]} is already face up")
        self.face_up[player][slot] = True
        events: list[Event] = [CardTurnedUp(player, slot, cards[-1])]
        self._tidy(player, events)
        self._after_move(player, events)
        return events

    def _fill_action(self, player: int, source: int, target: int) -> list[Event]:
        cards = self._check_slot(player, source)
        stocks = self.stocks[player]
        if not 0 <= target < len(stocks):
            raise IllegalActionError(_no_stockpile(target, len(stocks)))
        if stocks[target]:
            raise IllegalActionError(f"stockpile {STOCK_NAMES[target]} is not empty")
        if not self.face_up[player][source]:
            raise IllegalActionError(f"stockpile {STOCK_NAMES[source]} is face down: turn it over")
        if len(cards) == 1:
            raise IllegalActionError(
                f"stockpile {STOCK_NAMES[source]} has nothing under it: moving it gains nothing")
        events: list[Event] = []
        self._fill(player, source, target, events)
        self._tidy(player, events)
        self._after_move(player, events)
        return events

    def _fill(self, player: int, source: int, target: int, events: list[Event]) -> None:
        stocks = self.stocks[player]
        card = stocks[source].pop()
        stocks[target].append(card)
        self.face_up[player][target] = True
        self.face_up[player][source] = False
        events.append(CardMoved(player, card, source, target))

    def _tidy(self, player: int, events: list[Event]) -> None:
        """The conveniences: turn up new tops and fill empty slots, when switched on."""
        rules = self.rules
        stocks = self.stocks[player]
        face_up = self.face_up[player]
        while True:
            if rules.auto_turn_up:
                for slot, cards in enumerate(stocks):
                    if cards and not face_up[slot]:
                        face_up[slot] = True
                        events.append(CardTurnedUp(player, slot, cards[-1]))
            if not rules.auto_fill:
                return
            gap = next((slot for slot, cards in enumerate(stocks) if not cards), None)
            if gap is None:
                return
            sources = [slot for slot, cards in enumerate(stocks)
                       if len(cards) > 1 and face_up[slot]]
            if not sources:
                return
            # Take from the tallest pile: it hides the most cards.
            source = max(sources, key=lambda slot: len(stocks[slot]))
            self._fill(player, source, gap, events)

    def _after_move(self, player: int, events: list[Event]) -> None:
        """After a card moved: has the round ended, or is everybody stuck?"""
        if not any(self.stocks[player]):
            self.first_out = player
            self._end_round("cleared", events)
            return
        self._check_stalemate(events)

    def _check_stalemate(self, events: list[Event]) -> None:
        if self._has_move(0) or self._has_move(1):
            self.phase = Phase.PLAY
            return
        if self.spit_cards[0] or self.spit_cards[1]:
            self.phase = Phase.STALEMATE
            events.append(Stalemate())
            return
        self.first_out = None
        self._end_round("blocked", events)

    # ------------------------------------------------------------------- spit

    def _spit(self) -> list[Event]:
        events: list[Event] = []
        if self.phase is Phase.READY:
            self.last_slap = self.one_pile_settled = None
            events.append(RoundStarted(self.round))
        for player in (0, 1):
            spit_cards = self.spit_cards[player]
            if spit_cards:
                card = spit_cards.pop()
                self.piles[player].append(card)
                events.append(CardSpat(player, player, card))
        self._check_stalemate(events)
        return events


def _no_stockpile(slot: int, count: int) -> str:
    """Why a stockpile number is refused, in words a listener hears as a count."""
    name = STOCK_NAMES[slot] if 0 <= slot < len(STOCK_NAMES) else str(slot + 1)
    return f"there is no stockpile {name}: you have {STOCK_NAMES[count - 1]}"
