"""Whisper's leaning: how likely it finds each sentence when nobody says anything.

Scored on a short window, Whisper's decoder is also a language model: some sentences
are likely whatever the audio holds ("yes", "nine", a bare rank before "ace on
right"), and in noise or in an unfamiliar voice that leaning decides. Scoring every
sentence once on audio with no speech in it measures the leaning, and taking part of
it off each utterance's scores (`WhisperSettings.leaning_weight`) leaves more of what
the audio itself says: the "contextual calibration" of a classifier built on a
language model (Zhao et al., 2021), and the pointwise mutual information between the
sentence and the audio when the weight is one. Measured once per grammar, so an
utterance is scored no more times than before; but the pruning must allow for a long
sentence's larger bonus, which doubled the scoring time (benchmarks/LEVERS.md, round 15).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from voicespit.speech.recognizer import SAMPLE_RATE

Floats = npt.NDArray[np.float64]

CONTENT_FREE_SECONDS = 1.0
"""About a bare rank's window (the utterance and its margins)."""
HISS_DBFS = -40.0
"""The room with nobody in it: a quiet hiss. On the tuning splits any such window gave
about the same leaning (digital silence, white or pink noise from -60 to -26 dBFS, 1 to
2 s, a real room's noise before each command, or the mean of several), so the
cheapest is measured: one window, about 0.6 s for the whole grammar."""
SEED = 20261203
"""The hiss is the same every time, so a grammar's leaning is too."""


def content_free_window(trailing_silence: float) -> Floats:
    """The window the leaning is measured on, as 16-bit-scaled samples with the
    recognizer's own trailing silence."""
    hiss = np.random.default_rng(SEED).standard_normal(round(CONTENT_FREE_SECONDS * SAMPLE_RATE))
    return np.concatenate([hiss * 32768.0 * 10 ** (HISS_DBFS / 20),
                           np.zeros(round(trailing_silence * SAMPLE_RATE))])
