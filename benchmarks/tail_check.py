"""What Whisper's tail check does: the same files with it off and on, in one process.

    python -m benchmarks.tail_check [--split natural-tuning] [--split tuning] [--every 1]

A command no longer sentence continues is acted on at the endpointer's first pause
(`pause_frames`), and Whisper, scoring only the grammar's sentences, can finish one from
its first words; the word after the pause then comes as an utterance of its own ("how
do i | play", the "play" heard as "eight"). `WhisperSettings.tail_check` scores such a
word together with the command before it and keeps it quiet when together they are that
command. Per split and setting: commands heard as meant, wrong, wrong moves, chatter
taken, the tails kept quiet; then every file decided differently (what it was heard as
off, then on), so that a tail check that swallowed a real second command shows by name.
Chosen on the tuning splits; `heldout`, `natural-heldout` and `fsdd-test` report it.
"""

from __future__ import annotations

import argparse
import dataclasses

from benchmarks.speech import CORPUS
from benchmarks.tables import print_markdown
from voicespit.speech.recognizers.transcription import (
    FileResult,
    read_corpus,
    summarize,
    transcribe,
)


def heard(result: FileResult) -> str:
    return " | ".join(recognition.text + (" (kept quiet)" if recognition.ends_last_command
                                          else " (refused)" if recognition.rejected else "")
                      for recognition in result.finals if recognition.text) or "nothing"


def row(split: str, setting: str, results: list[FileResult]) -> dict[str, object]:
    summary = summarize(results)
    return {"split": split, "tail check": setting,
            "heard as meant": summary["command_accuracy"], "wrong": summary["wrong_rate"],
            "wrong moves": summary["wrong_move_rate"],
            "chatter taken": summary["chatter_false_accept"],
            "tails kept quiet": sum(recognition.ends_last_command for result in results
                                    for recognition in result.finals),
            "files": len(results)}


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--split", action="append",
                           help="a corpus split (default: natural-tuning and tuning)")
    arguments.add_argument("--every", type=int, default=1, help="take every Nth file")
    args = arguments.parse_args()

    from voicespit.speech.recognizers.whisper_model import WhisperModel
    from voicespit.speech.recognizers.whisper_recognizer import (
        WhisperRecognizer,
        WhisperSettings,
    )

    model = WhisperModel.load()
    recognizers = {setting: WhisperRecognizer(model, settings=dataclasses.replace(
        WhisperSettings(), tail_check=setting == "on")) for setting in ("off", "on")}
    rows, changed = [], []
    for split in args.split or ["natural-tuning", "tuning"]:
        items = read_corpus(CORPUS / split)[::args.every]
        outcomes = {}
        for setting, recognizer in recognizers.items():
            results = [transcribe(recognizer, item) for item in items]
            rows.append(row(split, setting, results))
            outcomes[setting] = {result.item.name: (result.item.transcript, heard(result))
                                 for result in results}
        changed += [(split, name, transcript, off, outcomes["on"][name][1])
                    for name, (transcript, off) in outcomes["off"].items()
                    if outcomes["on"][name][1] != off]
    print_markdown(rows)
    print(f"Files decided differently: {len(changed)}")
    for split, name, transcript, off, on in changed:
        print(f"  {split} {name} ({transcript!r}): off {off}; on {on}")


if __name__ == "__main__":
    main()
