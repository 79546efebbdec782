"""The microphone as an `AudioSource`: 16 kHz mono blocks from sounddevice (PortAudio).

The PortAudio callback runs on the audio driver's thread and must never wait, so
it only stamps each block with its place on the stream's timeline and drops it
into a bounded queue; conversion (mixing to mono, resampling) happens on the
reader's thread. If the reader falls behind by more than `max_backlog` seconds,
the oldest audio is dropped (and counted): a command spoken five seconds ago is
worth less than the one being spoken now.

sounddevice is imported only when a microphone is opened: it needs the PortAudio
library, which a machine without sound may lack.
"""

from __future__ import annotations

import contextlib
import math
import queue
import threading
import time
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import numpy as np

from voicespit.errors import VoiceSpitError
from voicespit.resampling import Resampler
from voicespit.speech.listening.sources import AudioBlock
from voicespit.speech.recognizer import SAMPLE_RATE


class NoMicrophoneError(VoiceSpitError):
    """No usable input device. The message says so in plain words ("no microphone
    found"); `detail` keeps the library's own words for --verbose and the log."""


class MicrophoneError(VoiceSpitError):
    """The microphone failed while recording (unplugged, or the driver stopped)."""


def _import_sounddevice() -> ModuleType:
    try:
        import sounddevice
    except OSError as error:  # the module is there but the PortAudio library is not
        raise NoMicrophoneError(
            "no microphone can be used: a sound library is missing",
            detail=f"the PortAudio library is missing ({error}); on Debian or Ubuntu install "
                   "libportaudio2") from None
    except ImportError as error:
        raise NoMicrophoneError("no microphone can be used: a sound library is missing",
                                detail=f"sounddevice is not installed ({error})") from None
    module: ModuleType = sounddevice
    return module


def choose_input_settings(is_supported: Callable[[int, int], bool], default_rate: int,
                          max_channels: int) -> tuple[int, int]:
    """The (sample rate, channels) to record with: 16 kHz mono when the device offers it,
    else its own rate (we resample), else stereo (we mix down)."""
    candidates = [(SAMPLE_RATE, 1), (default_rate, 1), (48_000, 1), (44_100, 1)]
    if max_channels >= 2:
        candidates += [(rate, 2) for rate, _ in candidates]
    for rate, channels in dict.fromkeys(candidates):
        if channels <= max_channels and is_supported(rate, channels):
            return rate, channels
    raise NoMicrophoneError("the microphone cannot record at a usable rate",
                            detail="the input device records at none of 16, 44.1 or 48 kHz")


class MicrophoneSource:
    """Records from an input device (the system default unless `device` names one)."""

    def __init__(self, device: int | str | None = None, *, block_seconds: float = 0.1,
                 max_backlog: float = 5.0, stall_seconds: float = 2.0,
                 samplerate: int | None = None) -> None:
        """`samplerate` forces the device's recording rate (normally chosen by asking it)."""
        self.device = device
        self.block_seconds = block_seconds
        self.stall_seconds = stall_seconds
        self.forced_samplerate = samplerate
        self.description = ""
        """The device's name and how it records, once open (e.g. "USB mic, 48000 Hz -> 16 kHz")."""
        self.dropped_blocks = 0
        """Blocks thrown away because the reader fell more than `max_backlog` behind."""
        """Times the driver reported lost input (the callback ran too late)."""
        self._queue: queue.Queue[tuple[float, bytes] | None] = queue.Queue(
            maxsize=max(2, math.ceil(max_backlog / block_seconds)))
        self._stream: Any = None
        self._sounddevice: ModuleType | None = None
        self._rate = SAMPLE_RATE
        self._channels = 1
        self._frames_captured = 0
        self._closed = threading.Event()

    def open(self) -> None:
        """Start recording; NoMicrophoneError when there is no usable input device."""
        if self._stream is not None:
            return
        sd = self._sounddevice = _import_sounddevice()
        try:
            info = sd.query_devices(self.device, kind="input")
        except (sd.PortAudioError, ValueError) as error:
            problem = "no microphone found" if self.device is None \
                else f"no microphone called {self.device}"
            raise NoMicrophoneError(problem, detail=f"PortAudio: {error}") from None
        max_channels = int(info["max_input_channels"])
        if max_channels < 1:
            raise NoMicrophoneError(f"{info['name']} cannot record",
                                    detail="the device has no input channels")

        def is_supported(rate: int, channels: int) -> bool:
            try:
                sd.check_input_settings(device=self.device, samplerate=rate, channels=channels,
                                        dtype="int16")
            except (sd.PortAudioError, ValueError):
                return False
            return True

        if self.forced_samplerate is not None:
            self._rate, self._channels = self.forced_samplerate, 1
        else:
            self._rate, self._channels = choose_input_settings(
                is_supported, int(info["default_samplerate"]), max_channels)
        try:
            self._stream = sd.RawInputStream(
                device=self.device, samplerate=self._rate, channels=self._channels, dtype="int16",
                blocksize=round(self._rate * self.block_seconds), callback=self._on_audio)
            self._stream.start()
        except (sd.PortAudioError, ValueError) as error:
            self._stream = None
            raise NoMicrophoneError(f"the microphone {info['name']} could not be opened",
                                    detail=f"PortAudio: {error}") from None
        conversion = "" if self._rate == SAMPLE_RATE else " -> 16000 Hz"
        channels = "" if self._channels == 1 else f", {self._channels} channels mixed"
        self.description = f"{info['name']}, {self._rate} Hz{conversion}{channels}"

    def blocks(self) -> Iterator[AudioBlock]:
        """16 kHz mono blocks until `close()`; MicrophoneError if the device stops delivering."""
        self.open()
        resampler = Resampler(self._rate, SAMPLE_RATE) if self._rate != SAMPLE_RATE else None
        last_arrival = time.monotonic()
        while not self._closed.is_set():
            try:
                item = self._queue.get(timeout=0.25)
            except queue.Empty:
                try:
                    self._check_still_recording(last_arrival)
                except MicrophoneError:
                    self._release_stream()  # so that blocks() again reopens the device
                    raise
                continue
            if item is None:
                break
            last_arrival = time.monotonic()
            start, raw = item
            samples = np.frombuffer(raw, dtype="<i2")
            if self._channels > 1:
                samples = samples.reshape(-1, self._channels).mean(axis=1).astype(np.int16)
            if resampler is not None:
                end = start + len(samples) / self._rate
                samples = resampler.process(samples)
                # The newest few ms stay in the resampler: this output ends that much earlier.
                start = end - resampler.pending_seconds - len(samples) / SAMPLE_RATE
            yield AudioBlock(samples.astype("<i2").tobytes(), start)

    def close(self) -> None:
        if self._closed.is_set():
            return
        self._closed.set()
        self._release_stream()
        self._put_dropping_oldest(None)

    def _release_stream(self) -> None:
        stream, self._stream = self._stream, None
        if stream is not None:
            with contextlib.suppress(Exception):  # closing a dead device must not fail
                stream.stop()
                stream.close()

    def _check_still_recording(self, last_arrival: float) -> None:
        # Only the time since the last block is checked: asking PortAudio whether the
        # stream is active can block for as long as the driver itself is stuck.
        if self._closed.is_set():
            return
        silent_for = time.monotonic() - last_arrival
        if silent_for > self.stall_seconds:
            raise MicrophoneError(f"no sound from the microphone ({self.description}) for "
                                  f"{silent_for:.0f} s; is it still connected?")

    def _on_audio(self, indata: Any, frames: int, time_info: Any, status: Any) -> None:
        # Runs on PortAudio's thread: no waiting, no exceptions.
        start = self._frames_captured / self._rate
        self._frames_captured += frames
        if not self._closed.is_set():
            self._put_dropping_oldest((start, bytes(indata)))

    def _put_dropping_oldest(self, item: tuple[float, bytes] | None) -> None:
        while True:
            try:
                self._queue.put_nowait(item)
                return
            except queue.Full:
                with contextlib.suppress(queue.Empty):
                    self._queue.get_nowait()
                    self.dropped_blocks += 1
