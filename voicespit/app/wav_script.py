"""`--input wav --script FILE`: recorded commands played to the recognizer on cue.

A script lists, one a line, the time a recording is "spoken" (seconds from the
start) and the WAV file (relative to the script):

    # time  file
    2.0     ready.wav
    9.5     seven-on-left.wav

Between recordings the source delivers the room, at real-time pace on the clock, as a
microphone would, so a scripted session goes through the same gate, endpointing and
recognizer as a live one. Around a recording the room is its own background continued
(`recording_room.room_around`, as `voicespit recognize` hears a file): a recording
trimmed close to its word, as the Free Spoken Digit Dataset's are, was played in
digital silence, which no microphone gives, and its own room then started with the
word. A recording made in digital silence (espeak-ng's) is still surrounded by it.
"""

from __future__ import annotations

import zlib
from pathlib import Path

from voicespit.clock import Clock
from voicespit.errors import VoiceSpitError
from voicespit.speech.listening.sources import WavSource, read_wav
from voicespit.speech.recognizer import SAMPLE_RATE
from voicespit.speech.recording_room import TAIL_SECONDS, room_around
from voicespit.speech.signal import to_pcm, to_samples

TRAILING_ROOM = 2.0
"""Seconds of the room after the last recording, so its end is heard before the source
ends."""


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
    """The whole session as one 16 kHz mono recording: each recording at its time (or
    right after the one before, if that is still playing), its own room before it and
    up to `TAIL_SECONDS` of it after, as `voicespit recognize` hears a file; the next
    recording's room fills the rest of a gap, and `TRAILING_ROOM` follows the last."""
    recordings = [(seconds, to_samples(read_wav(wav)[0]), wav.name)
                  for seconds, wav in read_script(path)]
    starts: list[int] = []
    free_from = 0  # the sample the recording before ends at
    for seconds, samples, _ in recordings:
        starts.append(max(round(seconds * SAMPLE_RATE), free_from))
        free_from = starts[-1] + len(samples)
    pcm = bytearray()
    for index, (_, samples, name) in enumerate(recordings):
        lead = starts[index] - len(pcm) // 2
        if index + 1 < len(recordings):
            gap = starts[index + 1] - starts[index] - len(samples)
            tail = min(gap / SAMPLE_RATE, TAIL_SECONDS)
        else:
            tail = TRAILING_ROOM
        heard = room_around(samples, SAMPLE_RATE, zlib.crc32(name.encode()),
                            lead_seconds=lead / SAMPLE_RATE, tail_seconds=tail)
        pcm.extend(to_pcm(heard))
    return bytes(pcm)


class ScriptSource(WavSource):
    """Streams a script's recordings at real-time pace on `clock`."""

    def __init__(self, path: Path, clock: Clock | None) -> None:
        super().__init__(path, clock=clock, pcm=script_audio(path))
