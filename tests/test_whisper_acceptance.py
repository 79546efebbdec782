"""Whisper's fitted acceptance model (voicespit/speech/recognizers/whisper_acceptance.py).

The fitted weights come from replay recordings (`benchmarks.whisper_acceptance`),
which are not in the repository; these tests check what holds for any fit: the
shipped file loads and weighs evidence the way its tuning data taught it, the
fit is deterministic and recovers a rule from data that follow one, and a file
fitted over other features is refused. The recognizer's tests run it on real audio.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from voicespit.speech.logistic import fit
from voicespit.speech.recognizers.whisper_acceptance import (
    FEATURES,
    UNCONFIRMED_LEAD,
    AcceptanceModel,
    acts_on,
    evidence,
    heard_too_long,
    second_look_due,
)
from voicespit.speech.recognizers.whisper_choice import Choice


def choice(sentence: str, lead: float, *, confidence: float = 0.9,
           close_rivals: int = 0) -> Choice:
    return Choice(0, sentence, lead, deficit_per_token=0.5, confidence=confidence,
                  runner_up=None, close_rivals=close_rivals)


def test_evidence_says_how_pocketsphinx_relates_to_the_best_command() -> None:
    names = list(FEATURES)

    def heard(said: str | None) -> dict[str, float]:
        values = evidence(choice("seven", 1.0), said, tokens=2, log_probability=-1.0,
                          speech_seconds=0.5, above_floor_db=55.0)
        return dict(zip(names, values.tolist(), strict=True))

    assert heard("seven")["pocketsphinx agrees"] == 1.0
    assert heard("seven on left")["pocketsphinx names a longer command"] == 1.0
    assert heard("eight")["pocketsphinx names another"] == 1.0
    nothing = heard("")
    assert nothing["pocketsphinx agrees"] == nothing["pocketsphinx names another"] \
        == nothing["pocketsphinx names a longer command"] == 0.0
    assert heard(None) == nothing
    assert nothing["move"] == 1.0 and nothing["lead if a move"] == 1.0
    assert nothing["log-probability per token"] == -0.5
    assert nothing["speech above the floor"] == 40.0, "digital silence's depth is not clarity"


def test_the_shipped_model_trusts_agreement_and_a_clear_lead() -> None:
    model = AcceptanceModel.fitted()
    clear = (choice("nine", 3.0, confidence=0.95), "nine", 2, -0.5, 0.5, 35.0)
    doubtful = (choice("nine", 0.2, confidence=0.5, close_rivals=3), "five on left",
                2, -4.0, 0.5, 35.0)

    def acted_on(case: tuple[Choice, str, int, float, float, float]) -> bool:
        return acts_on(*case, model=model, margin=0.0, cross_check=None,
                       deficit_per_token=0.0)

    assert acted_on(clear)
    assert not acted_on(doubtful)
    assert model.probability(evidence(*clear)) > model.probability(evidence(*doubtful))


def test_a_lead_nothing_confirms_must_clear_the_floor_whatever_the_model_says() -> None:
    trusting = dataclasses.replace(AcceptanceModel.fitted(), threshold=0.0)

    def acted_on(lead: float, heard: str) -> bool:
        return acts_on(choice("nine", lead), heard, 2, -1.0, 0.5, 35.0, model=trusting,
                       margin=0.0, cross_check=None, deficit_per_token=0.0)

    assert not acted_on(UNCONFIRMED_LEAD - 0.1, "five on left")
    assert not acted_on(UNCONFIRMED_LEAD - 0.1, "")
    assert acted_on(UNCONFIRMED_LEAD - 0.1, "nine"), "PocketSphinx named it too"
    assert acted_on(UNCONFIRMED_LEAD, "")


def test_the_shipped_model_asks_more_of_a_command_heard_in_noise() -> None:
    model = AcceptanceModel.fitted()
    said = choice("six", 1.5, confidence=0.8)

    def heard_at(above_floor_db: float) -> float:
        return model.probability(evidence(said, "", 2, -1.0, 0.5, above_floor_db))

    assert heard_at(12.0) < heard_at(25.0) < heard_at(40.0)


def test_a_fit_recovers_a_rule_and_gives_the_same_model_every_time() -> None:
    rng = np.random.default_rng(7)
    features = [rng.normal(size=len(FEATURES)) for _ in range(400)]
    correct = [bool(row[0] + 0.5 * row[2] > 0) for row in features]
    first = fit(features, correct)
    assert all(np.array_equal(a, b) for a, b in zip(first[:3], fit(features, correct)[:3],
                                                     strict=True))
    _, _, weights, _ = first
    assert weights[0] > 2 * abs(weights[1]) and weights[2] > 0


def test_an_example_weighed_twice_counts_as_two_copies_of_it() -> None:
    rng = np.random.default_rng(11)
    features = [rng.normal(size=len(FEATURES)) for _ in range(200)]
    correct = [bool(row[0] + rng.normal() > 0) for row in features]
    doubled = range(50)
    copies = features + [features[index] for index in doubled]
    copies_correct = correct + [correct[index] for index in doubled]
    weighed = [2.0 if index in doubled else 1.0 for index in range(len(features))]
    probe = np.stack(features)

    def scores(model: tuple[np.ndarray, np.ndarray, np.ndarray, float]) -> np.ndarray:
        # In the features' own units: each fit standardizes over the examples it was
        # given, so the same decision comes out as different numbers.
        mean, scale, weights, intercept = model
        return np.asarray(((probe - mean) / scale) @ weights + intercept)

    # Without a penalty (which acts on the standardized weights) the two are one fit.
    copied = scores(fit(copies, copies_correct, l2=0.0))
    weighed_fit = scores(fit(features, correct, l2=0.0, sample_weights=weighed))
    unweighed = scores(fit(features, correct, l2=0.0))
    assert np.allclose(copied, weighed_fit, atol=1e-6)
    assert not np.allclose(unweighed, weighed_fit, atol=1e-2)
    with pytest.raises(ValueError, match="one weight"):
        fit(features, correct, sample_weights=[1.0] * 3)


def test_a_model_over_other_features_is_refused() -> None:
    model = AcceptanceModel.fitted()
    data = json.loads(model.to_json({"test": True}))
    assert AcceptanceModel.from_json(json.dumps(data)).threshold == model.threshold
    renamed = {**data, "features": ["loudness", *data["features"][1:]]}
    with pytest.raises(ValueError, match="other features"):
        AcceptanceModel.from_json(json.dumps(renamed))
    short_of_names = {**data, "features": data["features"][:-1]}
    with pytest.raises(ValueError, match="a weight for each"):
        AcceptanceModel.from_json(json.dumps(short_of_names))


def test_a_model_fitted_before_a_feature_was_added_reads_the_ones_before_it() -> None:
    # A model over all but the last feature (as one fitted before it was added): it
    # loads, and what the last feature says does not move its probability.
    full = len(FEATURES)
    rng = np.random.default_rng(7)
    older = AcceptanceModel(rng.normal(size=full - 1), np.ones(full - 1),
                            rng.normal(size=full - 1), 0.3, threshold=0.6)
    loaded = AcceptanceModel.from_json(older.to_json({"test": True}))
    assert json.loads(older.to_json({}))["features"] == list(FEATURES[:-1])
    features = rng.normal(size=full)
    moved = features.copy()
    moved[-1] += 100.0
    assert loaded.probability(features) == loaded.probability(moved) \
        == older.probability(features)


def test_only_a_doubtful_refusal_gets_a_second_look() -> None:
    model = AcceptanceModel.fitted()
    clear = (choice("nine", 3.0, confidence=0.95), "nine", 2, -0.5, 0.5, 35.0)
    hopeless = (choice("nine", 0.0, confidence=0.3, close_rivals=5), "five on left", 2, -9.0,
                0.5, 10.0)
    assert model.accepts(evidence(*clear))
    assert not second_look_due(*clear, model=model, from_probability=0.0), "already accepted"
    assert not model.accepts(evidence(*hopeless))
    probability = model.probability(evidence(*hopeless))
    assert second_look_due(*hopeless, model=model, from_probability=probability)
    assert not second_look_due(*hopeless, model=model, from_probability=probability + 0.01)
    assert not second_look_due(*hopeless, model=model, from_probability=None)
    assert not second_look_due(*hopeless, model=None, from_probability=0.0), "the hand rule"


def test_every_benchmark_row_s_acceptance_model_loads_over_today_s_features() -> None:
    from benchmarks.speech import WHISPER_CONFIGS

    files = {settings.acceptance_file for settings in WHISPER_CONFIGS.values()} - {None}
    assert any(file is not None and file.name == "whisper_acceptance_with_table_talk.json"
               for file in files)
    for file in files:
        assert file is not None
        model = AcceptanceModel.fitted(file)
        assert 0.0 < model.threshold < 1.0 and len(model.weights) <= len(FEATURES), file


def test_the_length_limit_counts_the_words_of_the_command_heard() -> None:
    # Two seconds a word: "seven on left" may be heard in up to six seconds of speech,
    # "seven" in two; no limit refuses nothing.
    assert not heard_too_long("seven on left", 5.9, 2.0)
    assert heard_too_long("seven", 2.1, 2.0)
    assert not heard_too_long("seven", 2.0, 2.0)
    assert not heard_too_long("seven", 60.0, None)
