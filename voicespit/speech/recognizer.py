"""The interface every speech recognizer backend implements.

Audio goes in as 16 kHz mono signed 16-bit little-endian PCM in blocks of any
length; partial and final results come out. Backends import their engine
lazily (only adapter classes import vosk or pocketsphinx).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from voicespit.errors import VoiceSpitError

SAMPLE_RATE = 16_000
"""Every recognizer takes 16 kHz mono 16-bit audio; sources convert to it."""


TAIL_OF_COMMAND = "tail_of_command"
"""The score a recognizer sets (1.0) on a refused final that was the end of the command it
acted on just before (`Recognition.ends_last_command`; Whisper's `tail_check`)."""


@dataclass(frozen=True, slots=True)
class Recognition:
    """What a recognizer heard.

    `text` is the words of the hypothesis ("" when nothing usable was heard).
    Partial results (`is_final` False) may change; a final one ends an utterance.
    Times are seconds on the audio stream's own timeline (0 = first sample fed),
    so latency can be measured the same way live and from files.
    """

    text: str
    is_final: bool
    confidence: float | None
    """0..1 where the engine gives one; None where it does not."""
    speech_start: float | None
    """Where speech began in the stream, if known."""
    speech_end: float | None
    """Where speech ended in the stream (for a final result), if known."""
    emitted_at: float
    """Stream time (seconds of audio fed so far) when this result came out."""
    rejected: bool = False
    """True when the engine heard something but judged it not a command (too unsure)."""
    scores: Mapping[str, float] | None = None
    """The engine's own measurements behind `confidence` and `rejected` (for tuning)."""

    @property
    def ends_last_command(self) -> bool:
        """The end of the command acted on just before it, come after the pause that command
        was decided at (`TAIL_OF_COMMAND`): nothing new was said, and nobody is waiting
        for an answer to it."""
        return bool(self.scores and self.scores.get(TAIL_OF_COMMAND))

    @property
    def unusable(self) -> bool:
        """Refused, or no words in it: a final one the game answers "Say again?"."""
        return self.rejected or not self.text.strip()

    @property
    def speech_span(self) -> tuple[float, float]:
        """Where the speech began and ended in the stream; where it is not known, when
        the result came out."""
        start = self.speech_start if self.speech_start is not None else self.emitted_at
        end = self.speech_end if self.speech_end is not None else self.emitted_at
        return start, end


class Recognizer(Protocol):
    name: str
    """"vosk", "whisper" or "pocketsphinx"."""

    def set_phrases(self, phrases: Sequence[str]) -> None:
        """Restrict decoding to these phrases (takes effect at the next utterance)."""
        ...

    def set_prior(self, preferred: Collection[str]) -> None:
        """Favour these phrases slightly (what the game state makes likely); never a
        wall: every phrase set with `set_phrases` can still be heard. Recognizers
        that cannot weigh phrases ignore it."""
        ...

    def accept_audio(self, pcm: bytes) -> list[Recognition]:
        """Feed audio; returns any partial or final results it produced."""
        ...

    def finish(self) -> list[Recognition]:
        """End of stream: flush and return the last results."""
        ...

    def reset(self) -> None:
        """Forget the utterance in progress (e.g. after the game spoke)."""
        ...


class RecognizerError(VoiceSpitError):
    """A recognizer that cannot start: no engine installed, a missing or broken model."""
