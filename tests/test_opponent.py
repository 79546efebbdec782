"""The computer opponent (voicespit/opponent/player.py) inside a real match on a fake clock."""

from __future__ import annotations

import random

from tests.match_helpers import Table, new_table
from voicespit.engine import actions as act
from voicespit.engine.events import CardPlayed, CardSpat, GameOver, PileSlapped, RoundOver
from voicespit.engine.state import Phase
from voicespit.match.events import (
    IntentRefused,
    PaceChanged,
    Paused,
    PlayerReady,
    Resumed,
    Stamped,
)
from voicespit.match.intents import Control, ControlIntent
from voicespit.match.referee import MatchSettings
from voicespit.opponent import FixedPace, HumanModel, Opponent, SimulatedHuman


def acts_of(player: int, log: list[Stamped]) -> list[Stamped]:
    """What `player` did (or tried): plays, slaps, "ready", refused intents."""
    return [s for s in log if isinstance(s.event, CardPlayed | PileSlapped | PlayerReady
                                         | IntentRefused) and s.event.player == player]


def table_with_opponent(seed: int | str = 1, pace: float = 1.0, spread: float = 0.35,
                        settings: MatchSettings | None = None) -> tuple[Table, Opponent]:
    table = new_table(seed=seed, settings=settings, start=False)
    opponent = Opponent(table.match, FixedPace(pace, spread=spread), random.Random(7),
                        motor_seconds=0.0)
    table.match.start()
    table.settle()
    return table, opponent


def test_the_opponent_plays_on_its_own_after_its_reaction_time() -> None:
    table, _ = table_with_opponent()
    table.clock.advance(60)
    assert [e for e in table.events(CardPlayed) if e.player == 1]


def test_the_opponent_never_acts_while_the_match_is_paused() -> None:
    seed = first_seed_where_the_opponent_can_play_at_once()
    table, opponent = table_with_opponent(seed=seed, pace=1.0, spread=0.0)
    table.clock.advance(0.5)  # half way through its reaction
    table.match.post(ControlIntent(0, Control.PAUSE))
    table.settle()
    posted = opponent.intents_posted
    paused_at = len(table.log)
    table.clock.advance(1000)
    assert acts_of(1, table.log[paused_at:]) == []
    assert opponent.intents_posted == posted
    table.match.post(ControlIntent(0, Control.RESUME))
    table.clock.advance(0.5)
    assert isinstance(table.log[paused_at].event, Resumed)
    [(at, _)] = [(s.time, s.event) for s in acts_of(1, table.log[paused_at:])]
    assert at == 1.0, "it plays on after resume with the half second it had left"
    assert table.events(Paused) == [Paused()]


def test_the_opponent_never_acts_once_the_match_is_over() -> None:
    table, opponent = table_with_opponent()
    table.clock.advance(3)
    table.match.post(ControlIntent(0, Control.QUIT))
    table.settle()
    posted, published = opponent.intents_posted, len(table.log)
    table.clock.advance(1000)
    assert opponent.intents_posted == posted and len(table.log) == published
    assert table.clock.pending == 0, "every timer of the match and its players is gone"


def test_after_game_over_nothing_is_left_to_run() -> None:
    table = new_table(seed=4, start=False)
    Opponent(table.match, FixedPace(1.0), random.Random(1))
    SimulatedHuman(table.match, HumanModel(1.0), random.Random(2))
    table.match.start()
    table.match.run_until_over()
    assert table.events(GameOver) and table.clock.pending == 0
    published = len(table.log)
    table.clock.advance(1000)
    assert len(table.log) == published


def test_every_slap_comes_one_reaction_after_its_round_ends() -> None:
    # The slap window of an earlier round must not rush the hand in a later one: it
    # is not known until the new window is heard, and until then the slap is a
    # reaction like any other, not an instant one.
    table = new_table(seed=2, start=False)
    Opponent(table.match, FixedPace(1.0, spread=0.0), random.Random(1), motor_seconds=0.0)
    SimulatedHuman(table.match, HumanModel(3.0), random.Random(2))
    table.match.start()
    table.match.run_until_over()
    ends = [at for at, _ in table.timed(RoundOver)]
    slaps = [at for at, slap in table.timed(PileSlapped) if slap.player == 1]
    assert len(slaps) >= 2
    for slap in slaps:
        round_over = max(end for end in ends if end <= slap)
        # At least its one-second reaction (more when a play was on its way).
        assert slap - round_over >= 1.0 - 1e-9


def test_faster_and_slower_change_the_pace_by_a_step_and_are_announced() -> None:
    table, opponent = table_with_opponent(pace=2.0)
    table.match.post(ControlIntent(0, Control.FASTER))
    table.match.post(ControlIntent(0, Control.SLOWER))
    table.match.post(ControlIntent(0, Control.SLOWER))
    table.settle()
    changes = table.events(PaceChanged)
    assert [round(c.seconds_per_card, 3) for c in changes] == [1.6, 2.0, 2.5]
    assert changes[0].reason == "faster on request"
    assert opponent.pace.seconds_per_card == 2.5


def first_seed_where_the_opponent_can_play_at_once() -> int:
    for seed in range(100):
        table = new_table(seed=seed)
        if table.state.phase is Phase.PLAY and table.state.legal_actions(1):
            return seed
    raise AssertionError("no such deal in 100 seeds")


def test_the_opponents_reaction_starts_when_the_announcement_has_finished() -> None:
    seed = first_seed_where_the_opponent_can_play_at_once()
    settings = MatchSettings(auto_start=True, countdown_from=0, wait_for_announcements=True)
    table, _ = table_with_opponent(seed=seed, pace=2.0, spread=0.0, settings=settings)
    table.clock.advance(5.0)
    assert acts_of(1, table.log) == [], "nothing is heard yet, so nothing to react to"
    table.match.announcement_finished(table.log[-1].sequence)
    table.clock.advance(1.99)
    assert acts_of(1, table.log) == []
    table.clock.advance(0.01)
    [(at, play)] = [(s.time, s.event) for s in acts_of(1, table.log)][:1]
    assert isinstance(play, CardPlayed) and at == 7.0


def test_a_change_nobody_reports_heard_counts_as_heard_after_the_timeout() -> None:
    seed = first_seed_where_the_opponent_can_play_at_once()
    settings = MatchSettings(auto_start=True, countdown_from=0, wait_for_announcements=True,
                             announcement_timeout_seconds=3.0)
    table, _ = table_with_opponent(seed=seed, pace=2.0, spread=0.0, settings=settings)
    table.clock.advance(4.99)
    assert acts_of(1, table.log) == []
    table.clock.advance(0.01)
    assert table.timed(CardPlayed)[0][0] == 5.0


def test_an_answer_still_waiting_to_be_heard_is_waited_for_not_given_up_on() -> None:
    # At a round's end the news can take longer to say than the player's answer
    # timeout; giving up then means acting again on a table that is out of date.
    seed = first_seed_where_the_opponent_can_play_at_once()
    settings = MatchSettings(auto_start=True, countdown_from=0, wait_for_announcements=True,
                             announcement_timeout_seconds=100.0)
    table, opponent = table_with_opponent(seed=seed, pace=1.0, spread=0.0, settings=settings)
    table.match.announcement_finished(table.log[-1].sequence)
    table.clock.advance(1.0)
    assert opponent.intents_posted == 1 and table.timed(CardPlayed)[-1][0] == 1.0
    table.clock.advance(3 * opponent.answer_timeout)
    assert opponent.intents_posted == 1, "its play is published but not yet heard"
    table.match.announcement_finished(table.log[-1].sequence)
    table.clock.advance(60)
    assert opponent.intents_posted > 1, "heard: it plays on"
    assert not [r for r in table.events(IntentRefused) if r.player == 1]


def test_the_opponent_is_refused_too_late_when_the_human_lands_first() -> None:
    settings = MatchSettings(auto_start=True, countdown_from=0)
    table = new_table(seed=3, settings=settings, start=False)
    Opponent(table.match, FixedPace(1.0), random.Random(3), motor_seconds=0.5)
    SimulatedHuman(table.match, HumanModel(1.0, command_seconds=0.0), random.Random(4))
    table.match.start()
    table.match.run_until_over()
    too_late = [r for r in table.events(IntentRefused) if r.too_late and r.player == 1]
    assert too_late, "a hand on its way for half a second sometimes loses the race"
    assert all(r.reason.startswith("too late") for r in too_late)


def test_with_auto_spit_off_the_opponent_says_spit_once_and_waits_for_the_player() -> None:
    table, _ = table_with_opponent(seed=2, pace=1.0, spread=0.0, settings=MatchSettings(
        auto_start=True, countdown_from=0, auto_spit=False))
    table.play_until(lambda state: state.phase is Phase.STALEMATE)
    stalled = len(table.log)
    table.clock.advance(120)
    said = acts_of(1, table.log[stalled:])
    assert [s.event for s in said] == [PlayerReady(1)], "ready once; no second spit to refuse"
    spat = len(table.events(CardSpat))
    table.post(0, act.SPIT)
    table.clock.advance(0.5)
    assert len(table.events(CardSpat)) > spat, "the player's spit turns the cards at once"
