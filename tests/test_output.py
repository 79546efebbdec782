"""Sound output: the mixer, the paced virtual sound card, and the real device adapter."""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np
import pytest

from tests.devices import has_sound_device
from voicespit.audio.output import (
    DUCK_DEPTH,
    HUSH_DEPTH,
    Mixer,
    NoOutputDeviceError,
    PacedOutput,
    SoundDeviceOutput,
    open_output,
    sounding_seconds,
)

RATE = 22_050


def tone(seconds: float, level: float = 0.5) -> np.ndarray:
    t = np.arange(round(seconds * RATE)) / RATE
    mono = (level * np.sin(2 * np.pi * 440 * t)).astype(np.float32)
    return np.stack([mono, mono], axis=1)


def constant(frames: int, level: float) -> np.ndarray:
    return np.full((frames, 2), level, dtype=np.float32)


def test_a_sound_is_heard_until_its_last_sample_near_its_peak() -> None:
    sound = np.concatenate([tone(0.5), constant(RATE // 2, 0.005), constant(RATE, 0.0)])
    assert sounding_seconds(sound, RATE) == pytest.approx(0.5, abs=2 / RATE)
    assert sounding_seconds(sound[:, 0].copy(), RATE) == sounding_seconds(sound, RATE)  # mono
    assert sounding_seconds(constant(RATE, 0.0), RATE) == 0.0
    assert sounding_seconds(constant(0, 0.0), RATE) == 0.0


def test_the_mixer_sums_what_plays_and_reports_when_it_is_heard() -> None:
    mixer = Mixer(RATE)
    heard: list[tuple[str, float, bool | None]] = []
    mixer.play(constant(300, 0.25), on_start=lambda at: heard.append(("start", at, None)),
               on_finish=lambda at, done: heard.append(("end", at, done)))
    mixer.play(constant(100, 0.5))
    first = mixer.render(256, at=10.0)
    assert np.allclose(first[:100], 0.75) and np.allclose(first[100:], 0.25)
    second = mixer.render(256, at=10.0 + 256 / RATE)
    assert np.allclose(second[:44], 0.25) and np.allclose(second[44:], 0.0)
    assert heard == [("start", 10.0, None), ("end", pytest.approx(10.0 + 300 / RATE), True)]
    assert mixer.active == 0


def test_a_stopped_sound_fades_out_within_the_next_block() -> None:
    mixer = Mixer(RATE)
    ended: list[bool] = []
    playing = mixer.play(constant(RATE, 0.5), on_finish=lambda _at, done: ended.append(done))
    mixer.render(128, at=0.0)
    playing.stop()
    block = mixer.render(128, at=128 / RATE)
    fade = round(0.005 * RATE)
    assert block[0, 0] == pytest.approx(0.5) and np.all(np.diff(block[:fade, 0]) <= 0)
    assert np.allclose(block[fade:], 0.0)
    assert ended == [False] and mixer.active == 0


def test_speech_is_ducked_while_a_cue_plays_and_only_then() -> None:
    mixer = Mixer(RATE)
    mixer.play(constant(2000, 0.4), is_speech=True)
    mixer.play(constant(600, 0.0), cue_from=100)  # a silent "cue" after 100 frames of lead-in
    block = mixer.render(2000, at=0.0)[:, 0]
    assert block[50] == pytest.approx(0.4), "before the cue proper: full level"
    assert block[400] == pytest.approx(0.4 * (1 - DUCK_DEPTH)), "under the cue: ducked"
    assert block[1500] == pytest.approx(0.4), "after the cue: full level again"


def test_the_paced_output_never_plays_faster_than_real_time() -> None:
    # A busy machine can only make it later; how close to real time it keeps is
    # measured by benchmarks/audio_latency.py, not asserted here.
    mixer = Mixer(RATE)
    output = PacedOutput(mixer, block_frames=128, keep=True)
    heard: list[float] = []
    output.start()
    try:
        started = time.monotonic()
        mixer.play(tone(0.3), on_finish=lambda at, _done: heard.append(at))
        while not heard and time.monotonic() - started < 60.0:  # a guard only
            time.sleep(0.01)
    finally:
        output.close()
    assert heard, "the sound never finished"
    assert heard[0] - started >= 0.3 - 128 / RATE, "a 0.3 s sound is not drained at once"
    recording = output.recording()
    assert np.max(np.abs(recording)) == pytest.approx(0.5, rel=0.01)


@pytest.mark.skipif(has_sound_device("output"), reason="this machine has a sound output device")
def test_with_no_device_the_real_adapter_says_so_clearly() -> None:
    with pytest.raises(NoOutputDeviceError, match=r"^no sound output device found$") as raised:
        SoundDeviceOutput(Mixer(RATE)).start()
    assert "PortAudio" in raised.value.detail, "the library's own words are kept for --verbose"


@pytest.mark.skipif(has_sound_device("output"), reason="this machine has a sound output device")
def test_with_no_device_the_game_plays_silently_after_one_line() -> None:
    messages: list[str] = []
    output = open_output(Mixer(RATE), report=messages.append)
    try:
        assert output.is_silent and isinstance(output, PacedOutput)
    finally:
        output.close()
    assert len(messages) == 1
    assert "playing silently, every announcement is printed as text" in messages[0]
    assert "PortAudio" not in messages[0] and "Error" not in messages[0], "plain words only"


def test_the_audio_modules_load_without_pyttsx3_or_sounddevice() -> None:
    # Blocking the imports makes any import of them at module load fail loudly.
    code = (
        "import sys\n"
        "sys.modules['pyttsx3'] = None\n"
        "sys.modules['sounddevice'] = None\n"
        "import voicespit.narration.narrator, voicespit.audio.earcons, voicespit.audio.output\n"
        "import voicespit.audio.speaker, voicespit.audio.timeline, voicespit.audio.announcer\n"
        "import voicespit.audio.narrate, voicespit.cli.narrate\n"
        "from voicespit.audio.output import Mixer, open_output\n"
        "output = open_output(Mixer(), report=print)\n"
        "print('silent' if output.is_silent else 'device')\n"
        "output.close()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "silent"
    assert "no sound output can be used on this computer" in done.stdout


def test_words_start_on_the_very_frame_their_cue_ends() -> None:
    mixer = Mixer(RATE)
    started: list[float] = []
    cue = mixer.play(constant(300, 0.2))
    mixer.play(constant(200, 0.5), on_start=started.append, is_speech=True, after=cue)
    out = np.concatenate([mixer.render(128, at=i * 128 / RATE) for i in range(5)])[:, 0]
    assert np.allclose(out[:300], 0.2) and np.allclose(out[300:500], 0.5)
    assert np.allclose(out[500:], 0.0)
    assert started == [pytest.approx(300 / RATE)]


def test_a_sound_stopped_before_it_began_is_never_heard() -> None:
    mixer = Mixer(RATE)
    cue = mixer.play(constant(300, 0.2))
    ended: list[tuple[float, bool]] = []
    words = mixer.play(constant(200, 0.5), on_start=lambda at: ended.append((at, True)),
                       on_finish=lambda at, done: ended.append((at, done)), after=cue)
    words.stop()
    out = mixer.render(1024, at=0.0)[:, 0]
    assert np.allclose(out[:300], 0.2) and np.allclose(out[300:], 0.0)
    assert ended == [(0.0, False)]


def test_hushed_speech_drops_to_a_murmur_within_a_ramp_and_comes_back() -> None:
    mixer = Mixer(RATE)
    mixer.play(constant(6000, 0.5), is_speech=True)
    cue = mixer.play(constant(6000, 0.25))
    assert mixer.render(1000, at=0.0)[500, 0] == pytest.approx(0.5 * (1 - DUCK_DEPTH) + 0.25)
    mixer.hush(True)
    assert mixer.hushed
    block = mixer.render(1000, at=1000 / RATE)[:, 0]
    ramp = round(0.005 * RATE)
    assert np.all(np.diff(block[:ramp]) <= 0), "a ramp, not a click"
    speech_hushed = 0.5 * (1 - DUCK_DEPTH) * HUSH_DEPTH
    assert block[ramp + 10:] == pytest.approx(speech_hushed + 0.25), "cues are not hushed"
    mixer.hush(False)
    cue.stop()
    later = mixer.render(2000, at=2000 / RATE)[:, 0]
    assert later[-1] == pytest.approx(0.5)


def test_speech_that_starts_while_hushed_starts_hushed() -> None:
    mixer = Mixer(RATE)
    mixer.hush(True)
    mixer.play(constant(2000, 0.5), is_speech=True)
    assert mixer.render(1000, at=0.0)[500, 0] == pytest.approx(0.5 * HUSH_DEPTH)
