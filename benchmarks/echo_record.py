"""The finals the game's recognizer gave in the room, recorded for fitting the decision on
commands heard over the game (`speech/listening/over_game.py`).

    python -m benchmarks.echo --split tuning --record FOLDER [rooms ...]

With `--record`, each job of the room benchmark keeps every final command the game's own
recognizer gave, deciding as the game does: a command Whisper refuses at a pause is heard
on to its end, and that final, not the first answer at the pause, is the one the
over-the-game model is asked about. Each is written with Whisper's decision, which
command it belongs to (`echo._owner`; None: the game's narration heard as a command), and,
when the model would be asked about it (`over_game.shares_if_asked`, the very test the
listener makes), the features it would be asked with (`over_game.result_evidence`). The
listener's frame judgements are kept for the whole run, so the shares are those the
listener had when the final came.

Until round 8 the recording ran Whisper refusing nothing and the fit replayed its
decision (`whisper_replay`): every final there was Whisper's first answer at a pause,
unlike the finals the game asks about, and the model fitted on them took 4 wrong
commands in 13 on the report split's closed loop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.room import Utterance
from voicespit.speech.language.parser import command_in
from voicespit.speech.listening.near_end import NearEndEvidence
from voicespit.speech.listening.over_game import result_evidence, shares_if_asked
from voicespit.speech.recognizer import Recognition

Owner = Callable[[float, float, Sequence[Utterance]], int | None]


def live_finals(name: str, results: Sequence[Recognition], placed: Sequence[Utterance],
                evidence: NearEndEvidence, near_end_minimum: float,
                owner: Owner) -> dict[str, Any]:
    """The job's final commands, each with what the over-the-game model would be asked
    (`features`, None when it is not asked) and whether the game took it without the
    model (`taken`: Whisper accepted it and the listener's own checks let it through)."""
    finals = []
    for result in results:
        if not result.is_final or not result.text or command_in(result.text) is None:
            continue
        if "over_game" in (result.scores or {}):
            raise ValueError("record with the over-the-game model off: its decision "
                             "would stand in for Whisper's")
        start, end = result.speech_span
        index = owner(start, end, placed)
        shares = shares_if_asked(result, evidence, near_end_minimum)
        features = None if shares is None else result_evidence(result, not result.rejected,
                                                                *shares)
        finals.append({"text": result.text, "owner": index, "taken": not result.rejected,
                       "features": None if features is None else features.tolist(),
                       "start": start, "end": end})
    return {"job": name, "said": [utterance.transcript for utterance in placed],
            "finals": finals}
