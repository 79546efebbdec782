"""Choosing a recognizer (voicespit/speech/recognizers/select.py): what was asked, what was possible, and why.

The build machines have no English Vosk model, so `auto` must go on to Whisper
(tests/test_whisper_model.py), or to PocketSphinx when Whisper cannot start, and say
why; `vosk` must fail with a clear message. (Loading a
Vosk model for real is tested in tests/test_vosk_recognizer.py.)
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from voicespit.speech.recognizer import RecognizerError
from voicespit.speech.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer
from voicespit.speech.recognizers.select import make_recognizer

VOSK_ADAPTER = importlib.util.find_spec("voicespit.speech.recognizers.vosk_recognizer") is not None


def test_pocketsphinx_when_asked(tmp_path: Path) -> None:
    recognizer, why = make_recognizer("pocketsphinx", models_dir=tmp_path)
    assert isinstance(recognizer, PocketSphinxRecognizer)
    assert why == "Using PocketSphinx, as asked."


def test_auto_without_vosk_or_whisper_falls_back_to_pocketsphinx_and_says_why(
        tmp_path: Path) -> None:
    assert VOSK_ADAPTER
    recognizer, why = make_recognizer("auto", models_dir=tmp_path,
                                      whisper_model=str(tmp_path / "none"))
    assert isinstance(recognizer, PocketSphinxRecognizer)
    assert why == "Using PocketSphinx, because the Whisper speech model is not installed."


def test_vosk_without_an_english_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(RecognizerError, match="no English Vosk model is installed"):
        make_recognizer("vosk", models_dir=tmp_path)
    with pytest.raises(RecognizerError, match="no Vosk model at"):
        make_recognizer("vosk", models_dir=tmp_path, model="vosk-model-small-en-us-0.15")


def test_a_broken_pocketsphinx_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(RecognizerError, match="incomplete"):
        make_recognizer("pocketsphinx", models_dir=tmp_path, model=str(tmp_path / "none"))


def test_an_unknown_kind_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RecognizerError, match="unknown recognizer"):
        make_recognizer("sphinx", models_dir=tmp_path)  # type: ignore[arg-type]
