"""Fetching a file over HTTP with a progress report, and the progress a player sees or hears.

Kept apart from model installation so installing from a local zip never touches
the network code, and so the progress bar can serve any long copy.
"""

from __future__ import annotations

import os
import shutil
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from tqdm import tqdm

from voicespit.errors import VoiceSpitError

Progress = Callable[[int, int | None], None]
"""Called as bytes arrive: (bytes so far, total bytes or None when the server did not say)."""

CHUNK_BYTES = 256 * 1024
TIMEOUT_SECONDS = 30.0
"""How long a silent connection may stall before the download is abandoned."""


class DownloadError(VoiceSpitError):
    """The file could not be fetched: no network, a refusing server, or a cut-off transfer."""


def is_url(text: str) -> bool:
    return urllib.parse.urlsplit(text).scheme in ("http", "https")


def file_name_in_url(url: str) -> str:
    """The last path segment of a URL ("" when the path ends in a slash)."""
    return Path(urllib.parse.unquote(urllib.parse.urlsplit(url).path)).name


def download(url: str, destination: Path, progress: Progress | None = None) -> int:
    """Write what `url` serves into `destination`; returns the number of bytes.

    Raises DownloadError with a message a player can act on; a partial file may be
    left behind, so download into a temporary place.
    """
    host = urllib.parse.urlsplit(url).netloc or url
    request = urllib.request.Request(url, headers={"User-Agent": "voicespit"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
            total = _content_length(response.headers.get("Content-Length"))
            shortfall = disk_space_shortfall(destination.parent, total or 0)
            if shortfall:
                raise DownloadError(shortfall)
            received = 0
            with destination.open("wb") as output:
                while chunk := response.read(CHUNK_BYTES):
                    output.write(chunk)
                    received += len(chunk)
                    if progress is not None:
                        progress(received, total)
    except urllib.error.HTTPError as error:
        raise DownloadError(f"{host} answered {error.code} {error.reason} for {url}") from None
    except urllib.error.URLError as error:
        raise DownloadError(
            f"could not reach {host} ({_reason(error.reason)}); check the network, or "
            "download the zip in a browser and run: voicespit models install PATH_TO_ZIP"
        ) from None
    except TimeoutError:
        raise DownloadError(f"the download from {host} stalled for {TIMEOUT_SECONDS:.0f} s; "
                            "try again") from None
    except OSError as error:  # a reset connection, or the disk filling up while writing
        raise DownloadError(f"the download from {host} failed: {_reason(error)}") from None
    if total is not None and received != total:
        raise DownloadError(f"the download from {host} stopped after {received:,} of "
                            f"{total:,} bytes; try again")
    return received


def _content_length(header: str | None) -> int | None:
    if header is None or not header.strip().isdigit():
        return None
    return int(header)


def disk_space_shortfall(folder: Path, needed_bytes: int) -> str | None:
    """A message when `folder`'s disk has less than `needed_bytes` free, else None."""
    free = shutil.disk_usage(folder).free
    if free >= needed_bytes:
        return None
    return (f"not enough disk space in {folder}: {needed_bytes / 1e6:,.0f} MB needed, "
            f"{free / 1e6:,.0f} MB free")


def _reason(reason: object) -> str:
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror.lower()
    return str(reason) or type(reason).__name__


class ProgressBar:
    """A download progress report on a text stream (stderr by default).

    On a terminal, tqdm's bar redrawn in place. When the stream is a file or a log,
    when the terminal says it cannot redraw (TERM=dumb, as speech-first terminals set
    it) or when the player asks for `plain` (a screen reader reads a redrawn bar over
    and over): one plain line every `PLAIN_STEP` of the download, in words, so it reads
    as a short list ("downloading model.zip: 40 %, 16.0 of 40.0 MB").
    """

    PLAIN_STEP = 0.1

    def __init__(self, label: str, stream: TextIO | None = None, plain: bool = False) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.plain = plain or not self.stream.isatty() or os.environ.get("TERM") == "dumb"
        self._bar: Any = None  # a tqdm bar, once the first bytes arrive (tqdm has no types)
        self._last_step = -1

    def __call__(self, done: int, total: int | None) -> None:
        if self.plain:
            self._plain_line(done, total)
            return
        if self._bar is None:
            self._bar = tqdm(total=total, desc=self.label, file=self.stream, unit="B",
                             unit_scale=True, unit_divisor=1000, mininterval=0.1,
                             dynamic_ncols=True)
        self._bar.update(done - self._bar.n)
        if total is not None and done >= total:
            self.finish()

    def finish(self) -> None:
        """End the bar (and its line) on a terminal, whether the end was reached or not."""
        if self._bar is not None:
            self._bar.close()

    def _plain_line(self, done: int, total: int | None) -> None:
        step = int(done / total / self.PLAIN_STEP) if total else done // 10_000_000
        if step == self._last_step:
            return
        self._last_step = step
        megabytes = f"{done / 1e6:,.1f}"
        if total:
            line = f"{self.label}: {min(1.0, done / total):.0%}, {megabytes} of {total / 1e6:,.1f} MB"
        else:
            line = f"{self.label}: {megabytes} MB"
        self.stream.write(line.replace("%", " %") + "\n")
        self.stream.flush()
