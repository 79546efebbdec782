"""The word graph (voicespit/speech/language/word_graph.py): exactly the sentences, in few states."""

from __future__ import annotations

from collections import defaultdict

import pytest

from voicespit.speech.language import grammar
from voicespit.speech.language.word_graph import WordGraph, proper_prefixes, weakly_continued


def accepted(graph: WordGraph) -> dict[str, float]:
    """Every sentence the graph accepts with its probability (walks every path)."""
    outgoing = defaultdict(list)
    for transition in graph.transitions:
        outgoing[transition.source].append(transition)
    ends = dict(graph.ends)
    found: dict[str, float] = {}

    def walk(state: int, words: list[str], probability: float) -> None:
        if state in ends:
            found[" ".join(words)] = probability * ends[state]
        for transition in outgoing[state]:
            walk(transition.target, [*words, transition.word],
                 probability * transition.probability)

    walk(graph.start, [], 1.0)
    return found


def test_the_graph_accepts_exactly_the_sentences_each_equally_likely() -> None:
    sentences = grammar.sentences()
    found = accepted(WordGraph.from_sentences(sentences))
    assert sorted(found) == sorted(sentences)
    assert all(abs(p - 1 / len(sentences)) < 1e-12 for p in found.values())


def test_shared_endings_are_shared_states() -> None:
    graph = WordGraph.from_sentences(grammar.sentences())
    words_in_sentences = sum(len(sentence.split()) for sentence in grammar.sentences())
    assert len(graph.transitions) < words_in_sentences / 3


def test_unlike_the_slot_jsgf_a_move_to_the_same_slot_is_not_accepted() -> None:
    found = accepted(WordGraph.from_sentences(grammar.sentences()))
    assert "move one to two" in found and "move one to one" not in found


def test_a_sentence_that_begins_another_still_ends_there() -> None:
    found = accepted(WordGraph.from_sentences(["seven", "seven on left", "flip"]))
    assert set(found) == {"seven", "seven on left", "flip"}
    assert proper_prefixes(["seven on left", "flip"]) == {"seven", "seven on"}


def test_no_sentences_is_an_error() -> None:
    with pytest.raises(ValueError, match="at least one sentence"):
        WordGraph.from_sentences(["", "  "])


def test_commands_a_weak_sound_could_continue_are_the_flips_and_no_not_the_bare_ranks(
        ) -> None:
    assert weakly_continued(["flip", "flip three", "seven", "seven on left", "score",
                             "score please", "more", "more fun"]) == {"flip", "more"}
    # In the game's grammar: the flips, continued by three, four, five, "no", by
    # "thanks", and "repeat", by "that"; a bare rank is continued by "on" or "to", which
    # noise does not hide.
    assert weakly_continued(grammar.sentences()) == {"flip", "turn over", "no", "repeat"}
