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

The game's words count only around the moment they were heard. Each word's time is
estimated from where it stands in its announcement (`timed_sentences`: speech runs at
a nearly even pace of letters, with a pause at each punctuation mark; with weights
fitted to them, within 0.15 s of espeak-ng's own word ends in ten of the game's
sentences), and a command is the game's own only
when the words that make it were heard during it or just before it (`EARLY`, `LATE`).
Before (round 30), any word of an announcement heard in the second before the command
counted, so a player who said a rank the game had named a second earlier, or one it was
about to name later in the same announcement, was refused: on the room benchmark's
tuning split, 31 of the 792 commands said over the game (29 of them heard right), while
over the narration alone the check refused nothing the other checks let through. Timed
word by word it refused 20 (most of them the player saying "three" as the game says
"Left: three.", which no word timing can tell from the game's echo), and 8 more commands
were acted on right, none wrong (docs/listening-record.md, round 31).

The price falls on a player who says, over the game, exactly what the game is saying
at that moment; in Spit a card goes on a pile whose top is one rank away, so the rank
the game announces for a pile is rarely the rank the player plays on it. The room
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
"""A recognized utterance may be made of the game's sound heard this long before it began
(the room's delay and tail, the echo mask's hold, the detector's decision): the listener's
checks look that far back for the game. Its words, timed one by one, count over a shorter
stretch (`LATE`)."""
EXTRA_WORDS = 2
"""A run of the game's words may hold this many more than the command heard ("Left:
seven." is the command "seven on left" heard as "seven left")."""
MOST_WORDS = 3
"""Runs are taken in any order ("Left: seven." is said in the opposite order to the
command), so they are kept short."""
_SENTENCE_END = re.compile(r"[.!?;]")
"""Runs stay inside one sentence: "Left: seven. Right: eight." says "seven on left" and
"eight on right", never "seven on right"."""
LATE = 0.5
"""The game's words may have made a command that began up to this long after their
estimated end: the room's delay (up to 80 ms on the benchmark), the echo's
tail the cancellers leave, and the estimate's error."""
EARLY = 0.3
"""... or that ended up to this long before their estimated start (the estimate's
error: a word's echo is never heard before the word)."""
PAUSE_LETTERS = 4
"""The pause after a punctuation mark, in letters' worth of speech."""
DIGIT_LETTERS = 3
"""A digit is said as a word of about three letters ("1" as "one")."""


@dataclass(frozen=True, slots=True)
class Spoken:
    text: str
    start: float
    """Clock time its first sample was heard."""
    end: float
    """Clock time its last sound would be heard, if it was not cut (the silence after
    its last word left out)."""


@dataclass(frozen=True, slots=True)
class TimedWord:
    word: str
    start: float
    end: float
    """Clock times the word is estimated to have been heard (`timed_sentences`)."""


def timed_sentences(spoken: Spoken) -> list[list[TimedWord]]:
    """The words of `spoken`, sentence by sentence, each with when it was heard:
    `spoken`'s time shared out in proportion to the letters of each word (and one
    more for the gap after it), with `PAUSE_LETTERS` more after a punctuation mark
    inside the announcement."""
    tokens = spoken.text.split()
    lengths = [sum(c.isalpha() for c in token) + DIGIT_LETTERS * sum(c.isdigit() for c in token)
               + 1 for token in tokens]
    pauses = [PAUSE_LETTERS if index < len(tokens) - 1 and not token[-1].isalnum() else 0
              for index, token in enumerate(tokens)]
    total = sum(lengths) + sum(pauses)
    if not total:
        return []
    per_letter = max(spoken.end - spoken.start, 0.0) / total
    sentences: list[list[TimedWord]] = [[]]
    at = spoken.start
    for token, length, pause in zip(tokens, lengths, pauses, strict=True):
        end = at + length * per_letter
        sentences[-1].extend(TimedWord(word, at, end) for word in words_of(token))
        at = end + pause * per_letter
        if _SENTENCE_END.search(token):
            sentences.append([])
    return [sentence for sentence in sentences if sentence]


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


def is_self_echo(text: str, spoken: list[Spoken],
                 during: tuple[float, float] | None = None) -> bool:
    """Whether the command `text` says is one that a run of the game's words in `spoken`
    also says (so the recognizer may have heard the game, not the player). With
    `during` (the clock times the command was said), only runs heard around then
    count (`EARLY`, `LATE`)."""
    heard = command_in(text)
    if heard is None:
        return False
    heard_words = set(words_of(text))
    longest = min(len(heard_words) + EXTRA_WORDS, MOST_WORDS)
    for said in spoken:
        for sentence in timed_sentences(said):
            # Parsing is the cost (the listener waits for it): only runs that share a word
            # with what was heard, and were heard around it, can have made it.
            runs = {order for first in range(len(sentence))
                    for length in range(1, min(longest, len(sentence) - first) + 1)
                    if _heard_around(sentence[first:first + length], heard_words, during)
                    for order in itertools.permutations(
                        [timed.word for timed in sentence[first:first + length]])}
            if any(_command_of(" ".join(run)) == heard for run in runs):
                return True
    return False


def _heard_around(run: list[TimedWord], heard_words: set[str],
                  during: tuple[float, float] | None) -> bool:
    """Whether `run` shares a word with what was heard, and those words of it were heard
    around `during` (None: whenever). The run's other words are the game's fillers ("a"
    in "a nine"), which may be said long before."""
    shared = [timed for timed in run if timed.word in heard_words]
    if not shared:
        return False
    if during is None:
        return True
    start, end = during
    return shared[0].start - EARLY <= end and shared[-1].end + LATE >= start


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
    # Announcements begun after the command ended are left out, though a word may count
    # up to `EARLY` after it: an announcement's start is known, only its later words'
    # times are estimated.
    around = spoken.between(offset + start - LATE, offset + end)
    if not around or not is_self_echo(result.text, around,
                                      (offset + start, offset + max(end, start))):
        return result
    return dataclasses.replace(result, rejected=True,
                               scores={**(result.scores or {}), "self_echo": 1.0})
