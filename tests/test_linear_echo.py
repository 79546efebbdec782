"""The linear canceller beside AEC3 (speexdsp, real), and what the echo stage hands on."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

from benchmarks.make_corpus import speak, trim
from benchmarks.room import impulse_response
from tests.test_echo import printed_without
from voicespit.speech.listening.echo import EchoStage, WebRtcCanceller, open_canceller
from voicespit.speech.listening.far_end import PlaybackReference
from voicespit.speech.listening.linear_echo import open_linear_canceller
from voicespit.speech.listening.sources import AudioBlock
from voicespit.speech.recognizer import SAMPLE_RATE


def espeak_samples(text: str, voice: str = "en-us") -> np.ndarray:
    with tempfile.TemporaryDirectory() as folder:
        return trim(speak(text, voice, 175, Path(folder))).astype(np.float64)


def si_sdr_db(wanted: np.ndarray, got: np.ndarray) -> float:
    kept = wanted * float(got @ wanted) / float(wanted @ wanted)
    return float(10 * np.log10(np.sum(kept ** 2) / np.sum((got - kept) ** 2)))


def through_the_room(game: np.ndarray, player: np.ndarray, at: int
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The microphone (the game's echo, the player from `at`), and what AEC3 and the
    linear canceller beside it make of it, block by block as the listener runs them."""
    room = impulse_response(0.3, 40.0, SAMPLE_RATE, np.random.default_rng(1))
    near = np.zeros(len(game))
    near[at:at + len(player)] = player
    microphone = np.clip(np.convolve(game, room)[:len(game)] * 0.6 + near,
                         -32768, 32767).astype(np.int16)
    reference = PlaybackReference(SAMPLE_RATE)
    linear = open_linear_canceller()
    assert linear is not None
    stage = EchoStage(open_canceller(), reference, linear=linear)
    first_out, heard_out = [], []
    for first in range(0, len(microphone), 480):
        reference.push((game[first:first + 480] / 32768).astype(np.float32), first / SAMPLE_RATE)
        block = stage.cancel(AudioBlock(microphone[first:first + 480].tobytes(),
                                        first / SAMPLE_RATE), first / SAMPLE_RATE)
        assert block is not None
        first_out.append(np.frombuffer(block.pcm, dtype="<i2"))
        heard_out.append(np.frombuffer(stage.heard(block).pcm, dtype="<i2"))
    return (microphone, np.concatenate(first_out).astype(np.float64),
            np.concatenate(heard_out).astype(np.float64))


def test_over_the_game_the_linear_output_keeps_the_player_that_aec3_turns_down() -> None:
    game = np.tile(espeak_samples("Left: seven. Right: eight, opponent. Stock two shows a queen."), 3)
    player = espeak_samples("nine on left", voice="en-us+f3")
    at = len(game) - len(player) - SAMPLE_RATE
    _, suppressed, heard = through_the_room(game, player, at)
    shift = round(WebRtcCanceller.latency * SAMPLE_RATE)
    spoken = slice(at + shift, at + shift + len(player))
    assert si_sdr_db(player, heard[spoken]) > si_sdr_db(player, suppressed[spoken]) + 5


def test_the_linear_output_lines_up_with_the_first_cancellers() -> None:
    # Nothing plays: both outputs are the player's voice, AEC3's 128 samples late, and the
    # linear one is held back to match, so the two can be swapped block for block.
    player = np.tile(espeak_samples("nine on left"), 4)
    _, suppressed, heard = through_the_room(np.zeros(len(player)), player, 0)
    lags = range(-40, 41)
    best = max(lags, key=lambda lag: float(np.roll(heard, lag)[400:-400] @ suppressed[400:-400]))
    assert best == 0


def test_without_speexdsp_the_game_listens_through_aec3_alone() -> None:
    assert printed_without(
        "speexdsp_aec",
        "from voicespit.speech.listening.linear_echo import open_linear_canceller\n"
        "print(open_linear_canceller())\n") == "None"
