"""Commands said after a lead word: "so nine", "please draw", "well, flip".

Whisper scores the whole utterance against every command, so a word said before a
command weighs on every sentence alike, and about half of such commands were refused
("Say again?") although the same command said alone was heard (round 38,
benchmarks/LEVERS.md). When the recognizer has refused an utterance whose first word no
command begins with (`SentenceScores.first_word_deficit`), and Whisper's own likeliest
first token is a lead word's (`grammar.LEAD_WORDS`), `LeadWords` scores every written
form again as written after that word, with and without a comma, on the same encoder
output; the recognizer's acceptance model then decides on those scores as on any.
Whisper writes "Okay" and "OK" with tokens the commands' softmax does not cover, so a
refusal that its own first word does not send here asks again, one decoder step with
the lead words in the softmax (`first_word`). "Now" seldom reaches it: Whisper's first
word for it is mostly "No" or "There".

A card play the recognizer accepted from an utterance that begins with a lead word is
scored after it the same way (round 41): "please flip" was played as "three".

The lead word said alone ("ok", "so") is scored too, with nothing after it or a full
stop (`AfterLead.alone`): the recognizer refuses a command that is not likelier
than it, so that an "ok" on its own is not heard as "eight" (round 40).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from voicespit.speech.recognizers.sentence_scorer import Decoder, Floats, SentenceScores, TokenTrie
from voicespit.speech.recognizers.whisper_model import WhisperModel


def written_after_a_word(form: str) -> str:
    """A written form as it follows another word: "Flip." → "flip." ("I" stays)."""
    if form == "I" or form.startswith(("I ", "I'")):
        return form
    return form[:1].lower() + form[1:]


def _writings(word: str) -> tuple[str, ...]:
    """The ways Whisper may write a lead word: as said, capitalised, and "OK" upper."""
    return tuple(dict.fromkeys((word, word.capitalize(),
                                word.upper() if len(word) == 2 else word)))


@dataclass
class LeadWords:
    """Every written form scored after one lead word, one trie per lead word."""

    start: tuple[int, ...]
    """The start sequence the recognizer's own trie begins with."""
    leads: dict[int, tuple[int, ...]]
    """Per first token of a lead word's writing, that writing's tokens."""
    separators: tuple[tuple[int, ...], ...]
    """What may come between the lead word and the command: nothing, or a comma."""
    endings: tuple[tuple[int, ...], ...]
    """What may follow the lead word said alone: nothing, or a full stop."""
    forms: list[tuple[int, ...]]
    """Each written form's tokens as written after a word (`written_after_a_word`)."""
    end_of_text: int
    first_words: TokenTrie
    """The commands' first tokens alone after the start sequence: Whisper's own first
    word against them, in one decoder step (`first_word`)."""
    _tries: dict[int, TokenTrie] = field(default_factory=dict)
    lengths: np.ndarray = field(init=False)
    """Per written form, the tokens scored after the lead word (its end included)."""

    def __post_init__(self) -> None:
        self.lengths = np.asarray([len(form) + 1 for form in self.forms])

    @classmethod
    def build(cls, model: WhisperModel, start: Sequence[int], texts: Sequence[str],
              words: Sequence[str], first_tokens: Iterable[int]) -> LeadWords:
        """`texts`: the recognizer's written forms, in its trie's order; `first_tokens`:
        the tokens its commands begin with."""
        leads: dict[int, tuple[int, ...]] = {}
        for word in words:
            for tokens in model.sentence_tokens(_writings(word)):
                leads.setdefault(tokens[0], tokens)
        comma = model.tokenizer.encode(",")
        full_stop = model.tokenizer.encode(".")
        return cls(tuple(start), leads, ((), comma), ((), full_stop),
                   model.sentence_tokens([written_after_a_word(text) for text in texts]),
                   model.end_of_text,
                   TokenTrie(start, [(int(token),) for token in dict.fromkeys(first_tokens)],
                             model.end_of_text))

    def needed_tokens(self) -> set[int]:
        """The tokens the decoder's softmax must cover to score after a lead word."""
        return {token for tokens in (*self.leads.values(), *self.separators, *self.endings,
                                     *self.forms)
                for token in tokens}

    def first_word(self, decoder: Decoder, encoded: Floats) -> SentenceScores:
        """Whisper's own first token and its first-word deficit, over `decoder`'s softmax
        (the recognizer's covers neither "Okay" nor "OK")."""
        # Pruned to the likeliest first word: the first step scores them all, and only
        # that step counts here.
        return self.first_words.score(decoder, encoded, within=0.0)

    def begins(self, first_token: int) -> bool:
        """Whether Whisper's own likeliest first token begins a lead word."""
        return first_token in self.leads

    def scores(self, first_token: int, decoder: Decoder, encoded: Floats, *,
               bonus: np.ndarray, token_bonus: float, within: float) -> AfterLead:
        """Every written form's scores as said after the lead word `first_token`
        begins, in the recognizer's form order: per form the likelier writing, with or
        without a comma; and the lead word said alone. `bonus`: per form, the
        recognizer's own; `token_bonus`: per token, for the lead word alone."""
        trie = self._tries.get(first_token)
        if trie is None:
            trie = self._tries[first_token] = self._trie(first_token)
        count = len(self.forms) * len(self.separators)
        alone_bonus = np.asarray([token_bonus * (len(ending) + 1) for ending in self.endings])
        scores = trie.score(decoder, encoded, bonus=np.concatenate(
            [np.tile(bonus, len(self.separators)), alone_bonus]), within=within)
        totals = scores.log_probability[:count].reshape(len(self.separators), -1)
        deficits = scores.deficit[:count].reshape(len(self.separators), -1)
        writing = np.argmax(totals, axis=0)
        columns = np.arange(len(self.forms))
        return AfterLead(SentenceScores(totals[writing, columns], deficits[writing, columns],
                                        scores.first_word_deficit, scores.first_token),
                         float(scores.log_probability[count:].max()))

    def _trie(self, first_token: int) -> TokenTrie:
        """The trie after one lead word: every form after each separator, then the
        lead word alone with each ending. Built once per lead word heard (a few
        milliseconds), then kept."""
        sentences = [(*separator, *form) for separator in self.separators
                     for form in self.forms]
        # The lead word's end is no command's beginning: the first-word deficit counts
        # the commands' first tokens only.
        return TokenTrie((*self.start, *self.leads[first_token]),
                         [*sentences, *self.endings], self.end_of_text,
                         commands=len(sentences))


@dataclass(frozen=True)
class AfterLead:
    """The scores after a lead word (`LeadWords.scores`)."""

    commands: SentenceScores
    """Every written form's, in the recognizer's form order."""
    alone: float
    """The lead word said alone: its best ending's log-probability with the per-token
    bonus (-inf: pruned, far behind the best command)."""
