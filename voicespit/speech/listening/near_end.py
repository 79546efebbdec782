"""Did the player's own voice carry this command? Evidence kept frame by frame.

The talk detector judges every 10 ms frame: loud enough over the room's floor and
over the echo the canceller is likely to have left to be a voice in the room that
is not the game's. A command the player said is made of such frames over much of
its length; one the recognizer made out of what the canceller left of the game,
or of the room's tail after a false start stopped the game ("yeah", a rank nobody
said), has few. `NearEndEvidence` keeps the last `keep` seconds of those
judgements on the stream's timeline and answers, for a stretch of it, the share
of frames that were loud. Pure Python, no clock.
"""

from __future__ import annotations

import collections
import dataclasses
from collections.abc import Sequence

from voicespit.speech.recognizer import SAMPLE_RATE, Recognition
from voicespit.speech.signal import FRAME

FRAME_SECONDS = FRAME / SAMPLE_RATE


class NearEndEvidence:
    """Frame judgements in (stream time, loud, game audible); shares of loud frames out."""

    def __init__(self, keep: float = 20.0) -> None:
        self._frames: collections.deque[tuple[float, bool, bool]] = collections.deque(
            maxlen=round(keep / FRAME_SECONDS))

    def record(self, start: float, loud: Sequence[bool], game_audible: bool) -> None:
        """The detector's judgement of each frame of a block that began at stream time
        `start`; `game_audible`: the game's sound could have been in it."""
        for index, frame_loud in enumerate(loud):
            self._frames.append((start + index * FRAME_SECONDS, frame_loud, game_audible))

    def game_audible(self, start: float, end: float) -> bool:
        """Whether the game could be heard at any time in [start, end)."""
        return any(audible for at, _, audible in self._frames if start <= at < end)

    def speech_share(self, start: float, end: float) -> float | None:
        """`loud_share` over an utterance's speech from `start` to `end`, one frame at
        least (a result's span can be empty)."""
        return self.loud_share(start, max(end, start + FRAME_SECONDS))

    def audible_share(self, start: float, end: float) -> float | None:
        """The share of frames in [start, end) the game could be heard in; None when no
        frame of that stretch is kept."""
        judged = [audible for at, _, audible in self._frames if start <= at < end]
        if not judged:
            return None
        return float(sum(judged)) / len(judged)

    def loud_share(self, start: float, end: float) -> float | None:
        """The share of frames in [start, end) judged to be a voice not the game's; None
        when no frame of that stretch is kept."""
        judged = [loud for at, loud, _ in self._frames if start <= at < end]
        if not judged:
            return None
        return sum(judged) / len(judged)


def refused_if_unvoiced(result: Recognition, evidence: NearEndEvidence, minimum: float,
                        before: float) -> Recognition:
    """`result` (a final one, on the stream's timeline) with its share of the player's
    frames scored ("near_end_share"), or refused (scored "near_end") when the game could
    be heard during it or `before` seconds before it and the share is under `minimum`.
    Without the game around, the share says nothing (the player alone in a quiet room)."""
    if not result.is_final or result.rejected or not result.text:
        return result
    if not game_heard_around(result, evidence, before):
        return result
    start, end = result.speech_span
    share = evidence.speech_share(start, end)
    if share is None:
        return result
    scores = {**(result.scores or {}), "near_end_share": share}
    if share >= minimum:
        return dataclasses.replace(result, scores=scores)
    return dataclasses.replace(result, rejected=True, scores={**scores, "near_end": 1.0})


def refused_if_tie_broken_over_the_game(result: Recognition, evidence: NearEndEvidence,
                                        before: float) -> Recognition:
    """`result`, refused (scored "tie_broken_over_game") when the recognizer acted on
    PocketSphinx's command instead of its own (Whisper's tie-break, scored "tie_broken")
    and the game could be heard during it or `before` seconds before. On what the
    canceller leaves, PocketSphinx's word is no tie-breaker: on the room benchmark's
    tuning split (nine rooms, 792 commands over the game) the tie-break took 13 right
    commands more and 9 wrong ones (benchmarks/LEVERS.md); with the game silent it
    stays."""
    scores = result.scores or {}
    if not result.is_final or result.rejected or not scores.get("tie_broken"):
        return result
    if not game_heard_around(result, evidence, before):
        return result
    return dataclasses.replace(result, rejected=True,
                               scores={**scores, "tie_broken_over_game": 1.0})


def refused_if_disputed_over_the_game(result: Recognition, evidence: NearEndEvidence,
                                      before: float, lead: float) -> Recognition:
    """`result`, refused (scored "disputed_over_game") when the game could be heard during
    it or `before` seconds before, PocketSphinx's decode of the same audio did not name
    the same command (or was not asked) and Whisper put it less than `lead` (natural log,
    scored "margin") ahead of its runner-up. What the canceller leaves of the player is
    half gone under the game's voice; a command both engines hear in it is as safe as with
    the game silent, one Whisper alone heard is not: on the room benchmark's tuning split
    PocketSphinx named 18 of the 19 wrong commands differently and half of the 391 right
    ones (`listener.DISPUTED_LEAD`). A result without Whisper's scores is left as it is."""
    scores = result.scores or {}
    if not result.is_final or result.rejected or not result.text or "margin" not in scores:
        return result
    if scores.get("pocketsphinx_agrees") == 1.0 or scores["margin"] >= lead:
        return result
    if not game_heard_around(result, evidence, before):
        return result
    return dataclasses.replace(result, rejected=True,
                               scores={**scores, "disputed_over_game": 1.0})


def game_heard_around(result: Recognition, evidence: NearEndEvidence, before: float) -> bool:
    """Whether the game could be heard during `result`'s speech or `before` seconds before."""
    start, end = result.speech_span
    return evidence.game_audible(start - before, end)
