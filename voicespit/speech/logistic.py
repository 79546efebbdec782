"""A logistic regression over named features, fitted by Newton's method in numpy.

Two decisions use one: whether to act on Whisper's best command
(`recognizers/whisper_acceptance.py`) and whether to act on a command heard over the
game (`listening/over_game.py`). Each subclass names its features (`FEATURES`), so a
model written for one list is refused by a program that computes another. Both weigh
how far the speech stood above the room's noise, clipped at `CLEAR_DB`, which lives
here because `listening` may not import `recognizers` (a layer above it).
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Self, TypeVar

import numpy as np
import numpy.typing as npt

Model = TypeVar("Model", bound="LogisticModel")

CLEAR_DB = 40.0
"""Speech this far above the noise floor counts as clear (both models' "speech above the
floor" stops there): above it, what the floor measures is how quiet the recording is
(espeak-ng's digital silence stands 70 dB below its voice), not how well the words can
be heard."""


@dataclass(frozen=True)
class LogisticModel:
    """Logistic regression over standardized features, and the probability to act on."""

    FEATURES: ClassVar[tuple[str, ...]] = ()
    """What each feature measures, in order (the subclass's)."""
    WHAT: ClassVar[str] = "the model"
    """How an error names this model."""

    mean: npt.NDArray[np.float64]
    scale: npt.NDArray[np.float64]
    weights: npt.NDArray[np.float64]
    intercept: float
    threshold: float

    def probability(self, features: npt.NDArray[np.float64]) -> float:
        """How likely the command these features describe is the one said."""
        # A model fitted before a feature was added at the end reads the ones before it.
        used = features[:len(self.weights)]
        value = float(((used - self.mean) / self.scale) @ self.weights) + self.intercept
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, value))))

    def accepts(self, features: npt.NDArray[np.float64]) -> bool:
        return self.probability(features) >= self.threshold

    def to_json(self, provenance: dict[str, object]) -> str:
        return json.dumps({"features": list(self.FEATURES[:len(self.weights)]),
                           "mean": self.mean.tolist(),
                           "scale": self.scale.tolist(), "weights": self.weights.tolist(),
                           "intercept": self.intercept, "threshold": self.threshold,
                           "fitted on": provenance}, indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Self:
        """Raises ValueError when the text is not a model over today's `FEATURES`, or
        over the first of them (a model fitted before the rest were added at the end)."""
        data = json.loads(text)
        named = data.get("features") if isinstance(data, dict) else None
        if not isinstance(named, list) or not named or named != list(cls.FEATURES[:len(named)]):
            raise ValueError(f"{cls.WHAT} was fitted over other features")
        model = cls(np.asarray(data["mean"], dtype=np.float64),
                    np.asarray(data["scale"], dtype=np.float64),
                    np.asarray(data["weights"], dtype=np.float64),
                    float(data["intercept"]), float(data["threshold"]))
        if not len(model.mean) == len(model.scale) == len(model.weights) == len(named):
            raise ValueError(f"{cls.WHAT} does not have a weight for each of its features")
        return model


def fit(features: Sequence[npt.NDArray[np.float64]], correct: Sequence[bool], *,
        l2: float = 1.0, iterations: int = 50,
        sample_weights: Sequence[float] | None = None) -> tuple[npt.NDArray[np.float64],
                                                                 npt.NDArray[np.float64],
                                                                 npt.NDArray[np.float64],
                                                                 float]:
    """Mean, scale, weights and intercept of an L2-regularized logistic regression,
    by Newton's method (deterministic: the same data gives the same model).

    `sample_weights` (default: 1 each) is how many examples each one counts as, so that
    a larger recording can be made to weigh as much as a smaller one and no more."""
    x = np.asarray(features, dtype=np.float64)
    y = np.asarray(correct, dtype=np.float64)
    counts = (np.ones(len(x)) if sample_weights is None
              else np.asarray(sample_weights, dtype=np.float64))
    if counts.shape != y.shape or np.any(counts < 0):
        raise ValueError("one weight, not negative, is needed for each example")
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    design = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    theta = np.zeros(design.shape[1])
    penalty = np.full(design.shape[1], l2)
    penalty[-1] = 0.0  # the intercept is not pulled towards 0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ theta, -50, 50)))
        gradient = design.T @ (counts * (p - y)) + penalty * theta
        hessian = (design.T * (counts * p * (1 - p))) @ design + np.diag(penalty)
        step = np.linalg.solve(hessian, gradient)
        theta -= step
        if float(np.abs(step).max()) < 1e-10:
            break
    return mean, scale, theta[:-1], float(theta[-1])


def threshold_chosen(model: Model, thresholds: Iterable[float],
                     worth: Callable[[Model], float]) -> Model:
    """`model` at the first of `thresholds` where `worth` (of the model at that
    threshold, e.g. right commands less a cost per wrong one) is greatest."""
    at = [dataclasses.replace(model, threshold=float(threshold)) for threshold in thresholds]
    return max(at, key=worth)
