"""The share of a command's frames that the talk detector judged the player's voice."""

from __future__ import annotations

import pytest

from voicespit.speech.listening.near_end import FRAME_SECONDS, NearEndEvidence


def test_the_share_counts_only_the_frames_of_the_stretch_asked_about() -> None:
    evidence = NearEndEvidence()
    evidence.record(10.0, [False, False, True], game_audible=True)  # 10.00 .. 10.03
    evidence.record(10.03, [True, True, False], game_audible=False)  # 10.03 .. 10.06
    assert evidence.loud_share(10.0, 10.06) == pytest.approx(3 / 6)
    assert evidence.loud_share(10.015, 10.045) == pytest.approx(1.0)
    assert evidence.loud_share(20.0, 21.0) is None, "nothing kept there"
    assert evidence.game_audible(9.0, 10.01)
    assert not evidence.game_audible(10.03, 10.06)


def test_only_the_last_seconds_are_kept() -> None:
    evidence = NearEndEvidence(keep=1.0)
    for index in range(200):
        evidence.record(index * FRAME_SECONDS, [True], game_audible=False)
    assert evidence.loud_share(0.0, 0.5) is None
    assert evidence.loud_share(1.5, 2.0) == pytest.approx(1.0)
