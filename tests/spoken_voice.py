"""A player's voice for in-process tests: espeak-ng words streamed to a real recognizer."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from voicespit.app.voice import NarrowingRecognizer, VoiceCommands
from voicespit.speech.listening.sources import read_wav
from voicespit.speech.recognizer import SAMPLE_RATE, Recognition

BLOCK = 2 * SAMPLE_RATE // 10


def spoken_pcm(folder: Path, text: str) -> bytes:
    """`text` said by espeak-ng (kept in `folder`), as 16 kHz PCM."""
    path = folder / (re.sub(r"\W+", "-", text) + ".wav")
    if not path.exists():
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "165", "-w", str(path), text],
                       check=True)
    return read_wav(path)[0]


class Voice:
    """Speaks a command and streams it, with the silence around it, to the recognizer."""

    def __init__(self, folder: Path, commands: VoiceCommands, recognizer: NarrowingRecognizer) -> None:
        self.folder = folder
        self.commands = commands
        self.recognizer = recognizer
        self.heard: list[tuple[str, str]] = []
        """(said, recognized) for every utterance; "" when nothing came out."""

    def say(self, text: str) -> None:
        silence = bytes(2 * SAMPLE_RATE // 2)
        stream = silence + spoken_pcm(self.folder, text) + silence * 2
        results: list[Recognition] = []
        for offset in range(0, len(stream), BLOCK):
            results += self.recognizer.accept_audio(stream[offset:offset + BLOCK])
        finals = [result for result in results if result.is_final]
        self.heard.append((text, " ".join(r.text for r in finals if not r.rejected)))
        for result in finals:
            self.commands.on_recognition(result)
