"""Settings: documented defaults, the player's file over them, flags over both,
and a clear refusal of anything that cannot be used."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path

import pytest

from voicespit.app.build import rules_for_game
from voicespit.config import DEFAULT_FILE, ConfigError, Settings, load_settings
from voicespit.engine import Rules


def test_the_default_file_documents_every_setting_with_a_comment() -> None:
    text = DEFAULT_FILE.read_text()
    lines = text.splitlines()
    for section in dataclasses.fields(Settings):
        assert f"[{section.name}]" in lines, f"[{section.name}] missing from {DEFAULT_FILE}"
        for setting in dataclasses.fields(getattr(Settings(), section.name)):
            if setting.name == "variants":
                continue
            index = next((i for i, line in enumerate(lines)
                          if re.match(rf"{setting.name} = ", line)), None)
            assert index is not None, f"{section.name}.{setting.name} is not in {DEFAULT_FILE}"
            assert lines[index - 1].startswith("#"), f"{setting.name} has no comment above it"


def test_the_default_file_holds_the_same_values_as_the_code() -> None:
    from_file = load_settings()
    built_in = Settings()
    assert dataclasses.replace(from_file.game, variants={}) == built_in.game
    assert (from_file.opponent, from_file.input, from_file.output, from_file.play) == (
        built_in.opponent, built_in.input, built_in.output, built_in.play)
    rules = Rules.for_game("spit")
    for key, value in from_file.game.variants.items():
        assert str(getattr(rules, key)).lower() == value, f"variant {key} default differs"


def test_the_players_file_overrides_the_defaults_and_flags_override_both(tmp_path: Path) -> None:
    user = tmp_path / "config.toml"
    user.write_text('[output]\nrate = 220\nverbosity = "terse"\n[game.variants]\nstockpiles = 4\n')
    settings = load_settings(user, {"output": {"verbosity": "full"}})
    assert settings.output.rate == 220
    assert settings.output.verbosity == "full"
    assert settings.game.variants["stockpiles"] == "4"
    assert settings.game.variants["slap"] == "true", "untouched variants keep their defaults"


def test_a_game_asked_for_by_voice_keeps_the_variants_that_apply_to_it(tmp_path: Path) -> None:
    # "play speed" in a session started as Spit: the file's Speed variants apply,
    # the Spit-only ones (and flags) are left out rather than stopping the game.
    user = tmp_path / "config.toml"
    user.write_text("[game.variants]\nstockpiles = 4\nside_pile_size = 5\n"
                    "alternating_colours = true\n")
    settings = load_settings(user)
    flags = ["auto_fill=false", "scoring=points"]
    speed = rules_for_game(settings, flags, "speed")
    assert (speed.game, speed.side_pile_size, speed.alternating_colours, speed.scoring) == (
        "speed", 5, True, "points")
    spit = rules_for_game(settings, flags, "spit")
    assert (spit.game, spit.stockpiles, spit.auto_fill, spit.alternating_colours) == (
        "spit", 4, False, True)


@pytest.mark.parametrize(("content", "message"), [
    ('[output]\nrate = "fast"\n',
     r"\[output\] rate = 'fast' is not allowed; use a whole number from 80 to 450"),
    ("[output]\nrate = 20\n", r"rate = 20 is not allowed; use a whole number from 80 to 450"),
    ('[output]\nverbosity = "chatty"\n', r"verbosity = 'chatty' is not allowed; choose full, normal, terse"),
    ("[output]\naudio = 3\n", r"audio = 3 is not allowed; use true or false"),
    ("[output]\nvolume = nan\n", r"volume = nan is not allowed"),
    ("[output]\nspeed = 3\n", r"unknown setting \[output\] speed; known settings: audio, voice"),
    ("[sound]\nrate = 3\n", r"unknown section \[sound\]"),
    ("[output\nrate = 3\n", r"not valid TOML"),
    ("[game]\nvariants = 4\n", r"must be a table"),
])
def test_a_bad_value_names_the_file_the_key_the_value_and_what_is_allowed(
        tmp_path: Path, content: str, message: str) -> None:
    user = tmp_path / "mine.toml"
    user.write_text(content)
    with pytest.raises(ConfigError, match=message) as caught:
        load_settings(user)
    assert str(user) in str(caught.value)


@pytest.mark.parametrize(("written", "meant"), [
    ('"off"', False), ('"No"', False), ('"0"', False), ("false", False),
    ('"on"', True), ('"YES"', True), ('"1"', True), ("true", True)])
def test_a_yes_or_no_setting_may_be_written_as_a_word(
        tmp_path: Path, written: str, meant: bool) -> None:
    # bool("off") is True: each word must be read as what it says, not as a non-empty string.
    user = tmp_path / "mine.toml"
    user.write_text(f"[output]\naudio = {written}\n")
    assert load_settings(user).output.audio is meant


def test_a_yes_or_no_setting_written_as_another_word_is_refused(tmp_path: Path) -> None:
    user = tmp_path / "mine.toml"
    user.write_text('[output]\naudio = "maybe"\n')
    with pytest.raises(ConfigError, match="audio = 'maybe' is not allowed; use true or false"):
        load_settings(user)


def test_a_missing_config_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such config file"):
        load_settings(tmp_path / "absent.toml")


def test_a_file_that_is_not_text_is_a_clear_error_not_a_traceback(tmp_path: Path) -> None:
    # A file saved as UTF-16 by another editor, or a binary file by mistake.
    user = tmp_path / "mine.toml"
    user.write_bytes("[output]\nrate = 200\n".encode("utf-16"))
    with pytest.raises(ConfigError, match="not a text file in UTF-8") as caught:
        load_settings(user)
    assert str(user) in str(caught.value)
    assert "codec" not in str(caught.value) and "0xff" not in str(caught.value)


def test_validators_from_higher_layers_run_on_the_final_settings(tmp_path: Path) -> None:
    def no_spit_please(origin: str, settings: Settings) -> None:
        if settings.game.game == "spit":
            raise ConfigError(f"{origin or 'settings'}: spit is disabled here")

    with pytest.raises(ConfigError, match="spit is disabled"):
        load_settings(validators=(no_spit_please,))
    assert load_settings(overrides={"game": {"game": "speed"}},
                         validators=(no_spit_please,)).game.game == "speed"


def test_the_default_file_is_valid_toml_with_only_known_sections() -> None:
    table = tomllib.loads(DEFAULT_FILE.read_text())
    assert set(table) == {f.name for f in dataclasses.fields(Settings)}


def test_the_config_and_the_readme_agree_on_push_to_talk() -> None:
    readme = (DEFAULT_FILE.parent.parent / "README.md").read_text()
    config = DEFAULT_FILE.read_text()
    listen = config.split("[input]", 1)[1].split("listen =", 1)[0].rsplit("# When the game", 1)[1]
    assert "no hold-to-talk" in readme and "press the talk key" in readme
    assert "hold the talk key" not in listen and "press the talk key" in listen, listen
    assert "no holding it down to talk" in listen
