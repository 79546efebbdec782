"""Run the test suite beside CPU hogs: a suite that is green only on a quiet machine is not green.

    python -m tests.under_load [--hogs 2] [-- COMMAND ...]

Starts `--hogs` busy loops (each a plain Python process spinning at the same
priority as the tests), runs COMMAND beside them, and kills the hogs when the
command ends, fails or is interrupted. Without a COMMAND it runs `.ci/run`, which
is the README's test command, as CI runs it. The command sees the hogs' process
ids in VOICESPIT_HOGS.

At the end it prints one line: the command's exit status, its wall time, the
load average before and after, and how much processor time the hogs took (so a
run can show the load was real). The exit status is the command's.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parent.parent
BUSY_LOOP = "while True: pass"
HOGS_VARIABLE = "VOICESPIT_HOGS"


def processor_seconds(pid: int) -> float:
    """User plus system time a live process has used (0.0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    # After the command name: state is field 3 of stat, utime and stime are 14 and 15.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Hogs:
    """Busy loops that run until stopped; a context manager that always stops them."""

    def __init__(self, count: int) -> None:
        self.processes = [subprocess.Popen([sys.executable, "-c", BUSY_LOOP],
                                           stdin=subprocess.DEVNULL)
                          for _ in range(count)]

    @property
    def pids(self) -> list[int]:
        return [process.pid for process in self.processes]

    def processor_seconds(self) -> float:
        return sum(processor_seconds(pid) for pid in self.pids)

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
        for process in self.processes:
            process.wait()

    def __enter__(self) -> Hogs:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()


def load() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def run(command: list[str], hogs: int) -> int:
    before = load()
    started = time.monotonic()
    with Hogs(hogs) as running:
        environment = {**os.environ, HOGS_VARIABLE: " ".join(map(str, running.pids))}
        print(f"under_load: {hogs} hogs (pids {' '.join(map(str, running.pids))}) "
              f"beside: {' '.join(command)}", file=sys.stderr, flush=True)
        child = subprocess.Popen(command, cwd=ROOT, env=environment)

        def forward(number: int, _frame: FrameType | None) -> None:
            child.send_signal(number)  # the command winds down; the hogs go on the way out

        for number in (signal.SIGINT, signal.SIGTERM):
            signal.signal(number, forward)
        status = child.wait()
        hog_seconds = running.processor_seconds()
    minutes, seconds = divmod(time.monotonic() - started, 60)
    print(f"under_load: exit {status} after {int(minutes)} min {seconds:.0f} s; load average "
          f"{before} before, {load()} at the end; the hogs used {hog_seconds:.0f} s of "
          f"processor time", file=sys.stderr, flush=True)
    return status


def main(argv: list[str]) -> int:
    split = argv.index("--") if "--" in argv else len(argv)
    parser = argparse.ArgumentParser(prog="python -m tests.under_load",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--hogs", type=int, default=2, help="busy loops to run beside it")
    options = parser.parse_args(argv[:split])
    command = argv[split + 1:] or [str(ROOT / ".ci" / "run")]
    return run(command, options.hogs)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
