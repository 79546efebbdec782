"""Scripts for `--input wav --script`: words spoken by espeak-ng, or real recordings."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path


def write_script(folder: Path, entries: Iterable[tuple[float, str]],
                 voices: Path | None = None) -> Path:
    """A script saying each entry at its time: "new game" is synthesized, "5_theo_7.wav"
    is copied from `voices` (real recordings)."""
    lines = []
    for seconds, said in entries:
        if said.endswith(".wav"):
            assert voices is not None, "real recordings need the folder they are in"
            wav = folder / said
            shutil.copy(voices / said, wav)
        else:
            wav = folder / (said.replace(" ", "-") + ".wav")
            if not wav.exists():
                subprocess.run(["espeak-ng", "-v", "en-us", "-s", "160", "-w", str(wav), said],
                               check=True)
        lines.append(f"{seconds} {wav.name}")
    script = folder / "script.txt"
    script.write_text("# seconds  recording\n" + "\n".join(lines) + "\n")
    return script
