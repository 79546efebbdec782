"""Typed input at a terminal: nothing the player typed is lost."""

from __future__ import annotations

import io
import os
import pty
import threading
from typing import cast

from voicespit.app.keyboard import KeyboardInput
from voicespit.app.session import Session


class TypedLines:
    """Stands in for the session: records each typed line; the first one ends the reading."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.keyboard: KeyboardInput | None = None

    def handle_text(self, text: str) -> None:
        self.lines.append(text)
        assert self.keyboard is not None
        self.keyboard.stop()

    def leave(self) -> None:
        pass


def test_a_line_typed_before_the_game_reads_the_keyboard_is_not_thrown_away() -> None:
    # A player who types "new game" while the game is still starting up (the
    # greeting not yet said) must be answered, not met with silence.
    controller, terminal = pty.openpty()
    try:
        os.write(controller, b"new game\r")
        session = TypedLines()
        with os.fdopen(os.dup(terminal), "r") as stream:
            keyboard = KeyboardInput(cast(Session, session), stream=stream, echo=io.StringIO())
            session.keyboard = keyboard
            reading = threading.Thread(target=keyboard.run, daemon=True)
            reading.start()
            reading.join(timeout=10)
            keyboard.stop()
            reading.join(timeout=5)
        assert session.lines == ["new game"]
    finally:
        os.close(controller)
        os.close(terminal)
