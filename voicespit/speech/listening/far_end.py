"""What the loudspeakers played, as the echo canceller's far end: 16 kHz on the clock.

The sound output pushes every block it plays (after mixing, at the mixer's rate,
stereo) with the clock time its first frame is heard. `PlaybackReference` turns
that stream into 16 kHz, mono or both channels, and answers "what was playing from
clock time t, for n samples?" for each microphone block, so the canceller subtracts
exactly the sound that could have reached the microphone during that block.

Why both channels can be kept: each loudspeaker reaches the microphone by its own
path, and the game pans its cues. The echo is left's path applied to left plus
right's to right; a mono far end (their mean) can only stand for that while left
and right are the same. In the room benchmark's 0.5 s room, giving both loudspeakers
one path (the mono far end then exact) took speexdsp's echo removed from 15 to 22 dB
and AEC3's from 33 to 41 dB: that much is what the mono far end costs. No canceller
the game can install turns a stereo far end into that gain (see `echo.py`), so the
game reads it mono.

`push` runs on the sound card's thread and only appends under a lock; the
conversion happens in `read`, on the listener's thread. The output is one
continuous stream, so its blocks are placed end to end; when a block's own time
disagrees with that by more than `RESYNC_SECONDS` (the virtual card caught up
after a stall, a device restarted) the stream is anchored afresh at that block.
Pure numpy: no audio library.
"""

from __future__ import annotations

import collections
import threading

import numpy as np
import numpy.typing as npt

from voicespit.resampling import Resampler
from voicespit.speech.recognizer import SAMPLE_RATE

Int16 = npt.NDArray[np.int16]

RESYNC_SECONDS = 0.04
"""A block this far from where the stream says it belongs starts a new anchor (callback
jitter is a few ms; a sound card drifting 50 ppm from the clock gets there in 13 minutes)."""


class PlaybackReference:
    """The played sound, kept for `history` seconds, readable by clock time, as `channels`
    channels: 1 (the mean of the output's) or 2 (the output's left and right)."""

    def __init__(self, rate: int, history: float = 4.0, channels: int = 1) -> None:
        if channels not in (1, 2):
            raise ValueError("the far end is mono or stereo")
        self.rate = rate
        self.history = history
        self.channels = channels
        self._lock = threading.Lock()
        self._converting = threading.Lock()
        """Held while blocks are converted (outside `_lock`, so the output's `push` never
        waits on the converters): `close` waits for a conversion under way to finish."""
        self._incoming: collections.deque[tuple[npt.NDArray[np.float32], float]] = \
            collections.deque()
        self._keep = round(history * SAMPLE_RATE)
        self._buffer = np.zeros((2 * self._keep, channels), dtype=np.int16)
        self._start = 0.0
        """Clock time of _buffer[0]."""
        self._length = 0
        self._resamplers: list[Resampler] = []
        """One per channel."""
        self._expected_at: float | None = None
        """When the next pushed block should be heard, if the stream is continuous."""
        self._produced = 0
        """16 kHz samples produced since the current anchor."""
        self._anchor = 0.0
        self.resyncs = 0
        """Times the stream was anchored afresh (for tests and diagnostics)."""
        self._closed = False

    def push(self, block: npt.NDArray[np.float32], heard_at: float) -> None:
        """A block the output plays (frames x channels, or mono; -1..1), first frame heard at
        `heard_at`. Safe to call from the sound card's thread: it never waits for work."""
        frames = block if block.ndim == 2 else block[:, np.newaxis]
        if self.channels == 1:
            kept = frames.mean(axis=1, keepdims=True)
        elif frames.shape[1] == 1:  # a mono output plays the same on both sides
            kept = np.repeat(frames, 2, axis=1)
        else:
            kept = frames[:, :2]
        with self._lock:
            if not self._closed:
                self._incoming.append((kept.astype(np.float32, copy=False), heard_at))

    def close(self) -> None:
        """The game is over: let the converters go (what is pushed or read after is
        silence). Held to the interpreter's end (by the game's clock threads), a converter
        made soxr's binding print 17 lines about leaked instances as the game exited: on
        the terminal with --verbose, in the log without."""
        with self._converting, self._lock:
            self._closed = True
            self._incoming.clear()
            self._resamplers = []

    def read(self, start: float, count: int) -> Int16:
        """The `count` 16 kHz samples played from clock time `start` (silence where nothing
        was): shape (count,) for a mono far end, (count, 2) for stereo."""
        self._convert()
        out = np.zeros((count, self.channels), dtype=np.int16)
        offset = round((self._start - start) * SAMPLE_RATE)
        lo, hi = max(0, offset), min(count, offset + self._length)
        if lo < hi:
            out[lo:hi] = self._buffer[lo - offset:hi - offset]
        return out[:, 0].copy() if self.channels == 1 else out

    def _convert(self) -> None:
        with self._converting:
            self._convert_incoming()

    def _convert_incoming(self) -> None:
        with self._lock:
            if self._closed:
                return
            blocks, self._incoming = list(self._incoming), collections.deque()
        for played, heard_at in blocks:
            if self._expected_at is None or abs(heard_at - self._expected_at) > RESYNC_SECONDS:
                self._anchor_at(heard_at)
            self._expected_at = heard_at + len(played) / self.rate
            samples = np.clip(np.rint(played * 32767.0), -32768, 32767).astype(np.int16)
            # Each channel's converter holds back the same samples: equal lengths out.
            converted = np.stack([resampler.process(np.ascontiguousarray(samples[:, channel]))
                                  for channel, resampler in enumerate(self._resamplers)],
                                 axis=1)
            if not len(converted):
                continue
            # The resampler's output lines up with its input: sample k is at k / 16 kHz.
            start = self._anchor + self._produced / SAMPLE_RATE
            self._produced += len(converted)
            self._append(start, converted)

    def _anchor_at(self, heard_at: float) -> None:
        if self._expected_at is not None:
            self.resyncs += 1
        self._resamplers = [Resampler(self.rate, SAMPLE_RATE) for _ in range(self.channels)]
        self._anchor = heard_at
        self._produced = 0

    def _append(self, start: float, samples: Int16) -> None:
        """Write `samples` at clock time `start`: after a gap, silence fills it; over the
        end (time went back), the newer sound wins."""
        index = round((start - self._start) * SAMPLE_RATE)
        if self._length == 0 or index < 0 or index > self._length + self._keep:
            self._start, self._length, index = start, 0, 0
        if index > self._length:
            self._write(self._length, np.zeros((index - self._length, self.channels),
                                               dtype=np.int16))
        self._length = index
        self._write(index, samples)
        if self._length > 2 * self._keep:  # forget the oldest, now and then, not every block
            drop = self._length - self._keep
            self._buffer[:self._keep] = self._buffer[drop:self._length]
            self._length = self._keep
            self._start += drop / SAMPLE_RATE

    def _write(self, index: int, samples: Int16) -> None:
        end = index + len(samples)
        if end > len(self._buffer):
            grown = np.zeros((max(end, 2 * len(self._buffer)), self.channels), dtype=np.int16)
            grown[:self._length] = self._buffer[:self._length]
            self._buffer = grown
        self._buffer[index:end] = samples
        self._length = max(self._length, end)
