"""Where voice input comes from: the interface every audio source implements.

Sources deliver 16 kHz mono signed 16-bit little-endian PCM in blocks stamped
with their position on the stream's timeline, so the recognizer's timing is the
same whether audio comes from a microphone or a file.
"""

from __future__ import annotations

import threading
import wave
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TextIO

import numpy as np
import numpy.typing as npt

from voicespit.clock import Clock
from voicespit.errors import VoiceSpitError
from voicespit.resampling import resample
from voicespit.speech.recognizer import SAMPLE_RATE
from voicespit.speech.signal import to_pcm


@dataclass(frozen=True, slots=True)
class AudioBlock:
    pcm: bytes
    """16 kHz mono s16le samples."""
    start: float
    """Stream time (seconds) of the first sample in this block."""

    @property
    def duration(self) -> float:
        return len(self.pcm) / (2 * SAMPLE_RATE)


class AudioSource(Protocol):
    def blocks(self) -> Iterator[AudioBlock]:
        """Blocks in stream order until the source ends or is closed."""
        ...

    def close(self) -> None:
        """Stop delivering blocks and release the device or file."""
        ...


BLOCK_SECONDS = 0.03
"""Default block length: 30 ms, the frame the endpointer works in."""


class AudioInputError(VoiceSpitError):
    """A file or device that cannot give 16 kHz mono speech; the message says why."""


def read_wav(path: Path) -> tuple[bytes, str | None]:
    """A WAV file's samples as 16 kHz mono s16le, and a note when it had to be converted.

    Converts any PCM WAV (8, 16, 24 or 32-bit; any channels; any rate) by mixing
    to mono and resampling; refuses anything else with an AudioInputError that
    names the file and the problem. An empty file gives b"" (nothing to hear).
    """
    try:
        with wave.open(str(path), "rb") as wav:
            channels = wav.getnchannels()
            width = wav.getsampwidth()
            rate = wav.getframerate()
            frames = wav.readframes(wav.getnframes())
    except FileNotFoundError:
        raise AudioInputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise AudioInputError(f"{path}: is a directory, not a WAV file") from None
    except (wave.Error, EOFError) as error:
        raise AudioInputError(f"{path}: not a PCM WAV file ({error})") from None
    except OSError as error:
        raise AudioInputError(f"{path}: cannot read it ({error.strerror or error})") from None
    if width not in (1, 2, 3, 4):
        raise AudioInputError(f"{path}: {8 * width}-bit samples are not supported")
    if rate < 4000:
        raise AudioInputError(f"{path}: a sample rate of {rate} Hz is too low for speech")
    usable = len(frames) - len(frames) % (width * channels)
    samples = _to_float(frames[:usable], width).reshape(-1, channels).mean(axis=1)
    notes = []
    if channels != 1:
        notes.append(f"mixed {channels} channels to mono")
    if rate != SAMPLE_RATE:
        samples = resample(samples, rate, SAMPLE_RATE)
        notes.append(f"resampled from {rate} Hz")
    return to_pcm(samples * 32768.0), ("; ".join(notes) or None)


def _to_float(frames: bytes, width: int) -> npt.NDArray[np.float64]:
    """PCM bytes -> floats in [-1, 1)."""
    if width == 1:  # 8-bit WAV is unsigned
        return (np.frombuffer(frames, dtype=np.uint8).astype(np.float64) - 128.0) / 128.0
    if width == 3:
        raw = np.frombuffer(frames, dtype=np.uint8).reshape(-1, 3).astype(np.int32)
        values = raw[:, 0] | (raw[:, 1] << 8) | (raw[:, 2] << 16)
        values = np.where(values >= 1 << 23, values - (1 << 24), values)
        return values.astype(np.float64) / float(1 << 23)
    dtype = "<i2" if width == 2 else "<i4"
    return np.frombuffer(frames, dtype=dtype).astype(np.float64) / float(1 << (8 * width - 1))


class WavSource:
    """Streams a WAV file as stamped blocks: as fast as possible, or at real-time pace.

    At real-time pace each block is delivered when the clock reaches the time its
    last sample would have been spoken, as a microphone would deliver it.
    """

    def __init__(self, path: Path, *, block_seconds: float = BLOCK_SECONDS,
                 clock: Clock | None = None, pcm: bytes | None = None) -> None:
        """`clock` given: real-time pace on that clock; None: as fast as possible.

        `pcm` given: stream these 16 kHz mono samples instead of reading `path`.
        """
        self.path = path
        self.pcm = read_wav(path)[0] if pcm is None else pcm
        self._block_bytes = 2 * max(1, round(block_seconds * SAMPLE_RATE))
        self._clock = clock
        self._closed = threading.Event()

    @property
    def duration(self) -> float:
        return len(self.pcm) / (2 * SAMPLE_RATE)

    def blocks(self) -> Iterator[AudioBlock]:
        started = self._clock.now() if self._clock is not None else 0.0
        for offset in range(0, len(self.pcm), self._block_bytes):
            block = AudioBlock(self.pcm[offset:offset + self._block_bytes],
                               offset / (2 * SAMPLE_RATE))
            if self._clock is not None:
                self._wait_until(started + block.start + block.duration)
            if self._closed.is_set():
                return
            yield block

    def _wait_until(self, due: float) -> None:
        assert self._clock is not None
        arrived = threading.Event()
        timer = self._clock.call_at(due, arrived.set)
        while not arrived.is_set() and not self._closed.is_set():
            arrived.wait(0.05)
        timer.cancel()

    def close(self) -> None:
        self._closed.set()


class TypedTextSource:
    """Typed commands, one a line (the keyboard input and the fallback without a microphone)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._closed = False

    def lines(self) -> Iterator[str]:
        """Each non-blank line, stripped, until end of input or close()."""
        for line in self._stream:
            if self._closed:
                return
            text = line.strip()
            if text:
                yield text

    def close(self) -> None:
        self._closed = True
