"""Whisper's leaning taken off its scores (voicespit/speech/recognizers/whisper_leaning.py).

The real Whisper tiny.en, on espeak-ng commands that its leaning towards short and
common sentences turned into other commands.
"""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import numpy as np
import pytest

from benchmarks.speech import WHISPER_CONFIGS
from tests.test_whisper_recognizer import commands_of, hear, spoken
from voicespit.speech.language.grammar import TALK_WORDS, sentences
from voicespit.speech.language.parser import command_in, parse
from voicespit.speech.recognizers.whisper_leaning import content_free_window
from voicespit.speech.recognizers.whisper_model import WhisperModel
from voicespit.speech.recognizers.whisper_recognizer import WhisperRecognizer, WhisperSettings

LEANED_AWAY = (("en-us", "opponent's cards"), ("en-gb-x-rp", "ace left"),
               ("en+m3", "ace on left"), ("en-us+f2", "play spit"))
"""Commands Whisper's top choice turned into another with its leaning left in ("no",
"eight", "what's on the left", "play speed"): voices of the tuning split, on the
utterance alone (round 15). Round 15 also had en-gb-x-rp's "play spit" here; with the
window padded to 5 s (round 17) the default hears it as "play speed" again, a
confusion that remains (docs/speech-record.md)."""


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng speaks the commands")
def test_with_the_leaning_taken_off_commands_whisper_leaned_away_from_are_heard(
        whisper_model: WhisperModel, tmp_path: Path) -> None:
    default = WhisperRecognizer(whisper_model)
    # The leaning's effect as it was measured: on the utterance alone, with the model
    # fitted so (round 16's default). Padded, en-us's "opponent's cards" is heard
    # right with the leaning in too.
    leaning_in = WhisperRecognizer(whisper_model, settings=dataclasses.replace(
        WHISPER_CONFIGS["whisper, window unpadded"], leaning_weight=0.0))
    for voice, said in LEANED_AWAY:
        audio = spoken(said, tmp_path, voice=voice)
        assert commands_of(hear(default, audio)) == [parse(said)], (voice, said)
        # What the leaning did: the top choice (acted on or not) was another command.
        top = hear(leaning_in, audio)[-1].text
        assert command_in(top) != parse(said), (voice, said, top)


def test_a_narrower_grammar_reuses_the_leaning_measured_for_the_whole(
        whisper_model: WhisperModel, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = WhisperRecognizer(whisper_model)
    least_likely = whole._leaning.min()
    encodes: list[int] = []
    original = whisper_model.encode

    def counted(features: np.ndarray) -> np.ndarray:
        encodes.append(1)
        return original(features)

    monkeypatch.setattr(whisper_model, "encode", counted)
    few = ["seven on left", "spit", "opponent's cards", "what's on the left", "no"]
    whole.set_phrases(few)
    assert not encodes, "nothing measured again"
    assert whole.table.sentences == [*few, *TALK_WORDS]  # talk words after the commands
    assert np.all(whole._leaning < 0)
    # A sentence never seen is measured once, alone.
    longer = "seven on the right pile please"
    whole.set_phrases([*few, longer])
    assert len(encodes) == 1
    forms = [form for form, sentence in enumerate(whole.table.sentence_of)
             if whole.table.sentences[sentence] == longer]
    assert whole._leaning[forms[-1]] < least_likely, "a long sentence is unlikely unsaid"


def test_without_a_weight_no_leaning_is_measured(whisper_model: WhisperModel) -> None:
    recognizer = WhisperRecognizer(whisper_model, settings=dataclasses.replace(
        WhisperSettings(), leaning_weight=0.0))
    assert not recognizer._leanings and not np.any(recognizer._leaning)
    assert len(recognizer._leaning) == len(recognizer.table.sentence_of) >= len(sentences())


def test_the_content_free_window_is_the_same_quiet_hiss_every_time() -> None:
    first, again = content_free_window(0.3), content_free_window(0.3)
    assert np.array_equal(first, again)
    hiss = first[:16_000]
    level_dbfs = 20 * np.log10(np.sqrt(np.mean((hiss / 32768.0) ** 2)))
    assert -41.0 < level_dbfs < -39.0
    assert not np.any(first[16_000:]) and len(first) == 16_000 + 4_800
