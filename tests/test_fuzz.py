"""The fuzzing benchmark (benchmarks/fuzz.py): a small run in CI, and proof it catches bugs.

The full run (100,000 matches) is a benchmark; here a few hundred matches cover
every configuration in seconds, and engines broken on purpose must be caught.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable

import pytest

from benchmarks.fuzz import Chunk, replay_flags
from benchmarks.fuzz_match import match_rng, play_engine_match
from voicespit.engine import IllegalActionError, Rules, SpitState
from voicespit.engine.events import Event
from voicespit.engine.invariants import InvariantError


def test_a_small_run_covers_every_configuration_with_no_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.fuzz", "--matches", "240", "--workers", "2",
         "--check-every", "40", "--referee-every", "20", "--json"],
        capture_output=True, text=True, check=True, timeout=600)
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["errors"] == 0, summary["first_errors"]
    assert summary["matches"] == 240 and summary["configurations"] == 80
    assert summary["checked_matches"] >= 5 and summary["referee_matches"] >= 10
    assert summary["refusals"] > 0 and summary["seconds"] > 0


def test_an_errors_replay_flags_play_the_match_the_way_the_run_did() -> None:
    # A run's error names flags to play its match again; the run's --referee-every
    # decides whether that match went through the referee, so the flags must carry it
    # (a referee match's error once replayed through the engine alone, and passed).
    run = Chunk(41, 0, 6, 3, 40, 20)
    for number in range(6):
        flags = replay_flags(run, number).split()
        assert flags[:2] == ["--replay", f"41:{number}"]
        values = dict(zip(flags[2::2], (int(value) for value in flags[3::2]), strict=True))
        again = Chunk(41, number, 1, values["--seed"], values["--check-every"],
                      values["--referee-every"])
        assert again.is_refereed(number) == run.is_refereed(number)
        assert again.is_checked(number) == run.is_checked(number)
    assert any(run.is_refereed(number) for number in range(6))


def fuzz_spit(variants: list[str], matches: int = 30) -> None:
    rules = Rules.for_game("spit", variants)
    for number in range(matches):
        play_engine_match(rules, match_rng(1, 0, number), ("adversarial", "adversarial"))


def test_it_catches_a_card_that_goes_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    play = SpitState._play

    def losing_play(self: SpitState, player: int, slot: int, pile: int) -> list[Event]:
        events = play(self, player, slot, pile)
        if len(self.piles[pile]) > 3:
            del self.piles[pile][0]
        return events
    monkeypatch.setattr(SpitState, "_play", losing_play)
    with pytest.raises(InvariantError, match="cards missing"):
        fuzz_spit([])


def test_it_catches_a_refusal_that_changes_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    check_slot: Callable[..., object] = SpitState._check_slot

    def careless(self: SpitState, player: int, slot: int) -> object:
        try:
            return check_slot(self, player, slot)
        except IllegalActionError:
            self.face_up[player].reverse()
            raise
    monkeypatch.setattr(SpitState, "_check_slot", careless)
    with pytest.raises(InvariantError, match="changed the state"):
        fuzz_spit([])


def test_it_catches_a_points_match_that_ends_below_the_target(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 13's first finding: the match ended when a player ran out of cards.
    def the_old_rule(self: SpitState, player: int, events: list[Event]) -> None:
        self._finish(player, f"P{player} got rid of every card", events, None)
    monkeypatch.setattr(SpitState, "_out_of_cards", the_old_rule)
    with pytest.raises(InvariantError, match="below 100"):
        fuzz_spit(["scoring=points"])
