"""The game as a child process: typed commands in, every printed line collected."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.game_child import CARDS_PREFIX

ROOT = Path(__file__).resolve().parent.parent
HANG_GUARD_SECONDS = 120.0
"""How long a wait may last before the game counts as hung: a guard, not a speed test,
generous so that a machine busy with other work is never taken for a hang. (The one
"hang" seen was the game ignoring an inherited SIGINT: see tests/with_ctrl_c.py.)"""


def profile_path(home: Path) -> Path:
    return home / "data" / "voicespit" / "default.json"


def profile_of(home: Path) -> dict[str, object]:
    data = json.loads(profile_path(home).read_text())
    assert isinstance(data, dict)
    return data


class Game:
    """`voicespit play --input keyboard` in a child process, with `home` as its home.

    `audio=False` adds --no-audio. `child` runs it through tests.game_child with
    those options (a speech fault, and the cards report at the end) instead of
    `python -m voicespit`.
    """

    def __init__(self, home: Path, *arguments: str, audio: bool = False,
                 child: tuple[str, ...] | None = None,
                 environment: dict[str, str] | None = None) -> None:
        self.home = home
        env = {**os.environ, "XDG_DATA_HOME": str(home / "data"),
               "XDG_CONFIG_HOME": str(home / "config"), "PYTHONPATH": str(ROOT),
               **(environment or {})}
        module = ["voicespit"] if child is None else ["tests.game_child", *child, "--"]
        flags = ["play", "--input", "keyboard", *([] if audio else ["--no-audio"]), *arguments]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.with_ctrl_c", *module, *flags], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
        self.lines: list[str] = []
        self.errors: list[str] = []
        assert self.process.stdout is not None and self.process.stderr is not None
        self._readers = [threading.Thread(target=self._read, args=(stream, into), daemon=True)
                         for stream, into in ((self.process.stdout, self.lines),
                                              (self.process.stderr, self.errors))]
        for reader in self._readers:
            reader.start()

    @staticmethod
    def _read(stream: object, into: list[str]) -> None:
        for line in stream:  # type: ignore[attr-defined]
            into.append(line.rstrip("\n"))

    def type(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def wait_for(self, text: str, timeout: float = HANG_GUARD_SECONDS, after: int = 0) -> int:
        """Wait until a line from index `after` on contains `text`; returns its index."""
        deadline = time.monotonic() + timeout
        while True:
            found = next((i for i in range(after, len(self.lines)) if text in self.lines[i]), None)
            if found is not None:
                return found
            if time.monotonic() > deadline or self.process.poll() is not None:
                time.sleep(0.2)  # the rest of the output, for the message
                raise AssertionError(f"no {text!r}; output so far:\n" + "\n".join(self.lines)
                                     + "\nstderr:\n" + "\n".join(self.errors[-20:]))
            time.sleep(0.05)

    def count(self, text: str) -> int:
        return sum(text in line for line in self.lines)

    def finish(self, timeout: float = HANG_GUARD_SECONDS) -> int:
        code = self.process.wait(timeout)
        for reader in self._readers:
            reader.join(timeout)
        return code

    def leave(self, timeout: float = HANG_GUARD_SECONDS) -> int:
        """End typed input (the player has gone) and wait for the game to exit."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.finish(timeout)

    def cards(self) -> dict[str, object]:
        """The child's report on the last match (tests.game_child only)."""
        reports = [line[len(CARDS_PREFIX):] for line in self.errors
                   if line.startswith(CARDS_PREFIX)]
        assert reports, "no cards report:\n" + "\n".join(self.errors[-20:])
        report = json.loads(reports[-1])
        assert isinstance(report, dict)
        return report
