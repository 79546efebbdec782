"""Soak: many matches back to back in one process, watching for leaks and slowdown.

    python -m benchmarks.soak [--matches 1000] [--warmup 50] [--every 100] [--json]

Every match is `voicespit narrate`'s: the real referee with the real opponent
against a simulated human, the real narration, the real pyttsx3 writing each
utterance to a file, the timeline speaker on a fake clock, and the whole game
written to a WAV file (overwritten by the next). Games alternate Spit and Speed,
each with its own seed; one speech engine serves them all, as in a long session.

After `--warmup` matches (caches filled, the allocator settled) it takes a
baseline, and at the end it compares: resident memory (MB), threads, open file
descriptors and live Python objects. Slowdown is the median processor time per
published event over the last 100 matches divided by the same over the 100
after the warm-up (processor time, so other load on the machine matters less).
Each match must end with all 52 cards accounted for and without an error.

Before each reading the process hands the allocator's free memory back to the
system (glibc's malloc_trim): resident memory then counts what the process still
holds, not the high-water mark of its longest game so far, which a heap keeps for
reuse. A leak is memory still held, so it shows all the same. Live objects are
counted by the garbage collector; each reading the soak keeps adds two.

With --json the last line is one JSON object: matches, rss_growth_mb,
threads_leaked, fds_leaked, objects_growth, slowdown, errors, seconds, load.
The exit status is 1 when memory grew by more than --max-growth-mb, a thread or
a file descriptor leaked, the cost per event grew by more than --max-slowdown,
or a match failed.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import gc
import io
import json
import os
import resource
import shutil
import statistics
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from voicespit.audio.narrate import narrate_game
from voicespit.audio.tts import Pyttsx3Renderer
from voicespit.engine import Rules
from voicespit.engine.invariants import check_cards
from voicespit.errors import VoiceSpitError

GAMES = ("spit", "speed")
WINDOW = 100
"""Matches in each of the two windows whose speed is compared."""


def release_free_memory() -> None:
    """Give the C heap's free pages back to the system, where the C library can."""
    name = ctypes.util.find_library("c")
    if name is None:
        return
    trim = getattr(ctypes.CDLL(name), "malloc_trim", None)
    if trim is not None:  # glibc only; elsewhere resident memory includes the heap's spare
        trim(0)


@dataclass(frozen=True)
class Reading:
    """What the process holds at one moment."""

    rss_mb: float
    threads: int
    fds: int
    objects: int
    speech_cache_mb: float
    """The renderer's kept utterances: bounded by count, so their size wanders a little."""

    @staticmethod
    def now(renderer: Pyttsx3Renderer) -> Reading:
        gc.collect()
        release_free_memory()
        pages = int(Path("/proc/self/statm").read_text().split()[1])
        tasks = sum(1 for _ in Path("/proc/self/task").iterdir())
        return Reading(rss_mb=pages * resource.getpagesize() / 2**20,
                       threads=max(threading.active_count(), tasks),
                       fds=sum(1 for _ in Path("/proc/self/fd").iterdir()),
                       objects=len(gc.get_objects()),
                       speech_cache_mb=renderer.cached_bytes / 2**20)


@dataclass
class Soak:
    matches: int = 0
    events: int = 0
    errors: list[str] = field(default_factory=list)
    cpu_per_event: list[float] = field(default_factory=list)
    """Processor seconds per published event, match by match."""
    readings: list[tuple[int, Reading]] = field(default_factory=list)


def play(soak: Soak, renderer: Pyttsx3Renderer, out: Path) -> None:
    """One more narrated match, checked."""
    number = soak.matches
    game = GAMES[number % len(GAMES)]
    started = time.process_time()
    try:
        result = narrate_game(Rules.for_game(game, ()), number, out, io.StringIO(),
                              renderer=renderer)
    except VoiceSpitError as error:
        soak.errors.append(f"match {number} ({game}): {error}")
    except Exception as error:  # a soak counts every failure and plays on
        soak.errors.append(f"match {number} ({game}): {type(error).__name__}: {error}")
    else:
        assert result.final_state is not None
        try:
            check_cards(result.final_state)
        except AssertionError as error:
            soak.errors.append(f"match {number} ({game}): {error}")
        events = max(1, len(result.events))
        soak.events += events
        soak.cpu_per_event.append((time.process_time() - started) / events)
    soak.matches += 1


def slowdown(per_event: list[float], warmup: int) -> float:
    """Median cost per event of the last window over the first one after the warm-up
    (windows of WINDOW matches, or half of what there is on a short run)."""
    measured = per_event[warmup:]
    window = min(WINDOW, len(measured) // 2)
    if window == 0:
        return 1.0
    return statistics.median(measured[-window:]) / statistics.median(measured[:window])


@dataclass(frozen=True)
class Figures:
    matches: int
    events: int
    warmup: int
    rss_baseline_mb: float
    rss_growth_mb: float
    rss_peak_mb: float
    speech_cache_growth_mb: float
    threads_leaked: int
    fds_leaked: int
    objects_growth: int
    slowdown: float
    speech_renders: int
    errors: int
    error_messages: list[str]
    seconds: float
    load: list[float]

    def failed(self, max_growth_mb: float, max_slowdown: float) -> bool:
        return bool(self.errors or self.threads_leaked or self.fds_leaked
                    or self.rss_growth_mb > max_growth_mb or self.slowdown > max_slowdown)


def run(matches: int, warmup: int, every: int, out_dir: Path, report: bool = True) -> Figures:
    """Play `matches` narrated matches, printing a reading every `every`."""
    wall = time.monotonic()
    renderer = Pyttsx3Renderer()
    soak = Soak()
    out = out_dir / "soak.wav"
    try:
        while soak.matches < matches:
            play(soak, renderer, out)
            if soak.matches == warmup or soak.matches == matches or soak.matches % every == 0:
                reading = Reading.now(renderer)
                soak.readings.append((soak.matches, reading))
                if report:
                    cost = statistics.median(soak.cpu_per_event[-every:] or [0.0]) * 1e6
                    print(f"{soak.matches:6d} matches  rss {reading.rss_mb:7.1f} MB  "
                          f"threads {reading.threads:3d}  fds {reading.fds:3d}  "
                          f"objects {reading.objects:8,d}  "
                          f"speech cache {reading.speech_cache_mb:5.1f} MB  {cost:6.1f} us cpu/event  "
                          f"renders {renderer.renders}", flush=True)
    finally:
        renderer.close()
    baseline = next(reading for count, reading in soak.readings if count >= min(warmup, matches))
    final = soak.readings[-1][1]
    return Figures(
        matches=soak.matches, events=soak.events, warmup=warmup,
        rss_baseline_mb=round(baseline.rss_mb, 1),
        rss_growth_mb=round(final.rss_mb - baseline.rss_mb, 1),
        rss_peak_mb=round(max(reading.rss_mb for _, reading in soak.readings), 1),
        speech_cache_growth_mb=round(final.speech_cache_mb - baseline.speech_cache_mb, 1),
        threads_leaked=max(0, final.threads - baseline.threads),
        fds_leaked=max(0, final.fds - baseline.fds),
        objects_growth=final.objects - baseline.objects,
        slowdown=round(slowdown(soak.cpu_per_event, warmup), 3),
        speech_renders=renderer.renders, errors=len(soak.errors),
        error_messages=soak.errors[:5], seconds=round(time.monotonic() - wall, 1),
        load=[round(value, 2) for value in os.getloadavg()])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--every", type=int, default=100, help="print a reading this often")
    parser.add_argument("--max-growth-mb", type=float, default=10.0)
    parser.add_argument("--max-slowdown", type=float, default=1.5,
                        help="largest allowed ratio of late to early cost per event")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.matches <= args.warmup:
        raise SystemExit("soak: --matches must be more than --warmup")
    shm = Path("/dev/shm")
    out_dir = Path(tempfile.mkdtemp(prefix="voicespit-soak-", dir=shm if shm.is_dir() else None))
    try:
        figures = run(args.matches, args.warmup, args.every, out_dir)
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)
    if args.json:
        print(json.dumps(asdict(figures)))
    else:
        for key, value in asdict(figures).items():
            print(f"{key}: {value}")
    raise SystemExit(1 if figures.failed(args.max_growth_mb, args.max_slowdown) else 0)


if __name__ == "__main__":
    main()
