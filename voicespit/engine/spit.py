"""The rules of Spit, as a state that lists legal actions and applies one.

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
  in the points match the lowest score wins (RULES.md).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from voicespit.engine import actions as act
from voicespit.engine.actions import PILE_NAMES, STOCK_NAMES, Action
from voicespit.engine.cards import DECK, Card
from voicespit.engine.events import (
    CardMoved,
    CardPlayed,
    CardSpat,
    CardTurnedUp,
    Event,
    GameOver,
    LayoutDealt,
    PileSlapped,
    PileTaken,
    Redealt,
    RoundOver,
    RoundStarted,
    ScoresChanged,
    Stalemate,
)
from voicespit.engine.reasons import still_possible
from voicespit.engine.rules import Rules
from voicespit.engine.state import IllegalActionError, Phase, copy_rng

OTHER = (1, 0)


class SpitState:
    """A whole Spit match: layouts, spit cards, spit piles, rounds and the winner."""

    def __init__(self, rules: Rules, rng: random.Random) -> None:
        """Deal a new match: shuffle with `rng` and give each player 26 cards."""
        self.rules = rules
        self.rng = rng
        self.phase = Phase.READY
        self.round = 1
        self.scores = [0, 0]
        self.winner: int | None = None
        self.game_over_reason = ""
        self.stocks: list[list[list[Card]]] = [[], []]
        """stocks[player][slot]: bottom .. top. Only the top card can be face up."""
        self.face_up: list[list[bool]] = [[], []]
        """face_up[player][slot]: whether that stockpile's top card is face up."""
        self.spit_cards: list[list[Card]] = [[], []]
        """Each player's face-down spit cards; the next one is last."""
        self.piles: list[list[Card]] = [[], []]
        """The two spit piles, left and right; the top is last."""
        self.only_pile: int | None = None
        """In a round where a player has no spit cards, the one pile in use."""
        self.first_out: int | None = None
        self.last_slap: tuple[int, int] | None = None
        """(slapper, pile) of the slap that settled the last round, until the next spit."""
        self.one_pile_settled: tuple[int, int | None] | None = None
        """(taker, first out) of the last round when it had one pile, until the next spit."""
        self.deal_events: list[Event] = []
        """The events of the first deal (a new state has not returned them yet)."""
        deck = list(DECK)
        rng.shuffle(deck)
        self.deal_events = self._deal(deck[:26], deck[26:])

    # ------------------------------------------------------------------ reading

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def piles_in_use(self) -> Sequence[int]:
        return (0, 1) if self.only_pile is None else (self.only_pile,)

    def pile_top(self, pile: int) -> Card | None:
        cards = self.piles[pile]
        return cards[-1] if cards else None

    def stock_top(self, player: int, slot: int) -> Card | None:
        """The face-up top of a stockpile; None when it is empty or face down."""
        if slot >= len(self.stocks[player]):
            return None
        cards = self.stocks[player][slot]
        return cards[-1] if cards and self.face_up[player][slot] else None

    def stock_sizes(self, player: int) -> list[int]:
        return [len(cards) for cards in self.stocks[player]]

    def stock_cards(self, player: int) -> int:
        return sum(len(cards) for cards in self.stocks[player])

    def cards_held(self, player: int) -> int:
        return self.stock_cards(player) + len(self.spit_cards[player])

    def all_cards(self) -> list[Card]:
        cards: list[Card] = []
        for player in (0, 1):
            for stock in self.stocks[player]:
                cards.extend(stock)
            cards.extend(self.spit_cards[player])
        for pile in self.piles:
            cards.extend(pile)
        return cards

    def clone(self) -> SpitState:
        other = SpitState.__new__(SpitState)
        other.__dict__.update(self.__dict__)
        other.rng = copy_rng(self.rng)
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
            raise IllegalActionError("the round has not started: say spit first")
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
            raise IllegalActionError(f"there is no stockpile {slot + 1}")
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
            raise IllegalActionError(f"there is no stockpile {target + 1}")
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

    # -------------------------------------------------------------- round end

    def _end_round(self, end: str, events: list[Event]) -> None:
        first_out = self.first_out
        if end == "cleared":
            reason = f"P{first_out} played every stockpile card"
            assert first_out is not None
            events.append(RoundOver(self.round, "cleared", first_out, reason))
        else:
            events.append(RoundOver(self.round, "blocked", None,
                                    "nobody can play and nobody has spit cards left"))
        if self.rules.scoring == "points":
            gained = (self.cards_held(0), self.cards_held(1))
            self.scores = [self.scores[0] + gained[0], self.scores[1] + gained[1]]
            events.append(ScoresChanged(gained, (self.scores[0], self.scores[1])))
            if max(self.scores) >= self.rules.target_score:
                self._finish_on_points(
                    f"a score reached {self.rules.target_score}", events)
                return
        if first_out is not None and not self.spit_cards[first_out]:
            self._out_of_cards(first_out, events)
            return
        if self.only_pile is not None:
            self._settle_one_pile(events)
            return
        self.phase = Phase.ROUND_OVER
        if not self.rules.slap and self.chooser is None:
            # Blocked with a tie and nobody to choose: each takes their own side.
            self._take_piles({0: 0, 1: 1}, events)

    @property
    def chooser(self) -> int | None:
        """With `slap=false`: who chooses a pile at the end of this round (None: nobody,
        each takes their own side)."""
        if self.first_out is not None:
            return self.first_out
        left = (self.stock_cards(0), self.stock_cards(1))
        if left[0] == left[1]:
            return None
        return 0 if left[0] < left[1] else 1

    def _settle_one_pile(self, events: list[Event]) -> None:
        pile = self.only_pile
        assert pile is not None
        short = OTHER[pile]
        if self.first_out is not None:
            taker = OTHER[self.first_out]
        else:
            left = (self.stock_cards(0), self.stock_cards(1))
            taker = short if left[0] == left[1] else (0 if left[0] > left[1] else 1)
        self.one_pile_settled = (taker, self.first_out)
        self._take_piles({taker: pile, OTHER[taker]: None}, events)

    def _out_of_cards(self, player: int, events: list[Event]) -> None:
        """`player` has got rid of every card: they win, or (points) all are dealt again."""
        if self.rules.scoring != "points":
            self._finish(player, f"P{player} got rid of every card", events, None)
            return
        if self.round >= self.rules.max_rounds:
            self._finish_at_round_limit(events, None)
            return
        events.append(Redealt(player))
        deck = self.all_cards()
        self.rng.shuffle(deck)
        self.piles = [[], []]
        self.round += 1
        half = len(deck) // 2
        events.extend(self._deal(deck[:half], deck[half:]))

    def _why_no_slap(self, player: int) -> str:
        """Why a slap right after a round with one spit pile takes nothing."""
        assert self.one_pile_settled is not None
        taker, first_out = self.one_pile_settled
        took = "you took the pile" if taker == player else "your opponent took the pile"
        if first_out is None:
            who = "you" if taker == player else "your opponent"
            why = f"nobody could play, so {who}, with more cards left, took the pile"
        else:
            out = "you" if first_out == player else "your opponent"
            why = f"{out} went out first, so {took}"
        return f"there is no slap after a round with one spit pile: {why}"

    def _slap(self, player: int, pile: int) -> list[Event]:
        if pile not in (0, 1):
            raise IllegalActionError(f"there is no pile {pile}")
        if self.phase is Phase.GAME_OVER:
            raise IllegalActionError("the game is over")
        if self.phase is not Phase.ROUND_OVER:
            if self.last_slap is not None and self.phase is not Phase.PLAY:
                slapper, slapped = self.last_slap
                if slapper != player:
                    mine = PILE_NAMES[OTHER[slapped]]
                    if pile == slapped:
                        raise IllegalActionError(
                            f"too late: your opponent slapped {PILE_NAMES[slapped]} first; "
                            f"you take {mine}")
                    raise IllegalActionError(
                        f"your opponent slapped {PILE_NAMES[slapped]}; you take {mine}")
            if self.phase is Phase.READY and self.one_pile_settled is not None:
                raise IllegalActionError(self._why_no_slap(player))
            raise IllegalActionError("you can only slap when the round is over")
        if not self.rules.slap:
            raise IllegalActionError("no slapping in this game: the first out chooses a pile")
        events: list[Event] = [PileSlapped(player, pile)]
        self.last_slap = (player, pile)
        self._take_piles({player: pile, OTHER[player]: OTHER[pile]}, events)
        return events

    def _choose(self, player: int, pile: int) -> list[Event]:
        if pile not in (0, 1):
            raise IllegalActionError(f"there is no pile {pile}")
        if self.phase is not Phase.ROUND_OVER:
            raise IllegalActionError("you can only choose a pile when the round is over")
        if self.rules.slap:
            raise IllegalActionError("slap a pile instead: the first to slap takes it")
        if player != self.chooser:
            raise IllegalActionError("your opponent chooses the pile this round")
        events: list[Event] = [PileSlapped(player, pile)]
        self._take_piles({player: pile, OTHER[player]: OTHER[pile]}, events)
        return events

    def _take_piles(self, taken: dict[int, int | None], events: list[Event]) -> None:
        """Each player gathers a pile (or nothing) with their own cards and deals anew."""
        hands: list[list[Card]] = [[], []]
        for player in (0, 1):
            pile = taken[player]
            gathered = self.piles[pile] if pile is not None else []
            events.append(PileTaken(player, pile, len(gathered)))
            hand = hands[player]
            hand.extend(gathered)
            hand.extend(self.spit_cards[player])
            for stock in self.stocks[player]:
                hand.extend(stock)
        self.piles = [[], []]
        # Whoever is out of every card has been settled before the piles are taken.
        assert all(hands), "a player left with no cards after taking the piles"
        if self.round >= self.rules.max_rounds:
            self._finish_at_round_limit(events, hands)
            return
        self.round += 1
        for hand in hands:
            self.rng.shuffle(hand)
        events.extend(self._deal(hands[0], hands[1]))

    def _finish_at_round_limit(self, events: list[Event],
                               hands: list[list[Card]] | None) -> None:
        limit = f"the round limit of {self.rules.max_rounds} was reached"
        if self.rules.scoring == "points":
            self._finish_on_points(limit, events, hands)
            return
        counts = [len(hand) for hand in hands] if hands is not None \
            else [self.cards_held(player) for player in (0, 1)]
        winner = None if counts[0] == counts[1] else (0 if counts[0] < counts[1] else 1)
        self._finish(winner, f"{limit}; fewer cards wins", events, hands)

    def _finish_on_points(self, why: str, events: list[Event],
                          hands: list[list[Card]] | None = None) -> None:
        low = min(self.scores)
        winners = [player for player in (0, 1) if self.scores[player] == low]
        winner = winners[0] if len(winners) == 1 else None
        self._finish(winner, f"{why}; the lowest score wins", events, hands)

    def _finish(self, winner: int | None, reason: str, events: list[Event],
                hands: list[list[Card]] | None) -> None:
        if hands is not None:
            # Keep all 52 cards visible to all_cards(): park them as spit cards.
            self.stocks = [[], []]
            self.face_up = [[], []]
            self.spit_cards = hands
        self.winner = winner
        self.game_over_reason = reason
        self.phase = Phase.GAME_OVER
        events.append(GameOver(winner, reason))

    # ------------------------------------------------------------------- deal

    def _deal(self, cards_0: list[Card], cards_1: list[Card]) -> list[Event]:
        """Lay out stockpiles in the traditional order; the rest are spit cards."""
        events: list[Event] = []
        count = self.rules.stockpiles
        for player, cards in enumerate((cards_0, cards_1)):
            stocks: list[list[Card]] = [[] for _ in range(count)]
            position = 0
            for first in range(count):
                for slot in range(first, count):
                    if position < len(cards):
                        stocks[slot].append(cards[position])
                        position += 1
            self.stocks[player] = stocks
            self.face_up[player] = [bool(stock) for stock in stocks]
            self.spit_cards[player] = list(cards[position:])
            events.append(LayoutDealt(player, tuple(len(s) for s in stocks),
                                      len(self.spit_cards[player])))
        shorts = [player for player in (0, 1) if not self.spit_cards[player]]
        # A player with no spit cards spits nothing: only the other's pile is used.
        self.only_pile = OTHER[shorts[0]] if len(shorts) == 1 else None
        self.first_out = None
        self.phase = Phase.READY
        return events
