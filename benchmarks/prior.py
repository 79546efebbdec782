"""The game state's prior, measured: what the bonus for what can matter now does to Whisper.

    python -m benchmarks.prior --split fsdd-tuning --split tuning [--every 5] \
        [--bonus 0 --bonus 0.5 --bonus 0.5:all-ranks ...]

In the game the recognizer hears the whole grammar, and the sentences that can matter
now get `prior_bonus` added to their log-probability. Until round 29 those were
`context_for`'s: the ranks face up in front of the player, slap at a round's end, and
so on. That can help a card the player holds win a near tie, and it can also turn a
rank the player does not hold into one they do: a card nobody said, played whenever
it fits a pile. A bonus with the suffix ":all-ranks" favours every rank alike whenever
a card can be played (`context.prior_for`, the game's prior since round 29).

The real corpus lists each take quiet, then at 10 dB: an even `--every` keeps only
one of the two.

Each file is heard in game states taken from real simulated games (as
`benchmarks.narrowing` picks them):
- "held": a state in which the command can matter (its rank face up in front of the
  player, its pile in use, ...);
- "unheld" (commands that name a rank): a state in which the player has no card of
  that rank face up. The right outcome is the rank heard as itself (the game then
  says "You have no seven."); the worst is another rank that the player holds;
- chatter (files that are not commands) is heard in a play state.
Every bonus hears the same file in the same states, in one process.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
from collections import Counter
from dataclasses import dataclass

from benchmarks.narrowing import State, context_for_command, state_pool
from benchmarks.speech import CORPUS
from voicespit.engine.state import Phase
from voicespit.speech.language.commands import Command, GrammarContext, Verb
from voicespit.speech.language.context import context_for, with_every_rank
from voicespit.speech.language.grammar import sentences
from voicespit.speech.language.parser import parse
from voicespit.speech.recognizers.transcription import CorpusItem, FileResult, read_corpus, transcribe
from voicespit.speech.recognizers.whisper_model import WhisperModel
from voicespit.speech.recognizers.whisper_recognizer import WhisperRecognizer, WhisperSettings


@dataclass(frozen=True)
class Trial:
    """One file heard in one game state."""

    item: CorpusItem
    scenario: str
    """"held", "unheld" or "chatter"."""
    context: GrammarContext


def without_rank(rank: int, playing: list[GrammarContext], rng: random.Random) -> GrammarContext:
    """One of the play states' contexts in which the player has no card of `rank` face up."""
    return rng.choice([context for context in playing
                       if context.ranks and rank not in context.ranks])


def trials(items: list[CorpusItem], pool: list[State], seed: int) -> list[Trial]:
    rng = random.Random(seed)
    playing = [context_for(state, 0) for state in pool if state.phase is Phase.PLAY]
    planned: list[Trial] = []
    for item in items:
        command = parse(item.transcript) if item.kind == "command" and item.transcript else None
        if item.kind == "command" and command is None:
            continue
        if command is None:
            planned.append(Trial(item, "chatter", context_for_command(None, pool, rng)))
            continue
        planned.append(Trial(item, "held", context_for_command(command, pool, rng)))
        if command.verb is Verb.PLAY and command.rank is not None:
            planned.append(Trial(item, "unheld", without_rank(command.rank, playing, rng)))
    return planned


def outcome(trial: Trial, result: FileResult) -> str:
    """What the player would meet: "right", "refused", "wrong", "card not said" (a
    move of a rank the player holds that was not said: played if it fits a pile)."""
    chatter = trial.scenario == "chatter"
    if not result.commands:
        return "right" if chatter else "refused"
    if not chatter and result.commands == [result.expected]:
        return "right"
    # Chatter expects nothing, so every command taken from it is unsaid.
    unsaid = [c for c in result.commands if c != result.expected]
    return "card not said" if any(_holds(trial, c) for c in unsaid) else "wrong"


def _holds(trial: Trial, command: Command) -> bool:
    return command.verb is Verb.PLAY and command.rank in trial.context.ranks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", action="append", required=True)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--bonus", action="append",
                        help="a prior bonus; with the suffix :all-ranks every rank shares it "
                             "whenever a play can matter (the table says whether a card can "
                             "be played, never which)")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    bonuses: list[str] = args.bonus or ["0", "0.25", "0.5", "1"]
    pool = state_pool()
    items = [item for split in args.split for item in read_corpus(CORPUS / split)[::args.every]]
    planned = trials(items, pool, args.seed)
    model = WhisperModel.load()
    recognizers = {bonus: WhisperRecognizer(model, settings=dataclasses.replace(
        WhisperSettings(), prior_bonus=float(bonus.split(":")[0]))) for bonus in bonuses}
    counts: dict[tuple[str, str], Counter[str]] = {}
    changed: list[str] = []
    for trial in planned:
        seen: dict[str, str] = {}
        for bonus, recognizer in recognizers.items():
            context = with_every_rank(trial.context) if bonus.endswith(":all-ranks") \
                else trial.context
            recognizer.set_prior(sentences(context))
            result = transcribe(recognizer, trial.item)
            decided = outcome(trial, result)
            seen[bonus] = f"{decided} ({result.heard or 'nothing'})"
            counts.setdefault((bonus, trial.scenario), Counter())[decided] += 1
        if len(set(seen.values())) > 1:
            changed.append(f"{trial.scenario} {trial.item.name} [{trial.item.transcript}]: "
                           + "; ".join(f"{bonus}: {text}" for bonus, text in seen.items()))
    print(f"splits {', '.join(args.split)}, every {args.every}: {len(planned)} trials "
          f"of {len(items)} files in {len(pool)} game states")
    kinds = ("right", "refused", "wrong", "card not said")
    print("| bonus | scenario | files | " + " | ".join(kinds) + " |")
    print("|---|---|---|" + "---|" * len(kinds))
    for bonus in bonuses:
        for scenario in ("held", "unheld", "chatter"):
            tally = counts.get((bonus, scenario), Counter())
            total = sum(tally.values())
            if total:
                print(f"| {bonus} | {scenario} | {total} | "
                      + " | ".join(f"{tally[kind] / total:.3f}" for kind in kinds) + " |")
    print(f"\n{len(changed)} trials decided differently by some bonus:")
    for line in changed:
        print(" ", line)


if __name__ == "__main__":
    main()
