"""Whether to act on a command heard while the game could be heard: a model of its own.

Whisper's acceptance model (`recognizers/whisper_acceptance.py`) was fitted on
commands said in a room where nothing else spoke. Heard over the game, what reaches
it is the player's voice as the canceller left it (its first syllables hidden under
the game's, the room's tone under the rest), and it refused right commands there as
doubtful: on the room benchmark 5 to 9 of 60 over the game, against 3 of 60 with the
game silent. This model decides instead, for the finals heard while the game could be
heard (or up to `WINDOW_BEFORE` before), and only for those: it weighs what Whisper
reported of its choice (its lead, how well the words fit, its confidence, whether
PocketSphinx heard the same command, whether Whisper's own model accepted it) with what
the listener knew (the share of the command's frames the talk detector judged the
player's voice, and of those the game could be heard in).

The weights are not typed in: `python -m benchmarks.over_game fit --write` fits them on
the finals the game's own recognizer gave in the room benchmark's tuning split
(`benchmarks.echo --split tuning --record FOLDER`: a command Whisper refuses at a pause is
heard on to its end, and that final is the one this model is asked about, with the
features `shares_if_asked` and `result_evidence` give the listener) and writes
`over_game.json` beside this module, with what it was fitted on. Fitted over Whisper's
scores as they are, it is refitted by those two commands whenever the recognizer changes.

**Not used by the game** (`Listener(over_game=...)`; `benchmarks.echo --over-game`).
Round 7 fitted it on replays where every final was Whisper's first answer at a pause, and
on the report split's closed loop it took 13 commands, 4 of them wrong. Round 8 fitted it
on the live finals: on the tuning split's closed loop it took 5 commands Whisper refused,
all right; on the report split's nine rooms 22, of which 15 were right, 6 the wrong command
and 1 a command nobody said, raising the wrong rate in five rooms
(`docs/listening-record.md`). Whisper's refusals over the game are mostly its choice
being another command, and what tells the right ones apart on the tuning split's takes
does not carry over to the report split's.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from voicespit.speech.language.parser import command_in
from voicespit.speech.listening.near_end import FRAME_SECONDS, NearEndEvidence
from voicespit.speech.listening.self_echo import WINDOW_BEFORE
from voicespit.speech.logistic import CLEAR_DB, LogisticModel
from voicespit.speech.recognizer import Recognition

FITTED = Path(__file__).with_name("over_game.json")
FEATURES = ("lead", "deficit per token", "confidence", "pocketsphinx agrees",
            "pocketsphinx asked", "whisper accepts", "move", "words", "speech seconds",
            "speech above the floor", "player's share", "game's share")
"""What `evidence` measures, in order."""
NEEDED = ("margin", "deficit_per_token", "speech_seconds", "above_floor_db")
"""Scores a result must carry to be judged (Whisper's; other recognizers' are left alone)."""


def evidence(sentence: str, margin: float, deficit_per_token: float, confidence: float,
             pocketsphinx: str | None, whisper_accepts: bool, speech_seconds: float,
             above_floor_db: float, near_end_share: float,
             audible_share: float) -> npt.NDArray[np.float64]:
    """The features of one decision, as `FEATURES` names them. `pocketsphinx`: the command
    PocketSphinx's decode named agrees ("same"), or not ("other"), or None: not asked."""
    command = command_in(sentence)
    is_move = command is not None and command.is_action
    return np.asarray([min(margin, 8.0), min(deficit_per_token, 10.0), confidence,
                       pocketsphinx == "same", pocketsphinx is not None, whisper_accepts,
                       is_move, len(sentence.split()), speech_seconds,
                       min(above_floor_db, CLEAR_DB), near_end_share, audible_share],
                      dtype=np.float64)


def result_evidence(result: Recognition, whisper_accepts: bool, near_end_share: float,
                    audible_share: float) -> npt.NDArray[np.float64] | None:
    """`evidence` of a final result from the Whisper recognizer; None when it lacks the
    scores (another recognizer)."""
    scores = result.scores or {}
    if any(key not in scores for key in NEEDED):
        return None
    agrees = scores.get("pocketsphinx_agrees", math.nan)
    heard = None if math.isnan(agrees) else ("same" if agrees else "other")
    return evidence(result.text, scores["margin"], scores["deficit_per_token"],
                    result.confidence or 0.0, heard, whisper_accepts, scores["speech_seconds"],
                    scores["above_floor_db"], near_end_share, audible_share)


class OverGameModel(LogisticModel):
    """Logistic regression over standardized `evidence`, and the probability to act on."""

    FEATURES: ClassVar[tuple[str, ...]] = FEATURES
    WHAT: ClassVar[str] = "the over-the-game model"


def fitted() -> OverGameModel | None:
    """The model `benchmarks.over_game` wrote; None when there is none or it is unreadable
    (the listener then keeps Whisper's own decision)."""
    try:
        return OverGameModel.from_json(FITTED.read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def shares_if_asked(result: Recognition, evidence: NearEndEvidence,
                    near_end_minimum: float) -> tuple[float, float] | None:
    """The share of `result`'s frames judged the player's voice and the share the game could
    be heard in, when the model is asked about it: a final command, heard while the game
    could be heard (or up to `WINDOW_BEFORE` before), not refused by the listener's own
    checks (the game's own words, too little of the player's voice). None: the model is
    not asked, the recognizer's decision (or the listener's refusal) stands. The listener
    asks this as it decides; `benchmarks.echo --record` asks it of the same finals
    afterwards, to fit the model on exactly what it is asked about."""
    scores = result.scores or {}
    if not result.is_final or not result.text or "self_echo" in scores \
            or "near_end" in scores or command_in(result.text) is None:
        return None
    start, end = result.speech_span
    end = max(end, start + FRAME_SECONDS)
    if not evidence.game_audible(start - WINDOW_BEFORE, end):
        return None
    share = evidence.loud_share(start, end)
    audible = evidence.audible_share(start, end)
    if share is None or audible is None or share < near_end_minimum:
        return None
    return share, audible


def decided(result: Recognition, model: OverGameModel, whisper_accepts: bool,
            near_end_share: float, audible_share: float) -> Recognition:
    """`result` (a final with a command, heard over the game, Whisper's decision
    `whisper_accepts`) accepted or refused by `model`, its probability scored
    ("over_game"); unchanged when it lacks Whisper's scores."""
    features = result_evidence(result, whisper_accepts, near_end_share, audible_share)
    if features is None:
        return result
    probability = model.probability(features)
    scores = {**(result.scores or {}), "over_game": probability}
    return dataclasses.replace(result, rejected=probability < model.threshold, scores=scores)
