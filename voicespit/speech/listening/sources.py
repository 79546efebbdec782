"""Where voice input comes from: the interface every audio source implements.

Sources deliver 16 kHz mono signed 16-bit little-endian PCM in blocks stamped
with their position on the stream's timeline, so the recognizer's timing is the
same whether audio comes from a microphone or a file.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TextIO

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
    """A sound file's samples as 16 kHz mono s16le, and a note when it had to be converted.

    Reads any WAV libsndfile reads (8, 16, 24 or 32-bit integer, 32 or 64-bit float;
    any channels; any rate; and FLAC or Ogg as well), mixing to mono and resampling;
    refuses anything else with an AudioInputError that names the file and says in
    plain words what is wrong. An empty file gives b"" (nothing to hear).
    """
    import soundfile  # a C library: loaded only when a file is read

    if path.is_dir():
        raise AudioInputError(f"{path}: is a directory, not a WAV file")
    if not path.exists():
        raise AudioInputError(f"{path}: no such file")
    try:
        info = soundfile.info(str(path))
        exact = info.subtype == "PCM_16" and info.channels == 1 and info.samplerate == SAMPLE_RATE
        samples, rate = soundfile.read(str(path), dtype="int16" if exact else "float64",
                                       always_2d=True)
    except soundfile.LibsndfileError as error:
        raise AudioInputError(f"{path}: not a sound file VoiceSpit can read (it needs a WAV "
                              f"file)", detail=str(error)) from None
    except OSError as error:
        raise AudioInputError(f"{path}: cannot read it ({error.strerror or error})") from None
    if exact:
        return np.ascontiguousarray(samples[:, 0]).astype("<i2").tobytes(), None
    if rate < 4000:
        raise AudioInputError(f"{path}: a sample rate of {rate} Hz is too low for speech")
    mono: npt.NDArray[np.floating[Any]] = np.asarray(samples, dtype=np.float64).mean(axis=1)
    notes = []
    if info.subtype.startswith(("FLOAT", "DOUBLE")):
        notes.append("converted from floating-point samples")
    if info.channels != 1:
        notes.append(f"mixed {info.channels} channels to mono")
    if rate != SAMPLE_RATE:
        mono = resample(mono, rate, SAMPLE_RATE)
        notes.append(f"resampled from {rate} Hz")
    return to_pcm(np.clip(mono, -1.0, 1.0) * 32768.0), ("; ".join(notes) or None)


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
