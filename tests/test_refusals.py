"""Refusals (voicespit/match/refusals.py): "too late" told apart from a mistake, in one plain phrase."""

from __future__ import annotations

import pytest

from tests.match_helpers import new_table
from tests.positions import card, spit_position
from voicespit.engine.actions import LEFT, Play
from voicespit.engine.state import IllegalActionError, Phase
from voicespit.match.refusals import refusal_for_action, refusal_for_resolver
from voicespit.speech.language.commands import Command, Verb
from voicespit.speech.language.parser import AmbiguousCommandError, resolve


@pytest.mark.parametrize(("phase", "said"), [
    (Phase.ROUND_OVER, "too late: the round is over"),
    (Phase.STALEMATE, "too late: nobody can play"),
])
def test_a_play_overtaken_by_the_end_of_play_says_why_in_one_phrase(phase: Phase,
                                                                     said: str) -> None:
    # Not the engine's instruction as well ("...: it is time to spit"): the countdown
    # or "Slap now!" is announced next anyway, and two colons do not read aloud.
    before = new_table(seed=3).state
    action = next(a for a in before.legal_actions(0) if isinstance(a, Play))
    now = before.clone()
    now.phase = phase
    with pytest.raises(IllegalActionError) as refused:
        now.apply(0, action)
    assert refusal_for_action(action, 0, refused.value.reason, now, before) == (
        action, said, True)


@pytest.mark.parametrize(("theirs", "right", "ends_in"), [
    (("7S", "", "", "", ""), "KH", Phase.ROUND_OVER),  # their last card
    (("7S", "JS", "", "", ""), "5D", Phase.STALEMATE),  # and then nobody can play
])
def test_a_play_beaten_to_its_pile_says_the_new_top_even_when_that_card_ended_play(
        theirs: tuple[str, ...], right: str, ends_in: Phase) -> None:
    # The opponent's seven lands first: the player's seven lost the race for left,
    # which is what they need to hear, not only that play is over.
    before = spit_position(mine=("7H", "2C", "", "", ""), theirs=theirs, left="8H",
                           right=right, my_spit="3D", their_spit="4D")
    now = before.clone()
    now.apply(1, Play(0, LEFT))
    assert now.phase is ends_in
    with pytest.raises(IllegalActionError) as refused:
        now.apply(0, Play(0, LEFT))
    assert refusal_for_action(Play(0, LEFT), 0, refused.value.reason, now, before) == (
        Play(0, LEFT), "too late: left is now a seven", True)


def test_a_rank_that_fits_both_piles_now_asks_which_never_says_too_late() -> None:
    # Seen in play: the player's "nine on right" was not yet heard whole, so on the table
    # the player was taken to know, "eight" fitted only left (from stock four); by then
    # the eight had moved to stock one and fitted both piles. The player is not late:
    # they need to hear the two choices.
    before = spit_position(mine=("", "2C", "4D", "8H", "JS"), left="7H", right="TD",
                           my_spit="3D", their_spit="4S")
    now = spit_position(mine=("8H", "2C", "4D", "KS", "JS"), left="7H", right="9C",
                        my_spit="3D", their_spit="4S")
    eight = Command(Verb.PLAY, rank=card("8H").rank)

    def resolver(state: object) -> object:
        return resolve(eight, state, 0)  # type: ignore[arg-type]

    assert isinstance(resolve(eight, before, 0), Play)  # one fit on the table as known
    with pytest.raises(AmbiguousCommandError) as ambiguous:
        resolve(eight, now, 0)
    action, reason, too_late = refusal_for_resolver(
        resolver, 0, ambiguous.value, now, before)  # type: ignore[arg-type]
    assert (action, too_late) == (None, False)
    assert reason == "an eight fits both piles: say eight on left or eight on right"
