"""The Vosk recognizer: decoding narrowed to the command phrases, streaming results.

Three things Vosk does not do the way a race game needs, handled here:

- **Ending a command promptly.** With a grammar, Vosk's own endpoint waits about a
  second of silence (its model.conf rules). A voice-activity detector ends the
  utterance `end_silence` seconds after the player stops (0.25 s by default: longer
  than the pause between the words of a command or inside a "k" or "t", shorter
  than a player waits) and asks Vosk for the final result at once; Vosk's endpoint
  stays as a backstop.
- **Changing the grammar safely.** Setting a grammar on a recognizer that is in
  the middle of audio aborts the whole process (a Kaldi fatal error), and so does
  a grammar with no word the model knows. `set_phrases` only records the new
  phrases (from any thread); the feeding thread swaps them in between utterances.
- **Forgetting an utterance.** Vosk's Reset() keeps undecoded audio, which would
  surface as half a word in the next result; `reset` finishes and discards instead.
- **Phrases the model cannot say.** A word missing from the model's vocabulary is
  silently dropped from its phrase by Vosk, which can turn "slap left" into "left".
  A phrase with any unknown word is left out whole and listed in `unusable_phrases`.

Times are seconds of audio fed to this recognizer (its own stream timeline).
Feed audio from one thread; `set_phrases` may be called from any.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
import threading
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from voicespit.errors import VoiceSpitError
from voicespit.speech.listening.activity import ActivitySettings, VoiceActivity
from voicespit.speech.recognizer import SAMPLE_RATE, Recognition
from voicespit.speech.recognizers.models import CorruptModelError, ModelError, check_model_layout

UNKNOWN_WORD = "[unk]"
"""Vosk's out-of-vocabulary token: in a grammar it soaks up speech that is no command."""

_PIECE_BYTES = 2 * SAMPLE_RATE // 20
"""Audio goes to Vosk in 50 ms pieces, so ending an utterance is timed to within 50 ms
and a large block never hides two utterances behind one endpoint check."""


class RecognizerUnavailableError(VoiceSpitError):
    """The recognizer's library is not installed."""


def _import_vosk() -> ModuleType:
    try:
        import vosk
    except ImportError as error:
        raise RecognizerUnavailableError(
            f"the Vosk recognizer is not available ({error}); install it with "
            "`pip install vosk` or use PocketSphinx") from None
    vosk.SetLogLevel(-1)  # Vosk logs every load step at info level otherwise
    module: ModuleType = vosk
    return module


class VoskModel:
    """A loaded Vosk model (about 4 s and 0.5 GB for the small Korean one): load once, share."""

    def __init__(self, path: Path, native: Any) -> None:
        self.path = path
        self.native = native

    @classmethod
    def load(cls, path: Path) -> VoskModel:
        """Load the model at `path`; ModelError (never a crash) for a missing, foreign or
        corrupt folder."""
        check_model_layout(path)
        if not (path / "graph/HCLr.fst").is_file():
            raise ModelError(
                f"the model at {path} cannot be narrowed to the game's commands (it has no "
                "graph/HCLr.fst): use a small model such as vosk-model-small-en-us-0.15")
        vosk = _import_vosk()
        with _native_stderr_captured() as captured:
            try:
                native = vosk.Model(str(path))
                # A damaged graph file loads "successfully" and then crashes the process
                # when a grammar recognizer is built on it; a plain recognizer fails
                # cleanly instead, so build one first as a probe.
                vosk.KaldiRecognizer(native, SAMPLE_RATE)
            except Exception:
                native = None
        if native is None:
            raise CorruptModelError(
                f"Vosk could not load the model at {path}{_vosk_complaint(captured)}; "
                "it may be damaged: install it again")
        return cls(path, native)

    def knows_word(self, word: str) -> bool:
        return int(self.native.vosk_model_find_word(word)) >= 0


class VoskRecognizer:
    """Vosk restricted to a phrase list, streaming partial and final `Recognition`s."""

    name = "vosk"

    def __init__(self, model_path: Path, phrases: Sequence[str], *, model: VoskModel | None = None,
                 end_silence: float | None = 0.25, max_utterance: float = 6.0,
                 activity: ActivitySettings | None = None) -> None:
        """`model` shares an already loaded model (then `model_path` must be its path).

        `end_silence`: seconds of quiet after speech that end a command (None: only
        Vosk's own endpoint, about a second). `max_utterance`: seconds of speech after
        which the utterance is ended anyway (a noisy room never falls quiet).
        """
        self.model = model or VoskModel.load(model_path)
        self.end_silence = end_silence
        self.max_utterance = max_utterance
        self._vosk = _import_vosk()
        self._lock = threading.Lock()
        self._pending_grammar: tuple[str, ...] | None = None
        self.phrases, self.unusable_phrases = self._usable(phrases)
        with _native_stderr_captured() as captured:
            try:
                self._native: Any = self._vosk.KaldiRecognizer(
                    self.model.native, SAMPLE_RATE, _grammar_json(self.phrases))
            except Exception:
                self._native = None
        if self._native is None:
            raise CorruptModelError(
                f"the model at {self.model.path} loaded but cannot decode"
                f"{_vosk_complaint(captured)}; it may be damaged: install it again")
        self._native.SetWords(True)
        self._activity = VoiceActivity(activity)
        self._fed_samples = 0
        self._odd_byte = b""
        self._last_partial = ""

    # The Recognizer protocol ------------------------------------------------------

    def set_phrases(self, phrases: Sequence[str]) -> None:
        """Narrow (or widen) decoding to `phrases` from the next utterance on.

        Raises ModelError at once when the model can say none of them.
        """
        usable, unusable = self._usable(phrases)
        with self._lock:
            self._pending_grammar = usable
            self.unusable_phrases = unusable

    def set_prior(self, preferred: Collection[str]) -> None:
        """A grammar decoder cannot weigh sentences: it hears every phrase alike."""

    def accept_audio(self, pcm: bytes) -> list[Recognition]:
        data = self._odd_byte + pcm
        cut = len(data) - len(data) % 2
        self._odd_byte = data[cut:]
        results: list[Recognition] = []
        for start in range(0, cut, _PIECE_BYTES):
            results.extend(self._accept_piece(data[start:min(cut, start + _PIECE_BYTES)]))
        return results

    def finish(self) -> list[Recognition]:
        self._odd_byte = b""
        final = self._final(self._native.FinalResult())
        return [final] if final else []

    def reset(self) -> None:
        self._discard_utterance()
        self._activity.reset_utterance()
        self._last_partial = ""
        self._swap_grammar_if_pending()

    # Internals ----------------------------------------------------------------------

    @property
    def stream_time(self) -> float:
        """Seconds of audio fed so far."""
        return self._fed_samples / SAMPLE_RATE

    def _accept_piece(self, piece: bytes) -> list[Recognition]:
        if self._is_idle():
            self._swap_grammar_if_pending()
        self._activity.feed(piece)
        self._fed_samples += len(piece) // 2
        if self._native.AcceptWaveform(piece):
            final = self._final(self._native.Result())
            return [final] if final else []
        activity = self._activity
        ended = (self.end_silence is not None and activity.heard_speech
                 and activity.trailing_quiet >= self.end_silence)
        too_long = (activity.speech_started_at is not None
                    and activity.now - activity.speech_started_at >= self.max_utterance)
        if ended or too_long:
            final = self._final(self._native.FinalResult())
            return [final] if final else []
        partial = str(json.loads(self._native.PartialResult()).get("partial", ""))
        if partial == self._last_partial:
            return []
        self._last_partial = partial
        if not partial:
            return []
        return [Recognition(text=partial, is_final=False, confidence=None,
                            speech_start=activity.speech_started_at, speech_end=None,
                            emitted_at=self.stream_time)]

    def _final(self, result_json: str) -> Recognition | None:
        """The final Recognition for a Vosk result, or None when it heard nothing at all."""
        result = json.loads(result_json)
        text = " ".join(str(result.get("text", "")).split())
        words: list[dict[str, Any]] = result.get("result") or []
        heard_speech = self._activity.heard_speech
        speech_start = self._activity.speech_started_at
        speech_end = self._activity.last_speech_at
        self._activity.reset_utterance()
        self._last_partial = ""
        self._swap_grammar_if_pending()
        if not text and not heard_speech:
            return None  # silence or a click: nothing to answer
        if words:
            speech_start, speech_end = float(words[0]["start"]), float(words[-1]["end"])
        confidences = [float(word["conf"]) for word in words if "conf" in word]
        return Recognition(
            text=text,
            is_final=True,
            confidence=min(confidences) if confidences else None,
            speech_start=speech_start,
            speech_end=speech_end,
            emitted_at=self.stream_time,
            rejected=UNKNOWN_WORD in text.split(),
        )

    def _is_idle(self) -> bool:
        return not self._activity.heard_speech and not self._last_partial

    def _swap_grammar_if_pending(self) -> None:
        with self._lock:
            grammar, self._pending_grammar = self._pending_grammar, None
        if grammar is None:
            return
        # Vosk accepts a grammar only from a recognizer that is not mid-audio.
        self._discard_utterance()
        self._native.SetGrammar(_grammar_json(grammar))
        self.phrases = grammar

    def _discard_utterance(self) -> None:
        # Vosk's own Reset() keeps the audio it has buffered but not yet decoded (up to a
        # quarter of a second), which then surfaces in the next result: half a word of
        # the dropped utterance. Finishing the utterance and ignoring its result starts
        # the next one from a clean feature pipeline.
        self._native.FinalResult()

    def _usable(self, phrases: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
        usable: list[str] = []
        unusable: list[str] = []
        for phrase in dict.fromkeys(" ".join(phrase.split()) for phrase in phrases):
            if phrase and all(self.model.knows_word(word) for word in phrase.split()):
                usable.append(phrase)
            elif phrase:
                unusable.append(phrase)
        if not any(phrase != UNKNOWN_WORD for phrase in usable):
            sample = ", ".join(unusable[:3]) or "no phrases at all"
            raise ModelError(
                f"the model at {self.model.path} knows none of the command words ({sample}); "
                "is it a model for another language?")
        return tuple(usable), tuple(unusable)


def _grammar_json(phrases: Sequence[str]) -> str:
    # ensure_ascii=False: Vosk looks words up byte for byte, so an escaped "\\uc67c"
    # would be "missing in vocabulary" for any non-English model.
    return json.dumps(list(phrases), ensure_ascii=False)


@contextlib.contextmanager
def _native_stderr_captured() -> Iterator[list[str]]:
    """Collect what Vosk's C++ side writes to stderr (file descriptor 2) meanwhile.

    Vosk reports why a model failed only as log lines on stderr; they are turned into
    one clear message instead of a wall of Kaldi output. Lines that are not Vosk's
    (another thread's) are written back to stderr afterwards.
    """
    lines: list[str] = []
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as capture:
        os.dup2(capture.fileno(), 2)
        try:
            yield lines
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            capture.seek(0)
            text = capture.read().decode("utf-8", errors="replace")
            lines.extend(line for line in text.splitlines() if line.strip())
            others = [line for line in lines if not _is_vosk_log(line)]
            if others:
                sys.stderr.write("\n".join(others) + "\n")


def _is_vosk_log(line: str) -> bool:
    return line.startswith(("LOG (", "WARNING (", "ERROR (", "VLOG", "ERROR:", "WARNING:"))


def _vosk_complaint(lines: list[str]) -> str:
    errors = [line.split(")", 1)[-1].strip() for line in lines if "ERROR" in line]
    return f" ({errors[0]})" if errors else ""
