"""The game in a simulated room (benchmarks/room.py): its own voice is never a command, and
the player is heard through it. The real narration, mixer, reference, WebRTC canceller,
barge-in detector, listener and PocketSphinx, in real block order. Behaviour only: the
figures (and speed) are the benchmark's, `python -m benchmarks.echo`."""

from __future__ import annotations

import pytest

from benchmarks.echo import Job, commands_for, data_dir, run
from benchmarks.room import RoomCondition

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    not (data_dir() / "real-voices").is_dir(), reason="needs the shared real voices and noise")]

LIVELY_LOUD_ROOM = RoomCondition(0.5, 45.0, 10.0)


def test_a_minute_of_the_games_own_narration_loud_in_the_room_is_never_a_command() -> None:
    outcome = run(Job(LIVELY_LOUD_ROOM, "always", False, "tuning", "pocketsphinx", "webrtc",
                      60.0))
    assert outcome.false_commands == 0
    assert outcome.said_again == 0


def test_without_echo_cancellation_listening_through_the_narration_hears_commands() -> None:
    """What the canceller is for: the same room, listened to as it is."""
    outcome = run(Job(LIVELY_LOUD_ROOM, "unguarded", False, "tuning", "pocketsphinx", "webrtc",
                      60.0))
    assert outcome.false_commands > 0


def test_commands_said_over_the_game_are_heard_through_its_voice() -> None:
    commands = commands_for("tuning", 10)
    outcome = run(Job(RoomCondition(0.2, 10.0, 0.0), "always", True, "tuning", "pocketsphinx",
                      "webrtc", None, commands))
    assert outcome.commands == 10
    assert outcome.correct >= 3, outcome
    assert outcome.barge_ins >= 1
