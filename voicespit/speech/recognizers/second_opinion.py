"""The second-opinion decode on the other core.

A command goes out only when a second decode of differently cleaned audio names
the same one (`PocketSphinxSettings.agreement`). Decoded one after the other, the
two decodes put about 50 ms onto every command: PocketSphinx holds Python's global
interpreter lock while it decodes, so a thread cannot overlap them. A child
process with its own decoder can: the listener hands it the second audio at a
pause, decodes the first itself meanwhile, and then collects the answer.

The child is a speed-up and never a dependency. Until it has loaded its model,
after it dies, or when it is late, `decode` answers None and the caller decodes
in-process, with the same settings and therefore the same result. A child that
fails once is not used again (its recognizer may start a new one when it died
rather than failed: `failed_itself`); its parent's death closes its pipe and ends it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import socket
import subprocess
import sys
import threading
import weakref
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from pathlib import Path

from voicespit.speech.recognizer import RecognizerError
from voicespit.speech.recognizers.pocketsphinx_engine import DecoderPair, PocketSphinxSettings

STOP_GRACE_SECONDS = 0.5
"""How long a hung-up child is given to leave, and then to die once killed."""
ANSWER_TIMEOUT_SECONDS = 1.0
"""Longer than a decode takes on a loaded machine (tens of milliseconds); past it the
caller decodes for itself, and the late answer is skipped when it comes."""
LATE_ANSWERS_BEFORE_STUCK = 3
"""Answers in a row that came too late before the child is presumed stuck and closed.
One late answer is a machine busy for a moment (at a load of 12 a decode took over a
second): closing the child for it started a new one and told the player that
listening had restarted when nothing had gone wrong."""
PACKAGE_ROOT = Path(__file__).resolve().parents[3]


class SecondOpinion:
    """A PocketSphinx decoder in a child process, for one recognizer."""

    def __init__(self, settings: PocketSphinxSettings, model_dir: Path | None) -> None:
        # The child decodes grammar results only: no phone loop, no threshold.
        child_settings = dataclasses.replace(settings, phone_loop=False,
                                             confidence_threshold=None)
        # A plain child process on a socket, not multiprocessing: its "spawn" re-runs
        # the parent's main script in the child, and "fork" would copy the game's
        # audio and speech threads' locks mid-use.
        ours, theirs = socket.socketpair()
        environment = dict(os.environ)
        environment["PYTHONPATH"] = os.pathsep.join(
            [str(PACKAGE_ROOT), *filter(None, [environment.get("PYTHONPATH")])])
        self._process = subprocess.Popen(
            [sys.executable, "-m", "voicespit.speech.recognizers.second_opinion", str(theirs.fileno())],
            pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=environment)
        theirs.close()
        self._connection = Connection(ours.detach())
        self._ready = False
        self._usable = True
        self.failed_itself = False
        """The child said it cannot work (its model did not load): starting another is no use."""
        self._sentences: tuple[str, ...] = ()
        self._asked = 0
        self._late_in_a_row = 0
        self._finalizer = weakref.finalize(self, _stop, self._connection, self._process)
        self._send(("settings", child_settings, model_dir))

    @property
    def pid(self) -> int:
        """The child's process id."""
        return self._process.pid

    @property
    def usable(self) -> bool:
        """False once the child has failed; it is never asked again."""
        return self._usable

    def use_sentences(self, sentences: Sequence[str]) -> None:
        """Decode against these sentences from the next request on (as the parent does)."""
        self._sentences = tuple(sentences)
        if self._ready:
            self._send(("sentences", self._sentences))

    def ready(self) -> bool:
        """Whether the child can take a request now.

        Reads what the child sent meanwhile: that it is ready, that it failed, or
        answers nobody collected (the first decode did not need them), which must
        not pile up until the child blocks on a full pipe.
        """
        try:
            while self._usable and self._connection.poll(0):
                self._take(self._connection.recv())
        except (EOFError, OSError):
            self.close()
        return self._usable and self._ready

    def ask(self, pcm: bytes) -> int | None:
        """Start decoding `pcm` in the child; the ticket for `answer`, or None when the
        child cannot take it (still loading, or failed)."""
        if not self.ready():
            return None
        self._asked += 1
        if not self._send(("decode", self._asked, pcm)):
            return None
        return self._asked

    def answer(self, ticket: int, timeout: float = ANSWER_TIMEOUT_SECONDS) -> str | None:
        """The text the child decoded for `ticket`, or None if it cannot say in time.

        Answers to earlier tickets that nobody collected are skipped.
        """
        if not self._usable:
            return None
        try:
            while self._connection.poll(timeout):
                message = self._connection.recv()
                if message[0] == "decoded" and message[1] == ticket:
                    self._late_in_a_row = 0
                    return str(message[2])
                if message[0] == "failed":
                    self.failed_itself = True
                    break
            else:
                self._late_in_a_row += 1
                if self._late_in_a_row < LATE_ANSWERS_BEFORE_STUCK:
                    return None  # late, not dead: its answer is skipped when it comes
        except (EOFError, OSError):
            pass
        self.close()
        return None

    def close(self) -> None:
        self._usable = False
        self._finalizer()

    def _take(self, message: tuple[object, ...]) -> None:
        if message[0] == "ready":
            self._ready = True
            # The grammar the parent listens with now; later changes follow as they come.
            self._send(("sentences", self._sentences))
        elif message[0] == "failed":
            self.failed_itself = True
            self.close()

    def _send(self, message: tuple[object, ...]) -> bool:
        try:
            self._connection.send(message)
        except (OSError, ValueError):
            self.close()
            return False
        return True


def _stop(connection: Connection, process: subprocess.Popen[bytes]) -> None:
    """Hang up; a child that does not leave by itself in time is killed and reaped.

    Never raises: it runs from a finalizer, often while the game is shutting down, and
    on a loaded machine a killed child can take longer than any fixed wait to exit.
    """
    with contextlib.suppress(OSError):
        connection.close()
    try:
        process.wait(timeout=STOP_GRACE_SECONDS)
        return
    except subprocess.TimeoutExpired:
        pass
    with contextlib.suppress(OSError):
        process.kill()
    try:
        process.wait(timeout=STOP_GRACE_SECONDS)
    except subprocess.TimeoutExpired:
        # Still exiting: reap it off this thread, so it leaves no zombie behind.
        threading.Thread(target=process.wait, name="reap-second-opinion", daemon=True).start()


class SpareDecoder:
    """A grammar decode on the other core when a child can take it, else in this process.

    The answer is the same either way (the child runs the same decoder with the same
    settings), so whether the child is loading, late or dead changes only the time.
    A child that died is started again up to `restarts` times; one that failed by
    itself (its model did not load) is not.
    """

    def __init__(self, settings: PocketSphinxSettings, model_dir: Path | None, *,
                 here: DecoderPair | None = None, in_child: bool = True,
                 restarts: int = 3) -> None:
        """`here` decodes in this process when the child cannot (None: one is loaded
        the first time it is needed)."""
        self.settings = settings
        self._model_dir = model_dir
        self._here = here
        self._restarts_left = restarts
        self._sentences: tuple[str, ...] = ()
        self._child = SecondOpinion(settings, model_dir) if in_child else None
        self.on_restart: Callable[[], None] | None = None
        """Called when a dead child was replaced by a new one."""

    @property
    def child(self) -> SecondOpinion | None:
        """The child process while there is one."""
        return self._child

    def use_sentences(self, sentences: Sequence[str]) -> None:
        self._sentences = tuple(sentences)
        if self._child is not None:
            self._child.use_sentences(self._sentences)

    def ask(self, audio: Callable[[], bytes]) -> Pending:
        """Start decoding in the child if it can take it now; `audio` is made only when
        it is needed (here, or later by `text`)."""
        child = self._child
        if child is None:
            return Pending(audio)
        if not child.ready():
            if not child.usable:
                self._replace(child)
            return Pending(audio)
        pending = Pending(audio)
        pending.ticket = child.ask(pending.pcm())
        return pending

    def text(self, pending: Pending) -> str:
        """What the grammar decode heard ("" for nothing, or not a command)."""
        if pending.ticket is not None and self._child is not None:
            answer = self._child.answer(pending.ticket)
            if answer is not None:
                return answer
        return self._decoder_here().decode(pending.pcm(), measure_margin=lambda text: False).text

    def close(self) -> None:
        if self._child is not None:
            self._child.close()

    def _decoder_here(self) -> DecoderPair:
        if self._here is None:
            self._here = DecoderPair(self.settings, self._model_dir)
            self._here.use_sentences(self._sentences)
        return self._here

    def _replace(self, dead: SecondOpinion) -> None:
        self._child = None
        if dead.failed_itself or self._restarts_left <= 0:
            return
        self._restarts_left -= 1
        self._child = SecondOpinion(self.settings, self._model_dir)
        self._child.use_sentences(self._sentences)
        if self.on_restart is not None:
            self.on_restart()


class Pending:
    """A decode asked of a `SpareDecoder`: its audio, and the child's ticket if it took it."""

    def __init__(self, audio: Callable[[], bytes]) -> None:
        self._audio = audio
        self._pcm: bytes | None = None
        self.ticket: int | None = None

    def pcm(self) -> bytes:
        """The audio, made once."""
        if self._pcm is None:
            self._pcm = self._audio()
        return self._pcm


def _serve(connection: Connection) -> None:
    """The child: load the model, then decode what the parent sends until it hangs up."""
    try:
        _, settings, model_dir = connection.recv()
        decoder = DecoderPair(settings, model_dir)
    except (EOFError, OSError):
        return
    except RecognizerError as error:
        connection.send(("failed", str(error)))
        return
    connection.send(("ready",))
    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError):
            return
        try:
            if message[0] == "sentences":
                decoder.use_sentences(message[1])
            elif message[0] == "decode":
                decoded = decoder.decode(message[2], measure_margin=lambda text: False)
                connection.send(("decoded", message[1], decoded.text))
        except (RecognizerError, OSError) as error:
            with contextlib.suppress(OSError):
                connection.send(("failed", str(error)))
            return


if __name__ == "__main__":
    _serve(Connection(int(sys.argv[1])))
