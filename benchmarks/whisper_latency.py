"""Where Whisper's end-of-speech-to-command time goes, per command, beside PocketSphinx.

    python -m benchmarks.whisper_latency [--split fsdd-tuning] [--every 10] [--runs 3]

Streams every Nth file as `voicespit recognize` does and splits each accepted
command's latency (true end of speech to the command) into the endpointer's wait
(audio: from the end of speech to the frame the command went out at) and the
processing after it; the Whisper rows also give, per file, the time of
log-mel and encoder, of sentence scoring, and of waiting for the cross-check's
PocketSphinx answer (`WhisperRecognizer.timings`). Medians (and p95) over the
files; with --runs N the medians of N runs. The load average is printed: on a
busy machine the processing part grows, the wait does not; --processor-time
counts each block's processor time instead of the wall clock (stages included),
which another program's load does not inflate.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import time
from collections.abc import Sequence

from benchmarks.speech import CORPUS, WHISPER_CONFIGS
from voicespit.speech.recognizer import Recognizer
from voicespit.speech.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer
from voicespit.speech.recognizers.transcription import percentile, read_corpus, transcribe


def _ms(values: Sequence[float]) -> str:
    if not values:
        return "- / -"
    p95 = percentile(list(values), 0.95)
    return f"{1000 * statistics.median(values):.0f} / {1000 * (p95 or 0):.0f}"


def measure(name: str, split: str, every: int,
            processor_time: bool = False) -> dict[str, list[float]]:
    """Per accepted command: latency, wait, processing; per file, Whisper's stages."""
    if name == "pocketsphinx":
        recognizer: Recognizer = PocketSphinxRecognizer()
    else:
        from voicespit.speech.recognizers.whisper_model import WhisperModel
        from voicespit.speech.recognizers.whisper_recognizer import WhisperRecognizer

        recognizer = WhisperRecognizer(WhisperModel.load(),
                                       settings=dataclasses.replace(WHISPER_CONFIGS[name]))
    if processor_time and hasattr(recognizer, "clock"):
        recognizer.clock = time.process_time
    figures: dict[str, list[float]] = {key: [] for key in
                                       ("latency", "wait", "processing", "encoder", "scoring",
                                        "cross-check wait")}
    for item in read_corpus(CORPUS / split)[::every]:
        before = dict(getattr(recognizer, "timings", {}))
        result = transcribe(recognizer, item, processor_time=processor_time)
        for stage, total in getattr(recognizer, "timings", {}).items():
            figures[stage].append(total - before.get(stage, 0.0))
        if result.latency_ms is not None and result.hangover_ms is not None and result.correct:
            figures["latency"].append(result.latency_ms / 1000)
            figures["wait"].append(result.hangover_ms / 1000)
            figures["processing"].append((result.latency_ms - result.hangover_ms) / 1000)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="fsdd-tuning")
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--processor-time", action="store_true",
                        help="latency and stages from processor time, not the wall clock")
    parser.add_argument("--config", action="append", metavar="NAME",
                        choices=[*WHISPER_CONFIGS, "pocketsphinx"],
                        help="default: whisper and pocketsphinx")
    args = parser.parse_args()
    names = args.config or ["whisper", "pocketsphinx"]
    clock = "processor time" if args.processor_time else "wall clock"
    print(f"split {args.split}, every {args.every}th file, latency by {clock}; load average "
          f"{os.getloadavg()[0]:.1f} at start. Each cell: median / p95 ms")
    print("| recognizer | latency | endpointer wait | processing | log-mel + encoder "
          "| scoring | cross-check wait |\n|---|---:|---:|---:|---:|---:|---:|")
    for name in names:
        runs = [measure(name, args.split, args.every, args.processor_time)
                for _ in range(args.runs)]
        cells = []
        for key in ("latency", "wait", "processing", "encoder", "scoring", "cross-check wait"):
            medians = [statistics.median(run[key]) for run in runs if run[key]]
            pooled = [value for run in runs for value in run[key]]
            cells.append(_ms(pooled) if len(runs) == 1 or not medians
                         else f"{1000 * statistics.median(medians):.0f}")
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
