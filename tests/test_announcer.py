"""The announcer and the text mirror: every announcement is also a line of text, in order."""

from __future__ import annotations

import io
import random
from collections.abc import Sequence

from voicespit.audio.announcer import Announcer, TextMirror
from voicespit.audio.output import Mixer, open_output
from voicespit.audio.speaker import LiveSpeaker, RecordingSpeaker
from voicespit.audio.tts import Pyttsx3Renderer
from voicespit.clock import FakeClock
from voicespit.engine import Rules, SpeedState, new_game
from voicespit.engine import actions as act
from voicespit.engine.events import CardDrawn, CardPlayed, Event
from voicespit.match.events import MatchEvent, Stamped
from voicespit.narration.announcement import Verbosity
from voicespit.narration.narrator import Narrator
from voicespit.simulation.full_speed import greedy_choice


def stamp(events: Sequence[Event | MatchEvent], start: int) -> list[Stamped]:
    return [Stamped(start + i, 0.0, event) for i, event in enumerate(events)]


def test_every_announcement_is_one_line_in_order_and_silent_events_still_count() -> None:
    state = new_game(Rules.for_game("speed", ()), random.Random(3))
    assert isinstance(state, SpeedState)
    stream = io.StringIO()
    speaker = RecordingSpeaker()
    heard: list[int] = []
    speaker.on_announcement_finished(heard.append)
    announcer = Announcer(Narrator(Verbosity.TERSE), speaker, TextMirror(stream))
    events: list[Event | MatchEvent] = [*state.deal_events, *state.apply(0, act.SPIT)]
    events.append(CardDrawn(1, state.hands[1][0]))  # secret: says nothing
    for stamped in stamp(events, 1):
        announcer.announce(stamped, state)
    assert stream.getvalue().splitlines() == [a.mirror_line for a in speaker.said]
    assert len(speaker.said) >= 3
    assert len(events) in speaker.silent, "the opponent's draw: nothing said, still heard"
    assert heard[-1] == len(events)


def test_the_mirror_can_stamp_each_line_with_the_game_time() -> None:
    clock = FakeClock()
    stream = io.StringIO()
    mirror = TextMirror(stream, clock)
    clock.advance(12.5)
    announcer = Announcer(Narrator(), RecordingSpeaker(), mirror)
    state = new_game(Rules.for_game("spit", ()), random.Random(1))
    announcer.answer("count", state)
    assert stream.getvalue() == "   12.500  Cards left: you 26, opponent 26. Say ready.\n"


def test_with_no_audio_device_the_game_still_speaks_in_text() -> None:
    # The real adapters, as the app builds them, on this machine without a sound card.
    messages: list[str] = []
    mixer = Mixer()
    output = open_output(mixer, report=messages.append)
    renderer = Pyttsx3Renderer()
    speaker = LiveSpeaker(renderer, mixer)
    speaker.set_rate(400)  # the same path, in half the time
    heard: list[int] = []
    speaker.on_announcement_finished(heard.append)
    stream = io.StringIO()
    announcer = Announcer(Narrator(), speaker, TextMirror(stream))
    state = new_game(Rules.for_game("spit", ()), random.Random(8))
    rng = random.Random(8)
    said = []
    events: list[Event | MatchEvent] = [*state.deal_events, *state.apply(0, act.SPIT)]
    while len([e for e in events if isinstance(e, CardPlayed)]) < 2 and not state.is_over:
        player = 0 if state.legal_actions(0) else 1
        events += state.apply(player, greedy_choice(state, player, state.legal_actions(player),
                                                    rng))
    try:
        for stamped in stamp(events, 1):
            said += announcer.announce(stamped, state)
        announcer.answer("piles", state)
        assert speaker.wait_until_idle(30.0)
    finally:
        speaker.close()
        output.close()
        renderer.close()
    if output.is_silent:
        assert messages and "printed as text" in messages[0]
    lines = stream.getvalue().splitlines()
    assert lines[:-1] == [a.mirror_line for a in said] and lines[-1].startswith("Left: ")
    assert heard[-1] == len(events), "the match hears that everything was presented"
