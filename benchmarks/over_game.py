"""Fitting the decision on commands heard over the game (`speech/listening/over_game.py`).

    python -m benchmarks.echo --split tuning --record /tmp/over-game --commands 120 \
        --narration-seconds 240 --room 0.5,45,0 --room 0.5,45,5 --room 0.5,45,10 \
        --room 0.8,80,10
    python -m benchmarks.over_game fit /tmp/over-game [--write]

The first command runs the room benchmark's closed loop on its tuning split with the game's
own recognizer, deciding as it does in the game, and keeps every final command it gave
(`benchmarks.echo_record`): a command Whisper refuses at a pause is heard on to its end, so
these are exactly the finals the model is asked about in the game, with the features it
would be asked with (the listener's own test, `over_game.shares_if_asked`). `fit` labels
each final the model is asked about by whether its command is the one said (the game's
narration heard as a command: never) and fits the logistic model of `over_game` on them.
Whisper's own decision is one of its features, so after any change to the recognizer both
commands run again. The threshold is the one giving the most right commands less `--cost`
(`COST`, 8) for each wrong command or narration taken as one, over all rooms, counted as the
benchmark counts them: a command is right when the one command taken for it is the one
said. It prints, per room, the game's decision without the model beside the model's, and
the model fitted with that room left out (what a room it never saw would get). With
--write the model goes to `over_game.json` with the recordings it was fitted on.

What a refused command would have done next (the game talking on, the player not
answered) is not replayed: the closed loop (`benchmarks.echo --over-game`) measures that.
Until round 8 the fit replayed Whisper's decision over recordings made refusing nothing,
where every final was the first answer at a pause (`git log benchmarks/over_game.py`).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from voicespit.speech.language.parser import command_in, parse
from voicespit.speech.listening.over_game import FEATURES, FITTED, OverGameModel
from voicespit.speech.logistic import fit, threshold_chosen

THRESHOLDS = np.round(np.arange(0.20, 0.96, 0.01), 2)
COST = 8.0
"""Right commands a wrong one (or narration taken) must buy when the threshold is chosen.
The game's own price is 3 (`whisper_acceptance.WRONG_MOVE_COST`), but a threshold chosen at
3 on the very finals the model was fitted on overfits: on the tuning split (4 rooms, 229
finals), with each room left out of the fit, cost 3 took 9 more right commands and 5 more
wrong than no model, cost 8 (with `L2`) 6 and 1 (`benchmarks/LEVERS.md`)."""
L2 = 10.0
"""The fit's shrinkage (1 until round 8; chosen with COST, each room left out)."""


@dataclasses.dataclass
class Final:
    command: Any
    """The command heard."""
    taken: bool
    """Taken by the game without the model (Whisper accepted it, the listener's checks
    let it through)."""
    judged: npt.NDArray[np.float64] | None
    """Its `evidence` when the over-the-game model is asked about it, else None."""


@dataclasses.dataclass
class File:
    room: str
    expected: Any
    """The command said (None: narration heard as a command, "chatter")."""
    finals: list[Final]


def files_of(recording: dict[str, Any]) -> list[File]:
    """One file per command said (its finals), and one per final that belongs to none."""
    room = room_of(str(recording["job"]))
    said = [File(room, parse(text), []) for text in recording["said"]]
    chatter = []
    for final in recording["finals"]:
        features = final["features"]
        heard = Final(command_in(final["text"]), bool(final["taken"]),
                      None if features is None else np.asarray(features, dtype=np.float64))
        if final["owner"] is None:
            chatter.append(File(room, None, [heard]))
        else:
            said[int(final["owner"])].finals.append(heard)
    return said + chatter


def room_of(job: str) -> str:
    """"room-tuning-0.5-45-10-commands" -> "0.5-45-10"."""
    return job.split("-", 2)[2].removesuffix("-commands").removesuffix("-narration")


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
    game (None: as the game does without it)."""
    counts = dict.fromkeys(("right", "wrong", "refused", "commands", "chatter taken"), 0)
    for file in files:
        taken = [final.command for final in file.finals
                 if (model.accepts(final.judged) if model is not None
                     and final.judged is not None else final.taken)]
        if file.expected is None:
            counts["chatter taken"] += len(taken)
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
        found += sorted(path.glob("*.json")) if path.is_dir() else [path]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    fitter = commands.add_parser("fit")
    fitter.add_argument("recordings", type=Path, nargs="+",
                        help="recordings (.json) or folders of them (benchmarks.echo --record)")
    fitter.add_argument("--cost", type=float, default=COST,
                        help="right commands a wrong one (or narration taken) must buy")
    fitter.add_argument("--l2", type=float, default=L2)
    fitter.add_argument("--write", action="store_true", help=f"write {FITTED.name}")
    args = parser.parse_args()
    paths = recordings_in(args.recordings)
    if not paths or any(not path.name.startswith("room-tuning-") for path in paths):
        raise SystemExit("fit on the tuning split's recordings only (room-tuning-*.json)")
    by_room: dict[str, list[File]] = {}
    for path in paths:  # a room's narration and its commands together
        recording = json.loads(path.read_text(encoding="utf-8"))
        by_room.setdefault(room_of(str(recording["job"])), []).extend(files_of(recording))
    everything = [file for files in by_room.values() for file in files]
    model = fitted_model(everything, args.cost, args.l2)
    features, labels = examples(everything)
    print(f"{len(features)} finals heard over the game ({sum(labels)} right); "
          f"threshold {model.threshold:.2f}")
    print("\n| room, decision | right | wrong | refused | narration taken |")
    print("|---|---:|---:|---:|---:|")
    for room, files in by_room.items():
        print(_row(f"{room}, without the model", outcome(files, None)))
        print(_row(f"{room}, over the game", outcome(files, model)))
        others = [file for name, rest in by_room.items() if name != room for file in rest]
        if len(by_room) > 1 and examples(others)[0]:
            print(_row(f"{room}, fitted without it",
                       outcome(files, fitted_model(others, args.cost, args.l2))))
    print(_row("all, without the model", outcome(everything, None)))
    print(_row("all, over the game", outcome(everything, model)))
    print("\nweights (standardized): " + ", ".join(
        f"{name} {weight:+.2f}" for name, weight in zip(FEATURES, model.weights, strict=True)))
    if args.write:
        provenance = {"recordings": [path.name for path in paths], "finals": "live",
                      "cost": args.cost, "l2": args.l2, "examples": len(features),
                      "date": datetime.date.today().isoformat()}
        FITTED.write_text(model.to_json(provenance), encoding="utf-8")
        print(f"wrote {FITTED}")


if __name__ == "__main__":
    main()
