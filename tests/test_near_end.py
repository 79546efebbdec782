"""The share of a command's frames that the talk detector judged the player's voice."""

from __future__ import annotations

import dataclasses

import pytest

from voicespit.speech.listening.near_end import (
    FRAME_SECONDS,
    NearEndEvidence,
    refused_if_disputed_over_the_game,
    refused_if_tie_broken_over_the_game,
    refused_if_unvoiced,
)
from voicespit.speech.recognizer import Recognition


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


def heard(text: str, start: float, end: float) -> Recognition:
    return Recognition(text=text, is_final=True, confidence=0.9, speech_start=start,
                       speech_end=end, emitted_at=end + 0.3)


def test_a_command_around_the_games_voice_needs_some_frames_of_a_voice_not_the_games() -> None:
    evidence = NearEndEvidence()
    evidence.record(10.0, [False] * 50, game_audible=True)  # the game speaks: 10.0 .. 10.5
    evidence.record(10.5, [False] * 47 + [True] * 3, game_audible=False)  # its room's tail
    residual = refused_if_unvoiced(heard("yeah", 10.5, 11.0), evidence, 0.10, before=1.0)
    assert residual.rejected and residual.scores is not None
    assert residual.scores["near_end"] == 1.0
    assert residual.scores["near_end_share"] == pytest.approx(3 / 50)
    evidence.record(11.0, [True] * 30 + [False] * 20, game_audible=False)
    player = refused_if_unvoiced(heard("seven", 11.0, 11.5), evidence, 0.10, before=1.0)
    assert not player.rejected, "three fifths of it was a voice that is not the game's"


def test_without_the_game_around_the_share_is_not_asked() -> None:
    evidence = NearEndEvidence()
    evidence.record(10.0, [False] * 100, game_audible=False)  # a quiet player, a quiet room
    result = refused_if_unvoiced(heard("seven", 10.2, 10.7), evidence, 0.10, before=1.0)
    assert not result.rejected and result.scores is None


def test_pocketsphinx_breaks_no_tie_on_audio_the_game_was_heard_in() -> None:
    evidence = NearEndEvidence()
    evidence.record(10.0, [False] * 50, game_audible=True)  # the game speaks: 10.0 .. 10.5
    evidence.record(10.5, [True] * 100, game_audible=False)  # then only the player: .. 11.5
    broken = dataclasses.replace(heard("ace on left", 10.4, 10.9), scores={"tie_broken": 1.0})
    over = refused_if_tie_broken_over_the_game(broken, evidence, before=1.0)
    assert over.rejected and over.scores is not None and over.scores["tie_broken_over_game"] == 1.0
    later = dataclasses.replace(broken, speech_start=12.0, speech_end=12.5)
    assert not refused_if_tie_broken_over_the_game(later, evidence, before=1.0).rejected, \
        "with the game silent the tie-break stands"
    own = dataclasses.replace(broken, scores={"tie_broken": 0.0})
    assert not refused_if_tie_broken_over_the_game(own, evidence, before=1.0).rejected, \
        "Whisper's own choice is not this check's to refuse"


def whisper_heard(text: str, start: float, end: float, margin: float,
                  agrees: float) -> Recognition:
    return dataclasses.replace(heard(text, start, end),
                               scores={"margin": margin, "pocketsphinx_agrees": agrees})


def test_over_the_game_a_command_pocketsphinx_disputes_needs_a_clear_lead() -> None:
    evidence = NearEndEvidence()
    evidence.record(10.0, [False] * 50, game_audible=True)  # the game speaks: 10.0 .. 10.5
    evidence.record(10.5, [True] * 200, game_audible=False)  # then only the player: .. 12.5

    def judged(result: Recognition) -> Recognition:
        return refused_if_disputed_over_the_game(result, evidence, before=1.0, lead=2.5)

    disputed = judged(whisper_heard("nine", 10.4, 10.9, margin=2.0, agrees=0.0))
    assert disputed.rejected and disputed.scores is not None
    assert disputed.scores["disputed_over_game"] == 1.0 and disputed.scores["margin"] == 2.0
    unasked = judged(whisper_heard("nine", 10.4, 10.9, margin=2.0, agrees=float("nan")))
    assert unasked.rejected, "PocketSphinx not asked: nothing confirms the command either"
    assert not judged(whisper_heard("nine", 10.4, 10.9, margin=2.5, agrees=0.0)).rejected, \
        "a clear lead stands on its own"
    assert not judged(whisper_heard("nine", 10.4, 10.9, margin=0.3, agrees=1.0)).rejected, \
        "both engines heard it"
    assert not judged(whisper_heard("nine", 12.0, 12.4, margin=0.3, agrees=0.0)).rejected, \
        "with the game silent, Whisper's own acceptance decides"
    other_engine = heard("nine", 10.4, 10.9)  # PocketSphinx or Vosk: no lead to judge
    assert judged(other_engine) is other_engine
    refused = dataclasses.replace(whisper_heard("nine", 10.4, 10.9, 0.3, 0.0), rejected=True)
    assert judged(refused) is refused
