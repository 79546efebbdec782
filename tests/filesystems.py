"""Real file systems that fail: a tiny tmpfs filled to the brim, one mounted read-only.

Mounting needs root (as on the build machines); elsewhere the tests that need a
full disk skip, and a read-only directory falls back to one without write
permission, which refuses a normal user just as a read-only disk does.
"""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def tmpfs(where: Path, kilobytes: int = 64, *, required: bool = True) -> Iterator[Path]:
    """A fresh tmpfs of `kilobytes` mounted at `where`. Where mounting is not allowed
    the test skips, or (`required=False`) `where` stays a plain directory."""
    where.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={kilobytes}k", "tmpfs",
                              str(where)], capture_output=True, text=True, check=False)
    if mounted.returncode != 0:
        if required:
            pytest.skip(f"cannot mount a small file system here: {mounted.stderr.strip()}")
        yield where
        return
    try:
        yield where
    finally:
        subprocess.run(["umount", "--lazy", str(where)], capture_output=True, check=False)


def fill(where: Path) -> Path:
    """Write one file until the disk is full; returns it (delete it to make room)."""
    filler = where / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(descriptor, b"\0" * 4096)
    except OSError as error:
        assert error.errno == errno.ENOSPC, error
    finally:
        os.close(descriptor)
    return filler


@contextlib.contextmanager
def read_only(where: Path) -> Iterator[None]:
    """Make the tmpfs at `where` read-only (or, not mounted, the directory unwritable)."""
    if os.path.ismount(where):
        subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True)
        try:
            yield
        finally:
            subprocess.run(["mount", "-o", "remount,rw", str(where)], check=False)
    else:
        mode = where.stat().st_mode
        where.chmod(0o555)
        try:
            yield
        finally:
            where.chmod(mode)
