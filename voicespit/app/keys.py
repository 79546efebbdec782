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
from voicespit.engine.speed import SpeedState
from voicespit.intents import State
from voicespit.narration import hand_in_spoken_order
from voicespit.speech.commands import Command, Verb
from voicespit.speech.parser import IllegalCommandError


@dataclass(frozen=True)
class CardKey:
    """Play the card at `index` (stockpile, or place in the spoken hand) onto `pile`."""

    index: int
    pile: int

    def resolve(self, state: State, player: int) -> Action:
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
    "#": Command(Verb.COUNT),
    "@": Command(Verb.SCORE),
    "?": KEYS_HELP,
    "-": Command(Verb.SLOWER),
    "+": Command(Verb.FASTER),
    "=": Command(Verb.FASTER),
    "\n": Command(Verb.REPEAT),
}
"""Key -> what it does. "\n" is Enter on an empty line."""

KEY_NAMES: Final = {" ": "space", "\x1b": "escape", "\t": "tab", "\n": "enter",
                    ",": "comma", ".": "full stop", "/": "slash", "#": "hash", "@": "at",
                    "?": "question mark", "-": "minus", "+": "plus", "=": "equals"}

def key_help(game: str) -> list[str]:
    """What the keys do in `game`, in short sentences (the question mark key says them)."""
    if game == "speed":
        cards = ["Keys 1 to 5 play your cards on the left pile, in the order my cards says them.",
                 "Keys 6 to 0 play them on the right pile."]
    else:
        cards = ["Keys 1 to 5 play stockpile one to five on the left pile.",
                 "Keys 6 to 0 play stockpile one to five on the right pile."]
    slaps = ["Comma slaps left, full stop slaps right."] if game == "spit" else []
    return [*cards, "Space starts, says ready or spit, and answers yes.",
            "Escape pauses and answers no.", *slaps,
            "Tab says the piles, slash your cards, hash the count and at the score.",
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
