"""The pyttsx3 renderer: the real engine writing files, read back as samples."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import numpy as np
import pytest

from voicespit.audio.output import sounding_seconds
from voicespit.audio.tts import (
    GAME_VOICES,
    OPPONENT_VOICE,
    YOUR_VOICE,
    Pyttsx3Renderer,
    SpeechRenderError,
    Voice,
    english_voices,
)

PHRASE = "Left: nine. Right: four."


@pytest.fixture(scope="module")
def renderer() -> Iterator[Pyttsx3Renderer]:
    speech = Pyttsx3Renderer()
    yield speech
    speech.close()


def fundamental(mono: np.ndarray, rate: int) -> float:
    """The median pitch of the voiced frames, by autocorrelation."""
    estimates = []
    for start in range(0, len(mono) - 1024, 512):
        frame = mono[start:start + 1024].astype(np.float64)
        if np.sqrt(np.mean(frame ** 2)) < 0.02:
            continue
        frame -= frame.mean()
        correlation = np.correlate(frame, frame, "full")[1023:]
        low, high = rate // 400, rate // 60
        lag = low + int(np.argmax(correlation[low:high]))
        if correlation[lag] > 0.5 * correlation[0]:
            estimates.append(rate / lag)
    return float(np.median(estimates))


def test_speech_comes_back_as_audible_samples(renderer: Pyttsx3Renderer) -> None:
    samples = renderer.render(PHRASE, YOUR_VOICE, 200)
    assert renderer.sample_rate == 22_050
    assert 0.8 < len(samples) / renderer.sample_rate < 4.0
    assert 0.1 < float(np.max(np.abs(samples))) <= 1.0


def test_the_rate_applies_to_exactly_the_utterance_it_is_asked_for(
        renderer: Pyttsx3Renderer) -> None:
    # pyttsx3's setProperty("rate") applied late or not at all when measured: check
    # that every rate we ask for, in a changing order, gives its own length.
    lengths: dict[int, set[int]] = {}
    for rate in (300, 120, 200, 300, 120):
        lengths.setdefault(rate, set()).add(len(renderer.render(f"{PHRASE} {rate}", YOUR_VOICE,
                                                                 rate)))
    assert all(len(found) == 1 for found in lengths.values()), lengths
    assert max(lengths[300]) < max(lengths[200]) < max(lengths[120])


def test_the_opponent_speaks_in_a_different_voice(renderer: Pyttsx3Renderer) -> None:
    rate = renderer.sample_rate
    yours = fundamental(renderer.render(PHRASE, YOUR_VOICE, 200), rate)
    theirs = fundamental(renderer.render(PHRASE, OPPONENT_VOICE, 200), rate)
    assert theirs > 1.4 * yours, (yours, theirs)
    again = fundamental(renderer.render(PHRASE + " Again.", YOUR_VOICE, 200), rate)
    assert again == pytest.approx(yours, rel=0.1), "switching back restores your voice"


def test_each_voice_the_game_can_change_to_is_its_own_and_none_sounds_like_the_opponent(
        renderer: Pyttsx3Renderer) -> None:
    assert renderer.game_voices() == GAME_VOICES and GAME_VOICES[0] == YOUR_VOICE
    rate = renderer.sample_rate
    opponent = fundamental(renderer.render(PHRASE, OPPONENT_VOICE, 200), rate)
    renders = [renderer.render(PHRASE, voice, 200) for voice in GAME_VOICES]
    assert len({samples.tobytes() for samples in renders}) == len(GAME_VOICES), \
        "every voice sounds different"
    for voice, samples in zip(GAME_VOICES, renders, strict=True):
        assert opponent > 1.4 * fundamental(samples, rate), voice
    assert renderer.voice_errors == []


def test_with_another_engine_the_game_can_change_to_its_english_voices() -> None:
    # What pyttsx3 lists on Windows (SAPI5: the language is in the name) and on macOS
    # (NSSpeechSynthesizer: in `languages`); neither engine is on this machine.
    windows = [SimpleNamespace(id="HKLM\\TTS_MS_EN-US_DAVID_11.0", languages=[],
                               name="Microsoft David Desktop - English (United States)"),
               SimpleNamespace(id="HKLM\\TTS_MS_DE-DE_HEDDA_11.0", languages=[],
                               name="Microsoft Hedda Desktop - German"),
               SimpleNamespace(id="HKLM\\TTS_MS_EN-US_ZIRA_11.0", languages=[],
                               name="Microsoft Zira Desktop - English (United States)")]
    assert english_voices(windows, windows[0].id) == (
        YOUR_VOICE, Voice("HKLM\\TTS_MS_EN-US_ZIRA_11.0", 50))
    mac = [SimpleNamespace(id=f"com.apple.voice.{name}", name=name, languages=[language])
           for name, language in (("Alex", "en_US"), ("Anna", "de_DE"), ("Daniel", "en_GB"),
                                  ("Karen", "en_AU"), ("Amelie", "fr_CA"))]
    assert [voice.name for voice in english_voices(mac, "com.apple.voice.Alex")] == [
        None, "com.apple.voice.Daniel", "com.apple.voice.Karen"]
    assert english_voices([], "") == (YOUR_VOICE,), "one voice: nothing to change to"


def test_an_unknown_voice_falls_back_to_the_default_and_says_so(
        renderer: Pyttsx3Renderer) -> None:
    samples = renderer.render("Stock two shows a king.", Voice("no-such-voice", 50), 200)
    assert len(samples) > 0
    assert any("no-such-voice" in error for error in renderer.voice_errors)


def test_repeated_phrases_come_from_the_cache(renderer: Pyttsx3Renderer) -> None:
    first = renderer.render("Right: queen.", YOUR_VOICE, 210)
    renders = renderer.renders
    assert renderer.render("Right: queen.", YOUR_VOICE, 210) is first
    assert renderer.renders == renders


def test_rendering_prints_nothing_on_stdout(renderer: Pyttsx3Renderer,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    # pyttsx3 prints "Audio saved to ..." after every file; stdout is the text mirror.
    renderer.render("Left: three. Nothing printed.", YOUR_VOICE, 190)
    assert capsys.readouterr().out == ""


def test_empty_text_is_silence(renderer: Pyttsx3Renderer) -> None:
    assert len(renderer.render(" \x01 ", YOUR_VOICE, 200)) == 0


def test_a_new_renderer_speaks_in_your_voice_whatever_the_last_one_chose(
        renderer: Pyttsx3Renderer) -> None:
    rate = renderer.sample_rate
    yours = fundamental(renderer.render(PHRASE, YOUR_VOICE, 200), rate)
    renderer.render("Opponent's turn last.", OPPONENT_VOICE, 200)
    fresh = Pyttsx3Renderer()  # pyttsx3 gives it the same engine, opponent's voice selected
    try:
        again = fundamental(fresh.render(PHRASE, YOUR_VOICE, 200), rate)
    finally:
        fresh.close()
    assert again == pytest.approx(yours, rel=0.1)


def test_an_engine_that_cannot_start_is_told_in_plain_words(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The machine's espeak library missing is what makes pyttsx3.init fail for real;
    # the library's own words (a file name) must stay in the detail, out of the message.
    import pyttsx3

    def broken_init(*args: object, **kwargs: object) -> None:
        raise OSError("libespeak.so.1: cannot open shared object file")

    monkeypatch.setattr(pyttsx3, "init", broken_init)
    with pytest.raises(SpeechRenderError) as caught:
        Pyttsx3Renderer()
    assert str(caught.value) == "the speech engine did not start"
    assert "libespeak.so.1" in caught.value.detail


@pytest.mark.parametrize("rate", [120, 350])
def test_the_silence_after_the_last_word_is_not_counted_as_heard(
        renderer: Pyttsx3Renderer, rate: int) -> None:
    # espeak-ng leaves 0.04 s (fast) to 0.6 s (slow) of near-silence after the last word;
    # the self-echo check shares an announcement's time out among its words.
    voice = renderer.game_voices()[0]
    samples = renderer.render("Say new game to start.", voice, rate)
    heard = sounding_seconds(samples, renderer.sample_rate)
    last = round(heard * renderer.sample_rate)
    assert 0.3 < heard < len(samples) / renderer.sample_rate
    assert np.abs(samples[last - 1]) >= 0.02 * np.abs(samples).max()
    assert np.abs(samples[last:]).max() < 0.02 * np.abs(samples).max()
