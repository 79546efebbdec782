"""Faults in voice input: the recognizer's worker killed, the recognizer failing mid-match.

The real PocketSphinx recognizer hears espeak-ng speech, with the real session,
match and opponent on a fake clock, wired as the game wires them (`VoiceInput`).
Its second-opinion decoder is a real child process, killed here with SIGKILL; the
failing recognizer is the real one whose decoding raises from some point on. The
game must say what happened once, in plain words, and play on, by voice or by
keyboard, to the end of the match with every card accounted for and the profile
saved whole (the real profile store, on disk).
"""

from __future__ import annotations

import os
import shutil
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.app_harness import Harness, WordPlayer
from tests.spoken_voice import Voice, spoken_pcm
from voicespit.app.voice import VoiceInput
from voicespit.clock import FakeClock
from voicespit.engine.invariants import check_cards
from voicespit.profile import Profile, ProfileStore
from voicespit.speech.listening.gate import ListeningGate
from voicespit.speech.listening.sources import AudioBlock
from voicespit.speech.recognizer import SAMPLE_RATE, Recognition
from voicespit.speech.recognizers.pocketsphinx_recognizer import HELPER_RESTARTED, PocketSphinxRecognizer

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                reason="espeak-ng is needed to speak the commands")
BLOCK_BYTES = 2 * SAMPLE_RATE // 10
SILENCE = bytes(BLOCK_BYTES)


class NoMicrophone:
    """An audio source that delivers nothing: the test streams the audio itself."""

    def blocks(self) -> Iterator[AudioBlock]:
        return iter(())

    def close(self) -> None:
        pass


def play_to_the_end(harness: Harness, limit_seconds: float = 3_600.0) -> None:
    while harness.clock.now() < limit_seconds:
        harness.run(1.0)
        game = harness.session.game
        if game is not None and game.ended:
            return
    raise AssertionError("no end of the match:\n" + harness.text[-2000:])


def saved_on_disk(harness: Harness, directory: Path) -> ProfileStore:
    """Save the session's profile where the game would, through the real store."""
    store = ProfileStore(directory)

    def save(profile: Profile) -> None:
        store.save(profile)

    harness.session.hooks.profile_changed = save
    return store


def the_match_is_whole(harness: Harness, store: ProfileStore) -> None:
    """Every card of the match is there, and the profile on disk counts the game, whole."""
    game = harness.session.game
    assert game is not None
    check_cards(game.match.state)
    profile, trouble = store.load()
    assert trouble is None, trouble
    assert profile.games == 1 and profile.cards_played == harness.profile.cards_played
    assert sorted(path.name for path in store.directory.iterdir()) == ["default.json"]


def wait_until_dead(pid: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    status = Path(f"/proc/{pid}/status")
    while status.exists() and "State:\tZ" not in status.read_text():
        assert time.monotonic() < deadline, f"process {pid} did not die"
        time.sleep(0.01)


def test_a_killed_recognizer_worker_is_started_again_said_once_and_nothing_is_lost(
        tmp_path: Path) -> None:
    harness = Harness(game="speed", pace="fast", seed=6)
    store = saved_on_disk(harness, tmp_path / "profile")
    recognizer = PocketSphinxRecognizer()
    voice_input = VoiceInput(NoMicrophone(), recognizer, ListeningGate(), harness.session,
                             harness.clock)
    harness.session.hooks.table_changed = voice_input.table_changed
    voice = Voice(tmp_path, voice_input.commands, voice_input.recognizer)
    deadline = time.monotonic() + 60.0
    while (killed := recognizer.helper_pid) is None:
        assert time.monotonic() < deadline, "the worker never started"
        time.sleep(0.05)
    kill_at = 5

    def say(words: str) -> None:
        if len(voice.heard) == kill_at:
            os.kill(killed, signal.SIGKILL)
            wait_until_dead(killed)
        voice.say(words)

    say("new game")
    harness.run(0.5)
    WordPlayer(harness, say, delay=2.0, seed=4, mistakes=0.0).start()
    play_to_the_end(harness)
    assert "Game over:" in harness.text
    assert harness.text.count(HELPER_RESTARTED) == 1, harness.text
    after = voice.heard[kill_at:]
    assert len(after) >= 5, "the match went on by voice"
    exact = sum(said == heard for said, heard in after)
    assert exact / len(after) >= 0.8, after
    restarted = recognizer.helper_pid
    assert restarted is not None and restarted != killed, "a new worker took over"
    the_match_is_whole(harness, store)


class FailingPocketSphinx(PocketSphinxRecognizer):
    """The real recognizer, whose decoding fails for good once `fail` is set."""

    fail = threading.Event()

    def accept_audio(self, pcm: bytes) -> list[Recognition]:
        if self.fail.is_set():
            raise RuntimeError("pocketsphinx: decoder state corrupted")
        return super().accept_audio(pcm)


class SpokenSource:
    """A microphone saying `commands`, 100 ms blocks on the fake clock, then silence."""

    def __init__(self, folder: Path, clock: FakeClock, commands: list[str],
                 after: threading.Event) -> None:
        audio = SILENCE * 5
        for command in commands:
            audio += spoken_pcm(folder, command) + SILENCE * 15
        self.audio, self.clock, self.after = audio, clock, after
        self.closed = threading.Event()

    def blocks(self) -> Iterator[AudioBlock]:
        position = 0
        while not self.closed.is_set():
            chunk = self.audio[position:position + BLOCK_BYTES]
            if not chunk:
                self.after.set()  # everything was said: from now on the recognizer fails
                chunk = SILENCE
            self.clock.advance(len(chunk) / (2 * SAMPLE_RATE))
            yield AudioBlock(chunk, position / (2 * SAMPLE_RATE))
            position += len(chunk)

    def close(self) -> None:
        self.closed.set()


def test_a_recognizer_that_fails_mid_match_leaves_the_keyboard_and_says_so(
        tmp_path: Path) -> None:
    harness = Harness(game="speed", pace="fast", seed=6)
    harness.session.hooks.keys_in_help = False  # as the live game has it when it listens
    store = saved_on_disk(harness, tmp_path / "profile")
    recognizer = FailingPocketSphinx()
    recognizer.fail.clear()
    source = SpokenSource(tmp_path, harness.clock, ["new game", "ready"], recognizer.fail)
    voice_input = VoiceInput(source, recognizer, ListeningGate("headphones"), harness.session,
                             harness.clock)
    harness.session.hooks.table_changed = voice_input.table_changed
    voice_input.start()
    assert voice_input.listener.wait(120), "the listener ended once its recognizer failed"
    said = harness.lines()
    assert "Ready." in said, "what was said before the failure was heard"
    stopped = [line for line in said if line.startswith("Speech recognition stopped")]
    assert stopped == ["Speech recognition stopped working. Type your commands and press "
                       "enter, or press question mark for the keys."], said
    assert voice_input.stopped_working.is_set()
    harness.type("help")
    for _ in range(10):  # the help comes a few sentences at a time
        if "Keys 1 to 5" in harness.text:
            break
        harness.type("more")
    assert "Keys 1 to 5" in harness.text, "the help now tells the keys"
    WordPlayer(harness, harness.type, delay=2.0, seed=4, mistakes=0.0).start()
    play_to_the_end(harness)
    assert "Game over:" in harness.text
    the_match_is_whole(harness, store)
    voice_input.stop()
