"""Drive a program in a real terminal with tmux, as a person at a keyboard would.

The program runs in a tmux session with a fixed size; tests type into it with
`type_line` / `press` and read what it printed with `wait_for` (polling the
pane and its scroll-back), so what is tested is what a screen reader would get.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import time
import uuid
from pathlib import Path
from types import TracebackType


class TerminalError(AssertionError):
    """The terminal did not show what the test waited for."""


class Terminal:
    def __init__(self, command: list[str], *, cwd: Path, env: dict[str, str] | None = None,
                 width: int = 160, height: int = 50) -> None:
        if shutil.which("tmux") is None:
            raise RuntimeError("tmux is not installed (./quickstart installs it)")
        self.session = f"voicespit-test-{uuid.uuid4().hex[:8]}"
        exports = " ".join(f"{key}={shlex.quote(value)}" for key, value in (env or {}).items())
        shell_command = f"cd {shlex.quote(str(cwd))} && {exports} {shlex.join(command)}; " \
            "echo '[process exited' $?']'; sleep 600"
        subprocess.run(["tmux", "new-session", "-d", "-s", self.session, "-x", str(width),
                        "-y", str(height), "bash", "-c", shell_command], check=True)
        subprocess.run(["tmux", "set-option", "-t", self.session, "history-limit", "200000"],
                       check=True)

    def text(self) -> str:
        """Everything the terminal showed, scroll-back included."""
        result = subprocess.run(["tmux", "capture-pane", "-p", "-J", "-S", "-", "-t", self.session],
                                capture_output=True, text=True, check=True)
        return result.stdout

    def type_line(self, text: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.session, "-l", text], check=True)
        subprocess.run(["tmux", "send-keys", "-t", self.session, "Enter"], check=True)

    def press(self, key: str) -> None:
        """A tmux key name: "Enter", "C-c", "Space", or a single character."""
        subprocess.run(["tmux", "send-keys", "-t", self.session, key], check=True)

    def wait_for(self, needle: str, timeout: float = 20.0, after: int = 0) -> int:
        """Wait until `needle` appears after character offset `after`; returns its offset."""
        deadline = time.monotonic() + timeout
        while True:
            text = self.text()
            found = text.find(needle, after)
            if found >= 0:
                return found
            if time.monotonic() > deadline:
                tail = "\n".join(text.splitlines()[-25:])
                raise TerminalError(f"waited {timeout:.0f} s for {needle!r}; the screen ends:\n{tail}")
            time.sleep(0.05)

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.session], capture_output=True)

    def __enter__(self) -> Terminal:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
