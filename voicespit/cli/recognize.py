"""`voicespit recognize`: run WAV files or a spoken-command corpus through a recognizer.

    voicespit recognize FILE.wav [FILE.wav ...] [--recognizer auto|vosk|whisper|pocketsphinx] [--json]
    voicespit recognize --corpus DIR [--json]

Files stream through the recognizer as the live game streams the microphone,
endpointing included. A file given by name is heard with its own background around
it (`voicespit.speech.recording_room`), as a microphone hears the moments before and
after a command: trimmed close to the speech, a clear "two" was otherwise not heard at
all. With --json, one JSON line per file (path, expected,
heard, command, correct, latency_ms) and a last summary line.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from voicespit.speech.language.grammar import phrase_for
from voicespit.speech.recognizers.models import default_models_dir
from voicespit.speech.recognizers.select import KINDS, make_recognizer
from voicespit.speech.recognizers.transcription import (
    CorpusItem,
    FileResult,
    read_corpus,
    summarize,
    transcribe_all,
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", type=Path, metavar="FILE.wav",
                        help="WAV files to recognize (any PCM rate or channels)")
    parser.add_argument("--corpus", type=Path, metavar="DIR",
                        help="a corpus directory with manifest.tsv (see benchmarks/make_corpus.py)")
    parser.add_argument("--recognizer", choices=KINDS, default="auto",
                        help="which recognizer (default auto: Vosk if an English model is "
                             "installed, else Whisper, else PocketSphinx)")
    parser.add_argument("--models-dir", type=Path, default=None, metavar="DIR",
                        help="where Vosk models are installed (default: as `voicespit models "
                             "list`, $VOICESPIT_MODELS_DIR or models/)")
    parser.add_argument("--model", metavar="NAME_OR_PATH", help="the Vosk model to use")
    parser.add_argument("--whisper-model", metavar="NAME_OR_PATH",
                        help="a Whisper model folder to use instead of the built-in one")
    parser.add_argument("--json", action="store_true",
                        help="one JSON line per file and a summary line")


def run(args: argparse.Namespace) -> int:
    if not args.files and args.corpus is None:
        print("voicespit recognize: give WAV files or --corpus DIR", file=sys.stderr)
        return 2
    # A recording given as it is may be trimmed close to the speech: it is heard in its
    # own room, as the microphone would have heard it (a corpus file has its room).
    items = [CorpusItem(path, str(path), in_room=True) for path in args.files]
    if args.corpus is not None:
        items += read_corpus(args.corpus)
    recognizer, choice = make_recognizer(args.recognizer,
                                         models_dir=args.models_dir or default_models_dir(),
                                         model=args.model, whisper_model=args.whisper_model)
    print(choice, file=sys.stderr)
    results: list[FileResult] = []
    for result in transcribe_all(recognizer, items):
        results.append(result)
        if args.json:
            print(json.dumps(result.as_json()), flush=True)
        else:
            print(_line(result), flush=True)
    summary = summarize(results)
    print(json.dumps(summary) if args.json else _summary_text(summary))
    return 1 if summary["errors"] else 0


def _line(result: FileResult) -> str:
    if result.error:
        return f"error: {result.error}"  # the message names the file
    heard = result.heard or "nothing heard"
    command = f" -> {phrase_for(result.command)}" if result.command is not None else " -> no command"
    latency = f" ({result.latency_ms:.0f} ms)" if result.latency_ms is not None else ""
    verdict = {True: " ok", False: " WRONG" if result.wrong else " missed", None: ""}
    note = f" [{result.note}]" if result.note else ""
    return f"{result.item.name}: {heard}{command}{latency}{verdict[result.correct]}{note}"


def _summary_text(summary: dict[str, object]) -> str:
    keys = ("command_accuracy", "wrong_rate", "reject_rate", "chatter_false_accept",
            "latency_ms_p50", "latency_ms_p95", "real_time_factor", "peak_rss_mb", "errors")
    return "summary: " + ", ".join(f"{key} {summary[key]}" for key in keys
                                   if summary.get(key) is not None)
