"""The command language's value types: what a player can say (`Verb`, `Command`), how
the app routes it (`Group`), and which of it the game state leaves worth hearing
(`GrammarContext`).

A `Command` is what the words meant ("seven on left" -> play a seven on the left
pile). Whether it is a legal move now is the parser's second stage. Its `repr` can
be pasted into Python; the words for it are the grammar's
(`grammar.phrase_for(Command.play(6, 0))` is "seven on left"). This module imports
nothing of the language, so every other module of it can import this one.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Group(enum.Enum):
    """How the app routes a command: moves go to the match, the rest to the app."""

    MOVE = "moves"
    """Plays and stockpile moves: resolved against the game state into an Action."""
    ROUND = "round"
    """Round flow (spit, slap, ready): also resolved into an Action."""
    INFO = "information"
    """Questions about the table: answered by narration, never change the game."""
    CONTROL = "control"
    """The session: pause, pace, speech rate, quitting, answering a question."""


class Verb(enum.Enum):
    """Every kind of command. The value names it; `grammar.phrase_for` says it."""

    PLAY = "play"
    FLIP = "turn over"
    MOVE = "move"
    DRAW = "draw"
    SPIT = "spit"
    SLAP = "slap"
    READY = "ready"
    PILES = "show piles"
    PILE = "what's on"
    MY_CARDS = "my cards"
    HINT = "what can i play"
    COUNT = "how many cards"
    SCORE = "score please"
    REPEAT = "say again"
    HELP = "what can i say"
    OPPONENT_CARDS = "opponent's cards"
    FACE_DOWN = "face down cards"
    SETUP = "how do you hear me"
    RULES = "how do i play"
    PAUSE = "pause game"
    RESUME = "continue"
    FASTER = "speed up"
    SLOWER = "slow down"
    SPEAK_FASTER = "speak faster"
    SPEAK_SLOWER = "speak slower"
    LOUDER = "volume up"
    QUIETER = "volume down"
    VOICE = "another voice"
    MORE_DETAIL = "more detail"
    LESS_DETAIL = "less detail"
    QUIT = "quit game"
    YES = "yes"
    NO = "no"
    NEW_GAME = "new game"
    MORE = "more"
    STOP = "stop"
    TUTORIAL = "tutorial"

    @property
    def group(self) -> Group:
        return _GROUPS[self]

    @property
    def games(self) -> tuple[str, ...]:
        """The games it means something in: Spit has no drawing, Speed no stockpiles or slaps."""
        return _ONLY_IN.get(self, ("spit", "speed"))


_GROUPS = {
    **dict.fromkeys((Verb.PLAY, Verb.FLIP, Verb.MOVE, Verb.DRAW), Group.MOVE),
    **dict.fromkeys((Verb.SPIT, Verb.SLAP, Verb.READY), Group.ROUND),
    **dict.fromkeys((Verb.PILES, Verb.PILE, Verb.MY_CARDS, Verb.HINT, Verb.COUNT, Verb.SCORE,
                     Verb.REPEAT, Verb.HELP, Verb.OPPONENT_CARDS, Verb.FACE_DOWN, Verb.SETUP,
                     Verb.RULES),
                    Group.INFO),
    **dict.fromkeys((Verb.PAUSE, Verb.RESUME, Verb.FASTER, Verb.SLOWER, Verb.SPEAK_FASTER,
                     Verb.SPEAK_SLOWER, Verb.LOUDER, Verb.QUIETER, Verb.VOICE, Verb.MORE_DETAIL,
                     Verb.LESS_DETAIL, Verb.QUIT, Verb.YES, Verb.NO, Verb.NEW_GAME, Verb.MORE,
                     Verb.STOP, Verb.TUTORIAL),
                    Group.CONTROL),
}

_ONLY_IN = {Verb.MOVE: ("spit",), Verb.SLAP: ("spit",), Verb.DRAW: ("speed",)}


@dataclass(frozen=True, slots=True)
class Command:
    """A verb and the slots the words filled. Unfilled slots are None.

    - PLAY: `rank` (0 ace .. 12 king), `pile` (0 left, 1 right, None: wherever it fits)
    - FLIP: `stock` (0..4, None: the one face-down stockpile)
    - MOVE: `stock` (from) and `target` (the empty slot)
    - SLAP and PILE: `pile`
    - HELP: `topic` (an index into the help topics; None: the overview)
    - NEW_GAME: `game` (0 Spit, 1 Speed; None: the game being played)
    """

    verb: Verb
    rank: int | None = None
    pile: int | None = None
    stock: int | None = None
    target: int | None = None
    topic: int | None = None
    game: int | None = None

    @staticmethod
    def play(rank: int, pile: int | None = None) -> Command:
        return Command(Verb.PLAY, rank=rank, pile=pile)

    @property
    def group(self) -> Group:
        return self.verb.group

    @property
    def is_action(self) -> bool:
        """True when the command asks for a move in the game (resolve it against the state)."""
        return self.verb.group in (Group.MOVE, Group.ROUND)

    def __repr__(self) -> str:
        slots = [f"{name}={value!r}" for name, value in
                 (("rank", self.rank), ("pile", self.pile), ("stock", self.stock),
                  ("target", self.target), ("topic", self.topic), ("game", self.game))
                 if value is not None]
        return f"Command({', '.join([f'Verb.{self.verb.name}', *slots])})"


@dataclass(frozen=True, slots=True)
class GrammarContext:
    """The verbs and slot values the grammar keeps; a value, cheap to compare and cache."""

    verbs: frozenset[Verb]
    ranks: frozenset[int]
    """Ranks the player can name: face-up stockpile tops (Spit) or the hand (Speed)."""
    piles: frozenset[int]
    """Piles in use (0 left, 1 right)."""
    stocks: frozenset[int]
    """Stockpiles a flip or move can name."""
    targets: frozenset[int]
    """Empty stockpile slots a move can fill."""

    @staticmethod
    def everything() -> GrammarContext:
        """No narrowing: the state-free grammar."""
        return GrammarContext(frozenset(Verb), frozenset(range(13)), frozenset((0, 1)),
                              frozenset(range(5)), frozenset(range(5)))
