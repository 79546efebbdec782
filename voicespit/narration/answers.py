"""The player's questions about the table -> the words that answer them.

Pure: reads a state, never changes it, knows nothing of time or audio. Each
answer is what a sighted player takes in at a glance, said in the order the
cards lie ("Your cards: nine, king, face down, empty, three."). The opponent's
Speed hand is secret: only how many cards it holds is ever said.
"""

from __future__ import annotations

from voicespit.engine.actions import PILE_NAMES, STOCK_NAMES
from voicespit.engine.cards import Card, ace_high_step
from voicespit.engine.speed import SpeedState
from voicespit.engine.spit import SpitState

State = SpitState | SpeedState
TABLE_QUERIES = ("piles", "left", "right", "my cards", "opponent's cards", "face down",
                 "count", "score")
"""The questions answered from the table alone (the narrator adds "repeat" and "help")."""
QUERY_ALIASES = {"cards": "my cards", "hand": "my cards", "my hand": "my cards", "pile": "piles",
                 "opponent": "opponent's cards", "face down cards": "face down"}


def capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


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
