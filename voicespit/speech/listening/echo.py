"""Echo cancellation: take the game's own sound out of what the microphone hears.

The game knows exactly what it played (`PlaybackReference`), so an adaptive
filter can learn the room's path from loudspeaker to microphone and subtract
the echo, leaving the player's voice. The filter is WebRTC's AEC3, the one in
every browser, through the `pywebrtc-audio` wheel (chosen over speexdsp's
canceller and another AEC3 binding on the room benchmark: see the README's
"Listening while the game speaks").

`EchoStage` sits first on the listening thread: for each microphone block it
reads the far end played over the same clock interval and returns the block with
the echo removed. The canceller can wait for an echo (it finds delays of hundreds
of milliseconds) but never anticipate one, so the reference must not lag the
microphone; the block's clock time is an estimate that can only be late (a block
never arrives before it was recorded), which puts the reference, if anything,
ahead. Reading it 40 ms early (`lead`, the first version) made every room with a
loudspeaker nearer than that an echo before its reference: in the 10 ms room the
canceller removed 12 dB of echo (median) instead of 48. The canceller works in 10 ms frames; a block that is
not a whole number of frames leaves its remainder for the next one.

A second, filter-only canceller can run beside it (`linear`, speexdsp: see
`linear_echo.py`): AEC3's output still decides whether the player talks, and
`heard()` gives what the recognizer should hear of a block, the linear output.

`open_canceller()` raises `CancellerError` in plain words when the library is
missing or will not start; the app then falls back to the echo guard.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from voicespit.errors import VoiceSpitError
from voicespit.speech.listening.far_end import PlaybackReference
from voicespit.speech.listening.sources import AudioBlock
from voicespit.speech.recognizer import SAMPLE_RATE
from voicespit.speech.signal import FRAME

Int16 = npt.NDArray[np.int16]

DEFAULT_LEAD = 0.0
"""Seconds before the block's estimated clock time from which the far end is read."""


class CancellerError(VoiceSpitError):
    """No echo canceller can run here; the message says so in plain words."""


class EchoCanceller(Protocol):
    name: str
    latency: float
    """Seconds by which the cancelled audio lags the microphone's (the filter's own delay)."""
    channels: int
    """The far end's channels it models: 1 (mono) or 2 (left and right, each its own path)."""

    def process(self, near: Int16, far: Int16) -> Int16:
        """Cancel `far`'s echo from `near` (mono): as many frames, a whole number of 10 ms
        frames; `far` is (n,) for a mono canceller, (n, 2) for a stereo one."""
        ...

    def reset(self) -> None:
        """Forget the room (after the audio stream broke off)."""
        ...


class WebRtcCanceller:
    """WebRTC's AEC3 at 16 kHz, a mono microphone against a mono or stereo far end,
    optionally with its noise suppressor.

    Stereo: the binding has one channel count for both streams, interleaved, so the
    microphone goes in on both channels and its first comes out. The game uses mono:
    on the room benchmark a stereo far end removed no more of the game's echo (0.5 s
    room at +10 dB: 31 dB against 33 mono; 0.2 s room: 53 against 50) and left the
    player as hidden, though a mono far end made exact (both loudspeakers given one
    path) took it to 41 and 68 dB. Kept for that benchmark (`--canceller webrtc-stereo`)."""

    name = "WebRTC AEC3"
    latency = 0.008
    """Measured on the room benchmark: the output is 128 samples behind the input."""

    def __init__(self, noise_suppression: bool = False, channels: int = 1) -> None:
        if channels not in (1, 2):
            raise ValueError("the far end is mono or stereo")
        self.channels = channels
        try:
            from pywebrtc_audio import AudioProcessor
        except ImportError:
            raise CancellerError("the echo canceller is not installed") from None
        try:
            self._processor: Any = AudioProcessor(
                SAMPLE_RATE, num_channels=channels, echo_cancellation=True,
                noise_suppression=noise_suppression)
        except Exception as error:  # whatever the binding raises: it cannot run here
            raise CancellerError(f"the echo canceller would not start ({error})") from None

    def process(self, near: Int16, far: Int16) -> Int16:
        if self.channels == 1:
            result: Int16 = self._processor.process(near, far)
            return result
        both = np.repeat(near, 2)  # interleaved: the one microphone on each channel
        out = self._processor.process(both, np.ascontiguousarray(far).reshape(-1))
        first: Int16 = out[0::2].copy()
        return first

    def reset(self) -> None:
        self._processor.reset()


def open_canceller(channels: int = 1) -> EchoCanceller:
    """The echo canceller for a far end of `channels` channels, or CancellerError saying
    (in plain words) why there is none."""
    canceller = WebRtcCanceller(channels=channels)
    silence = np.zeros(FRAME, dtype=np.int16)
    far = silence if channels == 1 else np.zeros((FRAME, channels), dtype=np.int16)
    try:
        canceller.process(silence, far)  # a binding that loads but cannot run fails here
    except Exception as error:
        raise CancellerError(f"the echo canceller would not start ({error})") from None
    return canceller


FAR_SILENCE = 100
"""A far end whose samples all stay below this (-50 dB full scale) played nothing audible."""


class EchoStage:
    """Microphone blocks in, the same blocks with the game's echo cancelled out.

    Without a canceller (the echo guard's fallback) the blocks pass unchanged, but the
    stage still follows the far end, so the listener can tell a voice heard while
    nothing was playing (the player's) from the game's own.
    """

    def __init__(self, canceller: EchoCanceller | None, reference: PlaybackReference,
                 lead: float = DEFAULT_LEAD, linear: EchoCanceller | None = None) -> None:
        self.canceller = canceller
        self.linear = linear if canceller is not None else None
        """A filter-only canceller run beside the first: what the recognizer hears (see
        `linear_echo.py`)."""
        self._linear_delay = np.zeros(0, dtype=np.int16)
        """The linear output held back so it lines up with the first canceller's."""
        self.last_linear: Int16 | None = None
        """The linear canceller's output for the last block returned, if there is one."""
        self.reference = reference
        self.lead = lead
        self.far_heard_until = float("-inf")
        """Clock time at which the far end last played something audible."""
        self._pending = np.zeros(0, dtype=np.int16)
        self.last_far = np.zeros(0, dtype=np.int16)
        """The far end that went with the last block returned, mono (for the barge-in
        detector)."""
        self.last_near = np.zeros(0, dtype=np.int16)
        """The microphone's own samples of the last block returned, before cancelling."""

    def cancel(self, block: AudioBlock, clock_start: float) -> AudioBlock | None:
        """`block` (recorded from clock time `clock_start`) with the echo removed; None while
        less than one 10 ms frame has come in."""
        samples = np.frombuffer(block.pcm, dtype="<i2")
        held = len(self._pending)
        near = np.concatenate([self._pending, samples]) if held else samples
        usable = len(near) - len(near) % FRAME
        self._pending = near[usable:].copy()
        if not usable:
            return None
        near = near[:usable]
        far_start = clock_start - held / SAMPLE_RATE - self.lead
        far = self.reference.read(far_start, usable)
        mono = far if far.ndim == 1 else _mono(far)
        loud = np.flatnonzero(np.abs(mono.astype(np.int32)) >= FAR_SILENCE)
        if len(loud):
            self.far_heard_until = far_start + (loud[-1] + 1) / SAMPLE_RATE
        if self.canceller is None:
            cancelled = near
        else:
            given = mono if self.canceller.channels == 1 else _stereo(far)
            cancelled = self.canceller.process(np.ascontiguousarray(near), given)
            if self.linear is not None:
                self.last_linear = self._aligned(self.linear.process(np.ascontiguousarray(near),
                                                                     mono), cancelled)
        self.last_near, self.last_far = near, mono
        return AudioBlock(cancelled.astype("<i2").tobytes(), block.start - held / SAMPLE_RATE)

    def _aligned(self, linear: Int16, cancelled: Int16) -> Int16:
        """`linear` delayed by how much more the first canceller lags the microphone."""
        assert self.canceller is not None and self.linear is not None
        lag = round((self.canceller.latency - self.linear.latency) * SAMPLE_RATE)
        if lag <= 0:
            return linear
        if len(self._linear_delay) != lag:
            self._linear_delay = np.zeros(lag, dtype=np.int16)
        both = np.concatenate([self._linear_delay, linear])
        self._linear_delay = both[len(cancelled):]
        return both[:len(cancelled)]

    def heard(self, block: AudioBlock) -> AudioBlock:
        """What the recognizer should hear of `block` (as `cancel` returned it): the linear
        canceller's output when there is one, else the block itself."""
        if self.last_linear is None or len(self.last_linear) * 2 != len(block.pcm):
            return block
        return AudioBlock(self.last_linear.astype("<i2").tobytes(), block.start)

    def reset(self) -> None:
        """The stream broke off (a reconnected microphone): start again from nothing."""
        self._pending = np.zeros(0, dtype=np.int16)
        self._linear_delay = np.zeros(0, dtype=np.int16)
        self.last_linear = None
        if self.canceller is not None:
            self.canceller.reset()
        if self.linear is not None:
            self.linear.reset()


def _mono(far: Int16) -> Int16:
    """A stereo far end's mean."""
    mean: Int16 = np.rint(far.astype(np.float32).mean(axis=1)).astype(np.int16)
    return mean


def _stereo(far: Int16) -> Int16:
    """The far end as (n, 2): a mono one is the same on both sides."""
    if far.ndim == 2:
        return far
    both: Int16 = np.repeat(far[:, np.newaxis], 2, axis=1)
    return both
