"""What a sighted player takes in at a glance, and the one command (and key) that says it.

The list is data: the README's table is generated from it (`python -m
voicespit.app.reference`), and `tests/test_glance.py` checks that every entry's
command parses, its key is bound to that command, its answer tells what it
promises, and that every question the game answers from the table is on the list.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from voicespit.app.keys import KEYS, describe
from voicespit.engine import Rules, new_game
from voicespit.engine import actions as act
from voicespit.engine.speed import SpeedState
from voicespit.engine.spit import SpitState
from voicespit.narration.narrator import Narrator
from voicespit.speech.language.commands import Command, Verb
from voicespit.speech.language.grammar import phrase_for

BOTH = ("spit", "speed")


@dataclass(frozen=True)
class Glance:
    """One thing a sighted player sees, and how a listener asks for it."""

    sees: str
    """What the sighted player sees, in their words."""
    command: Command
    games: tuple[str, ...] = BOTH
    query: str = ""
    """The narrator's question behind the command ("piles", "my cards", ...)."""

    @property
    def key(self) -> str | None:
        """The key bound to the command, if one is."""
        return next((key for key, binding in KEYS.items() if binding == self.command), None)


GLANCES: tuple[Glance, ...] = (
    Glance("the top card of both piles", Command(Verb.PILES), query="piles"),
    Glance("the top card of one pile", Command(Verb.PILE, pile=0), query="left"),
    Glance("your face-up cards: each stockpile's top in Spit, your hand in Speed",
           Command(Verb.MY_CARDS), query="my cards"),
    Glance("which of your cards fit which pile",
           Command(Verb.HINT), query="what fits"),
    Glance("how many cards lie face down under each of your stockpiles and your "
           "opponent's, and the spit cards", Command(Verb.FACE_DOWN), ("spit",), "face down"),
    Glance("the size of the draw piles and side piles", Command(Verb.FACE_DOWN), ("speed",),
           "face down"),
    Glance("your opponent's face-up cards", Command(Verb.OPPONENT_CARDS), ("spit",),
           "opponent's cards"),
    Glance("how many cards your opponent holds (their faces are hidden)",
           Command(Verb.OPPONENT_CARDS), ("speed",), "opponent's cards"),
    Glance("how many cards each of you has left, and how tall each pile stands",
           Command(Verb.COUNT), query="count"),
    Glance("the score, or the round", Command(Verb.SCORE), query="score"),
)


def sample_table(game: str) -> SpitState | SpeedState:
    """A table in play (seeded), to show what each answer sounds like."""
    state = new_game(Rules.for_game(game), random.Random(11))
    state.apply(0, act.SPIT)
    return state


def answer(glance: Glance, game: str) -> str:
    """The answer the game gives to `glance`'s command on the sample table."""
    return Narrator().answer(glance.query, sample_table(game), 0).text


def glance_table() -> str:
    """The README's table: what you see, what to say, the key, and an answer."""
    rows = ["| a sighted player sees | say | key | the game answers (e.g.) |", "|---|---|---|---|"]
    for glance in GLANCES:
        key = glance.key
        if glance.games == BOTH:
            sees = glance.sees
            said = " ".join(f"{game.capitalize()}: {answer(glance, game)}" for game in BOTH)
        else:
            sees = f"{glance.sees} ({glance.games[0].capitalize()})"
            said = answer(glance, glance.games[0])
        rows.append(f"| {sees} | \"{phrase_for(glance.command)}\" | "
                    f"{describe(key) if key is not None else '-'} | {said} |")
    return "\n".join(rows)
