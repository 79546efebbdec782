"""Where voice input comes from: the interface every audio source implements.

Sources deliver 16 kHz mono signed 16-bit little-endian PCM in blocks stamped
with their position on the stream's timeline, so the recognizer's timing is the
same whether audio comes from a microphone or a file.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from voicespit.speech.recognizer import SAMPLE_RATE


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
