"""Intents (voicespit/match/intents.py): what a player asks the match to do."""

import pytest

from voicespit.engine.actions import SPIT, Action
from voicespit.match.intents import ActionIntent, Control, ControlIntent, State


def spit(state: State) -> Action:
    return SPIT


def test_an_action_intent_carries_exactly_one_of_an_action_and_a_resolver() -> None:
    assert ActionIntent(0, SPIT).action is SPIT
    assert ActionIntent(0, resolver=spit).resolver is spit
    with pytest.raises(ValueError, match="exactly one"):
        ActionIntent(0)
    with pytest.raises(ValueError, match="exactly one"):
        ActionIntent(0, SPIT, spit)


def test_intents_read_as_what_the_player_meant() -> None:
    assert str(ActionIntent(0, resolver=spit, said="spit")) == "P0 intends spit"
    assert str(ActionIntent(1, SPIT)) == "P1 intends spit"
    assert str(ControlIntent(0, Control.PAUSE)) == "P0 says pause"
