"""The player's questions about the table -> the words that answer them.

Pure: reads a state, never changes it, knows nothing of time or audio. Each
answer is what a sighted player takes in at a glance, said in the order the
cards lie ("Your cards: nine, king, face down, empty, three."). The opponent's
Speed hand is secret: only how many cards it holds is ever said.
"""

from __future__ import annotations

import re

from voicespit.engine import actions as act
from voicespit.engine.actions import PILE_NAMES, STOCK_NAMES
from voicespit.engine.cards import Card, ace_high_step
from voicespit.engine.speed import SpeedState
from voicespit.engine.spit import SpitState
from voicespit.engine.state import Phase

State = SpitState | SpeedState
TABLE_QUERIES = ("piles", "left", "right", "my cards", "opponent's cards", "face down",
                 "count", "score", "what fits")
"""The questions answered from the table alone (the narrator adds "repeat" and "help")."""
QUERY_ALIASES = {"cards": "my cards", "hand": "my cards", "my hand": "my cards", "pile": "piles",
                 "opponent": "opponent's cards", "face down cards": "face down"}


def capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def as_said(phrase: str) -> str:
    """A grammar sentence (or a recognizer's words) written as it is said: "what can i
    say" -> "what can I say"."""
    return re.sub(r"\bi\b", "I", phrase)


def sentence(text: str) -> str:
    """Capitalized, and ending in a full stop unless it already ends a sentence."""
    text = capitalized(text.strip())
    return text if text.endswith((".", "!", "?")) else text + "."


def card_words(card: Card, colours: bool) -> str:
    """"nine", or "red nine" when colours matter (the alternating-colours variant)."""
    return f"{card.colour} {card.rank_name}" if colours else card.rank_name


def pile_name(pile: int) -> str:
    return capitalized(PILE_NAMES[pile])


def hand_in_spoken_order(hand: list[Card]) -> list[Card]:
    """A Speed hand lowest to highest (two .. ace), the order "my cards" says it in;
    the keyboard's card keys count in the same order."""
    return sorted(hand, key=lambda card: (ace_high_step(card.rank), card.suit))


def count_words(state: State, seat: int) -> str:
    return f"Cards left: you {state.cards_held(seat)}, opponent {state.cards_held(1 - seat)}."


def answer_text(query: str, state: State, seat: int) -> str:
    """The answer to one of `TABLE_QUERIES` (or an alias) for the player in `seat`."""
    key = QUERY_ALIASES.get(query, query)
    colours = state.rules.alternating_colours
    if key == "piles":
        return " ".join(_pile_words(state, pile, colours) for pile in state.piles_in_use)
    if key in PILE_NAMES:
        return _pile_words(state, PILE_NAMES.index(key), colours)
    if key == "my cards":
        return describe_cards(state, seat)
    if key == "opponent's cards":
        return _opponents_cards(state, 1 - seat)
    if key == "face down":
        return _face_down(state, seat)
    if key == "count":
        if not any(state.piles):
            return count_words(state, seat)
        # How tall each pile stands: at a round's end, which one is worth slapping.
        sizes = ", ".join(f"{PILE_NAMES[pile]} {len(state.piles[pile])}"
                          for pile in state.piles_in_use)
        return f"{count_words(state, seat)} Piles: {sizes}."
    if key == "score":
        return _score_words(state, seat)
    if key == "what fits":
        return what_fits(state, seat)
    raise ValueError(f"no answer for {query!r}; ask one of: {', '.join(TABLE_QUERIES)}")


def describe_cards(state: State, seat: int) -> str:
    """The seat's playable cards: Spit stockpile tops in order, or the Speed hand."""
    colours = state.rules.alternating_colours
    if isinstance(state, SpeedState):
        hand = hand_in_spoken_order(state.hands[seat])
        if not hand:
            return "Your hand is empty."
        return "Your hand: " + ", ".join(card_words(card, colours) for card in hand) + "."
    words = _layout_words(state, seat)
    if not words:
        return "Your stockpiles are empty."
    return "Your cards: " + ", ".join(words) + "."


FILL_WORDS = "a card can move into your empty space"
"""Said once however many moves into empty stockpiles there are."""


def what_fits(state: State, seat: int) -> str:
    """Which of the seat's face-up cards go on which pile now ("Your seven fits on left,
    your king on either pile."): what a sighted player sees by looking from their cards
    to the piles, and a listener can only work out by holding both in memory."""
    if state.phase is Phase.READY:
        return "Nothing yet: the round has not started."
    if state.phase is Phase.ROUND_OVER:
        return "Nothing: the round is over."
    if state.phase is Phase.GAME_OVER:
        return "Nothing: the game is over."
    plays: dict[Card, set[int]] = {}
    others: list[str] = []
    for action in state.legal_actions(seat):
        if isinstance(action, act.PlayCard):
            plays.setdefault(action.card, set()).add(action.pile)
        elif isinstance(action, act.Play) and isinstance(state, SpitState) \
                and (top := state.stock_top(seat, action.stock)) is not None:
            plays.setdefault(top, set()).add(action.pile)
        elif isinstance(action, act.TurnUp):
            others.append(f"stockpile {STOCK_NAMES[action.stock]} can be turned over")
        elif isinstance(action, act.Fill) and FILL_WORDS not in others:
            others.append(FILL_WORDS)
        elif isinstance(action, act.Draw):
            others.append("you can draw")
    if not plays:
        lead = "none of your cards fits" + (": nobody can play"
                                            if state.phase is Phase.STALEMATE else "")
        return sentence("; ".join([lead, *others]))
    colours = state.rules.alternating_colours
    cards = hand_in_spoken_order(list(plays)) if isinstance(state, SpeedState) else list(plays)
    # Two sevens on two stockpiles are one answer: the player says the rank.
    where: dict[str, set[int]] = {}
    for card in cards:
        where.setdefault(card_words(card, colours), set()).update(plays[card])
    said = [f"your {words} {'fits ' if index == 0 else ''}on "
            f"{'either pile' if len(piles) > 1 else PILE_NAMES[min(piles)]}"
            for index, (words, piles) in enumerate(where.items())]
    return sentence("; ".join([", ".join(said), *others]))


def _layout_words(state: SpitState, seat: int) -> list[str]:
    """Each stockpile's top in order ("nine", "face down", "empty"); [] when all are empty."""
    colours = state.rules.alternating_colours
    words: list[str] = []
    for slot, cards in enumerate(state.stocks[seat]):
        top = state.stock_top(seat, slot)
        if top is not None:
            words.append(card_words(top, colours))
        else:
            words.append("face down" if cards else "empty")
    return [] if all(word == "empty" for word in words) else words


def _opponents_cards(state: State, opponent: int) -> str:
    if isinstance(state, SpeedState):
        held = len(state.hands[opponent])
        return (f"Your opponent holds {held} card{'s' if held != 1 else ''}, hidden from you, "
                f"with {len(state.draw_piles[opponent])} to draw.")
    words = _layout_words(state, opponent)
    if not words:
        return "Your opponent's stockpiles are empty."
    return "Your opponent's cards: " + ", ".join(words) + "."


def _face_down(state: State, seat: int) -> str:
    if isinstance(state, SpeedState):
        sides = " and ".join(str(len(side)) for side in state.side_piles)
        return (f"Face down: your draw pile {len(state.draw_piles[seat])}, "
                f"your opponent's {len(state.draw_piles[1 - seat])}. Side piles: {sides}.")

    def under(player: int) -> str:
        counts = [len(cards) - (1 if state.face_up[player][slot] else 0)
                  for slot, cards in enumerate(state.stocks[player])]
        return ", ".join("none" if count == 0 else str(count) for count in counts)

    last = STOCK_NAMES[len(state.stocks[seat]) - 1]
    return (f"Face down under your stockpiles, one to {last}: {under(seat)}. "
            f"Under your opponent's: {under(1 - seat)}. Spit cards: you "
            f"{len(state.spit_cards[seat])}, opponent {len(state.spit_cards[1 - seat])}.")


def _pile_words(state: State, pile: int, colours: bool) -> str:
    top = state.pile_top(pile)
    return f"{pile_name(pile)}: {'empty' if top is None else card_words(top, colours)}."


def _score_words(state: State, seat: int) -> str:
    if state.rules.scoring == "points":
        return (f"Score: you {state.scores[seat]}, opponent {state.scores[1 - seat]}; "
                f"game to {state.rules.target_score}.")
    return f"Round {state.round}. {count_words(state, seat)}"
