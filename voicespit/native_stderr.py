"""Keep a C library's own chatter off the player's terminal.

A blind player's screen reader reads every line the terminal shows, so a library that
prints to the process's stderr speaks to the player in its own words. speexdsp does:
when the echo path changes at once (headphones put on, the loudspeakers turned down
sharply, the microphone knocked) its filter diverges, resets itself, and it prints
"warning: The echo canceller started acting funny and got slapped (reset). It swears it
will behave now." straight to file descriptor 2, from C, where Python's own `sys.stderr`
cannot catch it. `NativeStderr.catching` points descriptor 2 at a pipe for the length of
one call and hands back the lines written meanwhile; lines that are not the library's
(another thread's own message, written in that moment) are written back to the real
stderr, so nothing is lost.

Descriptor 2 is the whole process's: `REDIRECTING` is held by whoever points it
elsewhere (here, and while a Vosk model loads: `vosk_recognizer`), so that two
redirections never interleave and leave it pointing at the other's capture. A call that
finds it held runs without catching (its lines, if any, land in the other's capture,
which writes back what is not its own).
"""

from __future__ import annotations

import contextlib
import os
import threading
import weakref
from collections.abc import Callable, Iterator

REDIRECTING = threading.Lock()
"""Held while file descriptor 2 points anywhere but the real stderr."""


class NativeStderr:
    """A pipe that stands in for file descriptor 2 while a library call runs."""

    def __init__(self, is_library_line: Callable[[str], bool]) -> None:
        """`is_library_line`: which lines are the library's (handed back, not shown)."""
        self.is_library_line = is_library_line
        self._read, self._write = os.pipe()
        os.set_blocking(self._read, False)
        self._closer = weakref.finalize(self, _close, self._read, self._write)

    @contextlib.contextmanager
    def catching(self) -> Iterator[list[str]]:
        """Descriptor 2 into the pipe for the `with` block; the list is filled, when it
        ends, with the library's lines written meanwhile."""
        lines: list[str] = []
        if not REDIRECTING.acquire(blocking=False):
            yield lines  # another capture holds descriptor 2 just now
            return
        try:
            saved = os.dup(2)
            os.dup2(self._write, 2)
            try:
                yield lines
            finally:
                os.dup2(saved, 2)
                os.close(saved)
        finally:
            REDIRECTING.release()
            self._sort(lines)

    def _sort(self, lines: list[str]) -> None:
        """What the pipe holds: the library's lines into `lines`, the rest back to stderr."""
        text = self._drain().decode("utf-8", errors="replace")
        others: list[str] = []
        for line in text.splitlines():
            if line.strip():
                (lines if self.is_library_line(line) else others).append(line)
        if others:
            os.write(2, ("\n".join(others) + "\n").encode())

    def _drain(self) -> bytes:
        chunks: list[bytes] = []
        while True:
            try:
                chunk = os.read(self._read, 65536)
            except BlockingIOError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)

    def close(self) -> None:
        self._closer()


def _close(*descriptors: int) -> None:
    for descriptor in descriptors:
        with contextlib.suppress(OSError):
            os.close(descriptor)
