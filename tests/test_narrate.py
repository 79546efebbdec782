"""`voicespit narrate`: a whole game, heard, in one stereo WAV, checked from the file."""

from __future__ import annotations

import io
import itertools
import subprocess
import sys
import wave
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from voicespit.audio.narrate import NarrateResult, narrate_game
from voicespit.audio.timeline import Placed
from voicespit.cli import main
from voicespit.engine import Rules
from voicespit.engine.events import GameOver, RoundOver, Stalemate
from voicespit.match.events import SlapWindowOpened, SpitCountdown
from voicespit.narration.announcement import Cue


@dataclass
class Heard:
    result: NarrateResult
    transcript: str
    pcm: np.ndarray
    """(frames, 2) int16, as read from the file."""
    rate: int

    def span(self, placed: Placed) -> np.ndarray:
        first = round(placed.start * self.rate)
        return self.pcm[first:first + placed.frames].astype(np.float64) / 32767


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Heard]:
    """`voicespit narrate --seed 7`: a whole game of Spit, rendered once for these tests."""
    out = tmp_path_factory.mktemp("narrate") / "demo.wav"
    stream = io.StringIO()
    result = narrate_game(Rules.for_game("spit", ()), 7, out, stream)
    with wave.open(str(out)) as recording:
        assert (recording.getnchannels(), recording.getsampwidth()) == (2, 2)
        rate = recording.getframerate()
        pcm = np.frombuffer(recording.readframes(recording.getnframes()), dtype="<i2")
    yield Heard(result, stream.getvalue(), pcm.reshape(-1, 2), rate)
    out.unlink()


def test_the_whole_game_is_in_the_file_and_the_transcript(demo: Heard) -> None:
    assert demo.rate == 22_050
    assert len(demo.pcm) / demo.rate == pytest.approx(demo.result.seconds + 0.5, abs=0.01)
    lines = demo.transcript.splitlines()
    assert lines == demo.result.lines
    assert lines[0].split(maxsplit=1)[1].startswith("Round 1. Your cards:")
    assert "Game over:" in lines[-1]
    spoken = demo.result.history
    assert spoken["spoken"] > 100 and spoken["cut"] + spoken["dropped"] > 0
    said = [line.split(maxsplit=1)[1] for line in lines]
    # A real game: each part of it is heard at least once.
    for start in ("Three.", "Two.", "One.", "Spit!", "Nobody can play.", "Round over:",
                  "Slap now!", "Too late: left is now", "Round 2."):
        assert any(line.startswith(start) for line in said), start
    assert any(line.startswith(("You slap", "Opponent slaps")) for line in said)
    assert any(line.endswith("(you).") for line in said)
    assert any(line.endswith("(opponent).") for line in said)


def words_of(demo: Heard, kind: type) -> list[Placed]:
    sequences = {s.sequence for s in demo.result.events if isinstance(s.event, kind)}
    return [p for p in demo.result.timeline.entries
            if p.kind == "speech" and p.announcement.sequence in sequences]


@pytest.mark.parametrize(("cause", "follows", "what"), [
    (Stalemate, SpitCountdown, "the countdown"),
    (RoundOver, SlapWindowOpened, "the slap race"),
])
def test_what_a_stalemate_or_a_round_end_starts_waits_until_it_has_been_said(
        demo: Heard, cause: type, follows: type, what: str) -> None:
    # The match waits for the announcements: nobody acts on news not yet heard, and
    # "Three." never cuts "Nobody can play." off.
    events = demo.result.events
    said = words_of(demo, cause)
    assert said and all(p.status == "spoken" for p in said), f"{cause.__name__} said in full"
    started = 0
    for placed in said:
        sequence = placed.announcement.sequence
        assert sequence is not None
        after = next((s for s in events[sequence:] if isinstance(s.event, follows | GameOver)),
                     None)
        if after is None or isinstance(after.event, GameOver):
            continue  # the last round's end is the game's
        assert after.time >= placed.end - 1e-6, f"{what} began before its cause was said"
        started += 1
    assert started


PILE_CUES = (Cue.YOUR_PLAY, Cue.OPPONENT_PLAY, Cue.CARD_SPAT)
"""The cues about a pile (your new and moved cards are panned by stockpile instead)."""


def pile_cues(demo: Heard, pan: float) -> list[Placed]:
    return [p for p in demo.result.timeline.entries
            if p.kind == "cue" and p.announcement.cue in PILE_CUES
            and p.announcement.pan == pan and p.frames]


@pytest.mark.parametrize(("pan", "near", "far"), [(-1.0, 0, 1), (1.0, 1, 0)])
def test_cues_about_a_pile_are_clearly_louder_on_its_side(demo: Heard, pan: float, near: int,
                                                          far: int) -> None:
    cues = pile_cues(demo, pan)
    assert len(cues) > 20, "enough cues on each side for the median to mean something"
    ratios = []
    for cue in cues:
        sound = demo.span(cue)
        ratios.append(np.sum(sound[:, near] ** 2) / max(np.sum(sound[:, far] ** 2), 1e-12))
    assert min(ratios) > 1.5, "every cue leans to its pile's side, even over speech"
    assert float(np.median(ratios)) > 10, "and most are almost all on that side"


def test_speech_is_audible_and_no_two_announcements_talk_at_once(demo: Heard) -> None:
    speech = sorted((p for p in demo.result.timeline.entries if p.kind == "speech"),
                    key=lambda p: p.start)
    assert all(a.end <= b.start + 1e-9 for a, b in itertools.pairwise(speech))
    for placed in speech:
        if placed.status == "spoken":
            sound = demo.span(placed)
            assert np.sqrt(np.mean(sound ** 2)) > 0.02, placed.announcement.text


def test_the_file_holds_nothing_but_the_announced_sounds(demo: Heard) -> None:
    # Silence wherever nothing was announced: no hidden or doubled sound anywhere.
    declared = np.zeros(len(demo.pcm), dtype=bool)
    for placed in demo.result.timeline.entries:
        first = round(placed.start * demo.rate)
        declared[first:first + placed.frames] = True
    undeclared = np.abs(demo.pcm[~declared].astype(np.int32))
    assert undeclared.size > 0 and int(undeclared.max()) <= 1


def test_the_command_prints_the_transcript_and_the_same_seed_gives_the_same_file(
        tmp_path: Path) -> None:
    # Separate processes: espeak-ng carries state from one utterance to the next
    # within a process, so only a fresh process repeats a game exactly -- and only
    # when the engine did not have to render an utterance twice (it says so), which
    # happens on a heavily loaded machine. Such a pair is measured again.
    def narrate(name: str) -> tuple[list[str], bytes]:
        out = tmp_path / name
        done = subprocess.run(
            [sys.executable, "-m", "voicespit", "narrate", "--game", "speed", "--seed", "3",
             "--out", str(out)], capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines(), out.read_bytes()

    for _ in range(3):
        (printed, first), (again, second) = narrate("a.wav"), narrate("b.wav")
        assert printed[-1].startswith("narrate: speed seed 3: ") and "a.wav" in printed[-1]
        assert "Game over:" in printed[-2]
        assert printed[0].split(maxsplit=1)[1].startswith("Round 1.")
        if "rendered again" not in printed[-1] + again[-1]:
            break
    else:
        pytest.fail("three pairs of runs all had to render speech again; is the machine overloaded?")
    assert printed[:-1] == again[:-1]
    assert first == second, "the same seed gives the same file"


def test_a_missing_directory_is_a_one_line_error(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["narrate", "--out", str(tmp_path / "nowhere" / "x.wav")]) == 2
    assert "no directory" in capsys.readouterr().err


def test_a_transcript_nobody_reads_any_more_stops_the_game_at_once(tmp_path: Path) -> None:
    # `voicespit narrate ... | head`: the first failed line ends the run (no game
    # played on to its end, no file written), as itself.
    class ClosedAfterThreeLines(io.StringIO):
        def write(self, text: str) -> int:
            if self.getvalue().count("\n") >= 3:
                raise BrokenPipeError(32, "Broken pipe")
            return super().write(text)

    out = tmp_path / "x.wav"
    with pytest.raises(BrokenPipeError):
        narrate_game(Rules.for_game("speed", ()), 3, out, ClosedAfterThreeLines())
    assert not out.exists()
