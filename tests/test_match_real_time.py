"""A whole match on the real clock with a speaking listener on its own thread.

The audio layer's part is played by a threaded listener that takes a little
time per event and then reports it heard: the path a real game takes, only
with every pace shrunk so the match lasts a few seconds.
"""

from __future__ import annotations

import random
import time

from voicespit.clock import RealClock
from voicespit.engine import Rules
from voicespit.engine.events import CardPlayed, GameOver
from voicespit.engine.invariants import check_cards
from voicespit.match.events import Stamped
from voicespit.match.referee import Match, MatchSettings
from voicespit.opponent import FixedPace, HumanModel, Opponent, SimulatedHuman

SHORT_GAME = ["scoring=points", "target_score=20"]
"""A points game to 20: over in a few rounds."""
FAST = MatchSettings(countdown_step_seconds=0.01, slap_window_seconds=0.3,
                     wait_for_announcements=True, announcement_timeout_seconds=1.0)


def test_a_match_with_spoken_announcements_runs_to_its_end_on_real_threads() -> None:
    clock = RealClock(name="real-time-test")
    match = Match(Rules.for_game("spit", SHORT_GAME), clock, seed=8, settings=FAST)
    spoken: list[Stamped] = []

    def speaker(stamped: Stamped) -> None:
        time.sleep(0.0005)  # saying it
        spoken.append(stamped)
        match.announcement_finished(stamped.sequence)
    match.subscribe(speaker)
    Opponent(match, FixedPace(0.01), random.Random(1), motor_seconds=0.002)
    SimulatedHuman(match, HumanModel(0.01, command_seconds=0.004), random.Random(2))
    match.start()
    match.run_until_over(timeout=120)
    assert match.flush_listeners(10)
    match.close()
    clock.close()
    assert match.errors == [] and match.listener_errors == []
    assert any(isinstance(s.event, GameOver) for s in spoken)
    assert {s.event.player for s in spoken if isinstance(s.event, CardPlayed)} == {0, 1}
    assert [s.sequence for s in spoken] == list(range(1, len(spoken) + 1))
    check_cards(match.snapshot())
