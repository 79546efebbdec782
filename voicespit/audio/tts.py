"""Text to speech samples with pyttsx3 (espeak-ng on Linux), rendered to a file and read back.

We never let pyttsx3 play sound itself: with no sound device `say()` fails
silently, and its `stop()` is unreliable. Rendering to samples and playing them
through our own mixer gives interruption we control and timing we can measure.

Two things about pyttsx3 2.99 with espeak, measured on the build machine, shape
this adapter:

- Synthesis is asynchronous: `runAndWait()` can return before the WAV file is
  complete, so we wait for pyttsx3's "finished-utterance" notification.
- Each `runAndWait()` first calls the driver's `stop()`; if espeak still reports
  "playing" just after the previous utterance's last callback, that leaves a flag
  that cancels the *next* utterance (finished, completed=False). We wait for
  espeak to go idle after each utterance, and render again if one is cancelled.
- Rate and pitch set with `setProperty` take effect erratically (sometimes one
  utterance late, sometimes not at all: espeak's command queue races with the
  property calls). espeak's embedded commands in the text itself (Ctrl-A, a
  number, then S for speed or P for pitch) apply exactly to that utterance, so
  with espeak we use those. Voice changes with `setProperty("voice")` were exact.

pyttsx3 is imported only when a renderer is built, so everything else loads on a
machine without it.
"""

from __future__ import annotations

import collections
import contextlib
import re
import shutil
import sys
import tempfile
import threading
import time
import wave
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol

import numpy as np
import numpy.typing as npt

from voicespit.errors import VoiceSpitError

Mono = npt.NDArray[np.float32]
ESPEAK_RATE: Final = 22_050
_ENGINE_LOCK = threading.Lock()
"""espeak is one engine per process; every render goes through it in turn."""
_ENGINE_DEFAULT_VOICE: list[str] = []
"""The engine's own voice when this process first saw it. pyttsx3 hands every
caller the same engine, so a later renderer would otherwise take the voice an
earlier one left selected (the opponent's) for the default."""


class SpeechRenderError(VoiceSpitError):
    """The text-to-speech engine failed or did not finish an utterance."""


@dataclass(frozen=True, slots=True)
class Voice:
    """A voice: an engine voice name (None: the engine's default) and a pitch 0..100."""

    name: str | None = None
    pitch: int = 50


YOUR_VOICE: Final = Voice(None, 50)
OPPONENT_VOICE: Final = Voice("en+f3", 60)
"""A different speaker altogether (espeak's female variant), so the opponent's
moves never sound like yours even when the words are the same."""


GAME_VOICES: Final = (YOUR_VOICE, Voice("en-us", 50), Voice("en+m3", 50), Voice("en+klatt", 50))
"""The voices "change voice" steps through with espeak-ng: its default English voice,
its American one, and two other timbres of the same words. None is female: the
opponent's voice (`OPPONENT_VOICE`) stays the one that sounds unlike the game's."""
MOST_GAME_VOICES: Final = 6
"""With another engine, at most this many of its English voices, so that stepping
through them all stays a few commands long."""


def english_voices(voices: Iterable[Any], default: str) -> tuple[Voice, ...]:
    """The voices "change voice" steps through, from what a pyttsx3 engine other than
    espeak-ng offers (Windows' or macOS's): the engine's default first, then its other
    English voices, by their ids."""
    found: list[Voice] = [YOUR_VOICE]
    for voice in voices:
        identifier = str(getattr(voice, "id", "") or "")
        languages = " ".join(str(language) for language in getattr(voice, "languages", []) or [])
        described = f"{identifier} {getattr(voice, 'name', '')} {languages}".lower()
        if identifier and identifier != default and _ENGLISH.search(described):
            found.append(Voice(identifier, 50))
    return tuple(found[:MOST_GAME_VOICES])


_ENGLISH = re.compile(r"(?<![a-z])en(?![a-z])|english")
"""An English voice as engines describe it: "en_US", "en-GB", "english", "en"."""


class SpeechRenderer(Protocol):
    sample_rate: int

    def render(self, text: str, voice: Voice, rate: int) -> Mono:
        """`text` spoken in `voice` at `rate` words a minute, as mono float32 samples."""
        ...

    def game_voices(self) -> tuple[Voice, ...]:
        """The voices the game's own can be changed to, the default first."""
        ...

    def close(self) -> None: ...


def _shadow_print(module: Any) -> None:
    """Silence a pyttsx3 driver module's print ("Audio saved to ..." after every file).

    Shadowing the builtin in that module only keeps our stdout, the text mirror,
    clean without redirecting stdout for every thread.
    """
    module.print = lambda *args, **kwargs: None


class Pyttsx3Renderer:
    """pyttsx3's `save_to_file` into a private temporary directory, read back as samples.

    Keeps the most recent renders (`cache_size`), since a game says the same short
    phrases ("Left: nine.") again and again. Thread-safe.
    """

    def __init__(self, cache_size: int = 512, timeout: float = 5.0) -> None:
        try:
            import pyttsx3
        except ImportError as error:  # pragma: no cover - pyttsx3 is a dependency
            raise SpeechRenderError("the speech engine is not installed",
                                    detail=f"pyttsx3: {error}") from error
        try:
            self._engine = pyttsx3.init()
        except Exception as error:
            # The engine's own words name libraries and files: kept for the log.
            raise SpeechRenderError("the speech engine did not start",
                                    detail=f"pyttsx3.init: {error}") from error
        driver_module = sys.modules.get(f"pyttsx3.drivers.{self._engine.driver_name}")
        if driver_module is not None:
            _shadow_print(driver_module)
        self._embedded_commands = self._engine.driver_name == "espeak"
        espeak = sys.modules.get("pyttsx3.drivers._espeak")
        self._is_playing = getattr(espeak, "IsPlaying", None) if espeak else None
        self.sample_rate = ESPEAK_RATE
        self._timeout = timeout
        self._finished = threading.Event()
        self._completed = False
        self._tokens = [self._engine.connect("finished-utterance", self._on_finished),
                        self._engine.connect("error", self._on_error)]
        self._error: object = None
        if not _ENGINE_DEFAULT_VOICE:
            _ENGINE_DEFAULT_VOICE.append(str(self._engine.getProperty("voice") or ""))
        self.default_voice = _ENGINE_DEFAULT_VOICE[0]
        self._game_voices = GAME_VOICES if self._embedded_commands else english_voices(
            self._engine.getProperty("voices") or [], self.default_voice)
        shm = Path("/dev/shm")
        self._directory = Path(tempfile.mkdtemp(prefix="voicespit-tts-",
                                                dir=shm if shm.is_dir() else None))
        self._count = 0
        self._voice: str | None = None
        self._cache: collections.OrderedDict[tuple[str, Voice, int], Mono] = (
            collections.OrderedDict())
        self._cache_size = cache_size
        self.renders = 0
        """How many utterances went through the engine (cache misses)."""
        self.retries = 0
        """Utterances the engine cancelled or lost and we rendered again."""
        self.voice_errors: list[str] = []
        # pyttsx3 keeps one engine per process: a renderer made earlier may have left
        # another voice selected, so choose ours explicitly.
        self._set_voice(None)

    @property
    def cached_bytes(self) -> int:
        """Memory the kept renders take (a long session's speech cache, for the soak)."""
        kept = list(self._cache.values())  # one step under the GIL: safe beside render()
        return sum(samples.nbytes for samples in kept)

    def game_voices(self) -> tuple[Voice, ...]:
        return self._game_voices

    def _on_finished(self, name: object = None, completed: bool = True, **_: object) -> None:
        self._completed = bool(completed)
        self._finished.set()

    def _on_error(self, exception: object = None, **_: object) -> None:
        self._error = exception

    def render(self, text: str, voice: Voice, rate: int) -> Mono:
        text = " ".join("".join(ch for ch in text if ch.isprintable()).split())
        if not text:
            return np.zeros(0, dtype=np.float32)
        key = (text, voice, rate)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        samples = self._render_uncached(text, voice, rate)
        samples.setflags(write=False)
        self._cache[key] = samples
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return samples

    def _render_uncached(self, text: str, voice: Voice, rate: int) -> Mono:
        with _ENGINE_LOCK:
            engine = self._engine
            if voice.name != self._voice:
                self._set_voice(voice.name)
            if self._embedded_commands:
                spoken = f"\x01{rate}S\x01{voice.pitch}P{text}"
            else:
                engine.setProperty("rate", rate)
                spoken = text
            path = self._utter(spoken, text)
            self.renders += 1
            try:
                with wave.open(str(path), "rb") as recording:
                    frames = recording.readframes(recording.getnframes())
                    if recording.getframerate() != self.sample_rate:
                        self.sample_rate = recording.getframerate()
            except (OSError, EOFError, wave.Error) as error:
                raise SpeechRenderError(f"no speech file for {text!r}: {error}") from error
            finally:
                path.unlink(missing_ok=True)
        return (np.frombuffer(frames, dtype="<i2").astype(np.float32) / 32768.0)

    def _utter(self, spoken: str, text: str, attempts: int = 3) -> Path:
        """One utterance to a file; returns its path once pyttsx3 says it is complete."""
        for attempt in range(attempts):
            self._count += 1
            path = self._directory / f"utterance-{self._count}.wav"
            self._finished.clear()
            self._error = None
            self._forget_stale_stop()
            try:
                self._engine.save_to_file(spoken, str(path))
                self._engine.runAndWait()
            except Exception as error:
                path.unlink(missing_ok=True)
                raise SpeechRenderError(f"the speech engine failed on {text!r}: {error!r}") \
                    from error
            if self._error is not None:
                # pyttsx3 reports a driver's exception as an "error" notification and
                # never finishes the utterance: waiting for it would only waste the timeout.
                path.unlink(missing_ok=True)
                raise SpeechRenderError(f"the speech engine failed on {text!r}: {self._error!r}")
            finished = self._finished.wait(self._timeout)
            self._wait_until_idle()
            if finished and self._completed:
                return path
            path.unlink(missing_ok=True)
            if attempt + 1 < attempts:
                self.retries += 1
        raise SpeechRenderError(f"the speech engine did not finish {text!r}")

    def _forget_stale_stop(self) -> None:
        """Clear a stop request the espeak driver still holds from an earlier utterance.

        `runAndWait` begins with the driver's `stop()`, which, when espeak still reports
        "playing", sets a flag that the driver's loop turns into a cancel. When the
        utterance then completes before the loop looks (the usual case), the flag stays
        set, and on a busy machine the loop of a later utterance, reached before that
        one completes, cancelled it: run beside the Whisper tests, 4 narrated Speed
        matches in 25 rendered one utterance again ("Ready.", "Three."), found with the
        flag set before the utterance though espeak was idle. Nothing is playing here
        (the last utterance was waited out), so the flag can only cancel the wrong one."""
        driver = getattr(getattr(self._engine, "proxy", None), "_driver", None)
        if driver is not None and getattr(driver, "_stopping", False) is True:
            driver._stopping = False

    def _wait_until_idle(self, limit: float = 1.0) -> None:
        """Let espeak finish its own bookkeeping before the next utterance (see above)."""
        if self._is_playing is None:
            return
        deadline = time.monotonic() + limit
        while self._is_playing() and time.monotonic() < deadline:
            time.sleep(0.0005)

    def _set_voice(self, name: str | None) -> None:
        """Switch voices; an unknown name falls back to the default (pitch still differs)."""
        self._error = None
        self._engine.setProperty("voice", name or self.default_voice)
        if self._error is not None and name is not None:
            self.voice_errors.append(f"voice {name!r}: {self._error}")
            self._engine.setProperty("voice", self.default_voice)
        self._voice = name

    def close(self) -> None:
        for token in self._tokens:
            with contextlib.suppress(Exception):
                self._engine.disconnect(token)
        shutil.rmtree(self._directory, ignore_errors=True)
