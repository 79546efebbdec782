"""Choosing a recognizer (voicespit/speech/select.py): what was asked, what was possible, and why.

On this branch the Vosk adapter modules do not exist yet, so `auto` must fall back
to PocketSphinx and say why, and `vosk` must fail with a clear message.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from voicespit.speech.pocketsphinx_recognizer import PocketSphinxRecognizer
from voicespit.speech.recognizer import RecognizerError
from voicespit.speech.select import make_recognizer

VOSK_ADAPTER = importlib.util.find_spec("voicespit.speech.vosk_recognizer") is not None


def test_pocketsphinx_when_asked(tmp_path: Path) -> None:
    recognizer, why = make_recognizer("pocketsphinx", models_dir=tmp_path)
    assert isinstance(recognizer, PocketSphinxRecognizer)
    assert why == "Using PocketSphinx, as asked."


@pytest.mark.skipif(VOSK_ADAPTER, reason="the Vosk adapter is present in this build")
def test_auto_falls_back_to_pocketsphinx_and_says_why(tmp_path: Path) -> None:
    recognizer, why = make_recognizer("auto", models_dir=tmp_path)
    assert isinstance(recognizer, PocketSphinxRecognizer)
    assert why.startswith("Using PocketSphinx: ") and "not part of this build" in why


@pytest.mark.skipif(VOSK_ADAPTER, reason="the Vosk adapter is present in this build")
def test_vosk_without_its_adapter_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(RecognizerError, match="not part of this build"):
        make_recognizer("vosk", models_dir=tmp_path)


def test_a_broken_pocketsphinx_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(RecognizerError, match="incomplete"):
        make_recognizer("pocketsphinx", models_dir=tmp_path, model=str(tmp_path / "none"))


def test_an_unknown_kind_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RecognizerError, match="unknown recognizer"):
        make_recognizer("whisper", models_dir=tmp_path)  # type: ignore[arg-type]
