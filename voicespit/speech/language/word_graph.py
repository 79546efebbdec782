"""A list of sentences as the smallest word graph that accepts exactly them.

A recognizer given a grammar as a graph searches each shared word once: "on
left" after thirteen ranks is one path, not thirteen. Unlike a JSGF grammar
written with slots, the graph accepts nothing outside the list (a JSGF
"move <stock> to <stock>" also accepts "move one to one").

Built as a trie, then minimized by merging states whose futures are identical.
Each transition carries the share of sentences that pass through it, so every
sentence is equally likely a priori.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Transition:
    source: int
    target: int
    word: str
    probability: float


@dataclass(frozen=True)
class WordGraph:
    start: int
    final: int
    """The one final state; every sentence ends with an empty move into it."""
    transitions: tuple[Transition, ...]
    ends: tuple[tuple[int, float], ...]
    """(state, probability) of the empty moves from where a sentence may end to `final`."""
    states: int

    @staticmethod
    def from_sentences(sentences: Iterable[str]) -> WordGraph:
        unique = list(dict.fromkeys(" ".join(s.split()) for s in sentences if s.split()))
        if not unique:
            raise ValueError("a word graph needs at least one sentence")
        trie: list[dict[str, int]] = [{}]
        accepting: list[bool] = [False]
        for sentence in unique:
            node = 0
            for word in sentence.split():
                if word not in trie[node]:
                    trie.append({})
                    accepting.append(False)
                    trie[node][word] = len(trie) - 1
                node = trie[node][word]
            accepting[node] = True
        merged = _minimize(trie, accepting)
        return _weighted(merged, accepting, trie)


def _minimize(trie: list[dict[str, int]], accepting: list[bool]) -> list[int]:
    """For each trie node, the id of its equivalence class (same future = same class)."""
    classes: dict[tuple[bool, tuple[tuple[str, int], ...]], int] = {}
    merged = [0] * len(trie)
    # Children always have larger indices than their parent, so go backwards.
    for node in range(len(trie) - 1, -1, -1):
        signature = (accepting[node],
                     tuple(sorted((word, merged[child]) for word, child in trie[node].items())))
        merged[node] = classes.setdefault(signature, len(classes))
    return merged


def _weighted(merged: list[int], accepting: list[bool], trie: list[dict[str, int]]) -> WordGraph:
    states = max(merged) + 1
    # Sentences below each class, counted on the (smaller) merged graph.
    edges: dict[int, dict[str, int]] = {}
    is_end = [False] * states
    for node, children in enumerate(trie):
        edges.setdefault(merged[node], {}).update(
            {word: merged[child] for word, child in children.items()})
        is_end[merged[node]] = is_end[merged[node]] or accepting[node]
    below = [0] * states
    # Class ids were handed out from the leaves up, so a child's id is below its parent's.
    for state in sorted(edges):
        below[state] = int(is_end[state]) + sum(below[child] for child in edges[state].values())
    final = states
    transitions = tuple(
        Transition(state, child, word, below[child] / below[state])
        for state in sorted(edges) for word, child in sorted(edges[state].items()))
    ends = tuple((state, 1 / below[state]) for state in range(states) if is_end[state])
    return WordGraph(merged[0], final, transitions, ends, states + 1)


def _continuations(sentences: Sequence[str]) -> Iterator[tuple[str, str]]:
    """(prefix, next word) for every proper prefix of every sentence."""
    for sentence in sentences:
        words = sentence.split()
        for length in range(1, len(words)):
            yield " ".join(words[:length]), words[length]


def proper_prefixes(sentences: Sequence[str]) -> frozenset[str]:
    """Every word sequence that begins some sentence and is not that whole sentence."""
    return frozenset(prefix for prefix, _ in _continuations(sentences))


WEAK_ONSETS = ("th", "f")
"""Spellings of the weakest sounds English words begin with (three, four, five): the
non-sibilant fricatives, quiet enough that noise hides them whole."""


def weakly_continued(sentences: Sequence[str]) -> frozenset[str]:
    """The sentences some longer sentence continues with a word beginning with one of
    `WEAK_ONSETS` ("flip", before "flip three")."""
    whole = {" ".join(sentence.split()) for sentence in sentences}
    return frozenset(prefix for prefix, word in _continuations(sentences)
                     if word.startswith(WEAK_ONSETS) and prefix in whole)
