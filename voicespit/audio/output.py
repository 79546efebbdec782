"""Sound output: a mixer of everything playing, and the outputs that pull from it.

The `Mixer` sums speech and earcons into stereo blocks. An output pulls a block
whenever the sound card needs one and says when that block will be heard, so each
sound knows when its first sample reached the ear (that time is what the latency
benchmark measures) and when its last one did (when speech "has been heard").
Stopping a sound takes effect at the next block, with a 5 ms fade against clicks:
this is how speech is interrupted, independent of the speech engine.

Outputs:
- `SoundDeviceOutput`: the sound card through sounddevice (imported lazily; a
  machine without PortAudio or without a device gets `NoOutputDeviceError`).
- `DeviceOrSilence` (what `open_output` returns): the sound card while it lasts;
  when it goes away mid-game (unplugged, its server gone), the paced output takes
  over the same mixer at once, so what was playing ends on time and the game goes
  on silently, saying so once.
- `PacedOutput`: a virtual sound card that pulls blocks at real-time pace and
  throws them away (or keeps them, for tests). With no device the game runs on it,
  silently, so every timing (including the opponent's wait for speech to finish)
  stays the same and the text mirror carries the words.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from voicespit.audio.earcons import SAMPLE_RATE
from voicespit.errors import VoiceSpitError

log = logging.getLogger(__name__)

Stereo = npt.NDArray[np.float32]
Tap = Callable[[Stereo, float], None]
"""Given every block the mixer renders, and the time its first frame is heard."""
StartListener = Callable[[float], None]
FinishListener = Callable[[float, bool], None]
"""Called with the time the last sample is heard, and False when the sound was stopped."""
FADE_SECONDS = 0.005
DUCK_DEPTH = 0.5
"""While a cue plays, speech drops to half its level (-6 dB), so the cue's side is
clear even over words; the ramps are 5 ms, short enough not to blur a syllable."""
HUSH_DEPTH = 0.06
"""While the player may be talking over the game, speech drops to this (-24 dB): enough
that the echo canceller stops hiding the player under the game's voice, and undone
without a word lost if it was not the player (`Mixer.hush`)."""


def duck_amount(cue_frames: int, first: int, last: int,
                sample_rate: int) -> npt.NDArray[np.float32]:
    """How much a cue of `cue_frames` ducks speech (0..1) at its frames [first, last)."""
    ramp = max(1, round(FADE_SECONDS * sample_rate))
    frames = np.arange(first, last, dtype=np.float32)
    rising = (frames + 1) / ramp
    falling = (cue_frames - frames) / ramp
    return np.clip(np.minimum(rising, falling), 0.0, 1.0)


SOUNDING_LEVEL = 0.02
"""A sample under this share of a sound's peak (34 dB down) is the silence around it."""


def sounding_seconds(sound: npt.NDArray[np.float32], sample_rate: int) -> float:
    """Seconds from the start of `sound` (mono or stereo) to the end of its last sample
    within `SOUNDING_LEVEL` of its peak: how long it is heard, the silence a speech engine
    leaves after the last word (0.04 to 0.6 s with espeak-ng, by the rate) left out."""
    if not len(sound):
        return 0.0
    level = np.abs(sound).reshape(len(sound), -1).max(axis=1)
    peak = float(level.max())
    if peak <= 0.0:
        return 0.0
    last = int(np.flatnonzero(level >= SOUNDING_LEVEL * peak)[-1])
    return (last + 1) / sample_rate


class NoOutputDeviceError(VoiceSpitError):
    """There is no sound output to play through (no PortAudio, or no output device)."""


class Playing:
    """One sound in the mixer. `stop()` is safe from any thread."""

    __slots__ = ("_stop", "after", "cue_from", "is_speech", "on_finish", "on_start", "position",
                 "samples")

    def __init__(self, samples: Stereo, on_start: StartListener | None,
                 on_finish: FinishListener | None, is_speech: bool, cue_from: int,
                 after: Playing | None) -> None:
        self.samples = samples
        self.after = after
        """Start on the very frame this other sound ends (words after their own cue)."""
        self.is_speech = is_speech
        """Speech is ducked under cues; anything else is a cue and ducks speech."""
        self.cue_from = cue_from
        """Frames of lead-in silence before a cue proper (a cue waiting for the one before)."""
        self.position = 0
        self.on_start = on_start
        self.on_finish = on_finish
        self._stop = False

    def stop(self) -> None:
        self._stop = True

    @property
    def stop_requested(self) -> bool:
        return self._stop


class Mixer:
    """Sums the sounds that are playing; `render` is called by an output for each block."""

    def __init__(self, sample_rate: int = SAMPLE_RATE) -> None:
        self.sample_rate = sample_rate
        self._playing: list[Playing] = []
        self._lock = threading.Lock()
        self._fade_frames = max(1, round(FADE_SECONDS * sample_rate))
        self._taps: list[Tap] = []
        self._hush_target: float = 1.0
        self._hush_level: float = 1.0
        """The gain all speech is at (1.0, or HUSH_DEPTH while hushed), ramping to the target."""

    def hush(self, hushed: bool) -> None:
        """Take all speech down to HUSH_DEPTH (or back up) from the next block, with a 5 ms
        ramp: the player may be talking over the game. Safe from any thread."""
        with self._lock:
            self._hush_target = HUSH_DEPTH if hushed else 1.0

    @property
    def hushed(self) -> bool:
        with self._lock:
            return self._hush_target < 1.0

    def add_tap(self, tap: Tap) -> None:
        """Also give every rendered block to `tap` (the echo canceller's far end): exactly
        what the output plays, after mixing and ducking. It runs on the output's thread,
        so it must only store the block."""
        self._taps.append(tap)

    def play(self, samples: Stereo, on_start: StartListener | None = None,
             on_finish: FinishListener | None = None, is_speech: bool = False,
             cue_from: int = 0, after: Playing | None = None) -> Playing:
        """Start a stereo sound (frames x 2) at the next block, or where `after` ends."""
        playing = Playing(samples, on_start, on_finish, is_speech, cue_from, after)
        with self._lock:
            self._playing.append(playing)
        return playing

    @property
    def active(self) -> int:
        with self._lock:
            return len(self._playing)

    def render(self, frames: int, at: float) -> Stereo:
        """The next `frames` of output, whose first frame is heard at time `at`."""
        block = np.zeros((frames, 2), dtype=np.float32)
        events: list[Callable[[], None]] = []
        with self._lock:
            speech_gain = self._speech_gain(frames)
            ends = {id(p): self._frames_left(p) for p in self._playing}
            still: list[Playing] = []
            for playing in self._playing:
                offset = 0
                if playing.after is not None:
                    offset = ends.get(id(playing.after), 0)
                    if offset >= frames and not playing.stop_requested:
                        still.append(playing)  # what it follows is still playing
                        continue
                    playing.after = None
                finished = self._mix(playing, block, offset, speech_gain, at, events)
                if not finished:
                    still.append(playing)
            self._playing = still
        np.clip(block, -1.0, 1.0, out=block)
        for tap in self._taps:
            tap(block, at)
        for event in events:
            event()
        return block

    def _frames_left(self, playing: Playing) -> int:
        left = len(playing.samples) - playing.position
        return min(left, self._fade_frames) if playing.stop_requested else left

    def _mix(self, playing: Playing, block: Stereo, offset: int,
             speech_gain: npt.NDArray[np.float32], at: float,
             events: list[Callable[[], None]]) -> bool:
        """Add the sound's next frames to `block` from `offset`; True when it has ended."""
        frames = len(block)
        start = playing.position
        if playing.stop_requested and start == 0:
            if playing.on_finish is not None:  # stopped before a sample was heard
                events.append(_bind_finish(playing.on_finish, at, False))
            return True
        if start == 0 and playing.on_start is not None:
            events.append(_bind_start(playing.on_start, at + offset / self.sample_rate))
        remaining = len(playing.samples) - start
        if playing.stop_requested:
            count = min(remaining, self._fade_frames, frames - offset)
            gain = np.linspace(1.0, 0.0, count, dtype=np.float32)
            finished, completed = True, False
        else:
            count = min(remaining, frames - offset)
            gain = np.ones(count, dtype=np.float32)
            finished, completed = start + count >= len(playing.samples), True
        if playing.is_speech:
            gain *= speech_gain[offset:offset + count]
        block[offset:offset + count] += playing.samples[start:start + count] * gain[:, None]
        playing.position = len(playing.samples) if finished else start + count
        if finished and playing.on_finish is not None:
            end = at + (offset + count) / self.sample_rate
            events.append(_bind_finish(playing.on_finish, end, completed))
        return finished

    def _speech_gain(self, frames: int) -> npt.NDArray[np.float32]:
        ducked = np.zeros(frames, dtype=np.float32)
        for playing in self._playing:
            if playing.is_speech or playing.stop_requested:
                continue
            cue_frames = len(playing.samples) - playing.cue_from
            first = playing.position - playing.cue_from
            last = min(first + frames, cue_frames)
            if last <= 0:
                continue
            lo = max(first, 0)
            amount = duck_amount(cue_frames, lo, last, self.sample_rate)
            offset = lo - first
            np.maximum(ducked[offset:offset + len(amount)], amount,
                       out=ducked[offset:offset + len(amount)])
        gain = 1.0 - DUCK_DEPTH * ducked
        if self._hush_level != self._hush_target or self._hush_level != 1.0:
            step = (1.0 - HUSH_DEPTH) / self._fade_frames
            ramp = self._hush_level + np.sign(self._hush_target - self._hush_level) \
                * step * np.arange(1, frames + 1, dtype=np.float32)
            low, high = sorted((self._hush_level, self._hush_target))
            hush = np.clip(ramp, low, high).astype(np.float32)
            self._hush_level = float(hush[-1])
            gain *= hush
        return gain


def _bind_start(listener: StartListener, at: float) -> Callable[[], None]:
    return lambda: listener(at)


def _bind_finish(listener: FinishListener, at: float, completed: bool) -> Callable[[], None]:
    return lambda: listener(at, completed)


class Output(Protocol):
    @property
    def is_silent(self) -> bool:
        """True when nothing reaches a loudspeaker (the text mirror is all there is)."""
        ...

    def start(self) -> None: ...

    def close(self) -> None: ...


class PacedOutput:
    """A virtual sound card: pulls `block_frames` at a time at real-time pace.

    `keep=True` records every block with the time it "played", for tests.
    Times are `time.monotonic()`, the scale of `RealClock`.
    """

    is_silent = True

    def __init__(self, mixer: Mixer, block_frames: int = 128, keep: bool = False) -> None:
        self.mixer = mixer
        self.block_frames = block_frames
        self.keep = keep
        self.blocks: list[tuple[float, Stereo]] = []
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="paced output", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        period = self.block_frames / self.mixer.sample_rate
        due = time.monotonic()
        while not self._stopping.is_set():
            now = time.monotonic()
            if now < due:
                self._stopping.wait(due - now)
                continue
            block = self.mixer.render(self.block_frames, now)
            if self.keep:
                self.blocks.append((now, block))
            due += period
            if now - due > 0.1:
                due = now  # we fell far behind (a stalled machine): do not burst to catch up

    def recording(self) -> Stereo:
        """Everything played so far, end to end (only with keep=True)."""
        if not self.blocks:
            return np.zeros((0, 2), dtype=np.float32)
        return np.concatenate([block for _, block in self.blocks])

    def close(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None


def import_sounddevice() -> Any:
    """sounddevice, or NoOutputDeviceError saying why it cannot be used here."""
    try:
        import sounddevice
    except (ImportError, OSError) as error:
        raise NoOutputDeviceError("no sound output can be used on this computer",
                                  detail=f"sounddevice cannot be loaded: {error}") from error
    return sounddevice


class SoundDeviceOutput:
    """The default output device through sounddevice (PortAudio)."""

    is_silent = False

    def __init__(self, mixer: Mixer, block_frames: int = 256, latency: str = "low",
                 on_lost: Callable[[], None] | None = None) -> None:
        """`on_lost`: called (on PortAudio's thread) when the stream ends by itself:
        the device went away."""
        self.mixer = mixer
        self.block_frames = block_frames
        self.latency = latency
        self.on_lost = on_lost
        self.device_name = "?"
        self._stream: Any = None
        self._closing = False

    def start(self) -> None:
        sounddevice = import_sounddevice()
        try:
            device = sounddevice.query_devices(kind="output")
            stream = sounddevice.OutputStream(
                samplerate=self.mixer.sample_rate, channels=2, dtype="float32",
                blocksize=self.block_frames, latency=self.latency, callback=self._callback,
                finished_callback=self._finished)
            stream.start()
        except Exception as error:  # PortAudioError, ValueError: both mean "no usable device"
            raise NoOutputDeviceError("no sound output device found",
                                      detail=f"PortAudio: {error}") from error
        self.device_name = str(device.get("name", "?")) if isinstance(device, dict) else "?"
        self._stream = stream

    def _callback(self, outdata: Any, frames: int, time_info: Any, status: Any) -> None:
        # The block is heard after the device's own buffering: DAC time minus now.
        delay = max(0.0, float(time_info.outputBufferDacTime - time_info.currentTime))
        outdata[:] = self.mixer.render(frames, time.monotonic() + delay)

    def _finished(self) -> None:
        # PortAudio ends a stream by itself only when the device failed under it.
        if not self._closing:
            log.info("sound output: the stream on %s ended by itself", self.device_name)
            if self.on_lost is not None:
                self.on_lost()

    def close(self) -> None:
        self._closing = True
        if self._stream is not None:
            stream, self._stream = self._stream, None
            try:
                stream.stop()
                stream.close()
            except Exception as error:  # a device that is gone may refuse even this
                log.info("sound output: closing the stream: %s", error)


SILENT_FROM_NOW = "The sound stopped working; playing silently, every announcement is printed as text."


class DeviceOrSilence:
    """The sound card, and the silent paced output the moment the card goes away.

    `on_lost` is told once, with a sentence for the player. Both outputs pull from
    the same mixer, so sounds playing when the device went on to their end in real
    time, and every report of what was heard still comes: the match never waits
    for a sound that nothing plays.
    """

    def __init__(self, mixer: Mixer, on_lost: Callable[[str], None] | None = None) -> None:
        self.mixer = mixer
        self.on_lost = on_lost
        self.device: SoundDeviceOutput | None = SoundDeviceOutput(mixer, on_lost=self._lost)
        self.paced: PacedOutput | None = None
        self._lock = threading.Lock()
        self._closed = False

    @property
    def is_silent(self) -> bool:
        return self.device is None

    def start(self) -> None:
        """Start the device; raises NoOutputDeviceError when there is none."""
        assert self.device is not None
        self.device.start()

    def _lost(self) -> None:
        with self._lock:
            if self._closed or self.device is None:
                return
            device, self.device = self.device, None
            self.paced = PacedOutput(self.mixer)
            self.paced.start()
        # Not closed from here: this runs on PortAudio's own thread for the stream.
        threading.Thread(target=device.close, name="close lost device", daemon=True).start()
        if self.on_lost is not None:
            self.on_lost(SILENT_FROM_NOW)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            device, paced = self.device, self.paced
        if device is not None:
            device.close()
        if paced is not None:
            paced.close()


def open_output(mixer: Mixer, use_device: bool = True,
                report: Callable[[str], None] | None = None,
                on_lost: Callable[[str], None] | None = None) -> Output:
    """The sound card if there is one (silence if it goes away: `on_lost` is told);
    otherwise a silent paced output and one clear line."""
    if use_device:
        device = DeviceOrSilence(mixer, on_lost)
        try:
            device.start()
        except NoOutputDeviceError as error:
            log.info("sound output: %s", error.detail or error)
            message = f"voicespit: {error}; playing silently, every announcement is printed as text"
            (report or _to_stderr)(message)
        else:
            return device
    paced = PacedOutput(mixer)
    paced.start()
    return paced


def _to_stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)
