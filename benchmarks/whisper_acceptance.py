"""Fitting Whisper's acceptance model on replay recordings of the tuning splits.

    python -m benchmarks.whisper_replay record --split fsdd-tuning --every 3 --out /tmp/fsdd-tuning.pkl
    (the same for tuning --every 2, and natural-tuning, fsdd-chatter-tuning and
    chatter-tuning whole)
    python -m benchmarks.whisper_acceptance fit /tmp/fsdd-tuning.pkl /tmp/tuning.pkl \
        /tmp/natural-tuning.pkl /tmp/fsdd-chatter-tuning.pkl /tmp/chatter-tuning.pkl [--write]
    python -m benchmarks.whisper_acceptance compare /tmp/fsdd-test.pkl ...
    python -m benchmarks.whisper_acceptance folds --parts /tmp/fsdd-o0.pkl /tmp/fsdd-o1.pkl \
        /tmp/fsdd-o2.pkl --others /tmp/tuning.pkl /tmp/natural-tuning.pkl

`fit` labels every recorded final by whether its best command is the one said
(chatter: never), fits the logistic model of `whisper_acceptance` over its
`evidence`, and chooses the threshold on the same recordings: the one that gives
the most right commands less `--cost` (3) for every wrong move and every chatter
taken as a command, so that a threshold must buy three right commands for each
card played that was not said. It prints, per split, the hand rule (the default `CrossCheck` margins)
beside the model at the threshold, and the same with each split left out of the
fit (the model fitted on the other two), which is what a split it never saw would
get. With --write the model goes to `whisper_acceptance.json`, with the files it was
fitted on. `compare` replays both rules over other recordings (held-out splits:
once, at the end).
"""

from __future__ import annotations

import argparse
import datetime
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from benchmarks.whisper_replay import Rule, choices, load, recorded_log_probability, replay
from voicespit.speech.language.parser import command_in, parse
from voicespit.speech.logistic import fit, threshold_chosen
from voicespit.speech.recognizers.whisper_acceptance import (
    FEATURES,
    FITTED,
    AcceptanceModel,
    evidence,
    heard_too_long,
)
from voicespit.speech.recognizers.whisper_recognizer import WhisperSettings

HAND_RULE = Rule(margin=WhisperSettings.margin, deficit=WhisperSettings.deficit_per_token,
                 cross_check=WhisperSettings().cross_check, within=WhisperSettings.prune_within)
THRESHOLDS = np.round(np.arange(0.30, 0.99, 0.01), 2)


def examples(recording: dict[str, Any]) -> tuple[list[npt.NDArray[np.float64]], list[bool]]:
    """Every recorded final's evidence, and whether its best command was the one said;
    finals the length limit refuses are left out, as they never reach the model."""
    features, correct = [], []
    for file, found in choices(recording, HAND_RULE):
        expected = parse(file["expected"]) if file["kind"] == "command" else None
        for final, (choice, tokens) in zip(file["finals"], found, strict=True):
            if heard_too_long(choice.sentence, final["speech_seconds"],
                              HAND_RULE.longest_word_seconds):
                continue
            features.append(evidence(choice, final["pocketsphinx"], tokens,
                                     recorded_log_probability(final, choice, tokens),
                                     final["speech_seconds"], final["above_floor_db"]))
            correct.append(expected is not None and command_in(choice.sentence) == expected)
    return features, correct


WRONG_MOVE_COST = 3.0
"""Right commands a wrong move (or chatter taken as a command) is worth losing: a
"say again" costs the player a second; a card played that was not said can cost
the pile race, and a player who cannot see the table must first find out."""


def fitted(recordings: list[dict[str, Any]], l2: float,
           cost: float = WRONG_MOVE_COST, balanced: bool = False) -> AcceptanceModel:
    """The model fitted on these recordings, its threshold chosen on them: the most
    right commands less `cost` for every wrong move and chatter taken.

    `balanced`: every recording (split) weighs the same in the fit and in the
    threshold's count, whatever its size, so that recording more of one split (three
    times the real voices) does not make the model forget the others."""
    features: list[npt.NDArray[np.float64]] = []
    correct: list[bool] = []
    counts: list[float] = []
    split_examples = [examples(recording) for recording in recordings]
    average = sum(len(found) for found, _ in split_examples) / len(split_examples)
    for more_features, more_correct in split_examples:
        features += more_features
        correct += more_correct
        counts += [average / len(more_features) if balanced else 1.0] * len(more_features)
    mean, scale, weights, intercept = fit(features, correct, l2=l2, sample_weights=counts)
    model = AcceptanceModel(mean, scale, weights, intercept, threshold=0.5)

    def worth(at: AcceptanceModel) -> float:
        totals = _totals(recordings, Rule(0.0, 0.0, acceptance=at), balanced)
        return totals["correct"] - cost * (totals["wrong move"] + totals["chatter"])

    return threshold_chosen(model, THRESHOLDS, worth)


def _totals(recordings: list[dict[str, Any]], rule: Rule,
            balanced: bool = False) -> dict[str, float]:
    """Counts over all the recordings: correct, wrong moves, chatter taken (`balanced`:
    each recording's counted as if it had the recordings' average number of files)."""
    totals = {"correct": 0.0, "wrong move": 0.0, "chatter": 0.0}
    average = sum(len(recording["files"]) for recording in recordings) / len(recordings)
    for recording in recordings:
        rates = replay(recording, rule)
        scale = average / len(recording["files"]) if balanced else 1.0
        commands = scale * sum(1 for file in recording["files"] if file["kind"] == "command")
        chatter = scale * len(recording["files"]) - commands
        if commands:  # a split of chatter alone has no command rates
            totals["correct"] += commands * (1 - rates["wrong"] - rates["refused"])
            totals["wrong move"] += rates["wrong move"] * commands
        totals["chatter"] += rates.get("chatter", 0.0) * chatter
    return totals


def _row(name: str, rates: dict[str, float]) -> str:
    return f"| {name} | " + " | ".join(f"{key} {value:.3f}" for key, value in rates.items()) + " |"


def _compare(recordings: list[dict[str, Any]], model: AcceptanceModel,
             models_left_out: list[AcceptanceModel] | None = None,
             second_looks: Sequence[float] = ()) -> None:
    for index, recording in enumerate(recordings):
        print(f"\n{recording['split']} ({len(recording['files'])} files)")
        print(_row("hand rule", replay(recording, HAND_RULE)))
        print(_row(f"model at {model.threshold:.2f}", replay(recording, Rule(0, 0, acceptance=model))))
        for looking in second_looks:
            for bar in (0.0, WhisperSettings.second_look_bar):
                rule = Rule(0, 0, acceptance=model, second_look_from=looking,
                            second_look_bar=bar)
                print(_row(f"model, second look from {looking:.2f} (bar {bar:.2f})",
                           replay(recording, rule)))
        if models_left_out is not None:
            left_out = models_left_out[index]
            print(_row(f"model fitted without it, at {left_out.threshold:.2f}",
                       replay(recording, Rule(0, 0, acceptance=left_out))))


def folds(parts: list[dict[str, Any]], others: list[dict[str, Any]], l2: float,
          cost: float) -> None:
    """Each part of a split recorded apart left out in turn: the model fitted on one
    other part (as shipped) beside the one fitted on all the other parts, every split
    weighed the same (`balanced`), both with `others`, replayed on the part left out
    and on `others`, with the second look as shipped."""
    for index, unseen in enumerate(parts):
        rest = [part for part in parts if part is not unseen]
        for name, model in (
                ("one other part", fitted(merged([rest[0], *others]), l2, cost)),
                ("all other parts, balanced",
                 fitted(merged([*rest, *others]), l2, cost, balanced=True))):
            rule = Rule(0, 0, acceptance=model,
                        second_look_from=WhisperSettings.second_look_from,
                        second_look_bar=WhisperSettings.second_look_bar)
            print(f"\npart {index} left out, fitted on {name}, threshold {model.threshold:.2f}")
            print(_row("the part left out", replay(unseen, rule)))
            for other in others:
                print(_row(other["split"], replay(other, rule)))


def merged(recordings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One recording per split: the parts of a split recorded apart (--offset) joined."""
    splits: dict[str, dict[str, Any]] = {}
    for recording in recordings:
        if recording["split"] in splits:
            splits[recording["split"]]["files"] += recording["files"]
        else:
            splits[recording["split"]] = recording
    return list(splits.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    fitter = commands.add_parser("fit")
    fitter.add_argument("recordings", type=Path, nargs="+")
    fitter.add_argument("--l2", type=float, default=1.0)
    fitter.add_argument("--cost", type=float, default=WRONG_MOVE_COST,
                        help="right commands a wrong move or chatter taken is worth losing")
    fitter.add_argument("--balanced", action="store_true",
                        help="each split weighs the same in the fit and the threshold")
    fitter.add_argument("--unseen", type=Path, nargs="*", default=[],
                        help="recordings kept out of the fit, the fitted model replayed on "
                             "them (a part of a split recorded apart: --offset)")
    fitter.add_argument("--write", action="store_true", help=f"write {FITTED.name}")
    folder = commands.add_parser("folds")
    folder.add_argument("--parts", type=Path, nargs="+", required=True,
                        help="one split recorded in parts (--offset), each left out in turn")
    folder.add_argument("--others", type=Path, nargs="*", default=[],
                        help="recordings always in the fit")
    folder.add_argument("--l2", type=float, default=1.0)
    folder.add_argument("--cost", type=float, default=WRONG_MOVE_COST)
    comparer = commands.add_parser("compare")
    comparer.add_argument("recordings", type=Path, nargs="+")
    for command in (fitter, comparer):
        command.add_argument("--second-looks", default="",
                             help="comma-separated probabilities from which a refusal looks "
                                  "again (WhisperSettings.second_look_from), a row each")
    args = parser.parse_args()
    if args.command == "folds":
        folds([load(path) for path in args.parts], [load(path) for path in args.others],
              args.l2, args.cost)
        return
    recordings = merged([load(path) for path in args.recordings])
    second_looks = [float(value) for value in args.second_looks.split(",") if value]
    if args.command == "compare":
        _compare(recordings, AcceptanceModel.fitted(), second_looks=second_looks)
        return
    model = fitted(recordings, args.l2, args.cost, args.balanced)
    print("weights (standardized features):")
    for name, weight in zip(FEATURES, model.weights, strict=True):
        print(f"  {name}: {weight:+.3f}")
    print(f"  intercept: {model.intercept:+.3f}; threshold {model.threshold:.2f}")
    left_out = [fitted([other for other in recordings if other is not recording], args.l2,
                       args.cost, args.balanced)
                if len(recordings) > 1 else model for recording in recordings]
    _compare(recordings, model, left_out, second_looks)
    for path in args.unseen:
        print("\nnever in the fit:", end="")
        _compare([load(path)], model, second_looks=second_looks)
    if args.write:
        provenance: dict[str, object] = {
            "command": "python -m benchmarks.whisper_acceptance fit "
                       + " ".join(path.name for path in args.recordings)
                       + f" --l2 {args.l2:g} --cost {args.cost:g} --write",
            "recordings": {recording["split"]: len(recording["files"])
                           for recording in recordings},
            "date": datetime.date.today().isoformat()}
        FITTED.write_text(model.to_json(provenance), encoding="utf-8")
        print(f"\nwritten to {FITTED}")


if __name__ == "__main__":
    main()
