"""The session as a player meets it: greeting, games, questions, settings by voice."""

from __future__ import annotations

import pytest

from tests.app_harness import Harness, WordPlayer
from tests.test_help import all_pages
from voicespit.app.misses import FAINT_HINT, MISSED_HINT, MISSES_BEFORE_A_HINT
from voicespit.app.session import Mode
from voicespit.engine import actions as act
from voicespit.engine.actions import PILE_NAMES
from voicespit.engine.speed import SpeedState
from voicespit.engine.spit import SpitState
from voicespit.narration.announcement import Verbosity
from voicespit.narration.answers import what_fits


def started(harness: Harness) -> None:
    harness.session.greet("by keyboard", by_voice=False)
    harness.type("new game")
    harness.run(0.5)


def test_the_greeting_is_two_short_sentences_and_the_details_wait_to_be_asked_for() -> None:
    harness = Harness()
    details = ("Using PocketSphinx: no English Vosk model is installed in models. Listening on "
               "USB mic, 48000 Hz -> 16000 Hz. I stop listening while I speak.")
    harness.session.greet("by voice with PocketSphinx", by_voice=True, details=details)
    assert harness.lines() == ["VoiceSpit Spit, by voice with PocketSphinx. Say new game to start."]
    harness.type("how do you hear me")
    assert harness.lines()[-1].startswith(details)
    assert "Detail: normal. Speech: 175 words a minute." in harness.lines()[-1]


def test_new_game_deals_and_asks_for_ready_then_counts_down_to_the_spit() -> None:
    harness = Harness()
    started(harness)
    lines = harness.lines()
    assert any(line.startswith("New game of Spit") for line in lines)
    assert lines[-1].startswith("Round 1. Your cards:") and lines[-1].endswith(" Say ready.")
    mark = len(lines)
    harness.type("ready")
    harness.run(4.0)
    after = harness.lines_since(mark)
    assert after[:5] == ["Ready.", "Three.", "Two.", "One.", "Spit!"]


def test_the_game_is_chosen_by_voice_and_stays_chosen_until_asked_again() -> None:
    harness = Harness()
    harness.session.greet("by voice", by_voice=True)
    harness.type("play speed")
    harness.run(0.5)
    assert any(line.startswith("New game of Speed") for line in harness.lines())
    game = harness.session.game
    assert game is not None and isinstance(game.match.snapshot(), SpeedState)
    assert harness.lines()[-1].endswith("Say ready.")
    harness.type("play spit")
    assert harness.lines()[-1] == "Play spit? A game is on: say quit to stop it first."
    assert harness.session.game is game
    assert "Say play spit to play Spit instead." in all_pages(harness, "help")
    harness.type("quit game")
    harness.type("yes")
    harness.run(0.5)
    harness.type("new game")
    harness.run(0.5)
    game = harness.session.game
    assert game is not None and isinstance(game.match.snapshot(), SpeedState), "still Speed"
    harness.type("quit game")
    harness.type("yes")
    harness.run(0.5)
    harness.type("play spit")
    harness.run(0.5)
    game = harness.session.game
    assert game is not None and isinstance(game.match.snapshot(), SpitState)
    assert any(line.startswith("New game of Spit") for line in harness.lines()[-3:])


def test_a_move_that_breaks_a_rule_is_refused_with_its_reason_and_changes_nothing() -> None:
    harness = Harness()
    started(harness)
    before = harness.session.game.match.snapshot() if harness.session.game else None
    harness.type("seven on left")
    harness.run(0.2)
    assert harness.lines()[-1] in ("Seven on left? The round has not started: say ready first.",
                                   "Seven on left? You have no seven face up.")
    after = harness.session.game.match.snapshot() if harness.session.game else None
    assert before is not None and after is not None
    assert [len(p) for p in before.piles] == [len(p) for p in after.piles]


def test_typed_words_that_are_not_a_command_are_named() -> None:
    harness = Harness()
    started(harness)
    harness.type("banana on the moon")
    assert harness.lines()[-1] == \
        "Banana on the moon? That is not a command: type help for the commands."


def test_say_again_is_only_for_when_nothing_usable_was_heard() -> None:
    harness = Harness()
    started(harness)
    harness.session.handle_unheard()
    assert harness.lines()[-1] == "Say again?"
    harness.session.handle_unheard("[unk]")
    assert harness.lines()[-1] == "Say again?"
    harness.session.handle_text("seven banana", spoken=True)
    assert harness.lines()[-2:] == ["Heard seven banana. Say again?", MISSED_HINT]
    assert harness.profile.commands_misheard == 3


def test_three_misses_in_a_row_bring_a_hint_and_a_command_heard_starts_the_count_again(
        ) -> None:
    harness = Harness()
    started(harness)
    for _ in range(MISSES_BEFORE_A_HINT - 1):
        harness.session.handle_unheard()
    harness.session.handle_text("my cards", spoken=True)  # heard: the count starts again
    for _ in range(MISSES_BEFORE_A_HINT - 1):
        harness.session.handle_unheard()
    assert MISSED_HINT not in harness.lines()
    harness.session.handle_unheard()
    assert harness.lines()[-2:] == ["Say again?", MISSED_HINT]
    # Not after every miss from then on: after the next three.
    mark = len(harness.lines())
    for _ in range(MISSES_BEFORE_A_HINT - 1):
        harness.session.handle_unheard()
    assert MISSED_HINT not in harness.lines_since(mark)
    harness.session.handle_unheard()
    assert harness.lines()[-1] == MISSED_HINT
    # Typing is not hearing: a typed command does not start the count again.
    harness.type("my cards")
    harness.session.handle_unheard()
    assert harness.session.misses.in_a_row == MISSES_BEFORE_A_HINT * 2 + 1


def test_misses_of_speech_close_to_the_room_bring_the_hint_about_noise() -> None:
    # What the recognizer measured of each missed utterance (`app.misses`): a voice that
    # stood 18 dB above the room, three times, is a room or a microphone too far away.
    harness = Harness()
    started(harness)
    for _ in range(MISSES_BEFORE_A_HINT):
        harness.session.handle_unheard(measured={"above_floor_db": 18.0, "clipped_share": 0.0})
    assert harness.lines()[-2:] == ["Say again?", FAINT_HINT]


def test_quitting_asks_first_pauses_while_asking_and_no_carries_on() -> None:
    harness = Harness()
    started(harness)
    harness.type("quit")
    harness.run(0.1)
    assert "Quit this game? Say yes or no." in harness.lines()
    assert harness.session.game is not None and harness.session.game.match.is_paused
    harness.type("no")
    harness.run(0.1)
    assert harness.lines()[-1] == "Go on. Say ready."
    assert not harness.session.game.match.is_paused
    harness.type("quit")
    harness.type("yes")
    harness.run(0.1)
    assert harness.lines()[-1] == "Game stopped. Say new game to play again, or quit to leave."
    assert harness.session.mode is Mode.MENU


@pytest.mark.parametrize("resume", [["pause game", "continue"], ["quit", "no"]])
def test_resuming_before_ready_asks_for_ready_again(resume: list[str]) -> None:
    # The deal waits for the player: "Go on." alone would leave both waiting.
    harness = Harness()
    started(harness)
    assert harness.lines()[-1].endswith("Say ready.")
    for command in resume:
        harness.type(command)
        harness.run(0.1)
    assert harness.lines()[-1] == "Go on. Say ready."
    harness.type("ready")
    harness.run(0.1)
    harness.type("pause game")
    harness.run(0.1)
    harness.type("continue")
    harness.run(0.1)
    assert "Go on." in harness.lines() and "Go on. Say ready." not in harness.lines()[-3:]


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


def test_the_volume_steps_down_and_up_by_voice_within_bounds_and_is_remembered() -> None:
    harness = Harness()
    assert harness.speaker.volume == 1.0, "the default is full volume"
    harness.type("louder")
    assert harness.lines()[-1] == "Volume up? That is as loud as I play."
    assert "volume" not in harness.profile.settings
    harness.type("turn it down")
    assert harness.lines()[-1] == "Volume 6 of 7."
    assert harness.speaker.volume == pytest.approx(10 ** (-4 / 20), rel=1e-3)
    assert float(harness.profile.settings["volume"]) == pytest.approx(harness.speaker.volume,
                                                                      rel=1e-3)
    assert harness.saved, "the profile was saved"
    for _ in range(5):
        harness.type("quieter")
    assert harness.lines()[-1] == "Volume 1 of 7."
    harness.type("quieter")
    assert harness.lines()[-1] == "Volume down? That is as quiet as I play."
    assert harness.speaker.volume == pytest.approx(10 ** (-24 / 20), rel=1e-3), \
        "never silent: the player could not hear the way back"
    harness.type("volume up")
    assert harness.lines()[-1] == "Volume 2 of 7."


def test_the_game_changes_its_voice_by_voice_in_turn_and_remembers_it() -> None:
    harness = Harness()
    choices = harness.speaker.voice_choices()
    assert len(choices) > 1 and harness.speaker.voice_for(None) == choices[0]
    opponent = harness.speaker.voice_for(1)
    harness.type("change voice")
    assert harness.lines()[-1] == f"This is voice 2 of {len(choices)}."
    assert harness.speaker.voice_for(None) == harness.speaker.voice_for(0) == choices[1]
    assert harness.speaker.voice_for(1) == opponent, "the opponent keeps its own voice"
    assert harness.profile.settings["voice"] == choices[1].name
    assert harness.saved
    for _ in range(len(choices) - 1):
        harness.type("another voice")
    assert harness.lines()[-1] == f"This is voice 1 of {len(choices)}.", "round to the first"
    assert harness.speaker.voice_for(None) == choices[0]
    assert harness.profile.settings["voice"] == ""


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
    assert harness.lines()[-1] == "Cards left: you 26, opponent 26. Say ready."
    harness.type("ready")
    harness.run(5.0)
    harness.type("count")
    assert harness.lines()[-1].endswith(" Piles: left 1, right 1."), "how tall the piles stand"
    harness.session.handle_text("what can i play", spoken=True)
    answer = harness.lines()[-1]
    state = harness.session.game.match.snapshot() if harness.session.game else None
    assert state is not None and answer == what_fits(state, 0), answer
    assert answer.startswith(("Your ", "None of your cards fits")), answer


@pytest.mark.parametrize(("typed", "answer"), [
    ("cards", "Your cards: "), ("Cards.", "Your cards: "), ("the piles", "Left: "),
    ("score", "Round 1. Cards left:"), ("opponent", "Your opponent's cards: "),
    ("face down", "Face down under your stockpiles"), ("cards left", "Cards left: you 25")])
def test_the_short_forms_a_typist_reaches_for_are_answered_not_refused(typed: str,
                                                                       answer: str) -> None:
    harness = Harness()
    started(harness)
    harness.type("ready")
    harness.run(5.0)
    harness.type(typed)
    assert harness.lines()[-1].startswith(answer), harness.lines()[-1]


def test_a_short_form_only_a_typist_uses_is_not_a_spoken_command() -> None:
    harness = Harness()
    started(harness)
    harness.session.handle_text("cards", spoken=True)
    assert harness.lines()[-1] == "Heard cards. Say again?"


def test_commands_for_a_game_when_no_game_is_on_say_how_to_start_one() -> None:
    harness = Harness()
    for said in ("seven on left", "my cards", "pause game"):
        harness.type(said)
        assert harness.lines()[-1] == f"{said.capitalize()}? No game is on: say new game to start."
    harness.type("1")
    assert harness.lines()[-1] == \
        "Stockpile one on left? No game is on: say new game to start."


@pytest.mark.parametrize("after_a_game", [False, True])
def test_ready_with_no_game_on_starts_one_as_the_go_key_does(after_a_game: bool) -> None:
    harness = Harness()
    harness.session.greet("by voice", by_voice=True)
    if after_a_game:
        started(harness)
        harness.type("quit")
        harness.type("yes")
        harness.run(0.5)
        assert harness.session.game is not None and harness.session.game.ended
    mark = len(harness.lines())
    harness.session.handle_text("i'm ready", spoken=True)
    harness.run(0.5)
    after = harness.lines_since(mark)
    assert any(line.startswith("New game of Spit") for line in after), after
    assert after[-1].endswith(" Say ready.")
    assert harness.session.games_started == 1 + after_a_game
    mark = len(harness.lines())
    harness.type("ready")
    harness.run(4.0)
    assert "Spit!" in harness.lines_since(mark)


def test_keys_work_as_shortcuts_for_typed_play() -> None:
    harness = Harness()
    harness.type(" ")  # space: new game
    harness.run(0.5)
    assert any(line.startswith("New game of Spit") for line in harness.lines())
    harness.type("?")
    assert harness.lines()[-1].startswith("Keys 1 to 5 play stockpile one to five")


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
    # "Play again?" is answered "yes", or in the player's own words.
    harness.type("yes" if game == "spit" else "play again")
    harness.run(0.5)
    assert harness.session.games_started == 2
    new = harness.session.game
    assert harness.session.question is None and new is not None and not new.ended


def test_the_adaptive_pace_settling_after_the_game_leaves_the_question_last() -> None:
    harness = Harness(pace="adaptive", seed=12)
    started(harness)
    WordPlayer(harness, harness.type, delay=1.5, seed=12).start()
    for _ in range(20_000):
        harness.run(1.0)
        game_state = harness.session.game
        if game_state is not None and game_state.ended:
            break
    harness.run(5.0)
    lines = harness.lines()
    assert any(line.startswith("Opponent pace:") for line in lines[lines.index(
        "Play again? Say yes or no."):]), "the pace was told after the question"
    assert lines[-1] == "Play again? Say yes or no."


def test_detail_changes_by_voice_and_is_remembered() -> None:
    harness = Harness()
    harness.type("less detail")
    assert harness.lines()[-1] == "Detail: terse."
    assert harness.profile.settings["verbosity"] == "terse"
    harness.type("less detail")
    assert harness.lines()[-1] == "Less detail? That is already the least."
    harness.type("more detail")
    harness.type("more detail")
    assert harness.lines()[-1] == "Detail: full."


def test_help_by_topic_lists_every_command_of_that_topic() -> None:
    harness = Harness()
    spoken = all_pages(harness, "what can i say about control")
    assert spoken.startswith("Control. ") and "More detail: " in spoken and "Speed up: " in spoken
    assert all_pages(harness, "help moves").startswith("Moves. Seven on left: ")


# --------------------------------------- playing by ear: no command meets silence


def test_a_question_is_the_last_thing_said_and_say_again_repeats_it() -> None:
    harness = Harness()
    started(harness)
    harness.type("quit")
    harness.run(0.1)
    assert harness.lines()[-2:] == ["Paused.", "Quit this game? Say yes or no."]
    harness.type("say again")
    assert harness.lines()[-1] == "Quit this game? Say yes or no."
    harness.type("no")
    harness.run(0.1)
    assert harness.lines()[-1] == "Go on. Say ready."


def test_quitting_while_paused_asks_at_once_and_no_leaves_the_game_paused() -> None:
    harness = Harness()
    started(harness)
    harness.type("pause game")
    harness.run(0.1)
    harness.type("quit")
    harness.run(0.1)
    assert harness.lines()[-2:] == ["Paused.", "Quit this game? Say yes or no."]
    harness.type("no")
    harness.run(0.1)
    assert harness.lines()[-1] == "Still paused: say continue to play on."
    assert harness.session.game is not None and harness.session.game.match.is_paused


def test_say_again_repeats_the_last_thing_said_even_before_a_game() -> None:
    harness = Harness()
    harness.session.greet("by keyboard", by_voice=False)
    harness.type("say again")
    assert harness.lines()[-1] == harness.lines()[-2]
    harness.type("banana")
    harness.type("say again")
    assert harness.lines()[-1] == harness.lines()[0], "never a repeat of a 'say again'"


@pytest.mark.parametrize(("commands", "answer"), [
    (["continue"], "Continue? The game is not paused."),
    (["pause game", "pause game"], "Pause game? The game is already paused: say continue to "
                                   "play on."),
    (["yes"], "Yes? There is no question to answer."),
    (["new game"], "New game? A game is on: say quit to stop it first."),
])
def test_a_command_that_does_nothing_says_what_was_heard_and_why(commands: list[str],
                                                                 answer: str) -> None:
    harness = Harness(pace="gentle")
    started(harness)
    for command in commands:
        harness.type(command)
        harness.run(0.1)
    assert harness.lines()[-1] == answer


def test_ready_during_the_countdown_is_answered() -> None:
    harness = Harness()
    started(harness)
    harness.type("ready")
    harness.run(0.1)
    harness.run(0.5)
    harness.type("ready")
    harness.run(0.01)
    assert harness.lines()[-1] in ("Ready? The countdown is already on.",
                                   "Ready? You are ready: waiting for your opponent.")


def test_speed_up_is_answered_at_terse() -> None:
    harness = Harness(pace="brisk", verbosity=Verbosity.TERSE)
    started(harness)
    harness.type("speed up")
    harness.run(0.1)
    said = harness.lines()[-1]
    assert said.startswith("Opponent pace: ") and said.endswith(" faster on request."), said


@pytest.mark.parametrize("echo", [True, False])
def test_at_full_detail_a_spoken_move_may_be_echoed_before_what_it_did(echo: bool) -> None:
    harness = Harness(verbosity=Verbosity.FULL, echo_plays=echo, pace="gentle")
    started(harness)
    harness.type("ready")
    harness.run(5.0)
    game = harness.session.game
    assert game is not None
    for _ in range(200):  # until a card of yours fits
        state = game.match.snapshot()
        plays = [action for action in state.legal_actions(0) if isinstance(action, act.Play)]
        if plays:
            break
        harness.run(0.5)
    play = plays[0]
    assert isinstance(state, SpitState)
    top = state.stock_top(0, play.stock)
    assert top is not None
    words = f"{top.rank_name} on {PILE_NAMES[play.pile]}"
    mark = len(harness.lines())
    harness.session.handle_text(words, spoken=True)
    harness.run(0.1)
    after = harness.lines_since(mark)
    played = f"{PILE_NAMES[play.pile].capitalize()}: {top.rank_name} (you)."
    assert played in after
    if echo:
        assert after[after.index(played) - 1] == f"Heard {words}."
    else:
        assert not any(line.startswith("Heard") for line in after)
    harness.session.handle_text("slap left", spoken=True)
    harness.run(0.1)
    assert harness.lines()[-1].startswith("Slap left? "), "a refusal names it anyway"


def test_a_command_lost_while_the_game_was_talking_is_answered_never_silent() -> None:
    harness = Harness()
    started(harness)
    harness.session.handle_dropped()
    assert harness.lines()[-1] == "I was talking: say it again."


def test_say_again_after_the_player_cut_an_announcement_short_says_that_announcement() -> None:
    from voicespit.narration.announcement import Announcement

    harness = Harness()
    started(harness)
    cut = Announcement("Left: nine (opponent).", "pile:left")
    harness.announcer.cut_by_player(cut)
    harness.type("say again")
    assert harness.lines()[-1] == "Left: nine (opponent)."
