"""Scoring commands after a lead word ("now flip"), on the real model and espeak-ng."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from benchmarks.make_corpus import speak
from voicespit.speech.language.grammar import LEAD_WORDS, sentences
from voicespit.speech.language.parser import command_in
from voicespit.speech.recognizers.log_mel import log_mel
from voicespit.speech.recognizers.sentence_scorer import Decoder, TokenTrie
from voicespit.speech.recognizers.whisper_lead import LeadWords, written_after_a_word
from voicespit.speech.recognizers.whisper_model import WhisperModel, written_forms

COMMANDS = ("flip", "seven on left", "i'm ready", "what can i play")


def test_a_form_after_a_word_loses_its_capital_but_not_its_i() -> None:
    assert [written_after_a_word(form) for form in written_forms("seven on left")] \
        == ["seven on left", "seven on left.", "7 on left", "7 on left."]
    assert written_after_a_word("I'm ready.") == "I'm ready."
    assert written_after_a_word("I give up.") == "I give up."
    assert written_after_a_word("Is it my turn.") == "is it my turn."


def test_lead_words_are_no_command_and_no_sentence_of_the_grammar() -> None:
    assert LEAD_WORDS and all(command_in(word) is None for word in LEAD_WORDS)
    assert not set(LEAD_WORDS) & set(sentences())


def encoded(model: WhisperModel, text: str, folder: Path) -> np.ndarray:
    pcm = speak(text, "en-us", 175, folder).astype(np.float64)  # espeak-ng's own rate
    # As the recognizer scores it: a margin of silence before, and silence after up to
    # a 5 s window (`WhisperSettings.window_seconds`).
    audio = np.concatenate([np.zeros(4800), pcm])
    audio = np.concatenate([audio, np.zeros(max(4800, 5 * 16000 - len(audio)))])
    return model.encode(log_mel(audio / 32768.0))


def lead_words_over(model: WhisperModel, texts: list[str]
                    ) -> tuple[TokenTrie, LeadWords, Decoder]:
    """The trie of `texts`, its lead words, and a decoder whose softmax covers both, as
    the recognizer builds them (the model's shared softmax stays the grammar's)."""
    tokens = model.sentence_tokens(texts)
    trie = TokenTrie(model.start_sequence, tokens, model.end_of_text)
    lead = LeadWords.build(model, model.start_sequence, texts, LEAD_WORDS,
                           trie.tokens[trie.first_words])
    decoder = model.decoder_for(tokens).with_outputs(
        [*model.decoder_for(tokens).output_tokens.tolist(), *lead.needed_tokens()])
    return trie, lead, decoder


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng speaks the commands")
def test_the_command_after_the_lead_word_scores_best_after_it(whisper_model: WhisperModel,
                                                              tmp_path: Path) -> None:
    texts = [form for sentence in COMMANDS for form in written_forms(sentence)]
    owner = [sentence for sentence in COMMANDS for _ in written_forms(sentence)]
    trie, lead, decoder = lead_words_over(whisper_model, texts)

    # Said alone, a command's first word is Whisper's own: no lead word to score after.
    alone = trie.score(decoder, encoded(whisper_model, "flip", tmp_path))
    assert not lead.begins(alone.first_token)

    audio = encoded(whisper_model, "okay, flip", tmp_path)
    whole = trie.score(decoder, audio)
    assert lead.begins(whole.first_token)  # Whisper's own first word is "Okay"
    assert whole.first_word_deficit > 4
    # The per-token bonus on both sides, as the recognizer gives it.
    scored = lead.scores(whole.first_token, decoder, audio, bonus=lead.lengths * 1.0,
                         token_bonus=1.0, within=float("inf"))
    after = scored.commands
    assert owner[int(np.argmax(after.log_probability))] == "flip"
    assert after.log_probability.shape == (len(texts),) == after.deficit.shape
    assert after.log_probability.max() > scored.alone  # "okay, flip" is no "Okay."
    # After the lead word, the command begins as Whisper would go on.
    assert after.first_word_deficit < 1
    assert list(lead.lengths) == [len(form) + 1 for form in whisper_model.sentence_tokens(texts)]
    # The one-step check of Whisper's own first word agrees with the whole scoring's.
    first = lead.first_word(decoder, audio)
    assert first.first_token == whole.first_token
    assert first.first_word_deficit == pytest.approx(whole.first_word_deficit, abs=1e-4)


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng speaks the words")
@pytest.mark.parametrize("word", ["okay", "ok", "so"])
def test_a_lead_word_said_alone_is_likelier_alone_than_before_any_command(
        whisper_model: WhisperModel, word: str, tmp_path: Path) -> None:
    texts = [form for sentence in sentences() for form in written_forms(sentence)]
    _, lead, decoder = lead_words_over(whisper_model, texts)
    audio = encoded(whisper_model, word, tmp_path)
    first = lead.first_word(decoder, audio)
    assert lead.begins(first.first_token)
    scored = lead.scores(first.first_token, decoder, audio, bonus=lead.lengths * 1.0,
                         token_bonus=1.0, within=3.0)
    # The per-token bonus evens out the short sentence's leaning: "ok" alone is no
    # "ok eight" (`WhisperSettings.alone_margin`).
    assert scored.alone > scored.commands.log_probability.max()
