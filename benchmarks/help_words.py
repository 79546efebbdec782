"""Which words to say for "more help" and "stop the help": an A/B on the tuning split.

    python -m benchmarks.help_words [--split tuning] [--out /tmp/help-words]
                                    [--pairs "more/stop,tell me more/stop help"]

Each candidate pair (a word for more, a word for stop) replaces the grammar's
MORE and STOP phrasings in a process of its own; a corpus of the candidates and
of the commands they could be confused with (spit, slap, no, four, more detail
...), in the split's voices, clean and noisy, plus the split's chatter, goes
through the game's PocketSphinx recognizer. One row per pair: how often each
candidate is heard as said, how often something else (another command or
chatter) comes out as a candidate, and the neighbours' accuracy. Words are
chosen on `tuning`; `--split heldout` reports the choice.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from benchmarks.make_corpus import build
from benchmarks.tables import print_markdown
from voicespit.speech.language.commands import Verb

CANDIDATES = (("more", "stop"), ("tell me more", "stop help"), ("next", "that's enough"),
              ("more", "enough"), ("more", "stop talking"), ("more", "that's all"),
              ("more", "quiet please"))
NEIGHBOURS = ("spit", "slap left", "score please", "more detail", "no", "four on left",
              "new game", "ready", "what can i say", "turn over", "my cards", "show piles",
              "speed up", "tutorial")
"""Commands that share sounds with the candidates, or that a candidate must never become."""


def measure(pair: tuple[str, str], split: str, out: Path) -> dict[str, object]:
    import voicespit.speech.language.grammar as grammar
    import voicespit.speech.language.parser as parser

    replaced = tuple(
        dataclasses.replace(phrasing, pattern=pair[0]) if phrasing.verb is Verb.MORE
        else dataclasses.replace(phrasing, pattern=pair[1]) if phrasing.verb is Verb.STOP
        else phrasing for phrasing in grammar.PHRASINGS)
    for module in (grammar, parser):  # the parser keeps its own name for the table
        vars(module)["PHRASINGS"] = replaced

    from voicespit.speech.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer
    from voicespit.speech.recognizers.transcription import read_corpus, summarize, transcribe_all

    directory = out / "-".join(word.replace(" ", "_").replace("'", "") for word in pair)
    build(directory, split, commands=(*pair, *NEIGHBOURS))
    results = list(transcribe_all(PocketSphinxRecognizer(), read_corpus(directory / split)))
    row: dict[str, object] = {"more": pair[0], "stop": pair[1]}
    for name, word in (("more", pair[0]), ("stop", pair[1])):
        own = [r for r in results if r.item.transcript == word]
        row[f"{name} heard"] = sum(bool(r.correct) for r in own) / len(own)
        verb = Verb.MORE if name == "more" else Verb.STOP
        others = [r for r in results if r.item.transcript != word]
        row[f"taken as {name}"] = sum(any(c.verb is verb for c in r.commands)
                                      for r in others) / len(others)
    neighbours = [r for r in results if r.item.kind == "command" and r.item.transcript
                  in NEIGHBOURS]
    row["neighbours heard"] = sum(bool(r.correct) for r in neighbours) / len(neighbours)
    row["chatter taken"] = summarize(results)["chatter_false_accept"]
    return row


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--split", default="tuning", choices=("tuning", "heldout"))
    arguments.add_argument("--out", type=Path, default=Path("/tmp/help-words"))
    arguments.add_argument("--pairs", help='comma-separated "more/stop" pairs (default: '
                           + ", ".join("/".join(pair) for pair in CANDIDATES) + ")")
    args = arguments.parse_args()
    pairs = CANDIDATES if not args.pairs else tuple(
        tuple(part.strip() for part in pair.split("/")) for pair in args.pairs.split(","))
    context = multiprocessing.get_context("spawn")  # each pair its own grammar
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        rows = list(pool.map(measure, pairs, [args.split] * len(pairs), [args.out] * len(pairs)))
    print_markdown(rows)


if __name__ == "__main__":
    main()
