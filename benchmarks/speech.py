"""The speech benchmark: each PocketSphinx lever switched on and off, on one corpus split.

    python -m benchmarks.make_corpus                       # once: builds both splits
    python -m benchmarks.speech [--split heldout] [--config NAME ...] [--runs 3]

Each configuration runs in a fresh process (so peak memory is its own), streams
every file exactly as `voicespit recognize` does, and prints one Markdown table
row. With --runs N each configuration runs N times and the latency and speed
figures are medians (the machine is shared: single runs are noisy); the
accuracy figures are identical run to run because decoding is deterministic.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import os
import statistics
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from voicespit.speech.endpoint import EndpointSettings
from voicespit.speech.pocketsphinx_recognizer import PocketSphinxRecognizer, PocketSphinxSettings
from voicespit.speech.transcription import read_corpus, summarize, transcribe_all

FINAL = PocketSphinxSettings()
CONFIGS: dict[str, PocketSphinxSettings] = {
    "plain": PocketSphinxSettings.plain(),
    "final": FINAL,
    "without agreement": dataclasses.replace(FINAL, agreement=False),
    "without garbage path": dataclasses.replace(FINAL, garbage_probability=0.0),
    "plus phone-loop confidence": dataclasses.replace(FINAL, phone_loop=True,
                                                      confidence_threshold=-8.0),
    "without noise suppression": dataclasses.replace(FINAL, noise_suppression=False),
    "without comfort noise": dataclasses.replace(FINAL, comfort_noise=0.0),
    "live CMN instead of per-utterance": dataclasses.replace(FINAL, batch_cmn=False),
    "slot JSGF instead of word graph": dataclasses.replace(FINAL, word_graph=False),
    "silence-only endpoint": dataclasses.replace(FINAL, end_on_hypothesis=False),
    "without longer waits in noise": dataclasses.replace(
        FINAL, endpoint=EndpointSettings(noisy_extra_frames=0)),
    "without accent pronunciations": dataclasses.replace(FINAL, extra_pronunciations={}),
    "measure": dataclasses.replace(FINAL, confidence_threshold=None, phone_loop=True),
}
"""Each lever off (or, for the phone loop, on) against the final settings. "measure"
records every score for tuning and is not a row of the table."""
TABLE = [name for name in CONFIGS if name != "measure"]
CORPUS = Path(__file__).parent / "corpus"


def run_config(name: str, split: str,
               overrides: dict[str, Any] | None = None) -> dict[str, object]:
    settings = CONFIGS[name] if overrides is None else dataclasses.replace(CONFIGS[name],
                                                                            **overrides)
    recognizer = PocketSphinxRecognizer(settings=settings)
    results = list(transcribe_all(recognizer, read_corpus(CORPUS / split)))
    summary = summarize(results)
    summary["config"] = name
    summary["finals"] = [
        {"path": r.item.name, "kind": r.item.kind, "expected": r.item.transcript,
         "finals": [(f.text, f.confidence, f.rejected, dict(f.scores or {})) for f in r.finals]}
        for r in results]
    return summary


def row(name: str, runs: list[dict[str, object]]) -> str:
    first = runs[0]
    by = first["by_condition"]
    assert isinstance(by, dict)

    def median(key: str) -> float:
        return statistics.median(float(run[key]) for run in runs  # type: ignore[arg-type]
                                 if run[key] is not None)

    cells = [name, *(f"{by[c]['command_accuracy']:.3f}" for c in ("clean", "snr20", "snr10")),
             f"{first['wrong_rate']:.3f}", f"{first['reject_rate']:.3f}",
             f"{first['chatter_false_accept']:.3f}", f"{median('latency_ms_p50'):.0f}",
             f"{median('latency_ms_p95'):.0f}", f"{median('real_time_factor'):.3f}",
             f"{median('peak_rss_mb'):.0f}"]
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="heldout")
    parser.add_argument("--config", action="append", choices=CONFIGS, metavar="NAME",
                        help="configurations to run (default all but measure): "
                             + ", ".join(CONFIGS))
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--out", type=Path, help="also write every summary here as JSON lines")
    parser.add_argument("--set", action="append", default=[], metavar="SETTING=JSON",
                        help="override a PocketSphinxSettings field (for tuning on the "
                             "tuning split), e.g. garbage_phone_probability=1e-6")
    args = parser.parse_args()
    names = args.config or TABLE
    overrides = {key: json.loads(value) for key, _, value in
                 (setting.partition("=") for setting in args.set)} or None
    print(f"split {args.split}; load average {os.getloadavg()[0]:.1f} at start")
    print("| configuration | clean | 20 dB | 10 dB | wrong | reject | chatter FA "
          "| p50 ms | p95 ms | RTF | RSS MB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    context = multiprocessing.get_context("spawn")
    for name in names:
        runs = []
        for _ in range(args.runs):
            with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
                runs.append(pool.submit(run_config, name, args.split, overrides).result())
        if args.out is not None:
            with args.out.open("a") as out:
                for run in runs:
                    out.write(json.dumps(run) + "\n")
        label = name + "".join(f" {setting}" for setting in args.set)
        print(row(label, runs), flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
