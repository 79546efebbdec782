"""Streaming files through a recognizer exactly as the live game does, and scoring the result.

`voicespit recognize` and the speech benchmark use this. Audio goes in 30 ms
blocks, endpointing included. Latency is measured as the game would feel it: a
block "arrives" when its last sample would have been spoken, the recognizer works
through the blocks in order (falling behind if it is slower than real time), and
a result counts from the moment the block that produced it was done. Latency is
that moment minus the true end of speech (from the corpus's timings.tsv, else
the recognizer's own estimate).
"""

from __future__ import annotations

import math
import resource
import statistics
import time
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from voicespit.errors import VoiceSpitError
from voicespit.speech.language.commands import Command
from voicespit.speech.language.grammar import phrase_for
from voicespit.speech.language.parser import InvalidCommandError, command_in, parse
from voicespit.speech.listening.sources import BLOCK_SECONDS, AudioInputError, read_wav
from voicespit.speech.recognizer import SAMPLE_RATE, Recognition, Recognizer
from voicespit.speech.recording_room import room_around
from voicespit.speech.signal import to_pcm, to_samples


class CorpusError(VoiceSpitError):
    """A corpus directory without a readable manifest."""


@dataclass(frozen=True)
class CorpusItem:
    path: Path
    name: str
    """The path as the manifest gives it (relative), or the file name as given."""
    transcript: str | None = None
    kind: str | None = None
    """"command" or "chatter"; None for a file outside a corpus."""
    speech_end: float | None = None
    in_room: bool = False
    """Hear the recording with its own background around it (`recording_room`), as a
    microphone hears the moments before and after a command: for a recording given as
    it is, which may be trimmed close to the speech. A corpus file has its room already."""


@dataclass
class FileResult:
    item: CorpusItem
    heard: str = ""
    command: Command | None = None
    commands: list[Command] = field(default_factory=list)
    finals: list[Recognition] = field(default_factory=list)
    """Every final result, accepted or not (for analysis)."""
    latency_ms: float | None = None
    """From the true end of speech to the first command, in real time (the wait for the
    endpointer, processing and any backlog)."""
    hangover_ms: float | None = None
    """The part of `latency_ms` that is audio: from the end of speech to the frame the
    command went out at (the endpointer's wait), whatever the processing took."""
    audio_seconds: float = 0.0
    processing_seconds: float = 0.0
    cpu_seconds: float = 0.0
    """Processor time the recognizer took (all its threads): what the file costs on a
    machine with nothing else running, where `processing_seconds` counts the wait for
    a core on a busy one."""
    error: str | None = None
    note: str | None = None

    @property
    def expected(self) -> Command | None:
        if self.item.kind != "command" or self.item.transcript is None:
            return None
        return parse(self.item.transcript)

    @property
    def correct(self) -> bool | None:
        """Commands: exactly the command said, once. Chatter: no command at all."""
        if self.item.kind == "chatter":
            return not self.commands
        if self.item.kind == "command":
            return self.commands == [self.expected]
        return None

    @property
    def wrong(self) -> bool:
        """A command came out that was not said (worse than a refusal)."""
        return self.item.kind == "command" and bool(self.commands) and not self.correct

    @property
    def wrong_move(self) -> bool:
        """A move or round action came out that was not said: a card played, a pile
        slapped, a stockpile turned that the player did not ask for. The worst kind of
        wrong: the others ("no" for "nine") are refused or answered by the game."""
        if self.item.kind == "command":
            return any(command.is_action and command != self.expected
                       for command in self.commands)
        return False

    def as_json(self) -> dict[str, object]:
        expected = self.item.transcript if self.item.kind is not None else None
        record: dict[str, object] = {
            "path": self.item.name, "expected": expected, "heard": self.heard,
            "command": phrase_for(self.command) if self.command is not None else None,
            "correct": self.correct,
            "latency_ms": None if self.latency_ms is None else round(self.latency_ms, 1),
        }
        if self.note:
            record["note"] = self.note
        if self.error:
            record["error"] = self.error
        return record


def read_corpus(directory: Path) -> list[CorpusItem]:
    """The items of `directory/manifest.tsv` (with `timings.tsv` when it is there)."""
    manifest = directory / "manifest.tsv"
    try:
        lines = manifest.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise CorpusError(f"{manifest}: cannot read the manifest ({error.strerror})") from None
    if not lines or lines[0].split("\t")[:3] != ["path", "transcript", "kind"]:
        raise CorpusError(f"{manifest}: the first line must be path<TAB>transcript<TAB>kind")
    ends = _speech_ends(directory / "timings.tsv")
    items = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) < 3 or fields[2] not in ("command", "chatter"):
            raise CorpusError(f"{manifest}, line {number}: expected path, transcript and "
                              "kind (command or chatter)")
        name, transcript, kind = fields[:3]
        if kind == "command":
            try:
                parse(transcript)
            except InvalidCommandError:
                raise CorpusError(f"{manifest}, line {number}: {transcript!r} is not a command "
                                  "of the current grammar; regenerate the corpus") from None
        items.append(CorpusItem(directory / name, name, transcript, kind, ends.get(name)))
    return items


def _speech_ends(path: Path) -> dict[str, float]:
    if not path.exists():
        return {}
    ends = {}
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        fields = line.split("\t")
        if len(fields) >= 3:
            ends[fields[0]] = float(fields[2])
    return ends


def transcribe(recognizer: Recognizer, item: CorpusItem,
               block_seconds: float = BLOCK_SECONDS, *,
               processor_time: bool = False) -> FileResult:
    """Stream one file through the recognizer (a fresh stream) and collect what it decided.

    With `processor_time` the latency counts the processor time each block took
    instead of the wall clock: what a machine with a core free would take, so that
    another program's load does not inflate it (threads' time adds up, so a block the
    encoder ran on two cores counts double).
    """
    result = FileResult(item)
    try:
        pcm, result.note = read_wav(item.path)
    except AudioInputError as error:
        result.error = str(error)
        return result
    if item.in_room:
        pcm = _in_its_room(pcm, item.name)
    result.audio_seconds = len(pcm) / (2 * SAMPLE_RATE)
    block_bytes = 2 * round(block_seconds * SAMPLE_RATE)
    done = 0.0  # stream time at which the recognizer finished the previous block
    finals: list[tuple[Recognition, float]] = []
    blocks = [pcm[offset:offset + block_bytes] for offset in range(0, len(pcm), block_bytes)]
    for index in range(len(blocks) + 1):
        last = index == len(blocks)
        arrival = result.audio_seconds if last else \
            min(result.audio_seconds, (index + 1) * block_seconds)
        started, started_cpu = time.perf_counter(), time.process_time()
        recognitions = recognizer.finish() if last else recognizer.accept_audio(blocks[index])
        spent = time.perf_counter() - started
        result.processing_seconds += spent
        spent_cpu = time.process_time() - started_cpu
        result.cpu_seconds += spent_cpu
        if processor_time:
            spent = spent_cpu
        done = max(arrival, done) + spent
        finals += [(recognition, done) for recognition in recognitions if recognition.is_final]
    _decide(result, finals)
    return result


def _in_its_room(pcm: bytes, name: str) -> bytes:
    """`pcm` with its own room around it (seeded by its name: the same every run)."""
    around = room_around(to_samples(pcm), SAMPLE_RATE, zlib.crc32(name.encode()))
    return to_pcm(around)


def _decide(result: FileResult, finals: list[tuple[Recognition, float]]) -> None:
    result.finals = [recognition for recognition, _ in finals]
    result.heard = " | ".join((r.text or "something") + (" (rejected)" if r.rejected else "")
                              for r, _ in finals if r.text or r.rejected)
    for recognition, done in finals:
        if recognition.unusable:
            continue
        command = command_in(recognition.text)
        if command is None:
            continue
        result.commands.append(command)
        if result.command is None:
            result.command = command
            end = result.item.speech_end if result.item.speech_end is not None \
                else recognition.speech_end
            if end is not None:
                result.latency_ms = 1000.0 * (done - end)
                result.hangover_ms = 1000.0 * (recognition.emitted_at - end)


def transcribe_all(recognizer: Recognizer, items: Iterable[CorpusItem]) -> Iterator[FileResult]:
    for item in items:
        yield transcribe(recognizer, item)


def percentile(values: list[float], fraction: float) -> float | None:
    """Nearest-rank percentile; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(fraction * len(ordered) - 1e-9)))
    return ordered[rank - 1]


def summarize(results: list[FileResult]) -> dict[str, object]:
    """The benchmark's summary line, overall and per noise condition (first path part)."""
    summary = _rates(results)
    latencies = [r.latency_ms for r in results if r.item.kind == "command"
                 and r.latency_ms is not None]
    hangovers = [r.hangover_ms for r in results if r.item.kind == "command"
                 and r.hangover_ms is not None]
    audio = sum(r.audio_seconds for r in results)
    summary.update({
        "hangover_ms_p50": _rounded(statistics.median(hangovers) if hangovers else None),
        "hangover_ms_p95": _rounded(percentile(hangovers, 0.95)),
        "latency_ms_p50": _rounded(statistics.median(latencies) if latencies else None),
        "latency_ms_p95": _rounded(percentile(latencies, 0.95)),
        "real_time_factor": round(sum(r.processing_seconds for r in results) / audio, 4)
        if audio else None,
        "cpu_real_time_factor": round(sum(r.cpu_seconds for r in results) / audio, 4)
        if audio else None,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "files": len(results),
        "errors": sum(1 for r in results if r.error),
    })
    conditions = sorted({r.item.name.split("/")[0] for r in results if "/" in r.item.name})
    if conditions:
        summary["by_condition"] = {
            condition: _rates([r for r in results if r.item.name.startswith(condition + "/")])
            for condition in conditions}
    return summary


def _rates(results: list[FileResult]) -> dict[str, object]:
    commands = [r for r in results if r.item.kind == "command"]
    chatter = [r for r in results if r.item.kind == "chatter"]

    def share(count: int, total: int) -> float | None:
        return round(count / total, 4) if total else None

    return {
        "command_accuracy": share(sum(1 for r in commands if r.correct), len(commands)),
        "wrong_rate": share(sum(1 for r in commands if r.wrong), len(commands)),
        "wrong_move_rate": share(sum(1 for r in commands if r.wrong_move), len(commands)),
        "reject_rate": share(sum(1 for r in commands if not r.commands), len(commands)),
        "chatter_false_accept": share(sum(1 for r in chatter if r.commands), len(chatter)),
        "commands": len(commands),
        "chatter": len(chatter),
    }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1)
