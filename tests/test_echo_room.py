"""The game in a simulated room (benchmarks/room.py): what keeps its own voice from being a
command. The real narration, mixer, reference, WebRTC canceller, talk detector, echo
mask, listener and the default recognizer (Whisper), in real block order. Behaviour
only: the figures (and speed) are the benchmark's, `python -m benchmarks.echo`.

Issue 12 asks for no command at all from the narration. A minute or two of it is what a test
can afford (the whole match in every room is the benchmark's: the README and
`docs/listening-record.md`), so this checks what the mask achieves against the same minute
without it, and that the live room's first minute gives no command, what the mask lets through
being refused by the near-end check. (The self-echo and near-end checks are tested in
test_self_echo.py and test_near_end.py; the benchmark counts them over a whole match.)
"""

from __future__ import annotations

import math

import pytest

from benchmarks import over_game as over_game_fit
from benchmarks.echo import (
    Job,
    Outcome,
    asked_nobody,
    commands_for,
    data_dir,
    run,
    talk_settings,
)
from benchmarks.over_game import files_of
from benchmarks.room import RoomCondition
from voicespit.speech.language.parser import command_in, parse
from voicespit.speech.listening import over_game
from voicespit.speech.listening.listener import NEAR_END_MINIMUM
from voicespit.speech.listening.room_watch import LIMIT as ROOM_LIMIT

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    not (data_dir() / "real-voices").is_dir(), reason="needs the shared real voices and noise")]

LIVE_LOUD_ROOM = RoomCondition(0.8, 80.0, 10.0)


def narration_alone(mask_echo: bool, self_echo: bool = True) -> Outcome:
    outcome = run(Job(LIVE_LOUD_ROOM, "always", False, "tuning", "auto", "webrtc", 120.0,
                      mask_echo=mask_echo, self_echo=self_echo))
    assert outcome.said_again == 0  # nobody spoke, so nobody is asked to say it again
    return outcome


def test_the_echo_mask_keeps_most_of_the_games_own_narration_from_being_commands() -> None:
    # Two minutes of the live room: the narration is rendered afresh whenever its code
    # changes, and espeak-ng's few samples of jitter moved the lively room's first minute
    # from 3 commands unmasked to none, which left nothing for the mask to show. In the
    # live room two minutes gave 13 unmasked (and 0 masked) on the render that gave none.
    unmasked = narration_alone(mask_echo=False, self_echo=False).false_commands
    masked = narration_alone(mask_echo=True, self_echo=False).false_commands
    assert unmasked >= 3, "the canceller's residual alone is taken for commands"
    assert masked * 3 <= unmasked


def test_the_live_rooms_first_minute_of_narration_gives_no_command() -> None:
    # The residual of the live room's echo tail used to make a command or more a minute.
    # Since the detector follows that tail as the game's (`TalkDetector.echo_lingers`), the
    # mask keeps nearly all of it from the recognizer. What still comes through depends on
    # the render (espeak-ng's few samples of jitter, the resampler's version): nothing on
    # some, a "yeah" at 39.7 s on others, made with none of its frames judged the
    # player's. The near-end check is what refuses those, so it is on here as in the game,
    # and whatever the recognizer took with it off must be under its minimum.
    checked = run(Job(LIVE_LOUD_ROOM, "always", False, "tuning", "auto", "webrtc", 60.0))
    assert checked.false_commands == 0, checked.heard
    unchecked = run(Job(LIVE_LOUD_ROOM, "always", False, "tuning", "auto", "webrtc", 60.0,
                        near_end_minimum=0.0))
    taken = [heard for heard in unchecked.heard if not heard["rejected"]]
    assert len(taken) == unchecked.false_commands
    for heard in taken:
        assert heard["scores"]["near_end_share"] < NEAR_END_MINIMUM, heard


def test_what_is_refused_of_the_games_own_voice_asks_nobody_to_say_it_again() -> None:
    # The recognizer refuses some of what the canceller leaves of the game's words in the
    # live room. Each refusal used to reach the game, which said "Say again?" with nobody
    # speaking and talked over its own next words. Those none of whose frames were judged
    # the player's are now kept quiet; the rest are still answered (a refused word of the
    # player's: test_listening.py), and nothing else the listener does changes.
    def live_room(quiet: bool) -> Outcome:
        return run(Job(LIVE_LOUD_ROOM, "always", False, "tuning", "auto", "webrtc", 120.0,
                       quiet_own_refusals=quiet))

    answered, kept_quiet = live_room(quiet=False), live_room(quiet=True)
    assert answered.refusals_unsaid == 0
    assert kept_quiet.refusals_unsaid >= 1, "the game's own voice gave refusals to keep quiet"
    assert asked_nobody(kept_quiet) <= asked_nobody(answered) - 1, kept_quiet.heard
    assert kept_quiet.false_commands == answered.false_commands == 0


def test_the_recorded_finals_count_as_the_benchmark_counts_them() -> None:
    # The over-the-game model is fitted on the finals the game's recognizer really gave
    # (`--record`); counted without the model, they must say what the closed loop said,
    # command for command, or the fit would choose its threshold on another game.
    commands = commands_for("tuning", 8)
    outcome = run(Job(RoomCondition(0.5, 45.0, 5.0), "always", True, "tuning", "auto",
                      "webrtc+speex", None, commands, record=True))
    assert outcome.recorded is not None
    files = files_of(outcome.recorded)
    counted = over_game_fit.outcome(files, None)
    assert counted["commands"] == outcome.commands == 8
    assert (counted["right"], counted["wrong"]) == (outcome.correct, outcome.wrong)
    assert counted["chatter taken"] == outcome.false_commands
    finals = outcome.recorded["finals"]
    assert finals, "nothing heard over the game at +5 dB"
    asked = [final for final in finals if final["features"] is not None]
    assert asked, "the model would be asked about none of the commands heard over the game"
    for final in asked:  # Whisper's own decision is the feature the model is given
        whisper = final["features"][over_game.FEATURES.index("whisper accepts")]
        assert whisper == float(final["taken"])
    # The dump names, for every result, what was said in the command it belongs to.
    for heard in outcome.heard:
        if heard["verdict"] in ("correct", "wrong"):
            assert heard["said"] in outcome.recorded["said"], heard
            assert (command_in(heard["text"]) == parse(heard["said"])) \
                == (heard["verdict"] == "correct"), heard


def test_a_talk_detector_setting_to_try_is_checked_and_typed() -> None:
    # `benchmarks.echo --talk KEY=VALUE`: each value takes its TalkSettings field's type, and
    # a misspelt key stops the run instead of silently measuring the game as it is.
    assert talk_settings(["suspect_onset=1", "suspect_margin_db=2.5"]) == {
        "suspect_onset": 1, "suspect_margin_db": 2.5}
    assert isinstance(talk_settings(["suspect_onset=1"])["suspect_onset"], int)
    # A bool is not bool("false"), which is True: the rule alone must be reachable.
    assert talk_settings(["voice_model=false"]) == {"voice_model": False}
    assert talk_settings(["voice_model=true"]) == {"voice_model": True}
    with pytest.raises(SystemExit, match="suspect_onsett"):
        talk_settings(["suspect_onsett=1"])
    with pytest.raises(SystemExit, match="voice_model is true or false"):
        talk_settings(["voice_model=flase"])


def test_a_command_taken_from_nobody_during_the_commands_counts_as_wrong(
        capsys: pytest.CaptureFixture[str]) -> None:
    # It plays a card nobody said, as a wrong command does; before, it was in neither
    # the wrong rate nor the narration-alone false commands.
    import argparse

    from benchmarks.echo import report

    room = "RT60 0.5 s, 45 ms, echo +0 dB"
    outcomes = [Outcome("always", "always", "game silent", True, 60.0, commands=10, correct=8),
                Outcome("always", "always", room, False, 60.0),
                Outcome("always", "always", room, True, 60.0, commands=10, correct=5, wrong=1,
                        false_commands=1)]
    args = argparse.Namespace(narration_only=False, recognizer="whisper", canceller="webrtc",
                              split="tuning", no_mask=False, no_self_echo=False)
    summary = report(outcomes, args)
    assert summary["wrong_rate"] == pytest.approx(0.2)
    assert summary["stray_commands"] == 1 and summary["false_commands"] == 0
    assert "1 over the commands" in capsys.readouterr().out


def test_the_watched_echo_guard_answers_commands_said_under_its_voice_and_acts_on_none() -> None:
    # The default with loudspeakers: the game does not act on what it hears while it
    # speaks, but with a canceller it hears the player there, and says "say it again"
    # instead of leaving them waiting. The bare echo guard only notices the commands
    # that run past either end of its voice.
    room = RoomCondition(0.5, 45.0, 0.0)
    commands = commands_for("tuning", 8)
    watched = run(Job(room, "watch", True, "tuning", "auto", "webrtc", None, commands))
    guarded = run(Job(room, "echo_guard", True, "tuning", "auto", "webrtc", None, commands))
    assert watched.commands == guarded.commands == 8
    assert watched.correct == watched.wrong == watched.false_commands == 0, watched.heard
    assert watched.answered_again >= 5 > guarded.answered_again, (watched.answered_again,
                                                                  guarded.answered_again)
    assert watched.said_again == watched.answered_again, "asked only about what was said"


def test_in_a_lively_room_auto_falls_back_to_the_watched_guard_and_hushes_no_more() -> None:
    # The live room's echo keeps looking like the player: the game hushed itself for
    # nobody about every quarter-minute there on the tuning split. `auto` counts those
    # hushes and, once the room watch judges it lively, stops listening through its own
    # voice: from then on it neither hushes nor stops for what it hears.
    outcome = run(Job(LIVE_LOUD_ROOM, "auto", False, "tuning", "auto", "webrtc+speex", 150.0))
    assert outcome.fell_back_at is not None, outcome.false_hushed_at
    assert len(outcome.false_hushed_at) >= ROOM_LIMIT
    after = [at for at in outcome.hushed_at + outcome.stopped_at if at > outcome.fell_back_at]
    assert after == [], "hushed or stopped after falling back"
    assert outcome.listening_again_at == [], "nothing changed: the room is as lively"
    assert outcome.false_commands == 0


def test_with_headphones_put_on_after_the_fall_back_auto_listens_over_the_game_again() -> None:
    # The player did as the fall-back asked: from 100 s no echo reaches the microphone.
    # The room watch hears the game no more and `auto` listens over it again (the player
    # can interrupt it), and with nothing of the game coming back it never hushes for
    # nobody again.
    outcome = run(Job(LIVE_LOUD_ROOM, "auto", False, "tuning", "auto", "webrtc+speex", 150.0,
                      turned=(100.0, -math.inf)))
    assert outcome.fell_back_at is not None and outcome.fell_back_at < 100.0
    assert len(outcome.listening_again_at) == 1, outcome.listening_again_at
    again = outcome.listening_again_at[0]
    assert 100.0 < again < 130.0
    assert outcome.fell_back_times == [outcome.fell_back_at]
    assert [at for at in outcome.hushed_at + outcome.stopped_at if at > again] == []
    assert outcome.false_commands == 0


def test_in_a_quiet_room_auto_keeps_listening_over_the_game() -> None:
    # The mildest room, the player talking over the game: their own voice makes the game
    # hush (and stop) for them, and that is no reason to fall back. Auto is `always` there,
    # to the command.
    commands = commands_for("tuning", 12)

    def played(mode: str) -> Outcome:
        return run(Job(RoomCondition(0.2, 10.0, 0.0), mode, True, "tuning", "auto",
                       "webrtc+speex", None, commands))

    auto, always = played("auto"), played("always")
    assert auto.fell_back_at is None, auto.false_hushed_at
    assert auto.stopped_at, "the player interrupted the game"
    # At least a third heard right over the game. The figure moves with the narration's
    # render, which is not the same on every machine (the match one machine rendered in
    # round 28, sound digest 91ac0e5cc95f, is 479.5 s; round 22's, 1a6f27e10af4, about
    # 470.6 s), and with it which words the commands fall on: at least 6 of 12 wherever
    # the suite ran until round 28, 5 on that render, three times over. The room
    # benchmark has the figures; this asks that `auto` listens over the game at all, and
    # does as `always` does.
    assert auto.correct >= 4, auto.heard
    assert (auto.correct, auto.wrong, auto.stopped_at, auto.hushed_at) == \
        (always.correct, always.wrong, always.stopped_at, always.hushed_at)


def test_the_summary_of_the_games_default_alone_leads_with_its_figures(
        capsys: pytest.CaptureFixture[str]) -> None:
    # `--mode auto` alone: the JSON's figures are auto's, and when each room fell back is shown.
    import argparse

    from benchmarks.echo import report

    room = "RT60 0.8 s, 80 ms, echo +10 dB"
    outcomes = [Outcome("always", "always", "game silent", True, 60.0, commands=10, correct=8),
                Outcome("auto", "auto", room, False, 60.0, fell_back_at=49.0, false_hushes=6),
                Outcome("auto", "auto", room, True, 60.0, commands=10, correct=2, wrong=1,
                        fell_back_at=75.0, answered_again=5)]
    args = argparse.Namespace(narration_only=False, recognizer="whisper", canceller="webrtc",
                              split="tuning", no_mask=False, no_self_echo=False)
    summary = report(outcomes, args)
    assert summary["wrong_rate"] == pytest.approx(0.1)
    assert summary["accuracy_ratio"] == pytest.approx(0.25)
    assert f"| {room} | 49 s | 6 / 0, 0 | 75 s | 2 | 1 | 5 |" in capsys.readouterr().out
