"""How voice input is opened and reported (voicespit/app/voice.py): the greeting's few
words, the details on demand (never a path), and the one place models are looked for."""

from __future__ import annotations

import dataclasses
import logging
import wave
from pathlib import Path

import pytest

from tests.app_harness import Harness
from voicespit.app.voice import KEYBOARD, open_voice_input, without_paths
from voicespit.config import Settings


def test_paths_are_cut_to_their_last_part_and_other_slashes_are_left_alone() -> None:
    assert without_paths("no English Vosk model is installed in /home/sam/voicespit/models.") \
        == "no English Vosk model is installed in models."
    assert without_paths("no Vosk model at ~/x/vosk-small (see ./models/README.md)") == \
        "no Vosk model at vosk-small (see README.md)"
    assert without_paths("left and/or right, 1/2") == "left and/or right, 1/2"


def script(tmp_path: Path) -> Path:
    silence = tmp_path / "quiet.wav"
    with wave.open(str(silence), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(16_000)
        wav.writeframes(bytes(3200))
    path = tmp_path / "script.txt"
    path.write_text("0.5 quiet.wav\n")
    return path


def test_voice_input_finds_models_where_models_list_does_and_never_says_the_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    models = tmp_path / "my-models"
    models.mkdir()
    monkeypatch.setenv("VOICESPIT_MODELS_DIR", str(models))
    defaults = Settings()
    settings = dataclasses.replace(defaults, input=dataclasses.replace(
        defaults.input, input="wav", recognizer="auto", whisper_model="gone"))
    harness = Harness()
    voice, report = open_voice_input(settings, script(tmp_path), harness.session,
                                     harness.speaker)
    assert voice is not None
    try:
        # The Whisper folder named in the settings is looked for under the same models folder.
        assert report.summary == "by voice with PocketSphinx" and report.by_voice
        assert "the Whisper speech model is not installed" in report.details
        assert str(tmp_path) not in report.details, "spoken details never hold a path"
        assert str(models / "gone") in caplog.text, "the log keeps it"
    finally:
        voice.stop()


def test_the_keyboard_report_says_how_to_type() -> None:
    assert KEYBOARD.summary == "by keyboard" and not KEYBOARD.by_voice
    assert "question mark" in KEYBOARD.details
