"""The decision on commands heard while the game could be heard (`over_game`)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from voicespit.speech import logistic
from voicespit.speech.listening import over_game
from voicespit.speech.listening.near_end import NearEndEvidence
from voicespit.speech.listening.over_game import (
    FEATURES,
    OverGameModel,
    decided,
    evidence,
    shares_if_asked,
)
from voicespit.speech.recognizer import Recognition


def whisper_final(text: str, margin: float, rejected: bool) -> Recognition:
    return Recognition(text=text, is_final=True, confidence=0.6, rejected=rejected,
                       speech_start=1.0, speech_end=1.4, emitted_at=1.6,
                       scores={"margin": margin, "deficit_per_token": 1.0,
                               "speech_seconds": 0.4, "above_floor_db": 20.0,
                               "pocketsphinx_agrees": 1.0})


def by_lead(threshold: float = 0.5) -> OverGameModel:
    """A model that goes by Whisper's lead alone: sure above a lead of 1."""
    weights = np.zeros(len(FEATURES))
    weights[FEATURES.index("lead")] = 4.0
    return OverGameModel(np.zeros(len(FEATURES)), np.ones(len(FEATURES)), weights, -4.0,
                         threshold)


def test_a_command_whisper_doubted_is_taken_when_the_model_is_sure_and_the_reverse() -> None:
    taken = decided(whisper_final("seven", 2.0, rejected=True), by_lead(),
                    whisper_accepts=False, near_end_share=0.4, audible_share=1.0)
    assert not taken.rejected and taken.scores is not None and taken.scores["over_game"] > 0.9
    refused = decided(whisper_final("seven", 0.2, rejected=False), by_lead(),
                      whisper_accepts=True, near_end_share=0.4, audible_share=1.0)
    assert refused.rejected


def test_another_recognizers_result_is_left_as_it_is() -> None:
    result = Recognition(text="seven", is_final=True, confidence=0.9, speech_start=1.0,
                         speech_end=1.4, emitted_at=1.6, rejected=True)
    assert decided(result, by_lead(), whisper_accepts=False, near_end_share=0.5,
                   audible_share=1.0) is result


def test_the_shipped_model_reads_and_describes_todays_features() -> None:
    model = over_game.fitted()
    assert model is not None, "over_game.json is missing or fitted over other features"
    assert model.weights.shape == (len(FEATURES),) and 0.0 < model.threshold < 1.0
    text = model.to_json({"test": True})
    assert OverGameModel.from_json(text).threshold == model.threshold


def test_both_decisions_count_speech_above_the_floor_up_to_one_shared_level() -> None:
    # The over-the-game model (listening) may not import Whisper's acceptance model
    # (recognizers, a layer above): the level both clip at is in speech/logistic.py.
    loud = evidence("seven", 2.0, 1.0, 0.6, None, True, 0.4, above_floor_db=70.0,
                    near_end_share=0.4, audible_share=1.0)
    assert loud[FEATURES.index("speech above the floor")] == logistic.CLEAR_DB == 40.0


def evidence_of(loud: list[bool], game_audible: bool, start: float = 1.0) -> NearEndEvidence:
    """The detector's judgement of each 10 ms frame from `start`, as the listener keeps it."""
    evidence = NearEndEvidence()
    evidence.record(start, loud, game_audible)
    return evidence


def test_the_model_is_asked_about_a_command_heard_over_the_game_with_the_players_voice() -> None:
    # 0.4 s of frames from 1.0 s (the final's speech), 4 in 10 judged the player's.
    evidence = evidence_of([True, False, False, True, False] * 8, game_audible=True)
    shares = shares_if_asked(whisper_final("seven", 2.0, rejected=True), evidence,
                             near_end_minimum=0.1)
    assert shares is not None
    share, audible = shares
    assert share == pytest.approx(0.4) and audible == 1.0


def test_the_model_is_not_asked_when_the_game_was_silent_or_the_listener_refused_it() -> None:
    over_the_game = evidence_of([True, False, False, True, False] * 8, game_audible=True)
    silent = evidence_of([True, False, False, True, False] * 8, game_audible=False)
    final = whisper_final("seven", 2.0, rejected=True)
    assert shares_if_asked(final, silent, near_end_minimum=0.1) is None
    assert shares_if_asked(final, over_the_game, near_end_minimum=0.5) is None  # too little
    for refusal in ("self_echo", "near_end"):  # the listener's own checks stand
        refused = dataclasses.replace(final, scores={**(final.scores or {}), refusal: 1.0})
        assert shares_if_asked(refused, over_the_game, near_end_minimum=0.1) is None
    chatter = whisper_final("hello there", 2.0, rejected=True)  # no command in it
    assert shares_if_asked(chatter, over_the_game, near_end_minimum=0.1) is None
