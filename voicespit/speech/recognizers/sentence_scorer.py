"""Scoring every sentence of a closed set with Whisper's decoder, by teacher forcing.

Given the encoder's output for one utterance, the log-probability that Whisper
would write each candidate sentence is the sum, over the sentence's tokens and
its end-of-text, of the decoder's log-probability of that token after the ones
before it. Candidates share beginnings ("seven on left", "seven on right",
"seven left" ...), so they are laid out as a token trie and every trie node is
decoded once; the nodes of one depth go through the decoder together, as one
batch, layer by layer, each attending to its own path of ancestors.

The softmax is taken over a restricted set of tokens: the commonest few
thousand (BPE ids are roughly in order of frequency) plus every token the
sentences use. The full vocabulary's output layer would cost five times the
rest of the decoder; the common tokens carry nearly all of the probability
mass, and the best of them at each step measures how far the audio is from the
sentence ("what time is it" forced into "what's on left" costs a lot at
"'s"): the *deficit*, used to turn chatter away.

Pure numpy: the weights come from `ct2_weights.ModelFile`, in float32.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from voicespit.speech.recognizers.ct2_weights import ModelFile, ModelFileError

Floats = npt.NDArray[np.float32]
_LAYER_NORM_EPSILON = 1e-5


@dataclass(frozen=True, slots=True)
class _Linear:
    weight: Floats
    """Transposed once at load: (inputs, outputs), so `x @ weight` needs no copy."""
    bias: Floats

    def __call__(self, x: Floats) -> Floats:
        return np.asarray(x @ self.weight + self.bias, dtype=np.float32)


@dataclass(frozen=True, slots=True)
class _Norm:
    gamma: Floats
    beta: Floats

    def __call__(self, x: Floats) -> Floats:
        mean = x.mean(axis=-1, keepdims=True)
        centred = x - mean
        variance = (centred * centred).mean(axis=-1, keepdims=True)
        return np.asarray(centred / np.sqrt(variance + _LAYER_NORM_EPSILON) * self.gamma
                          + self.beta, dtype=np.float32)


@dataclass(frozen=True, slots=True)
class _Layer:
    self_norm: _Norm
    self_qkv: _Linear
    self_out: _Linear
    cross_norm: _Norm
    cross_query: _Linear
    cross_key_value: _Linear
    cross_out: _Linear
    ffn_norm: _Norm
    ffn_in: _Linear
    ffn_out: _Linear


def _gelu(x: Floats) -> Floats:
    # The tanh form; within 1e-3 of the exact one, far below what moves a score.
    return np.asarray(0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x * x * x))),
                      dtype=np.float32)


class _Embeddings:
    """The token embedding table as stored (fp16, or int8 with a scale), rows read on demand.

    The full table is 20 M values; the decoder needs only the rows of the grammar's
    tokens as inputs and of the restricted softmax as outputs.
    """

    def __init__(self, model: ModelFile, scope: str) -> None:
        self.table = model.stored(f"{scope}/weight")
        self.scale = model.array(f"{scope}/weight_scale").reshape(-1) \
            if f"{scope}/weight_scale" in model else None
        if self.table.ndim != 2:
            raise ModelFileError(f"{model.path}: {scope} is not an embedding table")

    def rows(self, tokens: npt.NDArray[np.int64]) -> Floats:
        rows = self.table[tokens].astype(np.float32)
        if self.scale is not None:
            rows /= self.scale[tokens, None]
        return rows


class Decoder:
    """Whisper's text decoder (pre-norm transformer), read from a CTranslate2 model.bin."""

    def __init__(self, model: ModelFile, output_tokens: Iterable[int]) -> None:
        """`output_tokens`: the ids the softmax is restricted to."""
        try:
            self.heads = model.scalar("decoder/num_heads")
            self.embedding_table = _Embeddings(model, "decoder/embeddings")
            self.positions = model.array("decoder/position_encodings/encodings")
            count = 0
            while f"decoder/layer_{count}/ffn/linear_0/weight" in model:
                count += 1
            self.layers = [self._layer(model, f"decoder/layer_{index}") for index in range(count)]
            self.final_norm = _norm(model, "decoder/layer_norm")
        except ModelFileError:
            raise
        except (ValueError, IndexError, TypeError) as error:
            raise ModelFileError(f"{model.path}: not a Whisper decoder ({error})") from None
        if not self.layers:
            raise ModelFileError(f"{model.path}: not a Whisper decoder (no layers)")
        self.vocabulary_size, self.width = self.embedding_table.table.shape
        self._set_outputs(output_tokens)

    def with_outputs(self, output_tokens: Iterable[int]) -> Decoder:
        """The same decoder, its softmax restricted to other tokens (weights shared)."""
        other = copy.copy(self)
        other._set_outputs(output_tokens)
        return other

    def _set_outputs(self, output_tokens: Iterable[int]) -> None:
        self.output_tokens = np.asarray(sorted(set(output_tokens)), dtype=np.int64)
        if self.output_tokens.size and self.output_tokens[-1] >= self.vocabulary_size:
            raise ModelFileError("the model's vocabulary is smaller than its tokenizer's")
        # The output layer is the embedding table itself (tied weights).
        self.output = np.ascontiguousarray(self.embedding_table.rows(self.output_tokens).T)
        self.column = {int(token): index for index, token in enumerate(self.output_tokens)}

    def embed(self, tokens: npt.NDArray[np.int64],
              position: int | npt.NDArray[np.int64]) -> Floats:
        """Token and position embeddings (one position for all, or one per token)."""
        return np.asarray(self.embedding_table.rows(tokens) + self.positions[position],
                          dtype=np.float32)

    def audio_attention(self, encoded: Floats) -> list[tuple[Floats, Floats]]:
        """Per layer, the cross-attention keys and values of one utterance's encoder output:
        they depend only on the audio, so they are computed once per utterance."""
        frames = encoded.shape[0]
        head_width = self.width // self.heads
        cross = []
        for layer in self.layers:
            key_value = layer.cross_key_value(encoded)
            keys = key_value[:, :self.width].reshape(frames, self.heads, head_width)
            values = key_value[:, self.width:].reshape(frames, self.heads, head_width)
            cross.append((np.ascontiguousarray(keys.transpose(1, 2, 0)),
                          np.ascontiguousarray(values.transpose(1, 0, 2))))
        return cross

    def step(self, x: Floats, cross: list[tuple[Floats, Floats]], self_keys: list[Floats],
             self_values: list[Floats], nodes: npt.NDArray[np.int64],
             paths: npt.NDArray[np.int64],
             attends: npt.NDArray[np.bool_] | None = None) -> Floats:
        """One decoder step for a batch of positions: their input embeddings `x`, the rows
        `nodes` to store their keys and values in, and `paths`, each one's rows from the
        start up to itself. Returns the restricted logits of the token after each.

        Every node's keys are stored before any attends, so a batch may hold a node and
        its ancestors (the start sequence at once); `attends` (batch x path) then says
        which entries of each padded path are really its own."""
        batch, length = paths.shape
        width, heads = self.width, self.heads
        head_width = width // heads
        scale = np.float32(head_width ** -0.5)
        for index, layer in enumerate(self.layers):
            qkv = layer.self_qkv(layer.self_norm(x))
            self_keys[index][nodes] = qkv[:, width:2 * width]
            self_values[index][nodes] = qkv[:, 2 * width:]
            own = qkv[:, :width].reshape(batch, heads, 1, head_width) * scale
            keys = self_keys[index][paths].reshape(batch, length, heads, head_width)
            values = self_values[index][paths].reshape(batch, length, heads, head_width)
            scores = own @ keys.transpose(0, 2, 3, 1)  # batch, heads, 1, path
            if attends is not None:
                scores = np.where(attends[:, None, None, :], scores, -np.inf)
            weights = _softmax(scores)
            attended = (weights @ values.transpose(0, 2, 1, 3)).reshape(batch, width)
            x = x + layer.self_out(attended)
            cross_keys, cross_values = cross[index]
            query = layer.cross_query(layer.cross_norm(x)) * scale
            query = query.reshape(batch, heads, head_width).transpose(1, 0, 2)
            weights = _softmax(query @ cross_keys)  # heads, batch, frames
            attended = (weights @ cross_values).transpose(1, 0, 2).reshape(batch, width)
            x = x + layer.cross_out(attended)
            x = x + layer.ffn_out(_gelu(layer.ffn_in(layer.ffn_norm(x))))
        return np.asarray(self.final_norm(x) @ self.output, dtype=np.float32)

    @staticmethod
    def _layer(model: ModelFile, scope: str) -> _Layer:
        return _Layer(
            self_norm=_norm(model, f"{scope}/self_attention/layer_norm"),
            self_qkv=_linear(model, f"{scope}/self_attention/linear_0"),
            self_out=_linear(model, f"{scope}/self_attention/linear_1"),
            cross_norm=_norm(model, f"{scope}/attention/layer_norm"),
            cross_query=_linear(model, f"{scope}/attention/linear_0"),
            cross_key_value=_linear(model, f"{scope}/attention/linear_1"),
            cross_out=_linear(model, f"{scope}/attention/linear_2"),
            ffn_norm=_norm(model, f"{scope}/ffn/layer_norm"),
            ffn_in=_linear(model, f"{scope}/ffn/linear_0"),
            ffn_out=_linear(model, f"{scope}/ffn/linear_1"),
        )


@dataclass(frozen=True, slots=True)
class SentenceScores:
    """Per candidate, in the order given to `TokenTrie`."""

    log_probability: npt.NDArray[np.float64]
    """Sum of the log-probabilities of the sentence's tokens and its end."""
    deficit: npt.NDArray[np.float64]
    """Sum over the same steps of (best token's log-probability - the sentence's)."""
    first_word_deficit: float = 0.0
    """At the first step: the best token's log-probability less that of the likeliest
    token any command begins with (`TokenTrie`'s `commands`). Near 0 when Whisper would begin as some command
    does, whatever it says next; large for a word no command begins with ("zero",
    "one"), which the per-token deficit of the sentence it is forced into dilutes."""
    first_token: int = -1
    """Whisper's own likeliest first token (among the decoder's outputs; -1: not
    scored): the word the first-word deficit measures, "Okay" in "okay, flip"."""


class TokenTrie:
    """Candidate token sequences laid out as a trie, decoded level by level."""

    def __init__(self, prefix: Sequence[int], sentences: Sequence[Sequence[int]],
                 end_of_text: int, *, commands: int | None = None) -> None:
        """`prefix`: the start sequence every candidate follows (start of transcript ...).
        `sentences`: each candidate's tokens, without the end-of-text (added here).
        `commands`: how many of the first sentences begin a command; the first-word
        deficit weighs Whisper's own first word against theirs only, and the rest (talk
        words, a lead word said alone) are scored but begin none. None: all do."""
        if not prefix:
            raise ValueError("the trie needs a start sequence")
        self.prefix = tuple(prefix)
        tokens: list[int] = list(self.prefix)
        parents: list[int] = [-1, *range(len(self.prefix) - 1)]
        children: dict[tuple[int, int], int] = {}
        self.paths: list[list[int]] = []
        """Per sentence, the trie nodes of its tokens and its end, in order."""
        for sentence in sentences:
            node = len(self.prefix) - 1
            path = []
            for token in (*sentence, end_of_text):
                key = (node, token)
                if key not in children:
                    children[key] = len(tokens)
                    tokens.append(token)
                    parents.append(node)
                node = children[key]
                path.append(node)
            self.paths.append(path)
        self.tokens = np.asarray(tokens, dtype=np.int64)
        self.parents = np.asarray(parents, dtype=np.int64)
        depth = [0] * len(tokens)
        for node in range(1, len(tokens)):
            depth[node] = depth[parents[node]] + 1
        self.depth = np.asarray(depth, dtype=np.int64)
        self.first_words = np.asarray(sorted({path[0] for path in self.paths[:commands]}),
                                      dtype=np.int64)
        """The nodes of the commands' first tokens (`SentenceScores.first_word_deficit`)."""
        self.end_of_text = end_of_text
        # Nodes that need a decoder step: every node whose token is followed by another.
        has_child = np.zeros(len(tokens), dtype=bool)
        has_child[self.parents[self.parents >= 0]] = True
        self.levels = [np.flatnonzero(has_child & (self.depth == level))
                       for level in range(int(self.depth.max()) + 1)]
        self.ancestry = self._ancestry()
        children_of: list[list[int]] = [[] for _ in tokens]
        for node in range(len(self.prefix), len(tokens)):
            children_of[parents[node]].append(node)
        self.children_of = [np.asarray(found, dtype=np.int64) for found in children_of]
        self._sentence_of_end = {path[-1]: index for index, path in enumerate(self.paths)}

    def _ancestry(self) -> dict[int, npt.NDArray[np.int64]]:
        """Per level, the (nodes, depth + 1) matrix of each node's path from the root."""
        ancestry = {}
        for level, nodes in enumerate(self.levels):
            path = np.empty((len(nodes), level + 1), dtype=np.int64)
            current = nodes.copy()
            for column in range(level, -1, -1):
                path[:, column] = current
                current = self.parents[current]
            ancestry[level] = path
        return ancestry

    @property
    def size(self) -> int:
        return len(self.tokens)

    def score(self, decoder: Decoder, encoded: Floats, *,
              bonus: npt.NDArray[np.float64] | None = None,
              within: float = float("inf")) -> SentenceScores:
        """Every sentence's scores for one utterance's encoder output (frames x width).

        `bonus` is added to each sentence's log-probability (a prior). Branches that
        cannot come within `within` of the best sentence found so far are not decoded
        (a token's log-probability is never positive, so a prefix already that far
        behind can only fall further): their sentences score -inf. The best sentence
        and every one within `within` of it are exact. With `within` infinite every
        branch is decoded (for a trie of a few sentences: no probe for a bar first).
        """
        width = decoder.width
        bonus = np.zeros(len(self.paths)) if bonus is None else np.asarray(bonus, dtype=np.float64)
        # The most any sentence below each node can gain from its bonus, for pruning.
        reach = np.zeros(self.size)
        for sentence, nodes_of in enumerate(self.paths):
            np.maximum.at(reach, nodes_of, bonus[sentence])
        # The start sequence leads to every sentence. (Left at 0, a bonus that lifts the
        # best sentence more than `within` above 0 pruned every branch at the root.)
        reach[:len(self.prefix)] = bonus.max(initial=0.0)
        cross = decoder.audio_attention(encoded)
        self_keys = [np.zeros((self.size, width), np.float32) for _ in decoder.layers]
        self_values = [np.zeros((self.size, width), np.float32) for _ in decoder.layers]
        log_probability = np.zeros(self.size)  # of each node's token given its parent
        best = np.zeros(self.size)  # the best token's log-probability at the node's step
        prefix = np.zeros(self.size)  # the path's log-probability up to and with the node
        decoded = np.zeros(self.size, dtype=bool)
        first_logits: Floats | None = None
        first_token = -1
        if math.isinf(within):
            best_sentence = -math.inf  # nothing to prune: no bar needed
        else:
            best_sentence, first_logits = self._probe(decoder, cross, self_keys, self_values,
                                                      bonus)
        last_of_prefix = len(self.prefix) - 1 if first_logits is not None else -1
        for level, all_nodes in enumerate(self.levels):
            reachable = decoded[self.parents[all_nodes]] | (level == 0)
            hopeful = prefix[all_nodes] + reach[all_nodes] >= best_sentence - within
            chosen = reachable & hopeful
            nodes = all_nodes[chosen]
            if not len(nodes):
                continue
            decoded[nodes] = True
            batch = len(nodes)
            if level < last_of_prefix:
                continue  # the probe stored the start sequence's keys and values
            if level == last_of_prefix and first_logits is not None:
                logits = first_logits[None, :]  # and the logits of the first word's token
            else:
                x = decoder.embed(self.tokens[nodes], level)
                logits = decoder.step(x, cross, self_keys, self_values, nodes,
                                      self.ancestry[level][chosen])
            top = logits.max(axis=1, keepdims=True)
            if level == len(self.prefix) - 1:
                # The start sequence's last node, alone at its level: its row holds the
                # first word's step.
                first_token = int(decoder.output_tokens[int(np.argmax(logits[0]))])
            normaliser = top[:, 0] + np.log(np.exp(logits - top).sum(axis=1))
            # Scatter each child's log-probability from its parent's row.
            row_of = np.full(self.size, -1, dtype=np.int64)
            row_of[nodes] = np.arange(batch)
            children = np.flatnonzero((row_of[self.parents] >= 0) & (self.parents >= 0)
                                      & (self.depth >= len(self.prefix)))
            rows = row_of[self.parents[children]]
            columns = np.fromiter((decoder.column[int(token)] for token in self.tokens[children]),
                                  dtype=np.int64, count=len(children))
            log_probability[children] = logits[rows, columns] - normaliser[rows]
            best[children] = top[rows, 0] - normaliser[rows]
            prefix[children] = prefix[self.parents[children]] + log_probability[children]
            ended = children[self.tokens[children] == self.end_of_text]
            for node in ended.tolist():
                best_sentence = max(best_sentence, prefix[node] + self.bonus_of_end(node, bonus))
        totals = np.full(len(self.paths), -np.inf)
        deficits = np.full(len(self.paths), np.inf)
        for sentence, nodes_of in enumerate(self.paths):
            path = np.asarray(nodes_of)
            if decoded[self.parents[path[-1]]]:
                totals[sentence] = prefix[path[-1]] + bonus[sentence]
                deficits[sentence] = (best[path] - log_probability[path]).sum()
        # The first words are all children of the start sequence, scored in one row.
        first_word_deficit = float(best[self.first_words].max()
                                   - log_probability[self.first_words].max())
        return SentenceScores(totals, deficits, first_word_deficit, first_token)

    def _probe(self, decoder: Decoder, cross: list[tuple[Floats, Floats]],
               self_keys: list[Floats], self_values: list[Floats],
               bonus: npt.NDArray[np.float64]) -> tuple[float, Floats]:
        """The score of one likely sentence, found by following the likeliest child from
        the root: a bar that lets the level-by-level pass prune from its first level
        (otherwise nothing is pruned until some sentence has ended, and the first to end
        are the short, unlikely ones). One step for the start sequence, then one
        batch-of-one step per token; the level pass computes its nodes again, except
        the start sequence, whose keys and values it keeps, with the logits after it
        (returned)."""
        # The start sequence in one step (its tokens attend to the ones before them
        # only): a step costs about the same for one token as for a few.
        length = len(self.prefix)
        position = np.arange(length)
        before = position[None, :] <= position[:, None]
        x = decoder.embed(self.tokens[:length], position)
        first_logits = logits = decoder.step(
            x, cross, self_keys, self_values, position,
            np.minimum(position[None, :], position[:, None]), before)[-1]
        node = length - 1
        total = 0.0
        while True:
            if node >= length:
                path = np.asarray(self._path_to(node))
                x = decoder.embed(self.tokens[node:node + 1], len(path) - 1)
                logits = decoder.step(x, cross, self_keys, self_values, np.asarray([node]),
                                      path[None, :])[0]
            children = self.children_of[node]
            if not len(children):
                return -math.inf, first_logits
            top = float(logits.max())
            normaliser = top + math.log(float(np.exp(logits - top).sum()))
            columns = np.fromiter((decoder.column[int(token)] for token in self.tokens[children]),
                                  dtype=np.int64, count=len(children))
            choice = int(np.argmax(logits[columns]))
            total += float(logits[columns[choice]]) - normaliser
            node = int(children[choice])
            if self.tokens[node] == self.end_of_text:
                return total + self.bonus_of_end(node, bonus), first_logits

    def _path_to(self, node: int) -> list[int]:
        """The trie nodes from the root down to `node`."""
        path = [node]
        while self.parents[path[-1]] >= 0:
            path.append(int(self.parents[path[-1]]))
        return path[::-1]

    def bonus_of_end(self, node: int, bonus: npt.NDArray[np.float64]) -> float:
        return float(bonus[self._sentence_of_end[node]])


def _softmax(scores: npt.NDArray[np.floating[Any]]) -> Floats:
    shifted = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return np.asarray(shifted / shifted.sum(axis=-1, keepdims=True), dtype=np.float32)


def _weight(model: ModelFile, scope: str) -> Floats:
    """A weight matrix, de-quantized when the model stores it as int8 with a scale."""
    weight = model.array(f"{scope}/weight")
    if weight.dtype != np.float32:
        if f"{scope}/weight_scale" not in model:
            raise ModelFileError(f"{model.path}: {scope} is quantized without a scale")
        scale = model.array(f"{scope}/weight_scale").reshape(-1, 1)
        weight = weight.astype(np.float32) / scale
    return weight


def _linear(model: ModelFile, scope: str) -> _Linear:
    weight = _weight(model, scope)
    bias_name = f"{scope}/bias"
    bias = model.array(bias_name) if bias_name in model else np.zeros(weight.shape[0], np.float32)
    return _Linear(np.ascontiguousarray(weight.T), bias)


def _norm(model: ModelFile, scope: str) -> _Norm:
    return _Norm(model.array(f"{scope}/gamma"), model.array(f"{scope}/beta"))


def score_table(scores: SentenceScores, sentences: Sequence[str]) -> Mapping[str, float]:
    """Sentence -> log-probability, for inspection and tuning."""
    return dict(zip(sentences, scores.log_probability.tolist(), strict=True))
