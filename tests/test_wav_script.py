"""A game by recorded voice (`--input wav --script`) through the real PocketSphinx, in
which most commands cannot be done: every one is answered, naming what was heard.

The multi-word commands are spoken by espeak-ng; the bare ranks are real people (the
Free Spoken Digit Dataset's takes from its tuning split, upsampled from 8 kHz by the
game itself). The deal (seed 5) shows five, eight, four, seven and three, and the
piles start on an ace and a seven, so "five" and "four" fit neither pile.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from tests.wav_scripts import write_script
from voicespit.app.wav_script import script_audio
from voicespit.speech.language.grammar import phrase_for
from voicespit.speech.language.parser import command_in
from voicespit.speech.listening.sources import read_wav
from voicespit.speech.recognizer import SAMPLE_RATE
from voicespit.speech.signal import to_samples

ROOT = Path(__file__).resolve().parent.parent
VOICES = ROOT.parent / "shared" / "data" / "real-voices" / "fsdd-dev"
pytestmark = [
    pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng speaks the commands"),
    pytest.mark.skipif(not VOICES.is_dir(), reason="the real voices are not on this machine"),
]

SCRIPT = (
    # (seconds, what is said, what the game can do with it)
    (1.0, "new game", "done"),
    (4.0, "new game", "refused"),     # a game is on
    (7.0, "yes", "refused"),          # no question
    (10.0, "continue", "refused"),    # not paused
    (13.0, "ready", "done"),
    (19.0, "5_jackson_7.wav", "refused"),   # a five fits neither ace nor seven
    (22.0, "4_theo_12.wav", "refused"),     # nor does a four
    (25.0, "more detail", "done"),
    (28.0, "more detail", "refused"),  # already the most
    (31.0, "quit game", "done"),
    (34.0, "yes", "done"),
    (37.0, "quit game", "done"),
    (40.0, "yes", "done"),
)


def heard_and_answers(log: Path) -> list[tuple[str, list[str]]]:
    """(what the recognizer heard, the lines said until the next thing heard)."""
    turns: list[tuple[str, list[str]]] = []
    for line in log.read_text().splitlines():
        if found := re.search(r": heard: (.*)$", line):
            turns.append((found.group(1), []))
        elif found := re.search(r": heard nothing usable: (.*)$", line):
            turns.append(("", []))
        elif ": said: " in line and turns:
            turns[-1][1].append(line.split(": said: ", 1)[1])
    return turns


@pytest.mark.slow
def test_every_command_that_cannot_be_done_is_answered_with_what_was_heard(
        tmp_path: Path) -> None:
    script = write_script(tmp_path, ((seconds, said) for seconds, said, _ in SCRIPT), VOICES)
    log = tmp_path / "game.log"
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "voicespit", "play", "--input", "wav", "--script", str(script),
         "--recognizer", "pocketsphinx", "--no-audio", "--seed", "5", "--pace", "gentle",
         "--log", str(log)],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr
    turns = heard_and_answers(log)
    assert len(turns) == len(SCRIPT), f"one hearing per recording: {turns}"
    named = 0
    for (_, said, outcome), (heard, answers) in zip(SCRIPT, turns, strict=True):
        assert answers, f"{said!r} (heard {heard!r}) met silence"
        command = command_in(heard)
        if command is None:
            assert answers[0] == "Say again?" or answers[0].startswith("Heard "), answers
            continue
        refusals = [line for line in answers if line.startswith(f"{phrase_for(command).capitalize()}? ")]
        if outcome == "refused" or refusals:
            assert refusals, f"{said!r} heard as {phrase_for(command)!r} did nothing, unnamed: {answers}"
            named += 1
    assert named >= 5, "most of the commands that cannot be done were heard and named"
    assert done.stdout.splitlines()[-1] == "Goodbye."


def test_a_script_plays_each_recording_at_its_time_in_its_own_room(tmp_path: Path) -> None:
    # A real recording, trimmed close to its word as FSDD's are, is heard in its own
    # background, continued before it and after it; espeak-ng's, made in digital
    # silence, in digital silence, and the bytes of every recording are left as they are.
    script = write_script(tmp_path, [(1.0, "ready"), (4.0, "5_jackson_7.wav"), (8.0, "flip")],
                          VOICES)
    audio = to_samples(script_audio(script))
    real = to_samples(read_wav(tmp_path / "5_jackson_7.wav")[0])
    ready = to_samples(read_wav(tmp_path / "ready.wav")[0])
    flip = to_samples(read_wav(tmp_path / "flip.wav")[0])
    second = SAMPLE_RATE
    assert np.array_equal(audio[4 * second:4 * second + len(real)], real)
    assert np.array_equal(audio[second:second + len(ready)], ready)
    assert np.array_equal(audio[8 * second:8 * second + len(flip)], flip)
    assert len(audio) == 8 * second + len(flip) + 2 * second
    assert not audio[:second].any(), "espeak-ng's room is digital silence"

    def level_db(samples: npt.NDArray[np.float64]) -> float:
        return float(10 * np.log10(np.mean(samples ** 2)))

    quietest = sorted(level_db(real[start:start + 128]) for start in range(0, len(real) - 128, 64))
    room = quietest[len(quietest) // 20]
    before = audio[4 * second - second // 2:4 * second]
    after = audio[4 * second + len(real):4 * second + len(real) + second]
    for around in (before, after):
        assert abs(level_db(around) - room) < 6, "the gap is the recording's own room"
    # After the room's 1.2 s, the next recording's own room (digital silence) to its time.
    assert not audio[4 * second + len(real) + 13 * second // 10:8 * second].any()


def test_a_recording_given_a_time_while_another_plays_follows_it(tmp_path: Path) -> None:
    script = write_script(tmp_path, [(1.0, "seven on left"), (1.2, "flip")], VOICES)
    audio = to_samples(script_audio(script))
    first = to_samples(read_wav(tmp_path / "seven-on-left.wav")[0])
    flip = to_samples(read_wav(tmp_path / "flip.wav")[0])
    start = SAMPLE_RATE + len(first)
    assert np.array_equal(audio[start:start + len(flip)], flip)
