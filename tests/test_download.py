"""Downloading with a progress report, and the progress bar a player sees or hears."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tests.local_http import Reply, serving
from voicespit.speech.recognizers.download import (
    DownloadError,
    ProgressBar,
    download,
    file_name_in_url,
    is_url,
)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_file_arrives_whole_with_progress_reported_as_it_comes(tmp_path: Path) -> None:
    body = bytes(range(256)) * 4096  # 1 MiB: several chunks
    reports: list[tuple[int, int | None]] = []
    with serving({"/f.zip": Reply(body=body)}) as base:
        size = download(f"{base}/f.zip", tmp_path / "f.zip",
                        lambda done, total: reports.append((done, total)))
    assert size == len(body) and (tmp_path / "f.zip").read_bytes() == body
    assert len(reports) >= 4 and reports[-1] == (len(body), len(body))


def test_a_cut_connection_is_an_error_not_a_short_file(tmp_path: Path) -> None:
    with (serving({"/f.zip": Reply(body=b"x" * 100_000, cut_after=1000)}) as base,
          pytest.raises(DownloadError, match="stopped after 1,000 of 100,000 bytes")):
        download(f"{base}/f.zip", tmp_path / "f.zip")


def test_on_a_terminal_the_bar_redraws_one_line_and_ends_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm")
    screen = Terminal()
    bar = ProgressBar("downloading model.zip", screen)
    for done in range(0, 40_000_001, 4_000_000):
        bar(done, 40_000_000)
    bar.finish()
    text = screen.getvalue()
    assert text.count("\n") == 1 and text.endswith("\n") and "\r" in text
    last = text.rstrip("\n").split("\r")[-1]
    assert last.startswith("downloading model.zip: 100%") and "40.0M/40.0M" in last


def test_in_a_log_the_bar_is_a_line_in_words_every_ten_percent() -> None:
    log = io.StringIO()
    bar = ProgressBar("downloading", log)
    for done in range(0, 1_000_001, 1_000):
        bar(done, 1_000_000)
    bar.finish()
    lines = log.getvalue().splitlines()
    assert len(lines) == 11
    assert lines[0] == "downloading: 0 %, 0.0 of 1.0 MB"
    assert lines[-1] == "downloading: 100 %, 1.0 of 1.0 MB"


@pytest.mark.parametrize("term, plain", [("dumb", False), ("xterm", True)])
def test_a_terminal_read_aloud_gets_the_plain_lines_too(
        monkeypatch: pytest.MonkeyPatch, term: str, plain: bool) -> None:
    """A screen reader would read a redrawn bar again at every redraw."""
    monkeypatch.setenv("TERM", term)
    screen = Terminal()
    bar = ProgressBar("downloading", screen, plain=plain)
    for done in range(0, 1_000_001, 50_000):
        bar(done, 1_000_000)
    bar.finish()
    assert "\r" not in screen.getvalue() and len(screen.getvalue().splitlines()) == 11


def test_without_a_size_the_bar_counts_megabytes() -> None:
    log = io.StringIO()
    ProgressBar("downloading", log)(25_000_000, None)
    assert log.getvalue() == "downloading: 25.0 MB\n"


def test_urls_are_told_from_paths() -> None:
    assert is_url("https://alphacephei.com/vosk/models/vosk-model-small-en-us-0.15.zip")
    assert not is_url("/home/me/Downloads/vosk-model-small-en-us-0.15.zip")
    assert not is_url("C:\\Users\\me\\model.zip")
    assert file_name_in_url("https://host/a/model%20one.zip?x=1") == "model one.zip"
