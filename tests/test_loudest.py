"""The bar a voice must clear follows the microphone's gain (`listening.loudest`)."""

from __future__ import annotations

from voicespit.speech.listening.loudest import (
    BELOW_LOUDEST_DB,
    LEARN_FRAMES,
    QUIETEST_VOICE_DBFS,
    WINDOW_FRAMES,
    LoudestHeard,
)

OWN_BAR = -50.0


def microphone(room_db: float, loudest_db: float, frames: int) -> list[float]:
    """Frame levels: the room, with one frame in twenty at `loudest_db` (a voice)."""
    return [loudest_db if index % 20 == 0 else room_db for index in range(frames)]


def test_until_a_second_has_been_heard_the_detectors_own_bar_holds() -> None:
    heard = LoudestHeard()
    heard.heard(microphone(-90.0, -60.0, LEARN_FRAMES - 1))
    assert heard.loudest_db is None and heard.bar(OWN_BAR) == OWN_BAR
    heard.heard([-90.0])
    assert heard.loudest_db == -60.0 and heard.bar(OWN_BAR) == QUIETEST_VOICE_DBFS


def test_an_ordinary_microphone_keeps_the_detectors_own_bar() -> None:
    heard = LoudestHeard()
    heard.heard(microphone(-60.0, -19.0, 3000))
    assert heard.loudest_db == -19.0
    assert heard.bar(OWN_BAR) == OWN_BAR and heard.bar(-55.0) == -55.0


def test_a_microphone_turned_down_lowers_the_bar_with_it_but_not_under_the_quietest_voice() -> None:
    heard = LoudestHeard()
    heard.heard(microphone(-85.0, -39.0, 3000))
    assert heard.bar(OWN_BAR) == -39.0 - BELOW_LOUDEST_DB
    heard.heard(microphone(-90.0, -60.0, WINDOW_FRAMES))  # five minutes turned down further
    assert heard.bar(OWN_BAR) == QUIETEST_VOICE_DBFS


def test_a_knock_is_not_the_microphones_gain_and_turned_up_again_it_is_followed() -> None:
    heard = LoudestHeard()
    heard.heard(microphone(-85.0, -45.0, 3000))
    heard.heard([-10.0] * 5)  # a knock on the table, 50 ms
    assert heard.bar(OWN_BAR) == -45.0 - BELOW_LOUDEST_DB
    heard.heard(microphone(-60.0, -20.0, WINDOW_FRAMES))
    assert heard.bar(OWN_BAR) == OWN_BAR


def test_in_a_quiet_room_where_nothing_stands_out_the_detectors_own_bar_holds() -> None:
    # Headphones in a quiet room, nobody has spoken yet: the loudest is the room's flutter,
    # 8 dB over its quietest, no measure of the microphone's gain.
    heard = LoudestHeard()
    heard.heard(microphone(-72.0, -64.0, 6000))
    assert heard.loudest_db is None and heard.bar(OWN_BAR) == OWN_BAR
