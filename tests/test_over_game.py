"""The decision on commands heard while the game could be heard (`over_game`)."""

from __future__ import annotations

import numpy as np

from voicespit.speech import logistic
from voicespit.speech.listening import over_game
from voicespit.speech.listening.over_game import FEATURES, OverGameModel, decided, evidence
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
