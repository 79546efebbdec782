"""Saving the profile on a disk that is full or read-only: told once, nothing lost.

The profile directory is a real file system that refuses the write (a tiny tmpfs
filled to the brim, or one remounted read-only), under the real game in a child
process. The game must say so once in plain words, go on, keep the old profile
whole on disk (never half a file, never a leftover), and save again once it can.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.filesystems import fill, read_only, tmpfs
from tests.game_process import Game, profile_path
from voicespit.profile import Profile, ProfileError, ProfileStore

OLD = Profile(games=3, wins=1, cards_played=40, seconds_played=200.0,
              settings={"rate": "150"})
KEPT = "Your saved profile is kept as it was, and the game goes on."


def old_profile_in(directory: Path) -> bytes:
    ProfileStore(directory).save(OLD)
    return (directory / "default.json").read_bytes()


def only_the_profile_in(directory: Path) -> list[str]:
    return sorted(path.name for path in directory.iterdir() if path.name != "filler")


def test_a_save_on_a_full_disk_raises_plainly_and_leaves_the_old_file_whole(
        tmp_path: Path) -> None:
    with tmpfs(tmp_path / "disk") as disk:
        before = old_profile_in(disk)
        fill(disk)
        with pytest.raises(ProfileError) as refused:
            ProfileStore(disk).save(Profile(games=4))
        assert str(refused.value) == "I could not save your profile: the disk is full"
        assert str(disk) in refused.value.detail, "the path is for the log, not the player"
        assert (disk / "default.json").read_bytes() == before
        assert only_the_profile_in(disk) == ["default.json"], "no half-written temporary left"


def test_a_save_on_a_read_only_disk_raises_plainly_and_changes_nothing(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "disk", required=False) as disk:
        before = old_profile_in(disk)
        with read_only(disk), pytest.raises(ProfileError) as refused:
            ProfileStore(disk).save(Profile(games=4))
        assert str(refused.value) in ("I could not save your profile: the disk cannot be "
                                      "written to",
                                      "I could not save your profile: I am not allowed to "
                                      "write there")
        assert (disk / "default.json").read_bytes() == before
        assert only_the_profile_in(disk) == ["default.json"]


def play_and_stop_a_game(game: Game) -> None:
    game.type("new game")
    game.wait_for("Say ready.")
    game.type("ready")
    after = game.wait_for("Spit!")
    for key in "1627384950":
        game.type(key)
    game.type("quit")
    game.wait_for("Quit this game?", after=after)
    game.type("yes")
    game.wait_for("Game stopped.", after=after)


def test_a_full_disk_is_told_once_the_game_goes_on_and_saving_resumes_when_there_is_room(
        tmp_path: Path) -> None:
    with tmpfs(tmp_path / "data" / "voicespit") as disk:
        before = old_profile_in(disk)
        filler = fill(disk)
        game = Game(tmp_path, "--seed", "2", "--pace", "0.5", child=())
        game.wait_for("to start.")
        game.type("speak faster")  # a setting changed by voice is saved at once
        game.wait_for(KEPT)
        assert game.count("I could not save your profile: the disk is full.") == 1
        play_and_stop_a_game(game)  # the stopped game is saved (and fails) too
        game.type("speak faster")
        game.wait_for("Speaking faster: 200 words a minute.")
        assert game.count(KEPT) == 1, "told once, not at every save"
        assert profile_path(tmp_path).read_bytes() == before, "the old profile, whole"
        filler.unlink()
        game.type("speak slower")
        game.wait_for("Speaking slower: 175 words a minute.")
        assert game.leave() == 0
        saved = json.loads(profile_path(tmp_path).read_text())
        assert saved["settings"] == {"rate": "175"} and saved["games"] == OLD.games
        assert only_the_profile_in(disk) == ["default.json"]
        assert game.count(KEPT) == 1
        cards = game.cards()
        assert cards["accounted_for"] and cards["errors"] == [], cards


def test_a_read_only_disk_is_told_once_and_the_old_profile_stays(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "data" / "voicespit", required=False) as disk:
        before = old_profile_in(disk)
        with read_only(disk):
            game = Game(tmp_path, "--seed", "2", "--pace", "0.5", child=())
            game.wait_for("to start.")
            assert not any("damaged" in line for line in game.lines), "the old one was read"
            play_and_stop_a_game(game)
            game.type("speak faster")
            game.wait_for("Speaking faster: 175 words a minute.")
            assert game.leave() == 0
        assert game.count(KEPT) == 1, "\n".join(game.lines)
        assert "/" not in "\n".join(game.lines), "no path is said"
        assert profile_path(tmp_path).read_bytes() == before
        cards = game.cards()
        assert cards["accounted_for"] and cards["errors"] == [], cards
