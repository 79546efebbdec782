"""`voicespit play` as a process: piped keyboard input, and being killed mid-game."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.devices import has_sound_device
from tests.game_process import HANG_GUARD_SECONDS, ROOT, Game, profile_of
from tests.wav_scripts import write_script


def test_piped_commands_play_and_the_end_of_input_leaves_cleanly(tmp_path: Path) -> None:
    game = Game(tmp_path, "--seed", "2")
    game.wait_for("to start.")
    game.type("new game")
    game.wait_for("Say ready.")
    game.type("speak faster")
    game.wait_for("Speaking faster: 200 words a minute.")
    assert game.process.stdin is not None
    game.process.stdin.close()
    assert game.finish() == 0
    assert game.lines[-1] == "Goodbye."
    assert profile_of(tmp_path)["settings"] == {"rate": "200"}


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL],
                         ids=["SIGINT", "SIGTERM", "SIGKILL"])
def test_killing_the_game_mid_match_never_damages_the_profile(tmp_path: Path,
                                                              how: signal.Signals) -> None:
    game = Game(tmp_path, "--seed", "2", "--pace", "0.5")
    game.wait_for("to start.")
    game.type("speak slower")  # saved at once: there is a profile to damage
    game.wait_for("Speaking slower")
    game.type("new game")
    game.wait_for("Say ready.")
    game.type("ready")
    game.wait_for("Spit!")
    for key in "1627384950":
        game.type(key)
    time.sleep(0.5)
    game.process.send_signal(how)
    code = game.finish()
    if how is signal.SIGKILL:
        assert code == -signal.SIGKILL
    else:
        # The shell's convention: 128 + the signal (130 for Ctrl-C), not a clean 0.
        assert code == 128 + how, "\n".join(game.lines)
        assert game.lines[-1] == "Goodbye."
    profile = profile_of(tmp_path)
    assert profile["settings"] == {"rate": "150"}
    assert profile["games"] == 0, "an unfinished game is not counted as played"
    again = Game(tmp_path)
    again.wait_for("to start.")
    assert not any("damaged" in line for line in again.lines)
    again.type("quit")
    again.type("yes")
    assert again.finish() == 0
    assert not list((tmp_path / "data" / "voicespit").glob("*.damaged-*"))


def test_a_wav_script_drives_the_game_through_the_recognizer(tmp_path: Path) -> None:
    """`--input wav --script`: recordings spoken on cue, heard by the real PocketSphinx."""
    script = write_script(tmp_path, ((1.0, "new game"), (5.0, "ready"), (10.0, "my cards"),
                                     (14.0, "quit game"), (17.0, "yes"), (20.0, "quit game"),
                                     (23.0, "yes")))
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "voicespit", "play", "--input", "wav", "--script", str(script),
         "--recognizer", "pocketsphinx", "--no-audio", "--seed", "3"],
        stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=HANG_GUARD_SECONDS + 30, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr
    said = done.stdout.splitlines()
    assert said[0] == "VoiceSpit Spit, by voice with PocketSphinx. Say new game to start."
    expected = ["New game of Spit", "Round 1. Your cards:", "Three.", "Spit!", "Your cards:",
                "Quit this game? Say yes or no.", "Game stopped.", "Leave VoiceSpit?", "Goodbye."]
    position = 0
    for wanted in expected:
        position = next((i for i in range(position, len(said)) if said[i].startswith(wanted)),
                        -1)
        assert position >= 0, f"{wanted!r} missing or out of order in:\n{done.stdout}"


def run_play(tmp_path: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "voicespit", "play", "--no-audio", *arguments],
                          input="quit\nyes\n", capture_output=True, text=True, timeout=HANG_GUARD_SECONDS,
                          cwd=ROOT, env=env)


@pytest.mark.skipif(has_sound_device("input"), reason="this machine has a microphone")
def test_asking_for_the_microphone_without_one_is_an_error_that_says_what_to_do(
        tmp_path: Path) -> None:
    done = run_play(tmp_path, "--input", "mic")
    assert done.returncode == 2
    message = done.stderr.strip().splitlines()[-1]
    assert message.startswith("voicespit: No microphone")
    assert message.endswith("Plug in a microphone and start again, or play with --input "
                            "keyboard."), "what to do, not a quiet fall-back to the keyboard"
    assert "PortAudio" not in message and "Error" not in message, "plain words"
    assert done.stdout == "", "no game was started"


def test_a_profile_that_cannot_be_saved_is_told_in_plain_words_and_no_path(
        tmp_path: Path) -> None:
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the data folder should be")
    env = {**os.environ, "XDG_DATA_HOME": str(blocked),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "voicespit", "play", "--no-audio", "--input",
                           "keyboard"], input="speak faster\n", capture_output=True, text=True,
                          timeout=HANG_GUARD_SECONDS, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr
    assert "I could not save your profile" in done.stdout
    # The terminal shows stderr too: a screen reader would read out the path.
    assert str(blocked) not in done.stdout + done.stderr


def test_with_the_speech_engine_running_the_log_stays_off_the_terminal(
        tmp_path: Path) -> None:
    # With sound (pyttsx3 renders every announcement; this machine plays it silently),
    # the speech engine's own logging once made every logged event of the match print
    # on the terminal, which the screen reader reads out.
    log = tmp_path / "match.log"
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "voicespit", "play", "--input", "keyboard",
                           "--log", str(log)], input="new game\nquit\nyes\n",
                          capture_output=True, text=True, timeout=HANG_GUARD_SECONDS, cwd=ROOT,
                          env=env)
    assert done.returncode == 0, done.stderr
    assert "New game of Spit" in done.stdout
    assert "said: New game of Spit" in log.read_text(encoding="utf-8")
    assert "voicespit." not in done.stdout + done.stderr, done.stderr


def test_with_tutorial_the_first_instruction_is_the_tutorials(tmp_path: Path) -> None:
    done = run_play(tmp_path, "--input", "keyboard", "--tutorial")
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()[:2]
    assert first == "VoiceSpit Spit, by keyboard.", "not 'Type new game' before the tutorial"
    assert second.startswith("Tutorial: one round of Spit")


def test_a_bad_variant_in_a_config_file_names_the_file(tmp_path: Path) -> None:
    config = tmp_path / "mine.toml"
    config.write_text("[game.variants]\nstockpiles = 7\n")
    done = run_play(tmp_path, "--input", "keyboard", "--config", str(config))
    assert done.returncode == 2
    assert done.stderr.startswith(f"voicespit: {config}: [game.variants] "), done.stderr
    config.write_text("[game.variants]\nstockpile = 4\n")
    done = run_play(tmp_path, "--input", "keyboard", "--config", str(config))
    assert done.stderr.startswith(f"voicespit: {config}: [game.variants] stockpile is not a "
                                  "variant"), done.stderr
    flag = run_play(tmp_path, "--input", "keyboard", "--variant", "stockpiles=7")
    assert flag.returncode == 2 and flag.stderr.startswith("voicespit: --variant: "), flag.stderr


def test_a_bad_pace_names_where_it_came_from(tmp_path: Path) -> None:
    config = tmp_path / "mine.toml"
    config.write_text("[opponent]\npace = \"glacial\"\n")
    done = run_play(tmp_path, "--input", "keyboard", "--config", str(config))
    assert done.stderr.startswith(f"voicespit: {config}: [opponent] opponent pace 'glacial'")
    overridden = run_play(tmp_path, "--input", "keyboard", "--config", str(config),
                          "--pace", "brisk")
    assert overridden.returncode == 0, "a flag that fixes the file's value is fine"
    flag = run_play(tmp_path, "--input", "keyboard", "--pace", "glacial")
    assert flag.stderr.startswith("voicespit: command line: [opponent] opponent pace")


@pytest.mark.skipif(has_sound_device("input"), reason="this machine has a microphone")
def test_verbose_puts_the_technical_details_on_stderr_and_never_in_what_is_said(
        tmp_path: Path) -> None:
    done = run_play(tmp_path, "--input", "auto", "--verbose")
    assert done.returncode == 0, done.stderr
    assert "voicespit: voice input: no microphone found (PortAudio" in done.stderr
    assert "PortAudio" not in done.stdout
    assert done.stdout.splitlines()[0] == \
        "VoiceSpit Spit, by keyboard (no microphone found). Type new game or press space to start."
