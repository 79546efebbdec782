"""Refusals (voicespit/refusals.py): "too late" told apart from a mistake, in one plain phrase."""

from __future__ import annotations

import pytest

from tests.match_helpers import new_table
from voicespit.engine.actions import Play
from voicespit.engine.state import IllegalActionError, Phase
from voicespit.refusals import refusal_for_action


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
