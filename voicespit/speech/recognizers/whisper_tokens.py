"""Whisper's tokens for the game's sentences: byte-level BPE read from the model's tokenizer.json.

Only the command sentences are ever tokenized, a few hundred short lower-case
phrases, so the byte-level BPE that GPT-2 and Whisper share is done here in a
few lines rather than through a tokenizer library and its network-minded
dependencies. The test suite checks every sentence of the grammar against the
Hugging Face `tokenizers` library's answer for the same file.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from voicespit.errors import VoiceSpitError

END_OF_TEXT = "<|endoftext|>"
START_OF_TRANSCRIPT = "<|startoftranscript|>"
NO_TIMESTAMPS = "<|notimestamps|>"
START_OF_PREVIOUS = "<|startofprev|>"
"""Begins the text Whisper takes as said before this window (a prompt)."""
ENGLISH = "<|en|>"
TRANSCRIBE = "<|transcribe|>"

# GPT-2's pre-tokenizer, narrowed to what command sentences contain: contractions
# split off ("what's" -> "what", "'s"), then words and other runs with their space.
_PIECES = re.compile(r"'(?:s|t|re|ve|m|ll|d)| ?[^\W\d_]+| ?\d+| ?[^\s\w]+|\s+(?!\S)|\s+")


class TokenizerError(VoiceSpitError):
    """The model's tokenizer is missing or cannot say a sentence."""


@functools.cache
def _byte_symbols() -> tuple[str, ...]:
    """GPT-2's reversible map from each byte to a printable character."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1),
                 *range(ord("®"), ord("ÿ") + 1)]
    symbols = {byte: chr(byte) for byte in printable}
    extra = 0
    for byte in range(256):
        if byte not in symbols:
            symbols[byte] = chr(256 + extra)
            extra += 1
    return tuple(symbols[byte] for byte in range(256))


class Tokenizer:
    """Text to token ids with the vocabulary and merges of one Whisper model."""

    def __init__(self, vocabulary: Mapping[str, int], merges: Sequence[tuple[str, str]]) -> None:
        self.vocabulary = dict(vocabulary)
        self._ranks = {pair: rank for rank, pair in enumerate(merges)}
        self._cache: dict[str, tuple[int, ...]] = {}

    @classmethod
    def load(cls, model_dir: Path) -> Tokenizer:
        """Read `tokenizer.json` (a faster-whisper model folder has one)."""
        path = model_dir / "tokenizer.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            model = data["model"]
            vocabulary: dict[str, int] = dict(model["vocab"])
            merges = [tuple(merge.split(" ", 1)) if isinstance(merge, str) else tuple(merge)
                      for merge in model["merges"]]
            for token in data.get("added_tokens", []):
                vocabulary[token["content"]] = int(token["id"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            raise TokenizerError(f"{path}: not a usable tokenizer ({error})") from None
        if model.get("type") != "BPE":
            raise TokenizerError(f"{path}: not a byte-level BPE tokenizer")
        return cls(vocabulary, [(first, second) for first, second in merges])

    def special(self, token: str) -> int:
        """The id of a special token such as END_OF_TEXT."""
        try:
            return self.vocabulary[token]
        except KeyError:
            raise TokenizerError(f"the tokenizer has no {token} token") from None

    def encode(self, text: str) -> tuple[int, ...]:
        """The ids of `text` as Whisper would write it (" seven on left")."""
        ids: list[int] = []
        symbols = _byte_symbols()
        for piece in _PIECES.findall(text):
            cached = self._cache.get(piece)
            if cached is None:
                mapped = "".join(symbols[byte] for byte in piece.encode("utf-8"))
                try:
                    cached = tuple(self.vocabulary[part] for part in self._merge(mapped))
                except KeyError:
                    raise TokenizerError(f"the tokenizer cannot say {piece!r}") from None
                self._cache[piece] = cached
            ids.extend(cached)
        return tuple(ids)

    def _merge(self, word: str) -> list[str]:
        """Apply the merges in rank order until none applies (the BPE algorithm)."""
        parts = list(word)
        while len(parts) > 1:
            ranked = [(self._ranks[pair], pair) for pair in itertools.pairwise(parts)
                      if pair in self._ranks]
            if not ranked:
                break
            first, second = min(ranked)[1]
            merged: list[str] = []
            index = 0
            while index < len(parts):
                if parts[index] == first and index + 1 < len(parts) and parts[index + 1] == second:
                    merged.append(first + second)
                    index += 2
                else:
                    merged.append(parts[index])
                    index += 1
            parts = merged
        return parts
