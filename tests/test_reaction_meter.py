"""Seconds per card (voicespit/match/reaction_meter.py): from playable, as heard, to played."""

from __future__ import annotations

import pytest

from tests.match_helpers import Table, new_table
from voicespit.engine.actions import Play
from voicespit.engine.state import Phase
from voicespit.match.reaction_meter import ReactionMeter, playable_cards
from voicespit.match.referee import MatchSettings


def plays(table: Table, player: int) -> list[Play]:
    return [a for a in table.state.legal_actions(player) if isinstance(a, Play)]


def two_plays_seed() -> int:
    """A deal where seat 0 can play one card and then another as soon as the round starts."""
    for seed in range(500):
        table = new_table(seed=seed)
        if table.state.phase is not Phase.PLAY or len(playable_cards(table.state, 0)) < 2:
            continue
        first = plays(table, 0)[0]
        after = table.state.clone()
        after.apply(0, first)
        if after.phase is Phase.PLAY and any(
                isinstance(a, Play) and a.stock != first.stock for a in after.legal_actions(0)):
            return seed
    raise AssertionError("no such deal")


def test_a_play_is_timed_from_the_card_becoming_playable_and_one_hand_at_a_time() -> None:
    table = new_table(seed=two_plays_seed(), start=False)
    meter = ReactionMeter(table.match)
    table.match.start()
    table.settle()
    table.clock.advance(2.0)
    first = plays(table, 0)[0]
    table.post(0, first)
    table.settle()
    assert [s.seconds for s in meter.samples[0]] == [2.0]
    table.clock.advance(0.75)
    remaining = [p for p in plays(table, 0) if p.stock != first.stock]
    table.post(0, remaining[0])
    table.settle()
    assert [s.seconds for s in meter.samples[0]] == [2.0, 0.75], \
        "the second card waited for the hand, not since the round began"
    assert meter.mean(0) == pytest.approx(1.375) and meter.mean(1) is None


def test_when_waiting_for_announcements_the_time_starts_once_it_is_heard() -> None:
    settings = MatchSettings(auto_start=True, countdown_from=0, wait_for_announcements=True)
    table = new_table(seed=two_plays_seed(), settings=settings, start=False)
    meter = ReactionMeter(table.match)
    table.match.start()
    table.settle()
    table.clock.advance(1.0)
    table.match.announcement_finished(table.log[-1].sequence)
    table.clock.advance(1.5)
    table.post(0, plays(table, 0)[0])
    table.settle()
    table.match.announcement_finished(table.log[-1].sequence)
    table.settle()
    assert [s.seconds for s in meter.samples[0]] == [1.5]
