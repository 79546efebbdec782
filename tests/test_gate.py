"""When the game listens: the echo guard, headphones, and push-to-talk.

Times are clock seconds. `admits(start, end)` asks about audio recorded between them.
"""

from __future__ import annotations

import pytest

from voicespit.speech.listening.gate import GateModeError, ListeningGate


def test_by_default_the_game_does_not_hear_itself_while_speaking_nor_just_after() -> None:
    gate = ListeningGate(tail_ms=300)
    gate.speaking_started(10.0)
    gate.speaking_finished(12.0)
    assert gate.admits(9.8, 9.9)  # before it spoke
    assert not gate.admits(9.95, 10.05)  # a block that runs into its speech
    assert not gate.admits(11.0, 11.1)  # while it speaks
    assert not gate.admits(12.1, 12.2)  # the tail: echo and the speaker's own delay
    assert gate.admits(12.3, 12.4)  # after the tail


def test_while_the_game_is_still_speaking_nothing_is_heard_however_long_it_takes() -> None:
    gate = ListeningGate()
    gate.speaking_started(5.0)
    assert not gate.admits(60.0, 60.1)
    assert gate.is_game_speaking(60.0) and not gate.is_listening(60.0)


def test_the_tail_is_configurable() -> None:
    gate = ListeningGate(tail_ms=0)
    gate.speaking_started(1.0)
    gate.speaking_finished(2.0)
    assert gate.admits(2.0, 2.1)
    long_tail = ListeningGate(tail_ms=1000)
    long_tail.speaking_started(1.0)
    long_tail.speaking_finished(2.0)
    assert not long_tail.admits(2.8, 2.9) and long_tail.admits(3.0, 3.1)


def test_reports_are_levels_so_a_doubled_start_cannot_leave_the_game_deaf() -> None:
    gate = ListeningGate(tail_ms=100)
    gate.speaking_finished(0.5)  # a finish with no start changes nothing
    assert gate.admits(0.5, 0.6)
    gate.speaking_started(1.0)
    gate.speaking_started(1.5)  # an urgent announcement interrupting the first
    gate.speaking_finished(2.0)
    assert not gate.admits(1.9, 2.0) and gate.admits(2.2, 2.3)


def test_every_stretch_of_speech_is_remembered_not_only_the_last() -> None:
    gate = ListeningGate(tail_ms=0)
    for start in (1.0, 3.0, 5.0):
        gate.speaking_started(start)
        gate.speaking_finished(start + 1.0)
    assert not gate.admits(1.5, 1.6) and gate.admits(2.5, 2.6) and not gate.admits(3.5, 3.6)


def test_with_headphones_the_player_can_talk_over_the_game() -> None:
    gate = ListeningGate("headphones")
    gate.speaking_started(1.0)
    assert gate.admits(1.5, 1.6)


def test_push_to_talk_opens_for_one_command() -> None:
    gate = ListeningGate("push_to_talk", talk_window=5.0)
    assert not gate.admits(1.0, 1.1)  # nothing without a press
    gate.talk_key_pressed(2.0)
    assert gate.admits(2.0, 2.1) and gate.admits(3.5, 3.6)
    gate.utterance_finished(4.0)  # the command was recognised
    assert not gate.admits(4.1, 4.2)
    assert gate.admits(3.9, 4.0)  # audio from before the close still counts


def test_push_to_talk_closes_by_itself_or_at_a_second_press() -> None:
    gate = ListeningGate("push_to_talk", talk_window=5.0)
    gate.talk_key_pressed(10.0)
    assert gate.admits(14.8, 14.9) and not gate.admits(15.0, 15.1)  # nobody spoke: timed out
    gate.talk_key_pressed(20.0)
    gate.talk_key_pressed(21.0)  # changed my mind
    assert gate.admits(20.5, 20.6) and not gate.admits(21.1, 21.2)
    gate.talk_key_pressed(22.0)  # and again: a new window
    assert gate.admits(22.5, 22.6)


def test_push_to_talk_still_does_not_hear_the_game() -> None:
    gate = ListeningGate("push_to_talk", tail_ms=200)
    gate.speaking_started(1.0)
    gate.talk_key_pressed(1.5)
    assert not gate.admits(1.6, 1.7)
    gate.speaking_finished(2.0)
    assert not gate.admits(2.1, 2.15) and gate.admits(2.2, 2.3)


def test_the_mode_can_change_during_a_game_and_a_wrong_name_is_refused() -> None:
    gate = ListeningGate()
    gate.speaking_started(1.0)
    assert not gate.admits(1.1, 1.2)
    gate.mode = "headphones"
    assert gate.admits(1.1, 1.2)
    with pytest.raises(GateModeError, match="always, echo_guard, headphones, push_to_talk"):
        gate.mode = "loud"
    with pytest.raises(GateModeError):
        ListeningGate("auto")  # a setting's value, chosen into a mode before the gate


def test_always_hears_the_player_over_the_game_its_voice_cancelled_before_the_gate() -> None:
    gate = ListeningGate("always")
    gate.speaking_started(1.0)
    assert gate.admits(1.1, 1.2)
    assert gate.is_game_speaking(1.1)
