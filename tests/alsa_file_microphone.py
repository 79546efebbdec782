"""A microphone for a machine without one: ALSA's `file` plugin as the capture device.

A private ALSA configuration (ALSA_CONFIG_PATH) makes the default device a `file`
PCM whose `infile` is raw 16-bit audio: whatever opens the default device for
recording (PortAudio, so sounddevice, so MicrophoneSource) reads that file's
samples, bit for bit, with a `null` device as the clock. It runs unpaced (faster
than real time) and, past the end of the file, repeats stale data, so a reader
takes exactly the file's length or ends the file with silence.

PortAudio reads the ALSA configuration once, when it starts, so each test runs
its recording in a child process with the variable set.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]


def alsa_config(folder: Path, infile: Path | None) -> Path:
    """Write an ALSA configuration whose default capture device plays `infile`
    (None: a configuration whose only device is a sound card that is not there)."""
    config = folder / "asound.conf"
    if infile is None:
        # An empty configuration makes ALSA abort; a missing card is what a machine
        # without sound really looks like.
        config.write_text("pcm.!default {\n type hw\n card 99\n}\n"
                          "ctl.!default {\n type hw\n card 99\n}\n")
        return config
    config.write_text(f"""
pcm.!default {{
    type file
    slave.pcm "silent"
    file "/dev/null"
    infile "{infile}"
    format "raw"
}}
pcm.silent {{
    type null
}}
""")
    return config


def run_with_alsa(config: Path, code: str, *args: str,
                  timeout: float = 120.0) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "ALSA_CONFIG_PATH": str(config),
                   "PYTHONPATH": str(PROJECT)}
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env=environment, timeout=timeout, cwd=PROJECT, check=False)
