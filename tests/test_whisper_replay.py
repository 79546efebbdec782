"""The replay recorder (benchmarks/whisper_replay.py), which the acceptance model is fitted from.

It streams real recordings through the shipped Whisper recognizer with refusal off and
keeps every final's scores and its second look's. When the recognizer changed how it
encodes and scores a window, the recorder lost every second look and stopped on the
first file; these tests run it for real on real voices, then replay what it kept.
"""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np
import pytest

from benchmarks.make_real_corpus import in_its_own_room, read_clip
from benchmarks.whisper_replay import (
    RECORDING_SETTINGS,
    Recording,
    Rule,
    load,
    replay,
    write_recording,
)
from tests.conftest import REAL_VOICES
from voicespit.speech.recognizer import SAMPLE_RATE
from voicespit.speech.recognizers.transcription import CorpusItem
from voicespit.speech.recognizers.whisper_acceptance import AcceptanceModel
from voicespit.speech.recognizers.whisper_model import WhisperModel
from voicespit.speech.recognizers.whisper_recognizer import WhisperSettings

SAID = {"2_theo_0.wav": "two", "7_jackson_0.wav": "seven", "9_yweweler_0.wav": "nine"}


def written_in_its_own_room(source: Path, target: Path) -> None:
    clip, rate = read_clip(source)
    samples = np.round(in_its_own_room(clip, rate, source.name)).astype("<i2")
    with wave.open(str(target), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(SAMPLE_RATE)
        wav.writeframes(samples.tobytes())


@pytest.mark.skipif(not REAL_VOICES.is_dir(), reason="the real recordings are not beside the repo")
def test_a_recording_of_real_voices_keeps_every_final_with_its_second_look_and_replays(
        whisper_model: WhisperModel, tmp_path: Path) -> None:
    items = []
    for name, said in SAID.items():
        written_in_its_own_room(REAL_VOICES / name, tmp_path / name)
        items.append(CorpusItem(tmp_path / name, name, said, "command"))
    recording_path = tmp_path / "fsdd.pkl"
    with recording_path.open("wb") as file:
        write_recording(Recording(whisper_model, settings=RECORDING_SETTINGS), "fsdd", items,
                        file)

    recording = load(recording_path)
    assert [file["name"] for file in recording["files"]] == list(SAID)
    for file in recording["files"]:
        # Refusal is off, so each clear word ends in exactly one final.
        assert len(file["finals"]) == 1, file["name"]
        final = file["finals"][0]
        totals, deficits = final["second"]
        assert totals.shape == deficits.shape == final["totals"].shape
        assert len(recording["sentence_of"]) == len(final["totals"])
        assert final["speech_seconds"] > 0.2
    # Replayed as the recognizer decides (the shipped acceptance model and second look),
    # each clear real rank is the command said.
    shipped = Rule(0.0, 0.0, acceptance=AcceptanceModel.fitted(),
                   second_look_from=WhisperSettings.second_look_from)
    rates = replay(recording, shipped)
    assert rates["wrong"] == 0.0 and rates["refused"] == 0.0, rates
