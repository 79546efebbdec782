"""The settings a player changes by voice, as the next game starts them: the volume's
levels, and a profile's choices read back even when someone edited it by hand."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from voicespit.app.build import narrator_from, speech_settings_from
from voicespit.app.preferences import VOLUME_LEVELS, volume_at, volume_level
from voicespit.audio.tts import OPPONENT_VOICE
from voicespit.cli import build_parser
from voicespit.cli.play import build_app
from voicespit.config import Settings
from voicespit.narration.announcement import Verbosity
from voicespit.profile import Profile


@pytest.mark.parametrize("level", range(1, VOLUME_LEVELS + 1))
def test_each_volume_level_is_its_own_nearest_level(level: int) -> None:
    assert volume_level(volume_at(level)) == level


def test_the_levels_are_four_decibels_apart_from_full_volume_down() -> None:
    assert volume_at(VOLUME_LEVELS) == 1.0
    assert volume_at(VOLUME_LEVELS - 1) == pytest.approx(0.631, abs=1e-3)
    assert volume_at(1) == pytest.approx(0.063, abs=1e-3)


def test_a_configured_volume_between_levels_steps_from_the_nearest() -> None:
    assert volume_level(0.5) == VOLUME_LEVELS - 2  # 6 dB down: nearer 8 than 4
    assert volume_level(0.0) == 0, "silence is below every level"
    assert volume_level(0.001) == 0


def test_the_next_game_starts_at_the_volume_and_rate_the_player_chose() -> None:
    speech = speech_settings_from(Settings(), Profile(settings={"volume": "0.3981",
                                                                "rate": "200"}))
    assert speech.volume == pytest.approx(0.3981) and speech.rate == 200


@pytest.mark.parametrize("volume", ["loud", "nan", "", "inf"])
def test_a_hand_edited_volume_that_is_not_a_number_falls_back_to_the_config(
        volume: str) -> None:
    speech = speech_settings_from(Settings(), Profile(settings={"volume": volume,
                                                                "rate": "fast"}))
    assert speech.volume == Settings().output.volume and speech.rate == Settings().output.rate


def test_a_volume_out_of_range_is_held_to_it() -> None:
    assert speech_settings_from(Settings(), Profile(settings={"volume": "7"})).volume == 1.0
    assert speech_settings_from(Settings(), Profile(settings={"volume": "-1"})).volume == 0.0


def test_the_next_game_speaks_in_the_voice_the_player_last_chose_over_the_configs() -> None:
    configured = dataclasses.replace(Settings(), output=dataclasses.replace(
        Settings().output, voice="en-us"))
    assert speech_settings_from(configured, Profile()).voice_for(None).name == "en-us"
    chosen = speech_settings_from(configured, Profile(settings={"voice": "en+m3"}))
    assert chosen.voice_for(None).name == chosen.voice_for(0).name == "en+m3"
    assert chosen.voice_for(1) == OPPONENT_VOICE
    back_to_default = speech_settings_from(configured, Profile(settings={"voice": ""}))
    assert back_to_default.voice_for(None).name is None


def test_a_flag_given_this_run_wins_over_what_the_profile_remembers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `--rate 300` means 300 now, though "speak slower" last time left 150 in the profile;
    # the profile keeps its 150 for a run without the flag.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    parser, _ = build_parser()
    app = build_app(parser.parse_args(["play", "--rate", "300", "--verbosity", "terse",
                                       "--no-audio", "--input", "keyboard"]))
    assert app.options.flagged == {"rate", "verbosity"}
    remembered = Profile(settings={"rate": "150", "verbosity": "full", "volume": "0.5"})
    speech = speech_settings_from(app.settings, remembered, app.options.flagged)
    assert speech.rate == 300 and speech.volume == 0.5, "what was not flagged is remembered"
    assert narrator_from(app.settings, remembered, "", app.options.flagged).verbosity \
        is Verbosity.TERSE
    assert speech_settings_from(app.settings, remembered).rate == 150
    assert remembered.settings["rate"] == "150"
