"""Single keys for the common commands, for players who cannot or would rather not speak.

No letter is a shortcut, so words can still be typed (letters then Enter). The
top row plays cards: the left hand's keys 1-5 play stockpile one to five (in
Speed, the first to fifth card of your hand as "my cards" says it) onto the left
pile, the right hand's keys 6-0 the same stockpiles onto the right pile.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from voicespit.engine import actions as act
from voicespit.engine.actions import LEFT, PILE_NAMES, RIGHT, STOCK_NAMES, Action
from voicespit.engine.cards import Card
from voicespit.engine.speed import SpeedState
from voicespit.engine.state import Phase
from voicespit.match.intents import State
from voicespit.narration.answers import hand_in_spoken_order
from voicespit.speech.language.commands import Command, Verb
from voicespit.speech.language.parser import IllegalCommandError


@dataclass(frozen=True)
class CardKey:
    """Play the card at `index` (stockpile, or place in the spoken hand) onto `pile`.

    A key means the card that was at its place when the player last heard the table
    (`card_in` on the table as heard): if a fill or a draw has moved it since, it is
    played from where it lies now, so a key never plays a card nobody announced.
    """

    index: int
    pile: int

    def card_in(self, state: State, player: int) -> Card | None:
        """The card this key means on `state`: that stockpile's face-up top, or the
        card at that place in the hand as "my cards" says it; None if there is none."""
        if isinstance(state, SpeedState):
            hand = hand_in_spoken_order(state.hands[player])
            return hand[self.index] if self.index < len(hand) else None
        return state.stock_top(player, self.index)

    def resolve(self, state: State, player: int, meant: Card | None = None) -> Action:
        """The play this key asks for now; `meant` is the card it meant as last heard."""
        if meant is not None and state.phase is Phase.PLAY:
            return _play_of(meant, state, player, self.pile)
        if isinstance(state, SpeedState):
            hand = hand_in_spoken_order(state.hands[player])
            if self.index >= len(hand):
                count = len(hand)
                raise IllegalCommandError(
                    f"you hold {count} card{'s' if count != 1 else ''}; "
                    f"there is no card {self.index + 1}")
            return act.PLAY_CARDS[hand[self.index].index][self.pile]
        return act.PLAYS[self.index][self.pile]

    def __str__(self) -> str:
        return f"stockpile {STOCK_NAMES[self.index]} on {PILE_NAMES[self.pile]}"

    def words(self, state: State) -> str:
        """What the key says in this game ("card three on left" in Speed)."""
        if isinstance(state, SpeedState):
            return f"card {STOCK_NAMES[self.index]} on {PILE_NAMES[self.pile]}"
        return str(self)


def _play_of(card: Card, state: State, player: int, pile: int) -> Action:
    """Play `card` from wherever it lies in front of `player` now."""
    if isinstance(state, SpeedState):
        if card in state.hands[player]:
            return act.PLAY_CARDS[card.index][pile]
    else:
        for slot in range(len(state.stocks[player])):
            if state.stock_top(player, slot) == card:
                return act.PLAYS[slot][pile]
    raise IllegalCommandError(f"your {card.rank_name} is already played")


class GoKey:
    """Space: the obvious next step (start a game, answer yes, say ready or spit)."""


class StopKey:
    """Escape: pause or resume, or answer no to a question."""


class KeysHelpKey:
    """Question mark: what the keys do."""


GO: Final = GoKey()
STOP: Final = StopKey()
KEYS_HELP: Final = KeysHelpKey()
Binding = CardKey | Command | GoKey | StopKey | KeysHelpKey

KEYS: Final[dict[str, Binding]] = {
    **{str(n): CardKey(n - 1, LEFT) for n in range(1, 6)},
    **{str(n % 10): CardKey((n - 6), RIGHT) for n in range(6, 11)},
    " ": GO,
    "\x1b": STOP,
    ",": Command(Verb.SLAP, pile=LEFT),
    ".": Command(Verb.SLAP, pile=RIGHT),
    "\t": Command(Verb.PILES),
    "/": Command(Verb.MY_CARDS),
    "*": Command(Verb.HINT),
    "#": Command(Verb.COUNT),
    "@": Command(Verb.SCORE),
    ";": Command(Verb.OPPONENT_CARDS),
    "'": Command(Verb.FACE_DOWN),
    "?": KEYS_HELP,
    "-": Command(Verb.SLOWER),
    "+": Command(Verb.FASTER),
    "=": Command(Verb.FASTER),
    "\n": Command(Verb.REPEAT),
}
"""Key -> what it does. "\n" is Enter on an empty line."""

KEY_NAMES: Final = {" ": "space", "\x1b": "escape", "\t": "tab", "\n": "enter",
                    ",": "comma", ".": "full stop", "/": "slash", "#": "hash", "@": "at",
                    "?": "question mark", "*": "star", "-": "minus", "+": "plus", "=": "equals",
                    ";": "semicolon", "'": "apostrophe"}

def key_help(game: str, *, slap: bool = True, stockpiles: int = 5) -> list[str]:
    """What the keys do in `game`, in short sentences (the question mark key says them).
    `slap`: whether a round of Spit ends in a race to slap (False: the first out chooses);
    `stockpiles`: how many a Spit player has (4 with `stockpiles = 4`: keys 1-4 and 6-9)."""
    if game == "speed":
        cards = ["Keys 1 to 5 play your cards on the left pile, in the order my cards says them.",
                 "Keys 6 to 0 play them on the right pile."]
    else:
        last = STOCK_NAMES[stockpiles - 1]
        right_keys = "6 to 0" if stockpiles == 5 else f"6 to {(5 + stockpiles) % 10}"
        cards = [f"Keys 1 to {stockpiles} play stockpile one to {last} on the left pile.",
                 f"Keys {right_keys} play stockpile one to {last} on the right pile."]
    verb = "slaps" if slap else "chooses"
    slaps = [f"Comma {verb} left, full stop {verb} right."] if game == "spit" else []
    return [*cards, "Space starts, says ready or spit, and answers yes.",
            "Escape pauses and answers no.", *slaps,
            "Tab says the piles, slash your cards, hash the count and at the score.",
            "Star says which of your cards fit which pile.",
            "Semicolon says the opponent's cards, and apostrophe your face-down cards.",
            "Enter says the last announcement again, and question mark these keys.",
            "Minus and plus make the opponent slower or faster.",
            "Or type any spoken command and press enter."]


def binding_for(text: str) -> Binding | None:
    """The binding of a one-key line ("1", ",", "?", "" for Enter), if it is one."""
    if text == "":
        return KEYS["\n"]
    if len(text) == 1:
        return KEYS.get(text)
    return None


def describe(key: str) -> str:
    return KEY_NAMES.get(key, key)
