"""The session as a player meets it: greeting, games, questions, settings by voice."""

from __future__ import annotations

import pytest

from tests.app_harness import Harness, WordPlayer
from voicespit.app.session import Mode


def started(harness: Harness) -> None:
    harness.session.greet("Type your commands.")
    harness.type("new game")
    harness.run(0.5)


def test_the_game_greets_and_says_how_to_start() -> None:
    harness = Harness()
    harness.session.greet("Listening on the microphone.")
    assert harness.lines() == [
        "VoiceSpit: Spit. Listening on the microphone. Say new game to start, or help."]


def test_new_game_deals_and_asks_for_ready_then_counts_down_to_the_spit() -> None:
    harness = Harness()
    started(harness)
    lines = harness.lines()
    assert any(line.startswith("New game of Spit") for line in lines)
    assert any(line.startswith("Round 1. Your cards:") for line in lines)
    mark = len(lines)
    harness.type("ready")
    harness.run(4.0)
    after = harness.lines_since(mark)
    assert after[:4] == ["Three.", "Two.", "One.", "Spit!"]


def test_a_move_that_breaks_a_rule_is_refused_with_its_reason_and_changes_nothing() -> None:
    harness = Harness()
    started(harness)
    before = harness.session.game.match.snapshot() if harness.session.game else None
    harness.type("seven on left")
    harness.run(0.2)
    assert harness.lines()[-1] in ("The round has not started: say spit first.",
                                   "You have no seven face up.")
    after = harness.session.game.match.snapshot() if harness.session.game else None
    assert before is not None and after is not None
    assert [len(p) for p in before.piles] == [len(p) for p in after.piles]


def test_words_that_are_not_a_command_are_met_with_say_again() -> None:
    harness = Harness()
    started(harness)
    harness.type("banana on the moon")
    assert harness.lines()[-1] == "Say again?"


def test_quitting_asks_first_pauses_while_asking_and_no_carries_on() -> None:
    harness = Harness()
    started(harness)
    harness.type("quit")
    harness.run(0.1)
    assert "Quit this game? Say yes or no." in harness.lines()
    assert harness.session.game is not None and harness.session.game.match.is_paused
    harness.type("no")
    harness.run(0.1)
    assert harness.lines()[-1] == "Go on."
    assert not harness.session.game.match.is_paused
    harness.type("quit")
    harness.type("yes")
    harness.run(0.1)
    assert harness.lines()[-1] == "Game stopped. Say new game to play again, or quit to leave."
    assert harness.session.mode is Mode.MENU


def test_leaving_asks_first_and_says_goodbye() -> None:
    harness = Harness()
    started(harness)
    harness.type("quit")
    harness.type("yes")
    harness.run(0.1)
    harness.type("quit")
    assert harness.lines()[-1] == "Leave VoiceSpit? Say yes or no."
    harness.type("yes")
    assert harness.lines()[-1] == "Goodbye." and harness.left


@pytest.mark.parametrize(("command", "change"), [("speak faster", 25), ("speak slower", -25)])
def test_speech_rate_changes_by_voice_and_is_remembered(command: str, change: int) -> None:
    harness = Harness()
    rate = harness.speaker.rate
    harness.type(command)
    assert harness.speaker.rate == rate + change
    assert harness.profile.settings["rate"] == str(rate + change)
    assert harness.saved, "the profile was saved"


def test_opponent_pace_changes_by_voice() -> None:
    harness = Harness(pace="brisk")
    started(harness)
    harness.type("slower")
    harness.run(0.1)
    assert any(line.startswith("Opponent") or "slower" in line.lower()
               for line in harness.lines()[-2:]), harness.lines()[-3:]
    assert harness.pace.seconds_per_card > 2.0


def test_information_commands_answer_from_the_table() -> None:
    harness = Harness()
    started(harness)
    harness.type("my cards")
    assert harness.lines()[-1].startswith("Your cards: ")
    harness.type("count")
    assert harness.lines()[-1] == "Cards left: you 26, opponent 26."


def test_commands_for_a_game_when_no_game_is_on_say_how_to_start_one() -> None:
    harness = Harness()
    harness.type("seven on left")
    assert harness.lines()[-1] == "No game is on. Say new game to start."


def test_keys_work_as_shortcuts_for_typed_play() -> None:
    harness = Harness()
    harness.type(" ")  # space: new game
    harness.run(0.5)
    assert any(line.startswith("New game of Spit") for line in harness.lines())
    harness.type("?")
    assert "Keys: 1 to 5" in harness.lines()[-1]


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_a_whole_match_typed_against_the_opponent_ends_and_counts_in_the_profile(game: str) -> None:
    harness = Harness(game=game, pace="brisk", seed=5)
    started(harness)
    player = WordPlayer(harness, harness.type, delay=1.2, seed=2, mistakes=0.2)
    player.start()
    for _ in range(20_000):
        harness.run(1.0)
        game_state = harness.session.game
        if game_state is not None and game_state.ended:
            break
    text = harness.text
    assert "Game over:" in text, text[-2000:]
    assert "Play again? Say yes or no." in text
    assert harness.profile.games == 1
    assert harness.profile.cards_played > 0
    assert harness.profile.opponent_seconds_per_card == pytest.approx(2.0)
    refused = [line for line in harness.lines() if "cannot go there" in line]
    assert refused, "the player's mistakes were refused with a reason"
    harness.type("yes")
    harness.run(0.5)
    assert harness.session.games_started == 2


def test_detail_changes_by_voice_and_is_remembered() -> None:
    harness = Harness()
    harness.type("less detail")
    assert harness.lines()[-1] == "Detail: terse."
    assert harness.profile.settings["verbosity"] == "terse"
    harness.type("less detail")
    assert harness.lines()[-1] == "That is already the least."
    harness.type("more detail")
    harness.type("more detail")
    assert harness.lines()[-1] == "Detail: full."


def test_help_by_topic_lists_every_command_of_that_topic() -> None:
    harness = Harness()
    harness.type("what can i say about control")
    spoken = harness.lines()[-1]
    assert spoken.startswith("Control. ") and "more detail: " in spoken and "speed up: " in spoken
    harness.type("help moves")
    assert harness.lines()[-1].startswith("Moves. seven on left: ")


def test_a_command_lost_while_the_game_was_talking_is_answered_never_silent() -> None:
    harness = Harness()
    started(harness)
    harness.session.handle_dropped()
    assert harness.lines()[-1] == "I was talking: say it again."


def test_say_again_after_the_player_cut_an_announcement_short_says_that_announcement() -> None:
    from voicespit.narration import Announcement

    harness = Harness()
    started(harness)
    cut = Announcement("Left: nine (opponent).", "pile:left")
    harness.announcer.cut_by_player(cut)
    harness.type("say again")
    assert harness.lines()[-1] == "Left: nine (opponent)."
