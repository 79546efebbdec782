"""The runner that puts the suite beside CPU hogs (tests/under_load.py): hogs that really
spin while the command runs, the command's own exit status, and no hog left behind."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.under_load import ROOT

WAIT_FOR_THE_HOGS = """
import os, sys, time
from tests.under_load import processor_seconds
pids = [int(pid) for pid in os.environ["VOICESPIT_HOGS"].split()]
print(" ".join(map(str, pids)), flush=True)
deadline = time.monotonic() + 60
while not all(processor_seconds(pid) > 0 for pid in pids):
    if time.monotonic() > deadline:
        sys.exit(3)
    time.sleep(0.05)
sys.exit(7)
"""
"""The command: names the hogs, waits until each has spun, and exits with its own status."""


def is_running(pid: int) -> bool:
    stat = Path(f"/proc/{pid}/stat")
    try:
        state = stat.read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_the_hogs_spin_beside_the_command_and_are_gone_when_it_ends() -> None:
    finished = subprocess.run(
        [sys.executable, "-m", "tests.under_load", "--hogs", "2", "--",
         sys.executable, "-c", WAIT_FOR_THE_HOGS],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert finished.returncode == 7, finished.stderr
    pids = [int(pid) for pid in finished.stdout.split()]
    assert len(pids) == 2
    assert not any(is_running(pid) for pid in pids), "a hog outlived the run"
    report = finished.stderr.strip().splitlines()[-1]
    assert report.startswith("under_load: exit 7 after "), report
    assert "the hogs used" in report
