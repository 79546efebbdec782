"""The game's own words heard back: a command that says only what the game was saying.

The canceller leaves a trace of the game's voice, and the talk detector sometimes
takes a burst of it for the player (a false start); the echo mask then lets that
trace through, and the recognizer, listening for commands, hears the game's own
words as one: on the room benchmark the countdown's "Three." became the command
"three", and the news of a new card the command "five" (the stockpile's number, in
"Stock five shows a three."). But the game knows what it said and when.
`SpokenWords` keeps the words of every announcement with the clock times they were
heard; `is_self_echo` says whether a command is one the game's own words in that
window would also make ("three" from "...Three. Two. One.").
The listener refuses such a command as not understood, so the player, if it was
them, is told, and a card nobody said is never played.

The price falls on a player who says, over the game, exactly what the game is
saying; in Spit a card goes on a pile whose top is one rank away, so the rank the
game announces for a pile is rarely the rank the player plays on it. The room
benchmark measures what it costs (accuracy over the game).
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import itertools
import re
import threading
from dataclasses import dataclass

from voicespit.speech.language.commands import Command
from voicespit.speech.language.parser import command_in, words_of
from voicespit.speech.listening.near_end import FRAME_SECONDS, NearEndEvidence
from voicespit.speech.recognizer import Recognition

WINDOW_BEFORE = 1.0
"""A recognized utterance may be the echo of words heard this long before it began
(the room's delay and tail, the echo mask's hold, the detector's decision)."""
EXTRA_WORDS = 2
"""A run of the game's words may hold this many more than the command heard ("Left:
seven." is the command "seven on left" heard as "seven left")."""
MOST_WORDS = 3
"""Runs are taken in any order ("Left: seven." is said in the opposite order to the
command), so they are kept short."""
_SENTENCE_END = re.compile(r"[.!?;]")
"""Runs stay inside one sentence: "Left: seven. Right: eight." says "seven on left" and
"eight on right", never "seven on right"."""


@dataclass(frozen=True, slots=True)
class Spoken:
    text: str
    start: float
    """Clock time its first sample was heard."""
    end: float
    """Clock time its last sample would be heard, if it was not cut."""


class SpokenWords:
    """What the game said out loud, by clock time: fed by the speaker's thread, read by
    the listener's. Keeps the last `keep` announcements."""

    def __init__(self, keep: int = 64) -> None:
        self._lock = threading.Lock()
        self._spoken: collections.deque[Spoken] = collections.deque(maxlen=keep)

    def played(self, text: str, start: float, end: float) -> None:
        """Announcement `text` began to be heard at clock time `start`, lasting to `end`."""
        with self._lock:
            self._spoken.append(Spoken(text, start, end))

    def between(self, start: float, end: float) -> list[Spoken]:
        """Announcements heard at any time in [start, end], in order."""
        with self._lock:
            spoken = list(self._spoken)
        return sorted((s for s in spoken if s.start <= end and s.end >= start),
                      key=lambda s: s.start)


def is_self_echo(text: str, spoken: list[Spoken]) -> bool:
    """Whether the command `text` says is one that a run of the game's words in `spoken`
    also says (so the recognizer may have heard the game, not the player)."""
    heard = command_in(text)
    if heard is None:
        return False
    heard_words = set(words_of(text))
    longest = min(len(heard_words) + EXTRA_WORDS, MOST_WORDS)
    for said in spoken:
        for sentence in _SENTENCE_END.split(said.text):
            words = words_of(sentence)
            # Parsing is the cost (the listener waits for it): only runs that share a word
            # with what was heard can say the same thing.
            runs = {order for first in range(len(words))
                    for length in range(1, min(longest, len(words) - first) + 1)
                    if heard_words.intersection(words[first:first + length])
                    for order in itertools.permutations(words[first:first + length])}
            if any(_command_of(" ".join(run)) == heard for run in runs):
                return True
    return False


@functools.lru_cache(maxsize=4096)
def _command_of(words: str) -> Command | None:
    """The game says the same few sentences all match long ("Left: seven."): parse each
    run once."""
    return command_in(words)


def refused_if_echo(result: Recognition, spoken: SpokenWords, offset: float,
                    evidence: NearEndEvidence | None = None) -> Recognition:
    """`result` (a final one, on the stream's timeline: clock time = `offset` + stream
    time) as it is, or refused (`rejected`, scored "self_echo") when the game's words
    heard around it would make the same command. With `evidence` (the listener's frame
    judgements), a command during none of whose frames the game could be heard, nor its
    echo linger in the room, is left alone: it holds no sound of the game's. Without
    that, the game's prompts refused their own answers: "ready" said promptly after "Say
    ready.", "yes" after "Quit this game? Say yes or no.", each heard within the second
    after the words the game had said (played by voice through a loudspeaker, round 23)."""
    if not result.is_final or result.rejected or not result.text:
        return result
    start, end = result.speech_span
    if evidence is not None and evidence.audible_share(start, max(end, start) + FRAME_SECONDS) == 0.0:
        return result
    around = spoken.between(offset + start - WINDOW_BEFORE, offset + end)
    if not around or not is_self_echo(result.text, around):
        return result
    return dataclasses.replace(result, rejected=True,
                               scores={**(result.scores or {}), "self_echo": 1.0})
