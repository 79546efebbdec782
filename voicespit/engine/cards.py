"""Cards, ranks, suits and colours.

The 52 cards are singletons (`DECK[i]`), so the engine compares and stores them
by identity and indexes lookup tables by `card.index` without allocating. A card's
`repr` can be pasted back into Python: `Card.parse("seven of hearts")`.

Ranks are numbered 0 (ace) to 12 (king) and are *cyclic* for play: the corner
turn makes an ace adjacent to both the king and the two, so two ranks are
adjacent exactly when they differ by 1 modulo 13.
"""

from __future__ import annotations

from typing import Final

RANK_NAMES: Final = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)
RANK_PLURALS: Final = (
    "aces", "twos", "threes", "fours", "fives", "sixes", "sevens",
    "eights", "nines", "tens", "jacks", "queens", "kings",
)
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
RED_SUITS: Final = frozenset({1, 2})

ACE: Final = 0
KING: Final = 12
RANK_COUNT: Final = 13


class Card:
    """One of the 52 cards. Never construct one: use `DECK`, `Card.of` or `Card.parse`."""

    __slots__ = ("index", "is_red", "rank", "suit")

    index: int
    """0..51; rank * 4 + suit."""
    rank: int
    """0 (ace) .. 12 (king)."""
    suit: int
    """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    is_red: bool
    """Diamonds and hearts are red; clubs and spades are black."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.rank = index // 4
        self.suit = index % 4
        self.is_red = self.suit in RED_SUITS

    @staticmethod
    def of(rank: int, suit: int) -> Card:
        """The card of this rank (0..12) and suit (0..3)."""
        if not (0 <= rank < RANK_COUNT and 0 <= suit < 4):
            raise ValueError(f"no card with rank {rank} and suit {suit}")
        return DECK[rank * 4 + suit]

    @staticmethod
    def parse(text: str) -> Card:
        """`Card.parse("seven of hearts")` -> the seven of hearts."""
        words = text.lower().split()
        if len(words) != 3 or words[1] != "of":
            raise ValueError(f"not a card name: {text!r} (expected e.g. 'seven of hearts')")
        try:
            return Card.of(RANK_NAMES.index(words[0]), SUIT_NAMES.index(words[2]))
        except ValueError:
            raise ValueError(f"not a card name: {text!r}") from None

    @property
    def rank_name(self) -> str:
        return RANK_NAMES[self.rank]

    @property
    def name(self) -> str:
        """"seven of hearts"."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    @property
    def colour(self) -> str:
        return "red" if self.is_red else "black"

    def __repr__(self) -> str:
        return f"Card.parse({self.name!r})"

    def __str__(self) -> str:
        return self.name

    def __reduce__(self) -> tuple[object, tuple[int]]:
        # Keep cards singletons through pickle and deepcopy.
        return (_card_at, (self.index,))


def _card_at(index: int) -> Card:
    return DECK[index]


DECK: Final[tuple[Card, ...]] = tuple(Card(i) for i in range(52))
"""All 52 cards in index order (ace of clubs first, king of spades last)."""


def ranks_adjacent(rank_a: int, rank_b: int) -> bool:
    """True when the ranks are one apart, turning the corner (ace-king, ace-two)."""
    return (rank_a - rank_b) % RANK_COUNT in (1, RANK_COUNT - 1)


def ace_high_step(rank: int) -> int:
    """0 for a two up to 12 for an ace: the order in which a player ranks cards by name
    (ace high), as opposed to the play order, where the ace turns the corner."""
    return (rank - 1) % RANK_COUNT


def with_article(rank: int) -> str:
    """"a seven", "an eight", "an ace": rank names as a player says them."""
    name = RANK_NAMES[rank]
    return f"an {name}" if name[0] in "ae" else f"a {name}"


def parse_rank(word: str) -> int:
    """"seven" or "sevens" -> 6."""
    word = word.lower()
    if word in RANK_NAMES:
        return RANK_NAMES.index(word)
    if word in RANK_PLURALS:
        return RANK_PLURALS.index(word)
    raise ValueError(f"not a rank: {word!r}")
