"""The game in a simulated room (benchmarks/room.py): its own voice is never a command. The
real narration, mixer, reference, WebRTC canceller, barge-in detector, echo mask,
listener and the default recognizer (Whisper), in real block order. Behaviour only: the
figures (and speed) are the benchmark's, `python -m benchmarks.echo`."""

from __future__ import annotations

import pytest

from benchmarks.echo import Job, data_dir, run
from benchmarks.room import RoomCondition

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    not (data_dir() / "real-voices").is_dir(), reason="needs the shared real voices and noise")]

LIVELY_LOUD_ROOM = RoomCondition(0.5, 45.0, 10.0)


def test_a_minute_of_the_games_own_narration_loud_in_the_room_is_never_a_command() -> None:
    outcome = run(Job(LIVELY_LOUD_ROOM, "always", False, "tuning", "auto", "webrtc",
                      60.0))
    assert outcome.false_commands == 0
    assert outcome.said_again == 0
