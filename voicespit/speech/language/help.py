"""Spoken help: short sentences, a few at a time, for the game being played.

Every phrase in it comes from the grammar (`PHRASINGS` through `phrase_for`), so
the help can never name a command the recognizer does not know, and every
phrasing of a topic is listed: each command's own phrase with its meaning, the other
ways of saying it after it. Speed help leaves out what
only Spit has (stockpiles, moves, slaps) and Spit help what only Speed has; with
`slap = false` nobody races to slap, and the help says who chooses the pile instead.

A listener cannot skim, so no sentence is longer than `MAX_WORDS` words and
`HelpPages` hands them out `PAGE_SENTENCES` at a time: "more" continues, "stop"
ends. Pure: no audio, no clock.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from voicespit.narration.answers import as_said
from voicespit.speech.language.commands import Command, Group, Verb
from voicespit.speech.language.grammar import HELP_TOPIC_WORDS, PHRASINGS, Phrasing, phrase_for

MAX_WORDS: Final = 25
"""The longest sentence the help says: about as much as a listener holds at once."""
PAGE_SENTENCES: Final = 3
"""Sentences said before offering more."""
GAMES: Final = ("spit", "speed")

_EXAMPLES: Final = {"rank": "seven", "pile": "left", "stock": "three", "target": "two",
                    "topic": "moves"}
_MEANING_IN: Final[dict[tuple[str, str], str]] = {
    ("spit", "my cards"): "hear the top cards of your stockpiles",
    ("speed", "my cards"): "hear the cards in your hand",
    ("speed", "{rank} on {pile}"):
        "play a card of that rank (ace to king) from your hand onto that pile (left or right)",
    ("speed", "turn over"): "when everyone is stuck, turn new cards onto the piles",
    ("speed", "draw"): "draw a card into your hand",
    ("spit", "opponent's cards"): "hear the opponent's face-up cards",
    ("speed", "opponent's cards"): "hear how many cards the opponent holds",
    ("spit", "face down cards"):
        "hear how many cards lie face down under each stockpile, and your spit cards",
    ("speed", "face down cards"): "hear how many cards are left in the draw and side piles",
}
"""Where a phrasing's own meaning speaks of both games, what it means in one of them."""
_MEANING_CHOOSING: Final[dict[str, str]] = {
    "slap {pile}": "at the end of a round, when the choice is yours, take that pile",
}
"""With `slap = false` (the first one out chooses a pile, nobody slaps), what a phrasing
whose own meaning speaks of slapping does instead."""


def said(command: Command) -> str:
    """The canonical phrase for a command, written as it is said ("what can I say")."""
    return as_said(phrase_for(command))


def applies_to(phrasing: Phrasing, game: str) -> bool:
    """Whether the phrasing means something in `game` (stockpile numbers are Spit's only)."""
    if game not in phrasing.verb.games:
        return False
    return game == "spit" or not {"stock", "target"} & set(phrasing.slots)


def meaning_in(phrasing: Phrasing, game: str, *, slap: bool = True) -> str:
    """What the phrasing does in `game` (`slap`: whether Spit's round ends in a slap race)."""
    if not slap and phrasing.pattern in _MEANING_CHOOSING:
        return _MEANING_CHOOSING[phrasing.pattern]
    return _MEANING_IN.get((game, phrasing.pattern), phrasing.meaning)


def example_of(phrasing: Phrasing, game: str = "spit") -> str:
    """The phrasing with its slots filled by example words ("seven on left"); the game
    named is the one not being played ("play speed" in Spit's help)."""
    examples = {**_EXAMPLES, "game": GAMES[1 - GAMES.index(game)]}
    return as_said(re.sub(r"\{(\w+)\}", lambda found: examples[found.group(1)],
                           phrasing.pattern))


def overview(game: str, *, slap: bool = True) -> list[str]:
    """What "help" says first: the commands that matter most in `game`, one idea a sentence.
    `slap`: whether a round of Spit ends in a race to slap (False: the first out chooses)."""
    def say(verb: Verb, **slots: int) -> str:
        return said(Command(verb, **slots))

    sentences = [
        f"Say a card and a pile, like {say(Verb.PLAY, rank=6, pile=0)}.",
        f"Say just {say(Verb.PLAY, rank=6)} when it fits only one pile.",
        # Every deal asks for "ready"; spit also starts a round, but leading with it
        # told the player one thing and the deal another.
        f"Say {say(Verb.READY)} to start a round, and {say(Verb.SPIT)} to turn new cards "
        "onto the piles when nobody can play.",
    ]
    if game == "spit" and slap:
        sentences.append(f"When a round ends, say {say(Verb.SLAP, pile=0)} or "
                         f"{say(Verb.SLAP, pile=1)} to take the smaller pile.")
    elif game == "spit":
        sentences.append(f"When a round ends, the first one out chooses the pile to take: say "
                         f"{say(Verb.SLAP, pile=0)} or {say(Verb.SLAP, pile=1)} when the choice "
                         "is yours.")
    sentences += [
        f"To hear the table, say {say(Verb.PILES)}, {say(Verb.MY_CARDS)}, {say(Verb.COUNT)} "
        f"or {say(Verb.SCORE)}.",
        f"{_capitalized(say(Verb.HINT))} tells you which of your cards fit which pile.",
        f"{_capitalized(say(Verb.REPEAT))} repeats what was said last.",
        f"To control the game, say {say(Verb.PAUSE)}, {say(Verb.FASTER)}, {say(Verb.SLOWER)} "
        f"or {say(Verb.QUIT)}.",
        # Hands-free, the game's own sound is the one setting a player cannot reach
        # otherwise; the rest of its voice settings are in the control topic.
        f"For the game's voice, say {say(Verb.LOUDER)}, {say(Verb.QUIETER)}, "
        f"{say(Verb.SPEAK_FASTER)}, {say(Verb.SPEAK_SLOWER)} or {say(Verb.VOICE)}.",
        f"Say {say(Verb.RULES)} to hear the rules, or {say(Verb.TUTORIAL)} to learn the game "
        "in one guided round.",
        f"Say {say(Verb.NEW_GAME, game=1 - GAMES.index(game))} to play "
        f"{_capitalized(GAMES[1 - GAMES.index(game)])} instead.",
        f"For every command of one topic, say {say(Verb.HELP, topic=0)}, or "
        f"{_listed(HELP_TOPIC_WORDS[1:])}.",
    ]
    return sentences


def topic_help(group: Group, game: str, *, slap: bool = True) -> list[str]:
    """Every phrasing of one topic that means something in `game`: each command's
    canonical phrase with what it does, then the other ways of saying it (`slap`: as in
    `overview`). A listener cannot skip "the same as …" six times over, so the other ways
    follow their command in one list, in the same sentence when it stays short enough."""
    sentences = [f"{_capitalized(group.value)}."]
    for canonical, others in ways_of_saying(group, game):
        said_as = f"{_capitalized(example_of(canonical, game))}: " \
                  f"{meaning_in(canonical, game, slap=slap)}"
        alternatives = [example_of(other, game) for other in others]
        joined = f"{said_as}; or say {_listed(alternatives)}."
        if not alternatives:
            sentences.append(f"{said_as}.")
        elif word_count(joined) <= MAX_WORDS:
            sentences.append(joined)
        else:
            sentences.append(f"{said_as}.")
            sentences += _or_say(alternatives)
    return sentences


def ways_of_saying(group: Group, game: str) -> list[tuple[Phrasing, list[Phrasing]]]:
    """The phrasings of one topic that mean something in `game`, by command: each
    command's canonical phrasing (the first of its verb with its slots, as `phrase_for`
    takes it) and the others that say the same, in the grammar's order."""
    found: dict[tuple[Verb, frozenset[str]], tuple[Phrasing, list[Phrasing]]] = {}
    for phrasing in PHRASINGS:
        if phrasing.verb.group is group and applies_to(phrasing, game):
            key = (phrasing.verb, frozenset(phrasing.slots))
            if key in found:
                found[key][1].append(phrasing)
            else:
                found[key] = (phrasing, [])
    return list(found.values())


def _or_say(alternatives: Sequence[str]) -> list[str]:
    """"Or say a, b or c." sentences naming every alternative: as few as keep each within
    `MAX_WORDS`, the alternatives shared out evenly among them."""
    for count in range(1, len(alternatives)):
        size = -(-len(alternatives) // count)
        sentences = [f"Or say {_listed(alternatives[start:start + size])}."
                     for start in range(0, len(alternatives), size)]
        if all(word_count(sentence) <= MAX_WORDS for sentence in sentences):
            return sentences
    return [f"Or say {alternative}." for alternative in alternatives]


def word_count(sentence: str) -> int:
    return len(sentence.split())


def sentences_of(text: str) -> list[str]:
    """Split spoken text into its sentences (after ".", "!" or "?" and a space)."""
    return [part for part in re.split(r"(?<=[.!?])\s+", text.strip()) if part]


HELP_ENDING: Final = f"That is all the help. Say {said(Command(Verb.HELP))} to hear it again."


class HelpPages:
    """Help being read out: a few sentences now, the rest on "more", none after "stop"."""

    def __init__(self, page_sentences: int = PAGE_SENTENCES) -> None:
        self.page_sentences = page_sentences
        self._rest: list[str] = []
        self._ending = HELP_ENDING
        self._name = "Help"

    @property
    def is_open(self) -> bool:
        """Whether more help is waiting to be said."""
        return bool(self._rest)

    def start(self, sentences: Sequence[str], ending: str = "", name: str = "Help") -> str:
        """The first page of new help (any help still waiting is dropped). `ending`: what
        "more" says once it is all read (the help's own words unless given); `name`: what
        "stop talking" says it stopped ("Rules stopped.")."""
        self._rest = list(sentences)
        self._ending = ending or HELP_ENDING
        self._name = name
        return self.more()

    def more(self) -> str:
        """The next page, ending with how to go on when there is more."""
        if not self._rest:
            return self._ending
        page, self._rest = self._rest[:self.page_sentences], self._rest[self.page_sentences:]
        if self._rest:
            page.append(f"Say {said(Command(Verb.MORE))}, or {said(Command(Verb.STOP))}.")
        return " ".join(page)

    def stop(self) -> str:
        if not self._rest:
            return "There is no help to stop."
        self._rest = []
        return f"{self._name} stopped."


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def _listed(words: Sequence[str]) -> str:
    return ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else "".join(words)
