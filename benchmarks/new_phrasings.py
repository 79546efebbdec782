"""What adding phrasings to the grammar does, with the default recognizer: an A/B.

    python -m benchmarks.new_phrasings [--split tuning|heldout] [--every 3]
        [--patterns "what do i have;what cards do i have;what's on the {pile}"]
        [--neighbours "my cards;what's on left;..."]

Issue 10 asks that each phrasing players say unprompted be measured before it joins
the grammar, and dropped only with the figure that shows it hurts. The patterns named
(phrasings of `grammar.PHRASINGS`) are left out of the recognizer's sentences for the
row "without" and kept for "with"; the same files go through Whisper for both, in one
process:

- a corpus of the patterns' sentences and of their neighbours (the commands they
  could be taken for, or must never become), in the split's espeak-ng voices, clean,
  20 dB and 10 dB, with the split's chatter (`make_corpus.build`);
- the real voices of `fsdd-<split>` (every Nth file), bare ranks against the whole
  grammar: a bigger grammar must not cost the players' most common command.

- whole splits players' own words are measured on (`--whole`): on `tuning`, every
  natural phrasing (`natural-tuning`) and all the tuning table talk (`chatter-tuning`); on
  `heldout`, `natural-heldout`. The neighbours are a guess at what the new words could
  take; these are what they did take when the guess missed: in round 34 "hold on" took the
  table talk "go on", in round 35 "i'm stuck" took "faster", and both were first seen held
  out, where nothing may be chosen.

Per row: the new sentences heard as meant (without them in the grammar, what they
became instead), the neighbours, chatter taken as any command, the real voices'
accuracy and wrong moves, and the whole splits' commands heard and wrong, or table talk
taken. Chosen on `tuning`; `--split heldout` reports the choice.
"""

from __future__ import annotations

import argparse
import collections
from pathlib import Path

from benchmarks.make_corpus import ADDED_LATER, build
from benchmarks.speech import CORPUS
from benchmarks.tables import print_markdown
from voicespit.speech.language.grammar import PHRASINGS, expand
from voicespit.speech.language.grammar import sentences as grammar_sentences
from voicespit.speech.recognizers.transcription import (
    FileResult,
    read_corpus,
    summarize,
    transcribe,
)

NEIGHBOURS = ("my cards", "what's on left", "what's on right", "what's on the left pile",
              "what can i say", "show piles", "how many cards", "how many cards are left",
              "opponent's cards", "face down cards", "how do you hear me", "two on left",
              "seven on the right", "what can i say about moves")
"""Commands that share words or rhythm with the candidates."""


def sentences_of(patterns: list[str]) -> list[str]:
    """Every sentence the named phrasings expand to."""
    known = {phrasing.pattern: phrasing for phrasing in PHRASINGS}
    missing = [pattern for pattern in patterns if pattern not in known]
    if missing:
        raise SystemExit(f"not a phrasing of the grammar: {', '.join(missing)}")
    return [sentence for pattern in patterns for sentence, _ in expand(known[pattern])]


WHOLE = {"tuning": ("natural-tuning", "chatter-tuning"), "heldout": ("natural-heldout",)}
"""The splits run whole beside the A/B, by the A/B's split (`--whole`)."""


def row(name: str, results: list[FileResult], real: list[FileResult],
        new: set[str], whole: dict[str, list[FileResult]]) -> dict[str, object]:
    spoken = [r for r in results if r.item.kind == "command"]
    own = [r for r in spoken if r.item.transcript in new]
    neighbours = [r for r in spoken if r.item.transcript not in new]
    real_summary = summarize(real)
    became = collections.Counter(_said(r) for r in own if not r.correct)
    return {"grammar": name,
            **{f"new heard, {condition}": _share(
                [r for r in own if r.item.name.startswith(condition)])
               for condition in ("clean", "snr20", "snr10")},
            "neighbours heard": _share(neighbours),
            "chatter taken": summarize(results)["chatter_false_accept"],
            "real voices quiet": _share([r for r in real if r.item.name.startswith("quiet")]),
            "real voices 10 dB": _share([r for r in real if r.item.name.startswith("noise10")]),
            "real wrong moves": real_summary["wrong_move_rate"],
            **whole_columns(whole),
            "new sentences became": "; ".join(f"{what} {count}"
                                              for what, count in became.most_common(4))}


def whole_columns(whole: dict[str, list[FileResult]]) -> dict[str, object]:
    """Each whole split's commands heard and wrong, or (a split of table talk) taken."""
    columns: dict[str, object] = {}
    for split, results in whole.items():
        summary = summarize(results)
        if summary["commands"]:
            columns[f"{split} heard"] = summary["command_accuracy"]
            columns[f"{split} wrong"] = summary["wrong_rate"]
        else:
            columns[f"{split} taken"] = summary["chatter_false_accept"]
    return columns


def _said(result: FileResult) -> str:
    return " / ".join(repr(command) for command in result.commands) or "nothing"


def _share(results: list[FileResult]) -> float:
    return sum(bool(r.correct) for r in results) / len(results) if results else float("nan")


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--split", default="tuning", choices=("tuning", "heldout"))
    arguments.add_argument("--every", type=int, default=3,
                           help="take every Nth file of the real voices")
    arguments.add_argument("--patterns", default=";".join(ADDED_LATER[:3]),
                           help="the phrasings to judge, separated by ';'")
    arguments.add_argument("--neighbours", default=";".join(NEIGHBOURS),
                           help="the sentences they could be confused with, separated by ';'")
    arguments.add_argument("--whole", default=None,
                           help="splits to run whole with both grammars, separated by ';' "
                                "(default: natural-tuning;chatter-tuning on tuning, "
                                "natural-heldout on heldout; '' for none)")
    arguments.add_argument("--out", type=Path, default=Path("/tmp/new-phrasings"))
    args = arguments.parse_args()
    patterns = [pattern.strip() for pattern in args.patterns.split(";") if pattern.strip()]
    new = sentences_of(patterns)
    neighbours = [sentence.strip() for sentence in args.neighbours.split(";") if sentence.strip()]
    build(args.out, args.split, commands=[*new, *neighbours])
    corpus = read_corpus(args.out / args.split)
    real_split = "fsdd-tuning" if args.split == "tuning" else "fsdd-test"
    real_items = read_corpus(CORPUS / real_split)[::args.every]
    whole_splits = WHOLE[args.split] if args.whole is None else \
        [split.strip() for split in args.whole.split(";") if split.strip()]
    whole_items = {split: read_corpus(CORPUS / split) for split in whole_splits}

    from voicespit.speech.recognizers.whisper_model import WhisperModel
    from voicespit.speech.recognizers.whisper_recognizer import WhisperRecognizer

    model = WhisperModel.load()
    everything = grammar_sentences()
    rows, per_pattern, outcomes = [], [], []
    for name, phrases in (("without", [s for s in everything if s not in new]),
                          ("with", everything)):
        recognizer = WhisperRecognizer(model, phrases)
        results = [transcribe(recognizer, item) for item in corpus]
        real = [transcribe(recognizer, item) for item in real_items]
        whole = {split: [transcribe(recognizer, item) for item in items]
                 for split, items in whole_items.items()}
        rows.append(row(name, results, real, set(new), whole))
        # Keyed by split too: the corpora number their files alike ("snr10/0132-...").
        decided = {f"{args.split}/{r.item.name}": r for r in results}
        decided |= {f"{real_split}/{r.item.name}": r for r in real}
        decided |= {f"{split}/{r.item.name}": r for split, done in whole.items() for r in done}
        outcomes.append({key: (r.item.transcript, _said(r)) for key, r in decided.items()
                         if r.item.transcript not in new})
        per_pattern.append(f"{name}: " + ", ".join(
            f'"{pattern}" {_share([r for r in results if r.item.transcript in own]):.3f}'
            for pattern, own in ((pattern, set(sentences_of([pattern])))
                                 for pattern in patterns)))
    print(f"{args.split}: {len(new)} new sentences, {len(corpus)} files; "
          f"{real_split} every {args.every}: {len(real_items)} files"
          + "".join(f"; {split} whole: {len(items)} files"
                    for split, items in whole_items.items()))
    print_markdown(rows)
    print("Heard as meant, per phrasing (all three conditions):")
    print("\n".join(per_pattern))
    changed = [(name, *outcomes[0][name], outcomes[1][name][1]) for name in outcomes[0]
               if outcomes[0][name] != outcomes[1][name]]
    print(f"Other files decided differently: {len(changed)}")
    for name, transcript, without, with_them in changed:
        print(f"  {name} ({transcript!r}): without {without}, with {with_them}")


if __name__ == "__main__":
    main()
