"""Run a module as `python -m MODULE ARGS` would, with Ctrl-C (SIGINT) raising
KeyboardInterrupt in it.

A process started with SIGINT ignored keeps it ignored, and so do its children:
Python installs its Ctrl-C handler only where SIGINT was not ignored. A test
runner started as a background job of a non-interactive shell (`pytest &`, as
scripts and CI harnesses do) has SIGINT ignored, so the game children it starts
would shrug off the SIGINT a test sends them and look hung. A terminal never
starts the game that way, so this belongs to the tests, not the game.
"""

from __future__ import annotations

import runpy
import signal
import sys

if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    module, sys.argv = sys.argv[1], [sys.argv[1], *sys.argv[2:]]
    runpy.run_module(module, run_name="__main__", alter_sys=True)
