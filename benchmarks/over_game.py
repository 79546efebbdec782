"""Fitting the decision on commands heard over the game (`speech/listening/over_game.py`).

    python -m benchmarks.echo --split tuning --record /tmp/over-game --commands 120 \
        --narration-seconds 240 --room 0.5,45,0 --room 0.5,45,5 --room 0.5,45,10 \
        --room 0.8,80,10
    python -m benchmarks.over_game fit /tmp/over-game [--write]

The first command runs the room benchmark on its tuning split with Whisper refusing
nothing (`benchmarks.echo_record`), and keeps each final with what the listener knew of
it. `fit` takes the finals heard while the game could be heard that the listener's own
checks let through (enough of the player's frames, not the game's own words), labels
each by whether its best command is the one said (a final that belongs to no command:
never), and fits the logistic model of `over_game` on them. Whisper's own decision is
one of its features, replayed with the game's settings and its fitted acceptance model
(`whisper_replay.Rule`), so a change to Whisper's acceptance model is taken in by
running both commands again. The threshold is the one giving the most right commands
less `--cost` (3) for each wrong command or narration taken as one, over all rooms. It
prints, per room, Whisper's decision alone beside the model's, and the model fitted
with that room left out (what a room it never saw would get). With --write the model
goes to `over_game.json` with the recordings it was fitted on.

Replayed over recordings made without refusal, as `whisper_replay` is: the closed loop
(`benchmarks.echo`) measures the real thing.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from benchmarks.whisper_acceptance import WRONG_MOVE_COST
from benchmarks.whisper_replay import Rule, choices, load
from voicespit.speech.language.parser import command_in, parse
from voicespit.speech.listening.listener import NEAR_END_MINIMUM
from voicespit.speech.listening.over_game import FEATURES, FITTED, OverGameModel, evidence
from voicespit.speech.logistic import fit, threshold_chosen
from voicespit.speech.recognizers.whisper_acceptance import AcceptanceModel
from voicespit.speech.recognizers.whisper_recognizer import WhisperSettings

THRESHOLDS = np.round(np.arange(0.20, 0.96, 0.01), 2)


def live_rule() -> Rule:
    """Whisper's decision as the game makes it (its settings and fitted model)."""
    settings = WhisperSettings()
    model = AcceptanceModel.fitted() if settings.fitted_acceptance else None
    return Rule(margin=settings.margin, deficit=settings.deficit_per_token,
                within=settings.prune_within, cross_check=settings.cross_check,
                acceptance=model)


@dataclasses.dataclass
class Final:
    command: Any
    """The best command (None: not a command)."""
    whisper: bool
    """Whisper's own decision."""
    judged: npt.NDArray[np.float64] | None
    """Its `evidence` when the over-the-game model decides on it, else None."""
    refused: bool
    """Refused by the listener's own checks (too little of the player's voice, the game's
    own words)."""


@dataclasses.dataclass
class File:
    room: str
    expected: Any
    """The command said (None: narration heard as speech, "chatter")."""
    finals: list[Final]


def files_of(recording: dict[str, Any], rule: Rule) -> list[File]:
    found = []
    room = str(recording["split"]).removeprefix("room-")
    for file, chosen in choices(recording, rule):
        expected = parse(file["expected"]) if file["kind"] == "command" else None
        finals = []
        for final, (choice, tokens) in zip(file["finals"], chosen, strict=True):
            command = command_in(choice.sentence)
            whisper = rule.accepts(choice, final, tokens)
            share, audible = final["near_end_share"], final["audible_share"]
            over = bool(final["game_audible"])
            refused = bool(final["self_echo"]) or (
                over and share is not None and share < NEAR_END_MINIMUM)
            judged = None
            if over and not refused and command is not None and share is not None \
                    and audible is not None:
                heard = final["pocketsphinx"]
                agreement = None if heard is None else (
                    "same" if command_in(heard) == command else "other")
                judged = evidence(choice.sentence, choice.margin, choice.deficit_per_token,
                                  choice.confidence, agreement, whisper,
                                  final["speech_seconds"], final["above_floor_db"],
                                  share, audible)
            finals.append(Final(command, whisper, judged, refused))
        found.append(File(room, expected, finals))
    return found


def examples(files: list[File]) -> tuple[list[npt.NDArray[np.float64]], list[bool]]:
    features, labels = [], []
    for file in files:
        for final in file.finals:
            if final.judged is not None:
                features.append(final.judged)
                labels.append(file.expected is not None and final.command == file.expected)
    return features, labels


def outcome(files: list[File], model: OverGameModel | None) -> dict[str, int]:
    """Commands right, wrong, refused, and narration taken, deciding by `model` over the
    game (None: Whisper's decision)."""
    counts = dict.fromkeys(("right", "wrong", "refused", "commands", "chatter taken"), 0)
    for file in files:
        taken = []
        for final in file.finals:
            if final.refused or final.command is None:
                continue
            accept = final.whisper
            if model is not None and final.judged is not None:
                accept = model.accepts(final.judged)
            if accept:
                taken.append(final.command)
        if file.expected is None:
            counts["chatter taken"] += bool(taken)
            continue
        counts["commands"] += 1
        if taken == [file.expected]:
            counts["right"] += 1
        elif taken:
            counts["wrong"] += 1
        else:
            counts["refused"] += 1
    return counts


def fitted_model(files: list[File], cost: float, l2: float) -> OverGameModel:
    features, labels = examples(files)
    mean, scale, weights, intercept = fit(features, labels, l2=l2)
    model = OverGameModel(mean, scale, weights, intercept, 0.5)

    def worth(at: OverGameModel) -> float:
        counts = outcome(files, at)
        return counts["right"] - cost * (counts["wrong"] + counts["chatter taken"])

    return threshold_chosen(model, THRESHOLDS, worth)


def _row(name: str, counts: dict[str, int]) -> str:
    n = max(1, counts["commands"])
    return (f"| {name} | {counts['right'] / n:.3f} | {counts['wrong'] / n:.3f} "
            f"| {counts['refused'] / n:.3f} | {counts['chatter taken']} |")


def recordings_in(paths: list[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        found += sorted(path.glob("*.pkl")) if path.is_dir() else [path]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    fitter = commands.add_parser("fit")
    fitter.add_argument("recordings", type=Path, nargs="+",
                        help="recordings (.pkl) or folders of them (benchmarks.echo --record)")
    fitter.add_argument("--cost", type=float, default=WRONG_MOVE_COST,
                        help="right commands a wrong one (or narration taken) must buy")
    fitter.add_argument("--l2", type=float, default=1.0)
    fitter.add_argument("--write", action="store_true", help=f"write {FITTED.name}")
    args = parser.parse_args()
    paths = recordings_in(args.recordings)
    if any("-tuning-" not in path.name for path in paths):
        raise SystemExit("fit on the tuning split's recordings only (room-tuning-*.pkl)")
    rule = live_rule()
    by_room: dict[str, list[File]] = {}
    for path in paths:  # a room's narration and its commands together
        room = path.stem.removeprefix("room-tuning-").removesuffix("-commands")
        by_room.setdefault(room.removesuffix("-narration"), []).extend(
            files_of(load(path), rule))
    everything = [file for files in by_room.values() for file in files]
    model = fitted_model(everything, args.cost, args.l2)
    features, labels = examples(everything)
    print(f"{len(features)} finals heard over the game ({sum(labels)} right); "
          f"threshold {model.threshold:.2f}")
    print("\n| room, decision | right | wrong | refused | narration taken |")
    print("|---|---:|---:|---:|---:|")
    for room, files in by_room.items():
        print(_row(f"{room}, Whisper", outcome(files, None)))
        print(_row(f"{room}, over the game", outcome(files, model)))
        others = [file for name, rest in by_room.items() if name != room for file in rest]
        if len(by_room) > 1 and examples(others)[0]:
            print(_row(f"{room}, fitted without it",
                       outcome(files, fitted_model(others, args.cost, args.l2))))
    print(_row("all, Whisper", outcome(everything, None)))
    print(_row("all, over the game", outcome(everything, model)))
    print("\nweights (standardized): " + ", ".join(
        f"{name} {weight:+.2f}" for name, weight in zip(FEATURES, model.weights, strict=True)))
    if args.write:
        provenance = {"recordings": [path.name for path in paths], "cost": args.cost,
                      "l2": args.l2, "finals": len(features),
                      "date": datetime.date.today().isoformat()}
        FITTED.write_text(model.to_json(provenance), encoding="utf-8")
        print(f"wrote {FITTED}")


if __name__ == "__main__":
    main()
