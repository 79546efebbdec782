"""Scoring recognition (voicespit/speech/recognizers/transcription.py): what counts as
right, wrong, missed."""

from __future__ import annotations

from pathlib import Path

import pytest

from voicespit.speech.language.parser import parse
from voicespit.speech.recognizers.transcription import (
    CorpusError,
    CorpusItem,
    FileResult,
    percentile,
    read_corpus,
    summarize,
)


def result(name: str, kind: str, transcript: str, heard: list[str],
           latency: float | None = None) -> FileResult:
    item = CorpusItem(Path(name), name, transcript, kind)
    commands = [parse(text) for text in heard]
    return FileResult(item, command=commands[0] if commands else None, commands=commands,
                      latency_ms=latency, audio_seconds=2.0, processing_seconds=0.1)


def test_a_command_is_right_only_when_exactly_that_command_came_out_once() -> None:
    assert result("a", "command", "seven on left", ["play seven on left"]).correct
    twice = result("a", "command", "seven on left", ["seven on left", "seven on left"])
    assert not twice.correct and twice.wrong
    other = result("a", "command", "seven on left", ["six on left"])
    assert not other.correct and other.wrong
    missed = result("a", "command", "seven on left", [])
    assert not missed.correct and not missed.wrong


def test_chatter_is_right_when_no_command_came_out() -> None:
    assert result("c", "chatter", "what time is it", []).correct
    assert not result("c", "chatter", "what time is it", ["spit"]).correct


def test_the_summary_counts_each_way_of_failing_and_splits_by_condition() -> None:
    results = [
        result("clean/1", "command", "spit", ["spit"], 100.0),
        result("clean/2", "command", "flip", ["spit"], 200.0),
        result("snr10/1", "command", "spit", []),
        result("snr10/2", "chatter", "hello there", ["pause"]),
    ]
    summary = summarize(results)
    assert summary["command_accuracy"] == pytest.approx(1 / 3, abs=1e-4)
    assert summary["wrong_rate"] == pytest.approx(1 / 3, abs=1e-4)
    assert summary["reject_rate"] == pytest.approx(1 / 3, abs=1e-4)
    assert summary["chatter_false_accept"] == 1.0
    assert summary["latency_ms_p50"] == 150.0 and summary["latency_ms_p95"] == 200.0
    assert summary["real_time_factor"] == 0.05
    by_condition = summary["by_condition"]
    assert isinstance(by_condition, dict)
    assert by_condition["clean"]["command_accuracy"] == 0.5
    assert by_condition["snr10"]["chatter_false_accept"] == 1.0


def test_percentiles_are_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.95) == 95.0 and percentile(values, 0.5) == 50.0
    assert percentile([], 0.95) is None


def write_manifest(directory: Path, lines: list[str]) -> Path:
    directory.mkdir(exist_ok=True)
    (directory / "manifest.tsv").write_text("\n".join(lines) + "\n")
    return directory


def test_a_corpus_reads_its_manifest_and_timings(tmp_path: Path) -> None:
    corpus = write_manifest(tmp_path / "c", ["path\ttranscript\tkind",
                                             "a.wav\tseven on left\tcommand",
                                             "b.wav\twhat time is it\tchatter"])
    (corpus / "timings.tsv").write_text("path\tspeech_start\tspeech_end\na.wav\t0.5\t1.25\n")
    items = read_corpus(corpus)
    assert [(i.name, i.kind, i.speech_end) for i in items] == [("a.wav", "command", 1.25),
                                                              ("b.wav", "chatter", None)]
    assert items[0].path == corpus / "a.wav"


@pytest.mark.parametrize(("lines", "problem"), [
    (["file\ttext"], "first line must be"),
    (["path\ttranscript\tkind", "a.wav\tseven on left\tmaybe"], "line 2"),
    (["path\ttranscript\tkind", "a.wav\tplay the trumpet\tcommand"], "not a command"),
])
def test_a_bad_manifest_is_refused_with_where_and_why(tmp_path: Path, lines: list[str],
                                                     problem: str) -> None:
    with pytest.raises(CorpusError, match=problem):
        read_corpus(write_manifest(tmp_path / "c", lines))


def test_a_missing_corpus_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match="cannot read the manifest"):
        read_corpus(tmp_path / "nothing")
