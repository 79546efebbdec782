"""Echo cancellation with the real WebRTC canceller, on a simulated room.

The far end is espeak-ng speech (the game's voice); the room delays it by 40 ms and
adds a reverberant tail; the player says a command over it.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from benchmarks.make_corpus import speak, trim
from benchmarks.room import impulse_response
from voicespit.speech.listening.echo import CancellerError, EchoStage, WebRtcCanceller, open_canceller
from voicespit.speech.listening.far_end import PlaybackReference
from voicespit.speech.listening.sources import AudioBlock
from voicespit.speech.recognizer import SAMPLE_RATE
from voicespit.speech.signal import FRAME


def espeak_samples(text: str, voice: str = "en-us") -> np.ndarray:
    with tempfile.TemporaryDirectory() as folder:
        return trim(speak(text, voice, 175, Path(folder))).astype(np.float64)


def level_db(samples: np.ndarray) -> float:
    return float(10 * np.log10(np.mean(samples.astype(np.float64) ** 2) + 1e-9))


def test_the_games_voice_is_taken_out_and_the_players_is_kept() -> None:
    game = np.tile(espeak_samples("Left: seven. Right: eight, opponent. Stock two shows a queen."), 3)
    player = espeak_samples("nine on left", voice="en-us+f3")
    room = impulse_response(0.3, 40.0, SAMPLE_RATE, np.random.default_rng(1))
    echo = np.convolve(game, room)[:len(game)] * 0.5
    near = np.zeros(len(game))
    at = len(game) - len(player) - SAMPLE_RATE
    near[at:at + len(player)] = player
    reference = PlaybackReference(SAMPLE_RATE)
    stage = EchoStage(open_canceller(), reference, lead=0.0)
    microphone = np.clip(echo + near, -32768, 32767).astype(np.int16)
    out = []
    for first in range(0, len(microphone), 480):
        # The output plays each block just before the microphone records its echo.
        reference.push((game[first:first + 480] / 32768).astype(np.float32),
                       first / SAMPLE_RATE)
        block = AudioBlock(microphone[first:first + 480].tobytes(), first / SAMPLE_RATE)
        cancelled = stage.cancel(block, first / SAMPLE_RATE)
        assert cancelled is not None
        out.append(np.frombuffer(cancelled.pcm, dtype="<i2"))
    cleaned = np.concatenate(out).astype(np.float64)
    settled = slice(3 * SAMPLE_RATE, at)  # after the filter has learnt the room, before the player
    assert level_db(echo[settled]) - level_db(cleaned[settled]) > 15
    shift = round(WebRtcCanceller.latency * SAMPLE_RATE)
    spoken = slice(at + shift, at + shift + len(player))
    assert abs(level_db(cleaned[spoken]) - level_db(near[at:at + len(player)])) < 6


def test_a_block_that_is_not_whole_frames_leaves_its_remainder_for_the_next() -> None:
    stage = EchoStage(None, PlaybackReference(SAMPLE_RATE))
    first = stage.cancel(AudioBlock(np.ones(250, dtype=np.int16).tobytes(), 0.0), 0.0)
    assert first is not None and len(first.pcm) == 2 * FRAME
    second = stage.cancel(AudioBlock(np.ones(70, dtype=np.int16).tobytes(), 250 / SAMPLE_RATE),
                          250 / SAMPLE_RATE)
    assert second is not None and len(second.pcm) == 2 * FRAME
    assert second.start == FRAME / SAMPLE_RATE


def printed_without(module: str, program: str) -> str:
    """What `program` prints in a fresh interpreter in which `module` cannot be imported."""
    result = subprocess.run([sys.executable, "-c", f"import sys; sys.modules[{module!r}] = None\n"
                             + program], capture_output=True, text=True, check=True)
    return result.stdout.strip()


def test_without_the_library_the_canceller_says_so_in_plain_words() -> None:
    printed = printed_without(
        "pywebrtc_audio",
        "from voicespit.speech.listening.echo import CancellerError, open_canceller\n"
        "try:\n    open_canceller()\nexcept CancellerError as error:\n    print(error)\n")
    assert printed == "the echo canceller is not installed"
    assert issubclass(CancellerError, Exception)


def test_a_mono_canceller_is_given_the_mean_of_a_stereo_far_end() -> None:
    class Recording:
        name, latency, channels = "recording", 0.0, 1

        def __init__(self) -> None:
            self.far: list[np.ndarray] = []

        def process(self, near: np.ndarray, far: np.ndarray) -> np.ndarray:
            self.far.append(far)
            return near

        def reset(self) -> None:
            pass

    reference = PlaybackReference(SAMPLE_RATE, channels=2)
    block = np.zeros((480, 2), dtype=np.float32)
    block[:, 0] = 0.5
    reference.push(block, 0.0)
    canceller = Recording()
    stage = EchoStage(canceller, reference)
    stage.cancel(AudioBlock(np.zeros(480, dtype=np.int16).tobytes(), 0.0), 0.0)
    assert canceller.far[0].shape == (480,)
    assert abs(int(canceller.far[0][240]) - 8192) <= 1
    assert stage.last_far.shape == (480,)
