"""The player profile survives launches, crashes and damage."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from voicespit.profile import Profile, ProfileError, ProfileStore


def test_a_saved_profile_comes_back_the_same(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path / "profiles")
    profile = Profile(name="sam", games=3, wins=2, cards_played=120, seconds_played=240.0,
                      commands_heard=200, commands_misheard=9, opponent_seconds_per_card=2.4,
                      settings={"rate": "200", "verbosity": "terse"})
    store.save(profile)
    loaded, message = store.load("sam")
    assert loaded == profile and message is None
    assert loaded.cards_per_minute == 30.0


def test_a_new_player_gets_a_fresh_profile_without_fuss(tmp_path: Path) -> None:
    profile, message = ProfileStore(tmp_path).load("newcomer")
    assert profile == Profile(name="newcomer") and message is None


@pytest.mark.parametrize("damage", [
    "{ not json",
    "",
    '{"version": 99, "games": 1}',
    '{"version": 1, "games": "three"}',
    '{"version": 1, "wins": -4}',
    '{"version": 1, "settings": {"rate": 5}}',
    "[1, 2, 3]",
])
def test_a_damaged_profile_is_set_aside_with_a_message_not_a_crash(tmp_path: Path, damage: str) -> None:
    store = ProfileStore(tmp_path)
    (tmp_path / "sam.json").write_text(damage)
    profile, message = store.load("sam")
    assert profile == Profile(name="sam")
    assert message is not None and "damaged" in message
    kept = list(tmp_path.glob("sam.damaged-*.json"))
    assert len(kept) == 1 and kept[0].read_text() == damage, "the damaged file is kept, not lost"
    assert not (tmp_path / "sam.json").exists()
    assert store.load("sam") == (Profile(name="sam"), None), "the next launch starts cleanly"


def test_a_profile_damaged_below_the_text_is_set_aside_too(tmp_path: Path) -> None:
    # Bytes that are not UTF-8 at all (a disk fault, a half-written sector).
    store = ProfileStore(tmp_path)
    damage = b'\xff\xfe{"version": 1\x00'
    (tmp_path / "sam.json").write_bytes(damage)
    profile, message = store.load("sam")
    assert profile == Profile(name="sam")
    assert message is not None and "damaged" in message
    [kept] = tmp_path.glob("sam.damaged-*.json")
    assert kept.read_bytes() == damage, "the damaged file is kept, not lost"


def test_unusable_names_and_directories_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="not allowed"):
        ProfileStore(tmp_path).path_of("../escape")
    blocker = tmp_path / "file"
    blocker.write_text("a file where the directory should be")
    with pytest.raises(ProfileError, match="could not save"):
        ProfileStore(blocker / "profiles").save(Profile())


WRITER = """
import sys
from pathlib import Path
from voicespit.profile import Profile, ProfileStore
store = ProfileStore(Path(sys.argv[1]))
games = 0
print("ready", flush=True)
while True:
    games += 1
    store.save(Profile(name="sam", games=games, settings={"note": "x" * 5000}))
"""


def test_killing_a_process_while_it_saves_never_corrupts_the_profile(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    rng = random.Random(7)
    last_games = 0
    for _ in range(12):
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path)],
                                  stdout=subprocess.PIPE, text=True,
                                  cwd=Path(__file__).resolve().parent.parent)
        assert writer.stdout is not None and writer.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.01, 0.08))
        writer.send_signal(rng.choice([signal.SIGKILL, signal.SIGINT, signal.SIGTERM]))
        writer.wait(timeout=10)
        writer.stdout.close()
        saved = (tmp_path / "sam.json").exists()
        profile, message = store.load("sam")
        assert message is None, message
        if saved:
            assert profile.games >= 1 and len(profile.settings["note"]) == 5000
            last_games = profile.games
        else:
            assert profile == Profile(name="sam"), "killed before its first save"
    assert last_games > 0, "no save ever completed: the test proved nothing"
    assert not list(tmp_path.glob(".sam.*.tmp")), "leftover temporary files are cleaned up"
