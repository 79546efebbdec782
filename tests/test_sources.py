"""Audio sources (voicespit/speech/listening/sources.py): WAV files of any PCM kind,
paced or not, and text."""

from __future__ import annotations

import io
import struct
import threading
import wave
from pathlib import Path

import numpy as np
import pytest

from voicespit.clock import FakeClock
from voicespit.errors import VoiceSpitError
from voicespit.speech.listening.sources import AudioInputError, TypedTextSource, WavSource, read_wav

RATE = 16_000


def write_wav(path: Path, samples: np.ndarray, *, rate: int = RATE, channels: int = 1,
              width: int = 2) -> Path:
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(channels)
        wav.setsampwidth(width)
        wav.setframerate(rate)
        wav.writeframes(samples.tobytes())
    return path


def tone(seconds: float, rate: int, frequency: float = 440.0) -> np.ndarray:
    time = np.arange(int(seconds * rate)) / rate
    return 0.5 * np.sin(2 * np.pi * frequency * time)


def as_int16(samples: np.ndarray) -> np.ndarray:
    return np.round(samples * 32767).astype("<i2")


def test_a_16_khz_mono_file_comes_through_unchanged(tmp_path: Path) -> None:
    samples = as_int16(tone(0.5, RATE))
    pcm, note = read_wav(write_wav(tmp_path / "a.wav", samples))
    assert pcm == samples.tobytes() and note is None


def test_other_rates_and_stereo_are_resampled_and_mixed_and_say_so(tmp_path: Path) -> None:
    left = as_int16(tone(1.0, 44_100))
    stereo = np.stack([left, left], axis=1)
    pcm, note = read_wav(write_wav(tmp_path / "s.wav", stereo, rate=44_100, channels=2))
    assert note == "mixed 2 channels to mono; resampled from 44100 Hz"
    converted = np.frombuffer(pcm, dtype="<i2").astype(float)
    assert len(converted) == RATE
    # Still a 440 Hz tone at the same loudness after conversion.
    spectrum = np.abs(np.fft.rfft(converted))
    assert abs(int(np.argmax(spectrum)) - 440) <= 1
    assert 0.3 < np.abs(converted).max() / 32767 < 0.6


@pytest.mark.parametrize("width", [1, 3, 4])
def test_8_24_and_32_bit_samples_are_read(tmp_path: Path, width: int) -> None:
    samples = tone(0.25, RATE)
    if width == 1:
        raw = np.round(samples * 127 + 128).astype(np.uint8)
    elif width == 3:
        values = np.round(samples * (2 ** 23 - 1)).astype("<i4")
        raw = np.frombuffer(values.tobytes(), dtype=np.uint8).reshape(-1, 4)[:, :3].copy()
    else:
        raw = np.round(samples * (2 ** 31 - 1)).astype("<i4")
    pcm, _ = read_wav(write_wav(tmp_path / "w.wav", raw, width=width))
    decoded = np.frombuffer(pcm, dtype="<i2").astype(float) / 32767
    assert np.max(np.abs(decoded - samples)) < 0.02


def test_an_empty_file_is_nothing_to_hear(tmp_path: Path) -> None:
    pcm, _ = read_wav(write_wav(tmp_path / "empty.wav", np.zeros(0, dtype="<i2")))
    assert pcm == b""


def float_wav(samples: np.ndarray, dtype: str, rate: int = RATE) -> bytes:
    """A WAV of IEEE floats (format 3), written by hand as other programs write them."""
    data = samples.astype(dtype).tobytes()
    width = np.dtype(dtype).itemsize
    header = struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + len(data), b"WAVE", b"fmt ", 16,
                         3, 1, rate, rate * width, width, 8 * width, b"data", len(data))
    return header + data


@pytest.mark.parametrize("dtype", ["<f4", "<f8"])
def test_float_wavs_are_converted_and_say_so(tmp_path: Path, dtype: str) -> None:
    samples = tone(0.25, 22_050)
    path = tmp_path / "float.wav"
    path.write_bytes(float_wav(samples, dtype, rate=22_050))
    pcm, note = read_wav(path)
    assert note == "converted from floating-point samples; resampled from 22050 Hz"
    decoded = np.frombuffer(pcm, dtype="<i2").astype(float) / 32767
    assert len(decoded) == RATE // 4
    assert 0.45 < np.abs(decoded).max() < 0.55


@pytest.mark.parametrize("content", [b"this is not audio at all", b"RIFF\x10\x00\x00\x00WAVEfmt "])
def test_files_that_are_not_sound_are_refused_by_name_in_plain_words(tmp_path: Path,
                                                                     content: bytes) -> None:
    path = tmp_path / "bad.wav"
    path.write_bytes(content)
    with pytest.raises(AudioInputError, match="not a sound file VoiceSpit can read") as refusal:
        read_wav(path)
    assert str(path) in str(refusal.value)
    assert "format" not in str(refusal.value).lower(), "the library's words are the detail"
    assert refusal.value.detail
    assert isinstance(refusal.value, VoiceSpitError)


def test_a_missing_file_or_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(AudioInputError, match="no such file"):
        read_wav(tmp_path / "nowhere.wav")
    with pytest.raises(AudioInputError, match="is a directory"):
        read_wav(tmp_path)


def test_a_wav_source_streams_stamped_blocks_covering_the_file(tmp_path: Path) -> None:
    samples = as_int16(tone(1.0, RATE))
    source = WavSource(write_wav(tmp_path / "a.wav", samples), block_seconds=0.03)
    blocks = list(source.blocks())
    assert b"".join(block.pcm for block in blocks) == samples.tobytes()
    assert [round(block.start, 3) for block in blocks[:3]] == [0.0, 0.03, 0.06]
    assert abs(blocks[-1].start + blocks[-1].duration - 1.0) < 1e-9


def test_at_real_time_pace_a_block_waits_for_its_moment(tmp_path: Path) -> None:
    clock = FakeClock()
    source = WavSource(write_wav(tmp_path / "a.wav", as_int16(tone(0.3, RATE))),
                       block_seconds=0.1, clock=clock)
    received: list[float] = []
    reader = threading.Thread(target=lambda: received.extend(b.start for b in source.blocks()))
    reader.start()
    threading.Event().wait(0.2)
    assert received == []  # the clock has not moved: the first block is not due
    for _ in range(3):
        clock.advance(0.1)
        threading.Event().wait(0.15)
    reader.join(timeout=30)  # a guard: on a busy machine the thread can take a while
    assert [round(start, 1) for start in received] == [0.0, 0.1, 0.2]


def test_closing_a_paced_source_stops_it(tmp_path: Path) -> None:
    source = WavSource(write_wav(tmp_path / "a.wav", as_int16(tone(1.0, RATE))),
                       clock=FakeClock())
    reader = threading.Thread(target=lambda: list(source.blocks()))
    reader.start()
    source.close()
    reader.join(timeout=30)  # a guard: on a busy machine the thread can take a while
    assert not reader.is_alive()


def test_typed_text_gives_each_non_blank_line_stripped() -> None:
    source = TypedTextSource(io.StringIO("seven on left\n\n   flip  \nspit\n"))
    assert list(source.lines()) == ["seven on left", "flip", "spit"]
