"""The settings file changed, broken or removed while the game runs: nothing breaks.

Settings are read once, at launch, and checked then; what the player changes in
play goes to the profile, never to the settings file. So a file edited mid-game
(even into nonsense) changes nothing in the game that is on; the next launch
reads it, and a broken one is refused there, naming the file.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.game_process import Game, profile_path

SETTINGS = '[output]\nrate = 200\n\n[opponent]\npace = "0.5"\n'


def test_a_settings_file_changed_broken_and_removed_mid_game_changes_nothing_in_play(
        tmp_path: Path) -> None:
    config = tmp_path / "config" / "voicespit" / "config.toml"  # where the game looks
    config.parent.mkdir(parents=True)
    config.write_text(SETTINGS)
    game = Game(tmp_path, "--seed", "2", child=())
    game.wait_for("to start.")
    game.type("new game")
    game.wait_for("at 0.5 seconds a card")
    game.type("ready")
    after = game.wait_for("Spit!")
    config.write_text("[output\nrate = = fast\n")  # half-saved by an editor: not TOML
    for key in "16273":
        game.type(key)
    game.type("speak faster")
    game.wait_for("Speaking faster: 225 words a minute.", after=after)
    config.write_text('[output]\nrate = 100\nverbosity = "terse"\n')
    game.type("speak faster")
    game.wait_for("Speaking faster: 250 words a minute.", after=after)
    config.unlink()
    game.type("how many cards")
    game.wait_for("Cards left: you", after=after)
    game.type("quit")
    game.wait_for("Quit this game?", after=after)
    game.type("yes")
    game.wait_for("Game stopped.", after=after)
    assert game.leave() == 0, "\n".join(game.errors[-10:])
    assert not config.exists(), "the game never writes the settings file"
    assert json.loads(profile_path(tmp_path).read_text())["settings"] == {"rate": "250"}
    cards = game.cards()
    assert cards["accounted_for"] and cards["errors"] == [], cards
    assert not any("Traceback" in line for line in game.errors)


def test_the_next_launch_reads_the_changed_file_and_refuses_a_broken_one_by_name(
        tmp_path: Path) -> None:
    config = tmp_path / "config" / "voicespit" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[output\nrate = = fast\n")
    game = Game(tmp_path)
    assert game.leave() == 2
    assert game.errors[-1].startswith(f"voicespit: {config}"), game.errors
    config.write_text('[opponent]\npace = "brisk"\n')
    game = Game(tmp_path)
    game.wait_for("to start.")
    game.type("new game")
    game.wait_for("against the computer at brisk pace.")
    assert game.leave() == 0
