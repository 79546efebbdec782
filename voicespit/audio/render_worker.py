"""Speech rendering on a thread of its own, so a speech engine that hangs stops nothing.

The speech engine is a library we do not control: it can raise anything, or never
return (a stuck driver). `RenderWorker` runs every render on one daemon thread and
waits for it only so long. A render that fails, for whatever reason, comes back as
`SpeechRenderError`; one that is late comes back as `SpeechTimeoutError`, and while
the engine is still busy with it every later render fails at once, so the speaker
goes on (the words are printed anyway) and speaks again as soon as the engine does.
The engine is never called from two threads: espeak is one engine per process.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, field

from voicespit.audio.tts import Mono, SpeechRenderer, SpeechRenderError, Voice

RENDER_TIMEOUT = 5.0
"""Seconds a render may take before the engine is presumed stuck. A phrase renders in
about 12 ms, and a long help text in well under a second on a loaded machine; a late
render is never lost for good (the speaker speaks again once the engine answers)."""


class SpeechTimeoutError(SpeechRenderError):
    """The speech engine did not answer in time (it may still be working on it)."""


@dataclass
class _Job:
    text: str
    voice: Voice
    rate: int
    done: threading.Event = field(default_factory=threading.Event)
    samples: Mono | None = None
    error: SpeechRenderError | None = None


class RenderWorker:
    """One renderer behind one thread; `render` is safe from one caller thread at a time."""

    def __init__(self, renderer: SpeechRenderer, name: str = "speech render") -> None:
        self.renderer = renderer
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._busy: _Job | None = None
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    @property
    def is_stuck(self) -> bool:
        """True while the engine is still working on a render that was given up on."""
        with self._lock:
            return self._busy is not None

    def render(self, text: str, voice: Voice, rate: int,
               timeout: float = RENDER_TIMEOUT) -> Mono:
        """The samples of `text`; raises SpeechRenderError (SpeechTimeoutError when late)."""
        with self._lock:
            if self._busy is not None:
                raise SpeechTimeoutError("the speech engine is still busy with earlier words")
            job = self._busy = _Job(text, voice, rate)
        self._jobs.put(job)
        if not job.done.wait(timeout):
            raise SpeechTimeoutError(f"the speech engine did not answer within {timeout:g} s")
        if job.error is not None:
            raise job.error
        assert job.samples is not None
        return job.samples

    def close(self) -> None:
        """Let the thread end once it is free (it is a daemon: a stuck engine keeps it)."""
        self._jobs.put(None)

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            try:
                job.samples = self.renderer.render(job.text, job.voice, job.rate)
            except SpeechRenderError as error:
                job.error = error
            except Exception as error:  # a driver's own failure, whatever its kind
                job.error = SpeechRenderError(f"the speech engine failed: {error!r}")
            with self._lock:
                self._busy = None
            job.done.set()
