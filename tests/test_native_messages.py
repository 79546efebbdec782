"""What C libraries write to file descriptor 2 stays off the player's terminal
(voicespit/cli/logs.py: keep_native_messages_off_the_terminal).

The native writer is real: speexdsp's echo canceller, made to diverge (a mic that falls
silent while the far end goes on after the filter learnt it), prints its reset warning
straight to the descriptor, as it did in the room benchmark.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WARNING = "echo canceller started acting funny"

DIVERGE_THEN_SPEAK = textwrap.dedent("""
    import sys
    from pathlib import Path

    import numpy as np

    from voicespit.cli.logs import keep_native_messages_off_the_terminal
    from voicespit.speech.listening.linear_echo import open_linear_canceller

    log = Path(sys.argv[2]) if sys.argv[2] else None
    keep_native_messages_off_the_terminal(verbose=sys.argv[1] == "verbose", log_file=log)
    canceller = open_linear_canceller()
    if canceller is None:
        print("no speexdsp", file=sys.stderr)
        raise SystemExit(3)
    noise = np.random.default_rng(1)
    for frame in range(2300):
        far = (noise.standard_normal(160) * 8000).astype(np.int16)
        canceller.process(far if frame < 2000 else np.zeros(160, np.int16), far)
    print("voicespit: the game's own message", file=sys.stderr)
""")


def run(tmp_path: Path, mode: str, log: Path | None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-c", DIVERGE_THEN_SPEAK, mode,
                           str(log) if log else ""], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=False)
    if done.returncode == 3:
        pytest.skip("speexdsp's canceller cannot run here")
    assert done.returncode == 0, done.stderr
    return done


def test_a_native_warning_goes_to_the_log_and_the_game_s_own_words_stay(tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    done = run(tmp_path, "quiet", log)
    assert WARNING not in done.stderr, "a screen reader would read the library's words out"
    assert "voicespit: the game's own message" in done.stderr
    assert WARNING in log.read_text(encoding="utf-8")


def test_without_a_log_the_native_warning_goes_nowhere(tmp_path: Path) -> None:
    done = run(tmp_path, "quiet", None)
    assert WARNING not in done.stderr
    assert "voicespit: the game's own message" in done.stderr


def test_verbose_keeps_the_native_warning_for_whoever_asked_for_details(tmp_path: Path) -> None:
    done = run(tmp_path, "verbose", None)
    assert WARNING in done.stderr
    assert "voicespit: the game's own message" in done.stderr
