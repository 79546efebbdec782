"""Why spoken commands are being missed, and the hint that helps.

After `MISSES_BEFORE_A_HINT` commands missed in a row the game says how to be heard
better. What helps depends on the cause, and the recognizer's own measurements of
each missed utterance tell most of them apart: speech that stood close to the room's
noise (move closer, or quieten the room), speech the microphone clipped (turn it
down), a command begun with another word ("okay, flip": start with the command), or
none of these (say one command at a time, a little slower). Pure: no clock, no audio.
"""

from __future__ import annotations

import collections
import enum
from collections.abc import Mapping

MISSES_BEFORE_A_HINT = 3
"""Spoken commands missed in a row (nothing usable heard) before the game says how to be
heard better: one miss is a cough or a word half heard, three is a room, a microphone
or a way of speaking that the game is failing, and "Say again?" alone does not help."""

FAINT_BELOW_DB = 25.0
"""Speech whose loudest moment stood less than this above the room's floor is faint. On
the tuning recordings (the default recognizer, every final's first answer), commands
that stood less than 25 dB above the room were refused 2 to 9 times as often as the
rest: 0.10 to 0.57 against 0.05 to 0.06 (real voices, espeak-ng commands, natural
phrasings); real voices mixed with real noise at 10 dB stand a median 21 dB above it."""

CLIPPED_FROM = 0.03
"""Speech with at least this share of its samples at the converter's limit was clipped.
Real voices (FSDD, every 15th quiet take of the tuning split, 72) played 24 dB too
loud: 61 heard right against 71, and 10 of the 11 missed had 0.046 to 0.24 of their
samples clipped; the right ones a median of 0.004; at their own level, none."""

WORD_BEFORE_FROM = 4.0
"""A miss whose first word Whisper found at least this much likelier (log-probability)
than the likeliest first word of any command (`first_word_deficit`) began with a word
that is no command's: "okay, flip", "so nine", "well, spit". Players begin commands so,
and Whisper, scoring whole sentences, refuses about half of them: heard right 0.44 of
`lead-in-tuning` (`benchmarks.make_talk_corpus`). Chosen on the tuning splits (round 38,
benchmarks/LEVERS.md): of the refusals, 0.41 of `lead-in-tuning`'s were this far, against
0.02 of real voices' (`fsdd-tuning`) and 0.12 of espeak-ng's plain commands (`tuning`),
so a hint needing two misses of three (`MissLog`) is rarely given for another cause
(held out: 0.42 of `lead-in-heldout`'s, none of `fsdd-test`'s, 0.12 of `heldout`'s)."""

MISSED_HINT = ("I keep missing you. Say one command at a time, a little slower: a card, "
               "like seven, or a card and a pile, like seven on left. Say help for more.")
FAINT_HINT = ("I keep missing you: your voice is hard to pick out from the noise around "
              "you. Come closer to the microphone or speak up a little, and turn down "
              "whatever is making noise if you can.")
WORD_BEFORE_HINT = ("I keep missing you. Start with the command itself, with no other word "
                    "before it: say flip, not okay flip.")
CLIPPED_HINT = ("I keep missing you: your voice comes through too loud and breaks up. "
                "Turn the microphone's level down, or sit a little further from it.")

CLIPPING_HEARD = ("Your microphone is set so loud that what it hears breaks up, and I "
                  "cannot pick out your words. Turn its level down.")
"""Said when clipping went on for the length of a word and no utterance started at all
(`utterance_audio.CLIPPED_FRAMES_TO_TELL`): the room raised with the voice. Not a miss
of something said, so no "Say again?"."""


class MissCause(enum.Enum):
    UNCLEAR = "unclear"
    """Nothing measured points elsewhere: the words themselves were not made out."""
    FAINT = "faint"
    CLIPPED = "clipped"
    WORD_BEFORE = "word before"
    """The command began with a word that is no command's (`WORD_BEFORE_FROM`)."""


HINTS = {MissCause.UNCLEAR: MISSED_HINT, MissCause.FAINT: FAINT_HINT,
         MissCause.CLIPPED: CLIPPED_HINT, MissCause.WORD_BEFORE: WORD_BEFORE_HINT}


def miss_cause(scores: Mapping[str, float] | None) -> MissCause:
    """The likely cause of one missed utterance, from the recognizer's measurements of it
    (`above_floor_db`, `clipped_share`, Whisper's `first_word_deficit`; a recognizer
    that gives none: UNCLEAR). What the room and the microphone did comes first: a word
    said into noise or clipping is also unlike any command's first word."""
    scores = scores or {}
    if scores.get("clipped_share", 0.0) >= CLIPPED_FROM:
        return MissCause.CLIPPED
    above = scores.get("above_floor_db")
    if above is not None and 0.0 < above < FAINT_BELOW_DB:
        return MissCause.FAINT
    if scores.get("first_word_deficit", 0.0) >= WORD_BEFORE_FROM:
        return MissCause.WORD_BEFORE
    return MissCause.UNCLEAR


def clipping_without_words(scores: Mapping[str, float] | None) -> bool:
    """The recognizer heard clipping and no utterance (`CLIPPING_HEARD`)."""
    return bool((scores or {}).get("no_utterance"))


class MissLog:
    """The causes of the commands missed in a row; the hint when it is due."""

    def __init__(self) -> None:
        self._causes: collections.deque[MissCause] = collections.deque(
            maxlen=MISSES_BEFORE_A_HINT)
        self.in_a_row = 0

    def heard(self) -> None:
        """A command was heard: the count starts again."""
        self.in_a_row = 0
        self._causes.clear()

    def missed(self, scores: Mapping[str, float] | None = None) -> str | None:
        """One more miss; the hint to say when one is due (every `MISSES_BEFORE_A_HINT`
        misses): the cause most of the last misses share, or the general one."""
        self.in_a_row += 1
        self._causes.append(miss_cause(scores))
        if self.in_a_row % MISSES_BEFORE_A_HINT:
            return None
        cause, count = collections.Counter(self._causes).most_common(1)[0]
        return HINTS[cause if 2 * count > len(self._causes) else MissCause.UNCLEAR]
