"""The real-time referee (voicespit/match/referee.py): one writer, ordered intents, the round flow."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from tests.match_helpers import Table, new_table
from voicespit.engine import actions as act
from voicespit.engine.actions import LEFT, RIGHT, Action, Play
from voicespit.engine.cards import with_article
from voicespit.engine.events import (
    CardPlayed,
    CardSpat,
    LayoutDealt,
    PileSlapped,
    PileTaken,
    RoundOver,
    RoundStarted,
    Stalemate,
)
from voicespit.engine.spit import SpitState
from voicespit.engine.state import IllegalActionError, Phase
from voicespit.match.events import (
    IntentRefused,
    MatchQuit,
    Paused,
    PlayerReady,
    Resumed,
    SlapWindowOpened,
    SpitCountdown,
    Stamped,
)
from voicespit.match.hearing import Perception
from voicespit.match.intents import ActionIntent, Control, ControlIntent, State
from voicespit.match.referee import MatchSettings, MatchStuckError
from voicespit.match.refusals import is_beaten_to_a_pile


def plays_onto(state: State, player: int, pile: int) -> list[Play]:
    return [a for a in state.legal_actions(player) if isinstance(a, Play) and a.pile == pile]


def shared_pile(state: State) -> int | None:
    """A pile both players can play on now, if any."""
    if state.phase is not Phase.PLAY:
        return None
    return next((pile for pile in (LEFT, RIGHT)
                 if plays_onto(state, 0, pile) and plays_onto(state, 1, pile)), None)


def test_every_event_is_stamped_with_a_gapless_sequence_and_the_match_time() -> None:
    table = new_table()
    assert [type(s.event) for s in table.log[:2]] == [LayoutDealt, LayoutDealt]
    assert isinstance(table.log[2].event, RoundStarted)
    assert [s.sequence for s in table.log] == list(range(1, len(table.log) + 1))
    table.clock.advance(2.5)
    table.play_until(lambda state: len(table.events(CardPlayed)) >= 1)
    assert table.timed(CardPlayed)[0][0] == 2.5


@pytest.mark.parametrize("first", [0, 1])
def test_two_plays_racing_for_one_pile_one_lands_and_the_other_is_refused_too_late(
        first: int) -> None:
    table = new_table(seed=3)
    table.play_until(lambda state: shared_pile(state) is not None)
    pile = shared_pile(table.state)
    assert pile is not None
    second = 1 - first
    played_before = len(table.events(CardPlayed))
    table.post(first, plays_onto(table.state, first, pile)[0])
    table.post(second, plays_onto(table.state, second, pile)[0])
    table.settle()
    landed = table.events(CardPlayed)[played_before:]
    assert [(event.player, event.pile) for event in landed] == [(first, pile)]
    refused = table.events(IntentRefused)
    assert len(refused) == 1 and refused[0].player == second and refused[0].too_late
    now_showing = with_article(landed[0].card.rank)
    side = ("left", "right")[pile]
    assert refused[0].reason == f"too late: {side} is now {now_showing}"
    assert is_beaten_to_a_pile(refused[0])


def test_a_play_that_lands_after_the_round_ended_is_too_late_for_that_reason() -> None:
    def one_card_from_going_out(state: State) -> bool:
        return isinstance(state, SpitState) and state.phase is Phase.PLAY and any(
            state.stock_cards(player) == 1 and bool(state.spit_cards[player])
            and plays_onto(state, player, pile)
            and plays_onto(state, 1 - player, 1 - pile)
            for player in (0, 1) for pile in (LEFT, RIGHT))

    table = new_table(seed=3)
    table.play_until(one_card_from_going_out)
    state = table.state
    assert isinstance(state, SpitState)
    out, last = next((player, action) for player in (0, 1)
                     if state.stock_cards(player) == 1 and state.spit_cards[player]
                     for action in state.legal_actions(player)
                     if isinstance(action, Play) and plays_onto(state, 1 - player, 1 - action.pile))
    # The rival's card goes for the other pile: not beaten to it, just too late for play.
    rival = next(a for a in state.legal_actions(1 - out)
                 if isinstance(a, Play) and a.pile != last.pile)
    table.post(out, last)
    table.post(1 - out, rival)
    table.settle()
    [refusal] = table.events(IntentRefused)
    assert refusal.player == 1 - out and refusal.too_late
    # Said once, plainly: "Slap now!" follows on its own.
    assert refusal.reason == "too late: the round is over"


def test_a_move_that_was_never_legal_is_refused_with_the_rule_it_breaks() -> None:
    table = new_table(seed=3)
    state = table.state
    assert isinstance(state, SpitState)
    illegal = next(action for slot in range(5) for action in act.PLAYS[slot]
                   if action not in state.legal_actions(0))
    table.post(0, illegal)
    table.settle()
    [refusal] = table.events(IntentRefused)
    assert not refusal.too_late and refusal.action == illegal
    assert "cannot go there" in refusal.reason or "empty" in refusal.reason


def resolve_onto(pile: int) -> Callable[[State], Action]:
    def resolver(state: State) -> Action:
        plays = plays_onto(state, 0, pile)
        if not plays:
            raise IllegalActionError(f"nothing of yours fits {('left', 'right')[pile]}")
        return plays[0]
    return resolver


def test_a_resolver_is_run_against_the_table_as_it_is_when_the_command_lands() -> None:
    table = new_table(seed=3)
    table.play_until(lambda state: shared_pile(state) is not None)
    pile = shared_pile(table.state)
    assert pile is not None
    tops_seen: list[object] = []

    def resolver(state: State) -> Action:
        tops_seen.append(state.pile_top(pile))
        raise IllegalActionError("only looking")
    table.post(1, plays_onto(table.state, 1, pile)[0])   # lands first and changes the pile
    table.match.post(ActionIntent(0, resolver=resolver))
    table.settle()
    opponents_card = table.events(CardPlayed)[-1]
    assert opponents_card.player == 1 and opponents_card.pile == pile
    assert tops_seen[0] is opponents_card.card


def beaten_by_the_opponent(state: State) -> bool:
    """Both can play on one pile, and once the opponent has, seat 0 cannot play there."""
    pile = shared_pile(state)
    if pile is None:
        return False
    after = state.clone()
    after.apply(1, plays_onto(state, 1, pile)[0])
    return after.phase is Phase.PLAY and not plays_onto(after, 0, pile)


def test_a_command_that_finds_nothing_because_it_was_beaten_is_refused_too_late() -> None:
    table = new_table(seed=3)
    table.play_until(beaten_by_the_opponent)
    pile = shared_pile(table.state)
    assert pile is not None
    table.post(1, plays_onto(table.state, 1, pile)[0])
    table.match.post(ActionIntent(0, resolver=resolve_onto(pile)))
    table.settle()
    [refusal] = table.events(IntentRefused)
    assert refusal.player == 0 and refusal.too_late
    assert refusal.reason.startswith(f"too late: {('left', 'right')[pile]} is now")


def spoils_your_own(state: State) -> tuple[Action, Action] | None:
    """Two plays of player 0's where the first makes the second fit no more (a pile of
    six, a five and a seven in hand), if there are any."""
    if state.phase is not Phase.PLAY:
        return None
    for pile in (LEFT, RIGHT):
        for first in plays_onto(state, 0, pile):
            after = state.clone()
            after.apply(0, first)
            for second in plays_onto(state, 0, pile):
                if second != first and second not in after.legal_actions(0):
                    return first, second
    return None


@pytest.mark.parametrize("resolved", [False, True])
def test_a_move_your_own_last_move_spoiled_is_not_too_late(resolved: bool) -> None:
    # The player knows their own move the moment they make it, heard or not: the
    # other card stopped fitting because of them, not because anyone got there first.
    table = new_table(seed=3)
    table.play_until(lambda state: spoils_your_own(state) is not None)
    pair = spoils_your_own(table.state)
    assert pair is not None
    first, second = pair
    heard_through = table.log[-1].sequence  # nothing of what follows has been heard
    table.post(0, first)
    table.match.post(ActionIntent(0, resolver=lambda state: second, based_on=heard_through)
                     if resolved else ActionIntent(0, second, based_on=heard_through))
    table.settle()
    [refusal] = table.events(IntentRefused)
    assert refusal.player == 0 and not refusal.too_late, refusal.reason
    assert not refusal.reason.startswith("too late")


def test_a_pile_the_opponent_took_after_your_own_move_elsewhere_is_still_too_late() -> None:
    def raced_after_yours(state: State) -> tuple[Play, Play, Play] | None:
        """A play of yours on one pile, then the opponent's on the other spoiling a
        second play of yours there."""
        pile = shared_pile(state)
        if pile is None:
            return None
        for elsewhere in plays_onto(state, 0, 1 - pile):
            for theirs in plays_onto(state, 1, pile):
                after = state.clone()
                after.apply(0, elsewhere)
                after.apply(1, theirs)
                for yours in plays_onto(state, 0, pile):
                    if yours not in after.legal_actions(0) and yours.stock != elsewhere.stock:
                        return elsewhere, theirs, yours
        return None

    table = new_table(seed=3)
    table.play_until(lambda state: raced_after_yours(state) is not None)
    moves = raced_after_yours(table.state)
    assert moves is not None
    elsewhere, theirs, yours = moves
    heard_through = table.log[-1].sequence
    table.post(0, elsewhere)
    table.post(1, theirs)
    table.match.post(ActionIntent(0, yours, based_on=heard_through))
    table.settle()
    [refusal] = table.events(IntentRefused)
    assert refusal.player == 0 and refusal.too_late
    assert is_beaten_to_a_pile(refusal), refusal.reason


def test_a_resolver_that_raises_is_refused_with_its_message() -> None:
    table = new_table(seed=3)

    def resolver(state: State) -> Action:
        raise IllegalActionError("there is no eleven in a deck")
    table.match.post(ActionIntent(0, resolver=resolver))
    table.settle()
    [refusal] = table.events(IntentRefused)
    assert refusal.reason == "there is no eleven in a deck" and not refusal.too_late
    assert table.match.errors == []


def reach_round_over(seed: int = 5, slap: bool = True, wait: bool = False) -> Table:
    variants = () if slap else ("slap=false",)
    table = new_table(seed=seed, variants=variants,
                      settings=MatchSettings(auto_start=True, countdown_from=0,
                                             slap_window_seconds=4.0,
                                             wait_for_announcements=wait,
                                             announcement_timeout_seconds=60.0))
    table.play_until(lambda state: state.phase is Phase.ROUND_OVER)
    return table


@pytest.mark.parametrize(("first", "first_pile", "second_pile"), [
    (0, LEFT, LEFT), (1, LEFT, LEFT), (0, LEFT, RIGHT), (1, RIGHT, LEFT)])
def test_the_first_slap_settles_both_piles_and_a_later_one_is_too_late(
        first: int, first_pile: int, second_pile: int) -> None:
    table = reach_round_over()
    sizes = [len(pile) for pile in table.state.piles]
    second = 1 - first
    table.clock.advance(0.5)
    table.post(first, act.SLAPS[first_pile])
    table.post(second, act.SLAPS[second_pile])
    table.settle()
    assert [(e.player, e.pile) for e in table.events(PileSlapped)] == [(first, first_pile)]
    taken = {event.player: (event.pile, event.cards) for event in table.events(PileTaken)}
    assert taken[first] == (first_pile, sizes[first_pile])
    assert taken[second] == (1 - first_pile, sizes[1 - first_pile])
    [refusal] = table.events(IntentRefused)
    assert refusal.player == second and refusal.too_late
    assert refusal.reason.startswith("too late: your opponent slapped")
    assert len(table.events(LayoutDealt)) == 4, "both dealt a new layout"


def test_when_nobody_slaps_the_computers_hand_lands_on_the_smaller_pile_at_the_bell() -> None:
    table = reach_round_over()
    [window] = table.events(SlapWindowOpened)
    sizes = [len(pile) for pile in table.state.piles]
    table.clock.advance(3.9)
    assert table.events(PileSlapped) == []
    table.clock.advance(0.2)
    [slap] = table.events(PileSlapped)
    assert slap.player == 1 and window.closes_at == pytest.approx(table.clock.now() - 0.1)
    if sizes[0] == sizes[1]:
        assert window.smaller_pile is None and slap.pile == RIGHT, "its own side on a tie"
    else:
        assert slap.pile == window.smaller_pile == sizes.index(min(sizes))


def test_awaiting_announcements_the_slap_race_starts_once_the_round_end_is_heard() -> None:
    # Otherwise the bell runs down while "Round over" is still being said, and the
    # slap cue lands on top of the last card's and the round's.
    table = reach_round_over(wait=True)
    ended_at, round_over = table.clock.now(), table.log[-1]
    assert isinstance(round_over.event, RoundOver)
    table.clock.advance(10.0)
    assert table.log[-1] is round_over and table.events(PileSlapped) == []
    table.match.announcement_finished(round_over.sequence)
    table.settle()
    [window] = table.events(SlapWindowOpened)
    assert window.closes_at == ended_at + 10.0 + 4.0
    table.clock.advance(4.0)
    assert [slap.player for slap in table.events(PileSlapped)] == [1]


def test_a_round_starts_only_after_both_are_ready_and_a_three_two_one_countdown() -> None:
    table = new_table(settings=MatchSettings(auto_start=False))
    table.clock.advance(30)
    assert table.events(SpitCountdown) == [] and table.events(RoundStarted) == []
    table.match.post(ControlIntent(0, Control.READY))
    table.settle()
    assert table.events(PlayerReady) == [PlayerReady(0)] and table.events(SpitCountdown) == []
    table.post(1, act.SPIT)  # saying "spit" is being ready too
    table.settle()
    table.post(0, act.PLAYS[0][LEFT])   # too early
    table.clock.advance(2.5)
    counts = table.timed(SpitCountdown)
    assert [(count.seconds_left, at) for at, count in counts] == [(3, 30.0), (2, 31.0), (1, 32.0)]
    assert table.events(RoundStarted) == []
    refusal = table.events(IntentRefused)[0]
    assert refusal.reason == "wait for the spit: the countdown is on"
    table.clock.advance(0.5)
    assert [at for at, _ in table.timed(RoundStarted)] == [33.0]
    assert len(table.events(CardSpat)) == 2


def test_a_spoken_play_during_the_countdown_is_told_to_wait_for_the_spit() -> None:
    # Resolved against a table with no piles yet, "eight on right" would be told
    # "the round has not started: say ready first", though the spit is one second away.
    table = new_table(settings=MatchSettings(auto_start=True, countdown_from=3))
    table.clock.advance(1.5)
    assert table.events(SpitCountdown) and table.events(RoundStarted) == []
    table.match.post(ActionIntent(0, resolver=resolve_onto(RIGHT), said="eight on right"))
    table.settle()
    [refusal] = table.events(IntentRefused)
    assert refusal.reason == "wait for the spit: the countdown is on"
    assert refusal.said == "eight on right"


@pytest.mark.parametrize("spoken", [False, True])
def test_a_play_after_saying_ready_is_told_to_wait_for_the_opponent(spoken: bool) -> None:
    # The player has said ready: "the round has not started: say ready first" would
    # tell them to do what they have done.
    table = new_table(settings=MatchSettings(auto_start=False))
    table.match.post(ControlIntent(0, Control.READY))
    table.settle()
    if spoken:
        table.match.post(ActionIntent(0, resolver=resolve_onto(RIGHT), said="eight on right"))
    else:
        table.post(0, act.PLAYS[0][LEFT])
    table.settle()
    [refusal] = table.events(IntentRefused)
    assert refusal.reason == "you are ready: waiting for your opponent"
    table.post(1, act.PLAYS[0][LEFT])  # the opponent, not ready, is told to spit
    table.settle()
    assert table.events(IntentRefused)[-1].reason == "the round has not started: say ready first"


def test_at_a_stalemate_the_match_counts_down_and_spits_by_itself() -> None:
    table = new_table(seed=2, settings=MatchSettings(auto_start=True, countdown_from=3))
    table.play_until(lambda state: state.phase is Phase.STALEMATE)
    stalled_at = table.clock.now()
    spat_before = len(table.events(CardSpat))
    table.clock.advance(2.9)
    assert [c.seconds_left for c in table.events(SpitCountdown)][-3:] == [3, 2, 1]
    assert len(table.events(CardSpat)) == spat_before
    table.clock.advance(0.1)
    assert len(table.events(CardSpat)) > spat_before
    assert table.timed(CardSpat)[-1][0] == stalled_at + 3.0


def test_awaiting_announcements_the_stalemate_countdown_starts_once_it_is_heard() -> None:
    # Otherwise "Three." cuts off "Nobody can play." and the play that caused it.
    settings = MatchSettings(auto_start=True, countdown_from=3, wait_for_announcements=True)
    table = new_table(seed=2, settings=settings)
    table.play_until(lambda state: state.phase is Phase.STALEMATE)
    stalled_at = table.clock.now()
    stalemate = table.log[-1]
    assert isinstance(stalemate.event, Stalemate)
    table.clock.advance(2.0)
    assert table.log[-1] is stalemate, "nobody has heard yet that nobody can play"
    table.match.announcement_finished(stalemate.sequence)
    table.settle()
    assert table.log[-1].event == SpitCountdown(3)
    assert table.log[-1].time == stalled_at + 2.0


def test_with_auto_spit_off_a_stalemate_waits_for_both_players_to_say_spit() -> None:
    table = new_table(seed=2, settings=MatchSettings(auto_start=True, countdown_from=0,
                                                     auto_spit=False))
    table.play_until(lambda state: state.phase is Phase.STALEMATE)
    spat = len(table.events(CardSpat))
    table.clock.advance(60)
    table.post(0, act.SPIT)
    table.settle()
    assert table.state.phase is Phase.STALEMATE and len(table.events(CardSpat)) == spat
    assert table.events(PlayerReady)[-1] == PlayerReady(0)
    table.post(1, act.SPIT)
    table.settle()
    assert len(table.events(CardSpat)) > spat, "both said spit: the cards turn"


def test_pause_freezes_the_countdown_and_resume_goes_on_with_the_time_it_had_left() -> None:
    table = new_table(settings=MatchSettings(auto_start=True, countdown_from=3), start=False)
    table.match.start()
    table.settle()
    table.clock.advance(0.5)
    table.match.post(ControlIntent(0, Control.PAUSE))
    table.clock.advance(100)
    assert [c.seconds_left for c in table.events(SpitCountdown)] == [3]
    table.post(0, act.SPIT)
    table.settle()
    assert table.events(IntentRefused)[-1].reason.startswith("the game is paused")
    table.match.post(ControlIntent(0, Control.RESUME))
    table.clock.advance(0.49)
    assert [c.seconds_left for c in table.events(SpitCountdown)] == [3]
    table.clock.advance(0.01)
    counts = table.timed(SpitCountdown)
    assert [count.seconds_left for _, count in counts] == [3, 2]
    assert counts[1][0] == pytest.approx(1.0), "match time leaves the pause out"
    assert [type(s.event) for s in table.log if isinstance(s.event, Paused | Resumed)] == \
        [Paused, Resumed]


def test_pause_freezes_the_slap_window() -> None:
    table = reach_round_over()
    table.match.post(ControlIntent(0, Control.PAUSE))
    table.clock.advance(1000)
    assert table.events(PileSlapped) == []
    table.match.post(ControlIntent(0, Control.RESUME))
    table.clock.advance(4.0)
    assert len(table.events(PileSlapped)) == 1


def test_a_stalemate_heard_during_a_pause_counts_down_only_after_the_resume() -> None:
    # "Nobody can play." was still being said when the player asked to quit: a
    # countdown started then would say "Three." over "Quit this game?".
    settings = MatchSettings(auto_start=True, countdown_from=3, wait_for_announcements=True)
    table = new_table(seed=2, settings=settings)
    table.play_until(lambda state: state.phase is Phase.STALEMATE)
    stalemate = table.log[-1]
    assert isinstance(stalemate.event, Stalemate)
    table.match.post(ControlIntent(0, Control.PAUSE))
    table.settle()
    table.match.announcement_finished(stalemate.sequence)
    table.clock.advance(100)
    assert isinstance(table.log[-1].event, Paused), "nothing is said after the pause"
    table.match.post(ControlIntent(0, Control.RESUME))
    table.settle()
    assert [type(s.event) for s in table.log[-2:]] == [Resumed, SpitCountdown]
    resumed_at = table.log[-1].time
    spat = len(table.events(CardSpat))
    table.clock.advance(3.0)
    assert len(table.events(CardSpat)) > spat
    assert table.timed(CardSpat)[-1][0] == pytest.approx(resumed_at + 3.0)


def test_a_round_end_heard_during_a_pause_opens_the_slap_race_after_the_resume() -> None:
    table = reach_round_over(wait=True)
    round_over = table.log[-1]
    table.match.post(ControlIntent(0, Control.PAUSE))
    table.settle()
    table.match.announcement_finished(round_over.sequence)
    table.clock.advance(100)
    assert table.events(SlapWindowOpened) == [] and isinstance(table.log[-1].event, Paused)
    table.match.post(ControlIntent(0, Control.RESUME))
    table.settle()
    [window] = table.events(SlapWindowOpened)
    assert window.closes_at == pytest.approx(table.match.clock.now() + 4.0)
    table.clock.advance(4.0)
    assert [slap.player for slap in table.events(PileSlapped)] == [1]


def test_both_ready_during_a_pause_start_the_countdown_at_the_resume() -> None:
    table = new_table(settings=MatchSettings(auto_start=False))
    table.match.post(ControlIntent(0, Control.PAUSE))
    table.match.post(ControlIntent(0, Control.READY))
    table.match.post(ControlIntent(1, Control.READY))
    table.clock.advance(30)
    assert table.events(PlayerReady) == [PlayerReady(0), PlayerReady(1)]
    assert table.events(SpitCountdown) == [], "no count over the pause"
    table.match.post(ControlIntent(0, Control.RESUME))
    table.clock.advance(3.0)
    assert [c.seconds_left for c in table.events(SpitCountdown)] == [3, 2, 1]
    assert len(table.events(RoundStarted)) == 1


def test_quit_ends_the_match_and_nothing_happens_after_it() -> None:
    table = new_table()
    table.match.post(ControlIntent(0, Control.QUIT))
    table.settle()
    assert table.match.is_over and table.events(MatchQuit) == [MatchQuit(0)]
    published = len(table.log)
    table.post(0, table.state.legal_actions(0)[0] if table.state.legal_actions(0) else act.SPIT)
    table.clock.advance(1000)
    assert [s.event for s in table.log[published:]] == [
        IntentRefused(0, table.events(IntentRefused)[0].action, "the game is over")]


def test_faster_with_no_computer_opponent_is_refused() -> None:
    table = new_table()
    table.match.post(ControlIntent(0, Control.FASTER))
    table.settle()
    assert table.events(IntentRefused)[0].reason == "there is no computer opponent to pace"


def test_run_until_over_says_so_when_nothing_can_happen() -> None:
    table = new_table(settings=MatchSettings(auto_start=False))
    with pytest.raises(MatchStuckError, match="nothing left to happen"):
        table.match.run_until_over()


def test_with_slap_off_the_chooser_is_given_the_smaller_pile_when_time_runs_out() -> None:
    table = reach_round_over(slap=False)
    chooser = next(seat for seat in (0, 1) if table.state.legal_actions(seat))
    sizes = [len(pile) for pile in table.state.piles]
    table.clock.advance(4.0)
    [choice] = table.events(PileSlapped)
    assert choice.player == chooser
    assert sizes[choice.pile] == min(sizes)


def test_awaiting_announcements_a_change_is_heard_only_once_all_of_it_is() -> None:
    # The audio layer reports event by event, but the table is known only after whole
    # changes: a player who heard half of one would see the table from before it (the
    # card just played still in its stockpile) and try again what was already done.
    settings = MatchSettings(auto_start=True, countdown_from=0, wait_for_announcements=True,
                             announcement_timeout_seconds=5.0)
    table = new_table(settings=settings, start=False)
    heard: list[Perception] = []
    table.match.observe(heard.append)
    table.match.start()
    table.settle()
    kinds = [type(s.event) for s in table.log]
    assert kinds == [LayoutDealt, LayoutDealt, RoundStarted, CardSpat, CardSpat]
    table.match.announcement_finished(1)
    table.settle()
    assert heard == [] and table.match.heard_through == 0
    table.match.announcement_finished(4)
    table.settle()
    [deal] = heard
    assert [s.sequence for s in deal.events] == [1, 2] and deal.through == 2
    assert deal.state.phase is Phase.READY and table.match.heard_state().phase is Phase.READY
    assert table.match.heard_through == 2
    table.clock.advance(5.0)  # nobody reports the rest: the timeout hears the whole spit
    assert [s.sequence for s in heard[-1].events] == [3, 4, 5] and heard[-1].through == 5
    assert table.match.heard_state().phase is Phase.PLAY


def test_a_slow_listener_holds_up_nobody_and_still_hears_everything_in_order() -> None:
    table = new_table(settings=MatchSettings(auto_start=True, countdown_from=0), start=False)
    heard: list[Stamped] = []
    release = threading.Event()

    def slow(stamped: Stamped) -> None:
        release.wait(60.0)  # a guard: a match that waited for this listener would wait it out
        heard.append(stamped)
    table.match.subscribe(slow)
    table.match.start()
    table.play_until(lambda state: state.phase is Phase.ROUND_OVER)
    assert heard == [], "the round was played while the listener had heard nothing yet"
    release.set()
    assert table.match.flush_listeners(60.0)
    assert heard == table.log
    table.match.close()


def test_a_failing_listener_is_counted_and_the_others_still_hear_everything() -> None:
    table = new_table(start=False)

    def broken(stamped: Stamped) -> None:
        raise ValueError("broken speaker")
    table.match.subscribe(broken, inline=True)
    table.match.start()
    table.settle()
    assert len(table.match.listener_errors) == len(table.log) > 0
    assert table.match.errors == []
