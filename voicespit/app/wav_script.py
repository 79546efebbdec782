"""`--input wav --script FILE`: recorded commands played to the recognizer on cue.

A script lists, one a line, the time a recording is "spoken" (seconds from the
start) and the WAV file (relative to the script):

    # time  file
    2.0     ready.wav
    9.5     seven-on-left.wav

Between recordings the source delivers silence, at real-time pace on the clock,
exactly as a microphone would, so a scripted session goes through the same gate,
endpointing and recognizer as a live one.
"""

from __future__ import annotations

from pathlib import Path

from voicespit.clock import Clock
from voicespit.errors import VoiceSpitError
from voicespit.speech.listening.sources import WavSource, read_wav
from voicespit.speech.recognizer import SAMPLE_RATE

TRAILING_SILENCE = 2.0
"""Silence after the last recording, so its end is heard before the source ends."""


class ScriptError(VoiceSpitError):
    """A script line that cannot be used; the message names the file and line."""


def read_script(path: Path) -> list[tuple[float, Path]]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise ScriptError(f"{path}: cannot read the script ({error.strerror or error})") from None
    entries: list[tuple[float, Path]] = []
    for number, line in enumerate(lines, start=1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        when, _, name = text.partition(" ")
        try:
            seconds = float(when)
        except ValueError:
            seconds = -1.0
        if seconds < 0 or not name.strip():
            raise ScriptError(f"{path}:{number}: expected 'SECONDS FILE.wav', got {line!r}")
        if entries and seconds < entries[-1][0]:
            raise ScriptError(f"{path}:{number}: times must not go backwards")
        entries.append((seconds, path.parent / name.strip()))
    if not entries:
        raise ScriptError(f"{path}: the script lists no recordings")
    return entries


def script_audio(path: Path) -> bytes:
    """The whole session as one 16 kHz mono recording: silence and commands in place."""
    pcm = bytearray()
    for seconds, wav in read_script(path):
        start = 2 * round(seconds * SAMPLE_RATE)
        if start > len(pcm):
            pcm.extend(bytes(start - len(pcm)))
        samples, _ = read_wav(wav)
        pcm.extend(samples)
    pcm.extend(bytes(2 * round(TRAILING_SILENCE * SAMPLE_RATE)))
    return bytes(pcm)


class ScriptSource(WavSource):
    """Streams a script's recordings at real-time pace on `clock`."""

    def __init__(self, path: Path, clock: Clock | None) -> None:
        super().__init__(path, clock=clock, pcm=script_audio(path))
