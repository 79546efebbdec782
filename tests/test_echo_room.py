"""The game in a simulated room (benchmarks/room.py): what keeps its own voice from being a
command. The real narration, mixer, reference, WebRTC canceller, talk detector, echo
mask, listener and the default recognizer (Whisper), in real block order. Behaviour
only: the figures (and speed) are the benchmark's, `python -m benchmarks.echo`.

Issue 12 asks for no command at all from the narration; that is not met yet in the
livelier rooms (the detector's false starts let some residual through: README,
"Listening while the game speaks"), so this checks what the mask does achieve, against
the same minute without it, and that a command made of the residual, with almost none of
its frames a voice that is not the game's, is refused. (The self-echo check is tested in
test_self_echo.py: since the detector follows the live room's dying echo, the narration's
own words no longer come back in the first minute here; the benchmark counts them over a
whole match.)
"""

from __future__ import annotations

import pytest

from benchmarks.echo import Job, Outcome, data_dir, run
from benchmarks.room import RoomCondition

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    not (data_dir() / "real-voices").is_dir(), reason="needs the shared real voices and noise")]

LIVELY_LOUD_ROOM = RoomCondition(0.5, 45.0, 10.0)
LIVE_LOUD_ROOM = RoomCondition(0.8, 80.0, 10.0)


def narration_alone(mask_echo: bool, self_echo: bool = True,
                    room: RoomCondition = LIVELY_LOUD_ROOM) -> Outcome:
    outcome = run(Job(room, "always", False, "tuning", "auto", "webrtc", 60.0,
                      mask_echo=mask_echo, self_echo=self_echo))
    assert outcome.said_again == 0  # nobody spoke, so nobody is asked to say it again
    return outcome


def test_the_echo_mask_keeps_most_of_the_games_own_narration_from_being_commands() -> None:
    unmasked = narration_alone(mask_echo=False, self_echo=False).false_commands
    masked = narration_alone(mask_echo=True, self_echo=False).false_commands
    assert unmasked >= 3, "the canceller's residual alone is taken for commands"
    assert masked * 3 <= unmasked


def test_a_command_with_too_little_of_a_voice_not_the_games_is_refused() -> None:
    # At the default bar (a tenth of the frames) whether any residual command falls under
    # it depends on how espeak-ng rendered this machine's narration (it varies with load):
    # one rendering gave one such command a minute, another none. The residual's commands
    # had 20 to 23 % of their frames judged the player's (README), so a bar of 0.3 must
    # catch some, and the check must remove exactly the commands it refuses.
    checked = run(Job(LIVE_LOUD_ROOM, "always", False, "tuning", "auto", "webrtc", 60.0,
                      near_end_minimum=0.3))
    unchecked = run(Job(LIVE_LOUD_ROOM, "always", False, "tuning", "auto", "webrtc", 60.0,
                        near_end_minimum=0.0))
    assert unchecked.false_commands >= 1, "without the check the live room's residual makes commands"
    assert checked.unvoiced_refusals >= 1, "and the check refuses them"
    assert checked.false_commands == unchecked.false_commands - checked.unvoiced_refusals
