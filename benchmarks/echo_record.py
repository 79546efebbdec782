"""Whisper's finals heard in the room, recorded for fitting the acceptance decision.

    python -m benchmarks.echo --split tuning --record /tmp/room-tuning.pkl [rooms ...]

With `--record`, each job of the room benchmark runs the Whisper recognizer with
refusal off (as `benchmarks.whisper_replay record` does on the speech corpora), so
every utterance the echo mask lets through ends in a final, and keeps each final's
scores with what the listener knew about it: whether the game could be heard around
it, the share of its frames the talk detector judged the player's, and whether the
self-echo check refused it. `to_recording` turns a job's finals into the replay
format (`benchmarks.whisper_replay.load`): one "command" file per command placed over
the game, holding the finals that belong to it (`echo._owner`), and one "chatter" file
per final that belongs to no command (the game's narration heard as speech), so that
`whisper_replay.replay` counts a false command as chatter taken.

Replaying over a run without refusal is the same approximation as on the speech
corpora: a refused answer at a pause makes the live recognizer wait for more audio,
which the recording never heard. The closed loop measures the real thing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.room import Utterance
from benchmarks.whisper_replay import RECORDING_SETTINGS, Recording
from voicespit.speech.listening.near_end import NearEndEvidence
from voicespit.speech.listening.self_echo import WINDOW_BEFORE
from voicespit.speech.recognizer import Recognition
from voicespit.speech.recognizers.whisper_model import WhisperModel

Owner = Callable[[float, float, Sequence[Utterance]], int | None]


def recording_recognizer() -> Recording:
    """Whisper as the game runs it, refusing nothing and keeping every final's scores."""
    return Recording(WhisperModel.load(), settings=RECORDING_SETTINGS)


def to_recording(name: str, recognizer: Recording, results: Sequence[Recognition],
                 placed: Sequence[Utterance], evidence: NearEndEvidence,
                 owner: Owner) -> dict[str, Any]:
    """The job's finals in the replay format, each with what the listener knew
    (`heard_over_game`), labelled by the command it belongs to."""
    table = recognizer.table
    files: list[dict[str, Any]] = [
        {"name": f"{name}/{index}", "kind": "command", "expected": utterance.transcript,
         "finals": []} for index, utterance in enumerate(placed)]
    for result in results:
        if not result.is_final or not result.text or result.scores is None \
                or "record" not in result.scores:
            continue
        final = dict(recognizer.kept[int(result.scores["record"])])
        final.update(heard_over_game(result, evidence))
        start, end = result.speech_span
        index = owner(start, end, placed)
        if index is None:
            files.append({"name": f"{name}/false {start:.2f}", "kind": "chatter",
                          "expected": "", "finals": [final]})
        else:
            files[index]["finals"].append(final)
    return {"split": name, "sentences": list(table.sentences),
            "sentence_of": list(table.sentence_of), "files": files}


def heard_over_game(result: Recognition, evidence: NearEndEvidence) -> dict[str, Any]:
    """What the listener knew of a final: the game audible around it (from
    `WINDOW_BEFORE` before it), the share of its frames judged the player's voice and of
    those the game could be heard in, and whether the self-echo check refused it."""
    start, end = result.speech_span
    scores = result.scores or {}
    return {"game_audible": evidence.game_audible(start - WINDOW_BEFORE, end),
            "near_end_share": evidence.loud_share(start, max(end, start + 0.01)),
            "audible_share": evidence.audible_share(start, max(end, start + 0.01)),
            "self_echo": bool(scores.get("self_echo", 0.0)),
            "start": start, "end": end}

