"""Typed input: single keys at a terminal, whole lines from a pipe.

At a terminal the keyboard is read a key at a time (cbreak mode, so Ctrl-C still
interrupts): a shortcut key at the start of a line acts at once; anything else
is collected, echoed, and sent as a typed command on Enter. From a pipe (tests,
scripts) each line is one command, and a one-character line is that key.
End of typed input means the player has gone, unless they are also speaking.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import threading
from collections.abc import Callable, Iterator
from typing import TextIO

from voicespit.app.keys import KEYS
from voicespit.app.session import Session

TALK_KEY = "`"
"""Push-to-talk: the key at the top left, easy to find by touch."""
ESCAPE_SEQUENCE_WAIT = 0.03
"""An escape followed this quickly by more bytes is an arrow or function key, not Escape."""


class KeyboardInput:
    def __init__(self, session: Session, stream: TextIO | None = None,
                 echo: TextIO | None = None, talk: Callable[[], None] | None = None,
                 leave_at_end: bool = True) -> None:
        """`leave_at_end`: the end of typed input means the player has gone (False when
        they also speak: a closed stdin must not end a voice session)."""
        self.session = session
        self.leave_at_end = leave_at_end
        self.stream = stream or sys.stdin
        self.echo = echo or sys.stdout
        self.talk = talk
        self._stop = threading.Event()

    def stop(self) -> None:
        self._stop.set()

    def run(self) -> None:
        """Read until the player leaves or the input ends (then the session is left)."""
        try:
            fd = self.stream.fileno()
        except (AttributeError, OSError, ValueError):
            fd = None
        if fd is not None and os.isatty(fd):
            with _cbreak(fd):
                self._run_keys(fd)
        else:
            self._run_lines()
        if self.leave_at_end and not self._stop.is_set():
            self.session.leave()

    # ---------------------------------------------------------------- pipes

    def _run_lines(self) -> None:
        for line in self._lines():
            if self._stop.is_set():
                return
            text = line.rstrip("\r\n")
            if self.talk is not None and text == TALK_KEY:
                self.talk()
            else:
                self.session.handle_text(text)

    def _lines(self) -> Iterator[str]:
        while not self._stop.is_set():
            line = self.stream.readline()
            if not line:
                return
            yield line

    # ------------------------------------------------------------- terminals

    def _run_keys(self, fd: int) -> None:
        typed: list[str] = []
        while not self._stop.is_set():
            key = self._read_key(fd)
            if key is None:
                continue
            if key in ("", "\x04"):  # end of input, or Ctrl-D
                return
            if key in ("\r", "\n"):
                self._write("\n")
                text, typed = "".join(typed), []
                self.session.handle_text(text)
            elif key in ("\x7f", "\b"):
                if typed:
                    typed.pop()
                    self._write("\b \b")
            elif not typed and self.talk is not None and key == TALK_KEY:
                self.talk()
            elif not typed and key in KEYS:  # Enter was taken above
                self.session.handle_binding(KEYS[key])
            elif key.isprintable():
                typed.append(key)
                self._write(key)

    def _read_key(self, fd: int) -> str | None:
        """One key; "" at end of input; None when nothing came within a moment."""
        ready, _, _ = select.select([fd], [], [], 0.2)
        if not ready:
            return None
        data = os.read(fd, 1)
        if not data:
            return ""
        if data == b"\x1b":
            more, _, _ = select.select([fd], [], [], ESCAPE_SEQUENCE_WAIT)
            if more:
                # An arrow or function key: swallow the rest of the sequence.
                os.read(fd, 16)
                return None
        return data.decode("utf-8", errors="replace")

    def _write(self, text: str) -> None:
        self.echo.write(text)
        self.echo.flush()


@contextlib.contextmanager
def _cbreak(fd: int) -> Iterator[None]:
    import termios
    import tty

    saved = termios.tcgetattr(fd)
    try:
        # At once, not TCSAFLUSH (setcbreak's default): that would throw away whatever
        # the player typed while the game was starting, and answer it with silence.
        tty.setcbreak(fd, termios.TCSANOW)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
