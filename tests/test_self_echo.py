"""A command that only says what the game was saying around it is refused as its own echo."""

from __future__ import annotations

import threading

import pytest

from voicespit.app.preferences import step_volume
from voicespit.audio.speaker import RecordingSpeaker
from voicespit.profile import Profile
from voicespit.speech.listening.near_end import FRAME_SECONDS, NearEndEvidence
from voicespit.speech.listening.self_echo import (
    EARLY,
    LATE,
    Spoken,
    SpokenWords,
    is_self_echo,
    refused_if_echo,
    timed_sentences,
)
from voicespit.speech.recognizer import Recognition


def spoken_match() -> SpokenWords:
    """The game's words as a match plays them (clock seconds), from the room benchmark's
    narration: the countdown, then pile and stockpile news."""
    spoken = SpokenWords()
    for text, start, end in (("Three.", 10.0, 10.4), ("Two.", 11.0, 11.4), ("One.", 12.0, 12.4),
                             ("Spit!", 13.0, 13.4), ("Stock five shows a three.", 20.0, 21.0),
                             ("Left: seven. Right: eight (opponent).", 30.0, 32.0)):
        spoken.played(text, start, end)
    return spoken


def final(text: str, start: float, end: float) -> Recognition:
    return Recognition(text, True, 0.9, start, end, end + 0.2)


def test_the_game_saying_a_rank_makes_that_rank_heard_back_its_own() -> None:
    spoken = spoken_match()
    assert is_self_echo("three", spoken.between(9.5, 10.5))
    assert is_self_echo("five", spoken.between(20.0, 21.0))  # "stock five" says it too
    assert is_self_echo("seven left", spoken.between(30.0, 32.0))
    assert is_self_echo("eight on right", spoken.between(30.0, 32.0))


def test_what_the_game_did_not_say_is_not_its_echo() -> None:
    spoken = spoken_match()
    assert not is_self_echo("six on left", spoken.between(30.0, 32.0))
    assert not is_self_echo("seven on right", spoken.between(30.0, 32.0))  # two sentences
    assert not is_self_echo("four", spoken.between(9.5, 13.5))
    assert not is_self_echo("spit", spoken.between(9.5, 12.5))  # "Spit!" came later
    assert not is_self_echo("gibberish words", spoken.between(0.0, 40.0))


def test_each_word_is_timed_within_its_announcement_and_sentence() -> None:
    # espeak-ng's own word ends in "Say new game to start." at 175 words a minute, from
    # renders of each prefix: say 0.30, new 0.54, game 0.79, to 0.96, start 1.20 s.
    sentences = timed_sentences(Spoken("Say new game to start.", 10.0, 11.2))
    assert [[timed.word for timed in sentence] for sentence in sentences] == [
        ["say", "new", "game", "to", "start"]]
    ends = [timed.end - 10.0 for timed in sentences[0]]
    for estimated, rendered in zip(ends, (0.30, 0.54, 0.79, 0.96, 1.20), strict=True):
        assert abs(estimated - rendered) <= 0.15, (ends, estimated, rendered)
    left, right = timed_sentences(Spoken("Left: seven. Right: eight (opponent).", 30.0, 32.0))
    assert [timed.word for timed in left] == ["left", "seven"]
    assert [timed.word for timed in right] == ["right", "eight", "opponent"]
    assert 30.0 == left[0].start < left[-1].end < right[0].start < right[-1].end
    assert right[-1].end == pytest.approx(32.0)
    assert timed_sentences(Spoken("", 1.0, 2.0)) == []


def test_a_command_said_after_the_game_said_its_words_is_the_players() -> None:
    # The greeting's last words are still playing when the player answers it: "new game"
    # heard then is theirs; heard while the game says "new game", it may be the game's.
    greeting = [Spoken("Say new game to start.", 10.0, 11.2)]
    game_said = timed_sentences(greeting[0])[0][2].end  # "game"
    assert not is_self_echo("new game", greeting, (game_said + LATE + 0.05, 11.6))
    assert is_self_echo("new game", greeting, (game_said + LATE - 0.05, 11.6))
    assert is_self_echo("new game", greeting, (10.2, 10.9))
    assert is_self_echo("new game", greeting)  # when said unknown: the words alone
    # A rank said at the start of an answer that names it near its end was said first.
    answer = [Spoken("A wrong command? Right shows a queen; a nine cannot go there.",
                     35.7, 39.1)]
    assert not is_self_echo("nine", answer, (35.74, 36.46))
    nine = next(timed for sentence in timed_sentences(answer[0]) for timed in sentence
                if timed.word == "nine")
    assert is_self_echo("nine", answer, (nine.start - EARLY + 0.05, nine.start + 0.5))
    assert not is_self_echo("nine", answer, (nine.start - EARLY - 0.6, nine.start - EARLY - 0.05))


def test_asking_for_your_cards_just_after_the_game_said_them_is_not_its_echo() -> None:
    # "cards" means "my cards" only when typed (parser.TYPED_SHORTHANDS): read in the
    # game's words, the deal would make "my cards" heard after it the game's own.
    dealt = [Spoken("Round 1. Your cards: nine, king, five, two, ace. Say ready.", 0.0, 4.0)]
    assert not is_self_echo("my cards", dealt)


def test_a_second_step_of_the_volume_said_over_the_answer_to_the_first_is_not_its_echo() -> None:
    # The answer names the level, not the command ("Volume 6 of 7.", not "Quieter: ..."),
    # so a player stepping twice can talk over it.
    answer = step_volume(RecordingSpeaker(), Profile(), louder=False)
    for command in ("quieter", "volume down", "turn it down", "louder", "volume up"):
        assert not is_self_echo(command, [Spoken(answer, 0.0, 1.0)]), (command, answer)


def test_only_the_words_around_the_command_count() -> None:
    spoken = spoken_match()
    assert spoken.between(14.0, 19.0) == []
    assert [s.text for s in spoken.between(12.2, 13.1)] == ["One.", "Spit!"]


def test_a_command_heard_just_after_the_game_said_it_is_refused_and_says_why() -> None:
    spoken = spoken_match()
    # The recognizer's stream starts at clock time 5.0: "three" at stream 5.5 is clock 10.5.
    refused = refused_if_echo(final("three", 5.5, 5.9), spoken, offset=5.0)
    assert refused.rejected and refused.scores == {"self_echo": 1.0}
    assert refused.text == "three"  # what was heard is kept (the log, "didn't catch three")


def test_a_command_said_while_the_game_was_silent_passes_as_it_is() -> None:
    spoken = spoken_match()
    heard = final("three", 12.0, 12.5)  # clock 17.0: nothing said for 3.5 s
    assert refused_if_echo(heard, spoken, offset=5.0) is heard
    other = final("nine on left", 25.2, 25.9)  # clock 30.2, during "Left: seven..."
    assert refused_if_echo(other, spoken, offset=5.0) is other


def evidence_of(game_audible_until: float) -> NearEndEvidence:
    """Frame judgements for stream seconds 0 to 10: the game (or its echo in the room)
    audible until `game_audible_until`, nobody's voice judged loud."""
    evidence = NearEndEvidence()
    frames = round(10.0 / FRAME_SECONDS)
    for index in range(frames):
        at = index * FRAME_SECONDS
        evidence.record(at, [False], game_audible=at < game_audible_until)
    return evidence


def test_the_answer_to_a_prompt_said_once_the_game_is_quiet_is_the_players() -> None:
    # "Quit this game? Say yes or no." ends at clock 41.0 (stream 1.0); the player says
    # "yes" at once, at stream 1.4. The words are the game's own, but no sound of the
    # game's could be in it: the game, and its echo in the room, had stopped.
    spoken = SpokenWords()
    spoken.played("Quit this game? Say yes or no.", 39.5, 41.0)
    answer = final("yes", 1.1, 1.4)
    assert refused_if_echo(answer, spoken, offset=40.0).rejected  # by the words alone
    assert refused_if_echo(answer, spoken, offset=40.0, evidence=evidence_of(1.05)) is answer
    # Its echo still lingering in the room while "yes" began: it may be the game's.
    lingering = refused_if_echo(answer, spoken, offset=40.0, evidence=evidence_of(1.2))
    assert lingering.rejected and lingering.scores == {"self_echo": 1.0}
    # Nothing judged about that stretch: the words decide, as without evidence.
    unjudged = refused_if_echo(final("yes", 11.1, 11.4), spoken, offset=30.0,
                               evidence=evidence_of(1.05))
    assert unjudged.rejected


def test_partial_and_already_refused_results_are_left_alone() -> None:
    spoken = spoken_match()
    partial = Recognition("three", False, None, 5.5, None, 5.9)
    assert refused_if_echo(partial, spoken, offset=5.0) is partial
    unsure = Recognition("three", True, 0.2, 5.5, 5.9, 6.0, rejected=True)
    assert refused_if_echo(unsure, spoken, offset=5.0) is unsure


def test_the_speaker_thread_can_report_while_the_listener_reads() -> None:
    spoken = SpokenWords(keep=16)

    def speak() -> None:
        for index in range(2000):
            spoken.played("Left: seven.", float(index), index + 0.5)

    writer = threading.Thread(target=speak)
    writer.start()
    while writer.is_alive():
        assert len(spoken.between(0.0, 1e9)) <= 16
    writer.join()
    assert [s.start for s in spoken.between(1990.0, 1e9)] == [1990.0 + i for i in range(10)]
