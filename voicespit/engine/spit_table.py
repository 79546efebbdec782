"""The cards on a Spit table, and how a round ends and the next one is dealt.

`SpitState` (voicespit/engine/spit.py) is the game; this is its base: the
table it is made of, what can be read from it, and everything between the
last card of a round and the first of the next: scores, the slap (or the
choice), taking the piles, the re-deal of a points match, the deal, the end.
The choices where RULES.md is silent are listed in spit.py.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from voicespit.engine.actions import PILE_NAMES
from voicespit.engine.cards import DECK, Card
from voicespit.engine.events import (
    Event,
    GameOver,
    LayoutDealt,
    PileSlapped,
    PileTaken,
    Redealt,
    RoundOver,
    ScoresChanged,
)
from voicespit.engine.rules import Rules
from voicespit.engine.state import IllegalActionError, Phase

OTHER = (1, 0)


class SpitTable:
    """A Spit match's cards, rounds, scores and winner; the game is `SpitState`."""

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

    # -------------------------------------------------------------- round end

    def _end_round(self, end: str, events: list[Event]) -> None:
        """Score, then settle: the end of the match, a re-deal, the slap (or choice), or
        with one pile the pile goes where the rule book says."""
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
