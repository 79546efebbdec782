"""The zero-download recognizer: PocketSphinx with the US-English model its wheel ships.

How an utterance goes (each step is a setting in `PocketSphinxSettings`, measured
with it on and off; docs/speech-record.md has the table):

1. `SpeechDetector` finds speech against an adaptive noise floor, keeping 300 ms
   of audio from before the trigger so quiet onsets (the s of six) are kept.
2. At the first short pause the utterance so far is decoded. When the decoder
   heard a whole command that nothing longer starts with ("seven on left", not
   "seven"), followed by silence, the result goes out at once; a command that
   could go on waits a little longer, and anything else waits for a long pause.
   In noise, where the quiet sounds between words drown, the waits are longer.
3. Each decode is of the whole utterance at once, so cepstral mean normalisation
   uses the utterance's own mean. Before decoding, stationary noise is suppressed
   (the audio before the speech is the noise sample) and a faint comfort noise
   fills digital silence.
4. The grammar is the exact list of sentences as a minimal word graph, with a
   garbage path of free phones beside it: chatter fits the garbage better than
   any command and comes out rejected.
5. A second decode of differently cleaned audio must name the same command, or
   the result is rejected: refusing is better than guessing. It runs in a child
   process at the same time as the first (second_opinion.py).

Optionally a free phone-loop decoder gives a confidence (the grammar's score
against the loop's); it is off by default (docs/speech-record.md says what it costs).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Collection, Sequence
from pathlib import Path

from voicespit.speech.language.grammar import sentences as grammar_sentences
from voicespit.speech.language.parser import command_in
from voicespit.speech.language.word_graph import proper_prefixes
from voicespit.speech.listening.endpoint import FrameEvent
from voicespit.speech.recognizer import Recognition, RecognizerError
from voicespit.speech.recognizers.pocketsphinx_engine import (
    Decoded,
    DecoderPair,
    PocketSphinxSettings,
    prepared_pcm,
)
from voicespit.speech.recognizers.second_opinion import Pending, SpareDecoder
from voicespit.speech.recognizers.utterance_audio import FRAME_SECONDS, EndpointingRecognizer

HELPER_RESTARTS = 3
"""How often the second-opinion child is started again after it died (killed, crashed);
past that, the second decode stays in this process for good."""
HELPER_RESTARTED = "Listening restarted; nothing you said was lost."

__all__ = ["PocketSphinxRecognizer", "PocketSphinxSettings"]



class PocketSphinxRecognizer(EndpointingRecognizer):
    """The Recognizer protocol over PocketSphinx; endpointing happens inside."""

    name = "pocketsphinx"

    def __init__(self, phrases: Sequence[str] | None = None, *,
                 settings: PocketSphinxSettings | None = None,
                 model_dir: Path | None = None) -> None:
        """Load the model (the wheel's en-us one unless `model_dir` is given).

        Raises RecognizerError naming what is missing when pocketsphinx or the
        model cannot be loaded.
        """
        self.settings = settings = settings if settings is not None else PocketSphinxSettings()
        super().__init__(settings.endpoint)
        self._engine = DecoderPair(settings, model_dir)
        # With live CMN every decode moves the decoder's running mean, so the second
        # decode must stay in this decoder for the results to be the same.
        in_child = settings.agreement and settings.agreement_in_child and settings.batch_cmn
        self._spare = SpareDecoder(settings, model_dir, here=self._engine, in_child=in_child,
                                   restarts=HELPER_RESTARTS)
        self._spare.on_restart = self._helper_restarted
        self.on_trouble: Callable[[str], None] | None = None
        """Told, in a sentence fit to say, when the recognizer recovered from a failure."""
        self._last_partial = ""
        self._paused: Decoded | None = None
        self.set_phrases(grammar_sentences() if phrases is None else phrases)

    # ------------------------------------------------------------ the protocol

    def set_phrases(self, phrases: Sequence[str]) -> None:
        sentences = [" ".join(p.split()) for p in phrases if p.split() and p != "[unk]"]
        if not sentences:
            raise RecognizerError("the recognizer needs at least one phrase to listen for")
        self._sentences = frozenset(sentences)
        self._sentence_list = sentences
        self._prefixes = proper_prefixes(sentences)
        self._engine.use_sentences(sentences)
        self._spare.use_sentences(sentences)

    def set_prior(self, preferred: Collection[str]) -> None:
        """A grammar decoder cannot weigh sentences: it hears every phrase alike."""

    def _decide_now(self) -> Recognition:
        asked = self._ask_second_opinion()
        return self._final(self._confirmed(self._decode(final=True), asked))

    def _new_stream(self) -> None:
        self._engine.new_stream()

    def _forget(self) -> None:
        self._last_partial = ""

    # ------------------------------------------------------------ one frame

    def _started(self) -> None:
        self._last_partial = ""
        self._paused = None

    def _within_utterance(self, event: FrameEvent) -> Recognition | None:
        if self._detector.quiet_frames == 0:
            self._paused = None
        if event is FrameEvent.PAUSED and self.settings.end_on_hypothesis:
            settled = self._detector.quiet_frames >= self._detector.settle_after
            cached = self._paused
            if settled and cached is not None and (cached.margin is not None
                                                   or not self.settings.phone_loop):
                # Nothing but silence since the first pause: its decode still holds,
                # and not decoding again saves a decode's time off the latency.
                decoded = cached
            else:
                # Confirmed at once, even a command that could go on ("seven"): when it
                # settles, it can then go out without another decode.
                asked = self._ask_second_opinion()
                decoded = self._paused = self._confirmed(self._decode(final=False), asked)
            if self._is_said(decoded):
                self._detector.reset()
                return self._final(decoded)
            if decoded.text and decoded.text != self._last_partial:
                self._last_partial = decoded.text
                return self._recognition(decoded, is_final=False)
            return None
        if event in (FrameEvent.ENDED, FrameEvent.TOO_LONG):
            return self._decide_now()
        return None

    # ------------------------------------------------------------ decoding

    def _decode(self, *, final: bool) -> Decoded:
        pcm = prepared_pcm(self._audio.samples(), self._audio.noise,
                           floor_gain=self.settings.noise_floor_gain,
                           comfort_noise=self.settings.comfort_noise,
                           suppress=self.settings.noise_suppression)
        return self._engine.decode(pcm, measure_margin=self._worth_measuring if not final
                                   else lambda text: True)

    @property
    def helper_pid(self) -> int | None:
        """The process id of the second-opinion child while it takes requests (it has
        loaded its model and has not failed). Ask on the recognizer's own thread."""
        helper = self._spare.child
        return helper.pid if helper is not None and helper.ready() else None

    def _ask_second_opinion(self) -> Pending:
        """Hand the second audio to the child before the first decode starts, so that
        both decodes run at once; we only know afterwards whether it is needed. A dead
        child is replaced meanwhile (this process decodes for it, so nothing is lost)."""
        return self._spare.ask(self._second_audio)

    def _helper_restarted(self) -> None:
        if self.on_trouble is not None:
            self.on_trouble(HELPER_RESTARTED)

    def _confirmed(self, decoded: Decoded, asked: Pending) -> Decoded:
        """With `agreement`, a command about to go out is decoded again from differently
        prepared audio (lighter suppression, a louder comfort floor); if the second
        decode names another command, the result is disputed and will be refused."""
        if not self.settings.agreement or decoded.text not in self._sentences:
            return decoded
        # The child's answer, or, with no child or a late one, the same decode here.
        other = self._spare.text(asked)
        return dataclasses.replace(decoded, disputed=command_in(other) != command_in(decoded.text))

    def _second_audio(self) -> bytes:
        return prepared_pcm(self._audio.samples(), self._audio.noise,
                            floor_gain=self.settings.agreement_floor_gain,
                            comfort_noise=self.settings.agreement_comfort_noise)

    def _worth_measuring(self, text: str) -> bool:
        """At a pause the phone loop (a second decode) runs only if the command may go out."""
        if text not in self._sentences:
            return False
        return text not in self._prefixes or \
            self._detector.quiet_frames >= self._detector.settle_after

    def _is_said(self, decoded: Decoded) -> bool:
        """At a pause: did the decoder hear a whole command, followed by real silence?

        A grammar decoder completes a half-said command ("move four to" becomes
        "move four to two"), so the last word must end well before the audio does.
        A command that could go on ("seven") must wait for `settle_frames`.
        """
        if decoded.text not in self._sentences or decoded.end_frame is None:
            return False
        trailing = len(self._audio.frames) - 1 - decoded.end_frame
        if trailing < self.settings.trailing_silence_frames:
            return False
        settled = self._detector.quiet_frames >= self._detector.settle_after
        if decoded.text in self._prefixes and not settled:
            return False
        return self._is_confident(decoded)

    def _is_confident(self, decoded: Decoded) -> bool:
        if decoded.disputed:
            return False
        threshold = self.settings.confidence_threshold
        if threshold is None:
            return True
        return decoded.margin is not None and decoded.margin >= threshold

    def _final(self, decoded: Decoded) -> Recognition:
        level = self._voice_level()
        self._audio.drop()
        self._paused = None
        recognition = self._recognition(decoded, is_final=True)
        return dataclasses.replace(recognition, scores={**(recognition.scores or {}), **level})

    def _recognition(self, decoded: Decoded, *, is_final: bool) -> Recognition:
        start = end = None
        if decoded.start_frame is not None and decoded.end_frame is not None:
            start = (self._audio.start_frame + decoded.start_frame) * FRAME_SECONDS
            end = (self._audio.start_frame + decoded.end_frame + 1) * FRAME_SECONDS
        confidence = None
        if decoded.margin is not None:
            threshold = self.settings.confidence_threshold or 0.0
            exponent = (threshold - decoded.margin) / self.settings.confidence_scale
            confidence = 1.0 / (1.0 + math.exp(min(60.0, exponent)))
        known = decoded.text in self._sentences
        unsure = bool(decoded.text) and not (known and self._is_confident(decoded))
        rejected = is_final and (decoded.garbage or unsure)
        scores = {"phone_margin": decoded.margin} if decoded.margin is not None else {}
        return Recognition(text=decoded.text, is_final=is_final, confidence=confidence,
                           speech_start=start, speech_end=end,
                           emitted_at=self._audio.frames_fed * FRAME_SECONDS, rejected=rejected,
                           scores=scores or None)


