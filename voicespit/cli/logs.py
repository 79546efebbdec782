"""Where the technical details go: stderr with --verbose, a file with --log.

Players hear plain words; what a technician needs (a library's own error, a
device number, a model's path, every event of the match) is logged, never said.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from voicespit.errors import VoiceSpitError

FORMAT = "%(asctime)s %(name)s: %(message)s"


def start_logging(*, verbose: bool, log_file: Path | None) -> None:
    """--verbose: details (INFO) on stderr; --log FILE: everything (DEBUG) in FILE."""
    root = logging.getLogger("voicespit")
    # Without a handler of our own, Python prints warnings and tracebacks on stderr, which
    # the player's terminal (and screen reader) shows: a library's words, a path.
    root.addHandler(logging.NullHandler())
    # pyttsx3 logs on Python's root logger, whose first message installs a handler on
    # stderr (logging.basicConfig); ours propagated to it, so with --log every event of
    # the match was printed too. Our records stop at our handlers, and a handler on the
    # root keeps libraries from installing one that prints.
    root.propagate = False
    logging.getLogger().addHandler(logging.NullHandler())
    if verbose:
        to_stderr = logging.StreamHandler(sys.stderr)
        to_stderr.setLevel(logging.INFO)
        to_stderr.setFormatter(logging.Formatter("voicespit: %(message)s"))
        root.addHandler(to_stderr)
        root.setLevel(logging.INFO)
    if log_file is not None:
        try:
            to_file = logging.FileHandler(log_file, encoding="utf-8")
        except OSError as error:
            raise VoiceSpitError(f"{log_file}: cannot write the log "
                                 f"({error.strerror or error})") from None
        to_file.setLevel(logging.DEBUG)
        to_file.setFormatter(logging.Formatter(FORMAT))
        root.addHandler(to_file)
        root.setLevel(logging.DEBUG)


def keep_native_messages_off_the_terminal(*, verbose: bool, log_file: Path | None) -> None:
    """Send what C libraries write to file descriptor 2 to the log (or nowhere), and keep
    the game's own messages (`sys.stderr`) on the terminal.

    ALSA and PortAudio opening devices, or speexdsp resetting its filter ("warning: The
    echo canceller started acting funny and got slapped (reset)."), write straight to
    the descriptor, past Python: on the player's terminal a screen reader reads them
    out. With --verbose they stay there, for whoever asked for the details.
    """
    if verbose:
        return
    sys.stderr.flush()
    try:
        terminal = os.dup(2)
        elsewhere = os.open(log_file if log_file is not None else os.devnull,
                            os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError:
        return  # no descriptor 2 to move, or the log cannot be opened: leave it as it is
    os.dup2(elsewhere, 2)
    os.close(elsewhere)
    sys.stderr = os.fdopen(terminal, "w", buffering=1, encoding=sys.stderr.encoding,
                           errors=sys.stderr.errors)
