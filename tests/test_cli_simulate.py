"""`voicespit simulate` (voicespit/cli/simulate.py): engine-only and real-time runs."""

from __future__ import annotations

import json

import pytest

from voicespit.cli import main

ENGINE_KEYS = {"games", "rounds", "actions", "seconds", "errors", "winners"}
REALTIME_KEYS = {"opponent_win_rate", "human_mean_seconds_per_card",
                 "opponent_mean_seconds_per_card", "contested"}


def summary(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["simulate", *argv, "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    parsed: dict[str, object] = json.loads(lines[-1])
    return parsed


def test_without_a_human_pace_it_is_the_engine_only_run_with_its_keys_unchanged(
        capsys: pytest.CaptureFixture[str]) -> None:
    result = summary(capsys, "--games", "5", "--seed", "2")
    assert result.keys() >= ENGINE_KEYS
    assert not REALTIME_KEYS & result.keys()
    assert result["games"] == 5


@pytest.mark.parametrize("opponent", ["adaptive", "brisk", "1.5"])
def test_with_a_human_pace_it_plays_real_time_matches_and_adds_the_pace_figures(
        capsys: pytest.CaptureFixture[str], opponent: str) -> None:
    result = summary(capsys, "--games", "4", "--human-pace", "1.5", "--opponent", opponent,
                     "--target-win-rate", "0.6")
    assert result.keys() >= ENGINE_KEYS | REALTIME_KEYS
    assert result["games"] == 4 and result["errors"] == 0
    winners = result["winners"]
    assert isinstance(winners, dict) and sum(winners.values()) == 4


@pytest.mark.parametrize(("flag", "value", "message"), [
    ("--opponent", "zippy", "is not a pace"),
    ("--target-win-rate", "1.5", "between 0 and 1"),
    ("--human-pace", "0", "must be a number above 0"),
])
def test_bad_values_are_refused_in_words(capsys: pytest.CaptureFixture[str], flag: str,
                                         value: str, message: str) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", flag, value])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
