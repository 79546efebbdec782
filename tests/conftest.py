"""Shared fixtures: real speech, synthesized with espeak-ng once per test session."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from benchmarks.make_corpus import build

if TYPE_CHECKING:
    from voicespit.speech.recognizers.whisper_model import WhisperModel

SPOKEN_COMMANDS = ("seven on left", "play queen on right", "ten right", "turn over two",
                   "move four to one", "slap right", "spit", "my cards", "new game")
SPOKEN_CHATTER = ("what time is it", "could you turn the music down",
                  "I was thinking about something else")


@pytest.fixture(scope="session")
def spoken_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small corpus (clean and 10 dB) in the tuning voices, built as the benchmark's is."""
    if shutil.which("espeak-ng") is None or shutil.which("sox") is None:
        pytest.skip("espeak-ng and sox are needed to synthesize test speech")
    out = tmp_path_factory.mktemp("corpus")
    return build(out, "tuning", commands=SPOKEN_COMMANDS, chatter=SPOKEN_CHATTER,
                 conditions=("clean", "snr10")).parent


@pytest.fixture(scope="session")
def whisper_model() -> WhisperModel:
    """The shipped Whisper tiny.en, loaded once for the whole session (about a second)."""
    from voicespit.speech.recognizers.whisper_model import WhisperModel

    return WhisperModel.load()


REAL_VOICES = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "real-voices" / \
    "fsdd-dev"
"""Real recordings (the Free Spoken Digit Dataset's subset beside the repository)."""
