"""PocketSphinx itself: loading the model, compiling grammars, decoding one utterance.

The recognizer (pocketsphinx_recognizer.py) decides when an utterance starts and
ends and what to make of a result; this module only decodes what it is given.
Only this module imports pocketsphinx, lazily, inside `DecoderPair`.
"""

from __future__ import annotations

import collections
import math
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from voicespit.speech.language.grammar import jsgf
from voicespit.speech.language.grammar import sentences as grammar_sentences
from voicespit.speech.language.word_graph import WordGraph
from voicespit.speech.listening.endpoint import EndpointSettings
from voicespit.speech.recognizer import RecognizerError
from voicespit.speech.signal import Samples, add_comfort_noise, suppress_noise, to_pcm

LOG_BASE = math.log(1.0001)
"""PocketSphinx reports scores as 1.0001 ** log-score; this undoes it."""
ACCENT_PRONUNCIATIONS: dict[str, tuple[str, ...]] = {"jack": ("JH AA K",), "slap": ("S L AA P",)}
"""The open "a" of British, Scottish and Caribbean speakers, missing from the US dictionary
(on the tuning corpus, "jack" alone was 4 of 14 clean errors)."""
GARBAGE = "garbage-"
"""Prefix of the one-phone words of the garbage loop."""
GARBAGE_PHONES = (
    "AA", "AE", "AH", "AO", "AW", "AY", "B", "CH", "D", "DH", "EH", "ER", "EY", "F", "G",
    "HH", "IH", "IY", "JH", "K", "L", "M", "N", "NG", "OW", "OY", "P", "R", "S", "SH", "T",
    "TH", "UH", "UW", "V", "W", "Y", "Z", "ZH")
"""The acoustic model's phones, less silence and noises."""
GRAMMARS_KEPT = 32
"""Compiled grammars kept for switching back (each is a few kilobytes)."""
FILLERS = frozenset({"<s>", "</s>", "<sil>", "[NOISE]", "[SPEECH]", "(NULL)"})


@dataclass(frozen=True)
class PocketSphinxSettings:
    """Every lever, so the benchmark can switch each one off and measure it."""

    word_graph: bool = True
    """Decode against the exact sentence list (False: the slot-style JSGF of grammar.jsgf)."""
    batch_cmn: bool = True
    """Normalise each utterance by its own cepstral mean (False: PocketSphinx's live mean)."""
    comfort_noise: float = 64.0
    """Standard deviation (int16 units) of the noise floor added under the audio; 0: none."""
    noise_suppression: bool = True
    noise_floor_gain: float = 0.3
    """How far noise suppression may turn a band down (1: not at all)."""
    phone_loop: bool = False
    """Run the free phone-loop decoder beside the grammar to measure a confidence."""
    confidence_threshold: float | None = None
    """Minimum grammar-over-phone-loop score margin per speech frame; None: accept all."""
    garbage_probability: float = 0.001
    """Prior chance of the free-phone garbage path beside the commands; 0: no garbage path."""
    garbage_phone_probability: float = 1e-5
    """The garbage path's price per phone (the smaller, the dearer)."""
    agreement: bool = True
    """Keep a command only when a second decode of differently prepared audio agrees."""
    agreement_floor_gain: float = 0.15
    """The second decode's noise suppression floor (1: none)."""
    agreement_comfort_noise: float = 128.0
    """The second decode's comfort noise level."""
    agreement_in_child: bool = True
    """Make the second decode in a child process, beside the first (the same result,
    about one decode's time sooner on a machine with two cores). Only with `batch_cmn`."""
    confidence_scale: float = 3.0
    """Margin per unit of the logistic that maps the margin to a 0..1 confidence."""
    end_on_hypothesis: bool = True
    """End at the first short pause when the decoder heard a complete command."""
    trailing_silence_frames: int = 5
    """Silence the decoder must place after the last word before ending early."""
    endpoint: EndpointSettings = field(default_factory=EndpointSettings)
    decoder_options: dict[str, Any] = field(
        default_factory=lambda: {"bestpath": False, "beam": 1e-60, "wbeam": 1e-40,
                                 "pbeam": 1e-60, "silprob": 0.1})
    """Passed to the PocketSphinx Config (bestpath off: it empties grammar results)."""
    excluded_pronunciations: frozenset[str] = frozenset({"resume(3)"})
    """Dictionary variants never meant here ("résumé" is not the command "resume")."""
    extra_pronunciations: dict[str, tuple[str, ...]] = field(
        default_factory=lambda: dict(ACCENT_PRONUNCIATIONS))
    """Pronunciations added to the dictionary's, e.g. for accents it lacks."""

    def __post_init__(self) -> None:
        if self.confidence_threshold is not None and not self.phone_loop:
            raise ValueError("a confidence threshold needs the phone loop")

    @staticmethod
    def plain() -> PocketSphinxSettings:
        """The baseline: slot JSGF, PocketSphinx defaults, live CMN, silence-only endpoint."""
        return PocketSphinxSettings(
            word_graph=False, batch_cmn=False, comfort_noise=0.0, noise_suppression=False,
            phone_loop=False, confidence_threshold=None, end_on_hypothesis=False,
            garbage_probability=0.0, agreement=False,
            endpoint=EndpointSettings(end_frames=30), decoder_options={},
            excluded_pronunciations=frozenset(), extra_pronunciations={})


@dataclass(frozen=True)
class Decoded:
    text: str
    start_frame: int | None
    end_frame: int | None
    margin: float | None
    """Grammar minus phone-loop log score per speech frame (None: not measured)."""
    garbage: bool = False
    """The garbage path won: something was said, but no command."""
    disputed: bool = False
    """The second decode heard a different command."""


class DecoderPair:
    """The PocketSphinx decoders: the grammar (with its garbage path) and the free phone loop."""

    def __init__(self, settings: PocketSphinxSettings, model_dir: Path | None) -> None:
        try:
            import pocketsphinx
        except ImportError as error:
            raise RecognizerError(f"PocketSphinx is not installed ({error}); "
                                  "install it with: pip install pocketsphinx") from None
        self._ps = pocketsphinx
        root = Path(pocketsphinx.get_model_path("en-us")) if model_dir is None else model_dir
        self._acoustic = root / "en-us"
        self._dictionary = root / "cmudict-en-us.dict"
        self._phone_lm = root / "en-us-phone.lm.bin"
        for needed in (self._acoustic / "mdef", self._dictionary, self._phone_lm):
            if not needed.exists():
                raise RecognizerError(f"the PocketSphinx model at {root} is incomplete: "
                                      f"{needed.name} is missing")
        if model_dir is not None:
            _probe_model(self._acoustic, self._dictionary)
        self.settings = settings
        self._pronunciations: dict[str, list[str]] = {}
        self._garbage_words: list[str] = []
        self._searches: collections.OrderedDict[frozenset[str], str] = collections.OrderedDict()
        self._grammar = self._decoder(settings.decoder_options)
        self._phones: Any = None
        if settings.phone_loop:
            self._phones = self._decoder({})
            self._phones.add_allphone_file("phones", str(self._phone_lm))
            self._phones.activate_search("phones")
        self._initial_cmn = self._grammar.get_cmn()
        self._search = 0

    def _decoder(self, options: dict[str, Any]) -> Any:
        config = self._ps.Config(hmm=str(self._acoustic), dict=None, lm=None,
                                 loglevel="FATAL")
        config["cmn"] = "batch" if self.settings.batch_cmn else "live"
        for key, value in options.items():
            config[key] = value
        with tempfile.NamedTemporaryFile("w", suffix=".dict", delete=True) as minimal:
            # A decoder needs a dictionary file to start; words are added per grammar.
            minimal.write("sil SIL\n")
            minimal.flush()
            config["dict"] = minimal.name
            try:
                return self._ps.Decoder(config)
            except (RuntimeError, ValueError) as error:
                raise RecognizerError(f"PocketSphinx could not load the model at "
                                      f"{self._acoustic.parent}: {error}") from None

    def use_sentences(self, sentences: Sequence[str]) -> None:
        """Decode against these sentences from the next utterance on.

        Grammars are kept by their sentences (the game goes back and forth between
        a few contexts), so switching back costs nothing.
        """
        key = frozenset(sentences)
        if key in self._searches:
            self._searches.move_to_end(key)
            self._grammar.activate_search(self._searches[key])
            return
        words = sorted({word for sentence in sentences for word in sentence.split()})
        self._add_words(words)
        self._search += 1
        name = f"grammar{self._search}"
        if self.settings.word_graph:
            graph = WordGraph.from_sentences(sentences)
            garbage = self.settings.garbage_probability
            keep = 1.0 - garbage
            transitions: list[tuple[int, int, float] | tuple[int, int, float, str]] = [
                (t.source, t.target, t.probability * (keep if t.source == graph.start else 1.0),
                 t.word) for t in graph.transitions]
            transitions += [(state, graph.final,
                             probability * (keep if state == graph.start else 1.0))
                            for state, probability in graph.ends]
            if garbage > 0:
                transitions += self._garbage_loop(graph.start, graph.final, graph.states)
            fsg = self._grammar.create_fsg(name, graph.start, graph.final, transitions)
            self._grammar.add_fsg(name, fsg)
        else:
            self._grammar.add_jsgf_string(name, _sentences_jsgf(sentences))
        self._grammar.activate_search(name)
        self._searches[key] = name
        if len(self._searches) > GRAMMARS_KEPT:
            _, oldest = self._searches.popitem(last=False)
            self._grammar.remove_search(oldest)

    def _garbage_loop(self, start: int, final: int, loop: int) -> list[
            tuple[int, int, float] | tuple[int, int, float, str]]:
        """A path of free phones beside the commands: chatter fits it better than any command.

        It plays the part of Vosk's [unk] inside the one search: when it wins, the
        hypothesis holds garbage words and is not a command.
        """
        if not self._garbage_words:
            self._garbage_words = [f"{GARBAGE}{phone.lower()}" for phone in GARBAGE_PHONES]
            for word, phone in zip(self._garbage_words, GARBAGE_PHONES, strict=True):
                self._grammar.add_word(word, phone, phone == GARBAGE_PHONES[-1])
        share = 1.0 / len(self._garbage_words)
        enter = self.settings.garbage_probability * share
        stay = self.settings.garbage_phone_probability * share
        arcs: list[tuple[int, int, float] | tuple[int, int, float, str]] = []
        for word in self._garbage_words:
            arcs += [(start, loop, enter, word), (loop, loop, stay, word)]
        arcs.append((loop, final, 1.0))
        return arcs

    def _add_words(self, words: Sequence[str]) -> None:
        missing = [word for word in words if word not in self._pronunciations]
        if not missing:
            return
        found = _lookup_pronunciations(self._dictionary, missing,
                                       self.settings.excluded_pronunciations)
        for word, variants in self.settings.extra_pronunciations.items():
            if word in missing:
                found[word] = [*found.get(word, []),
                               *(v for v in variants if v not in found.get(word, []))]
        unknown = [word for word in missing if word not in found]
        if unknown:
            raise RecognizerError(f"PocketSphinx's dictionary has no pronunciation for "
                                  f"{', '.join(unknown)}")
        entries = [(word if variant == 0 else f"{word}({variant + 1})", phones)
                   for word in missing for variant, phones in enumerate(found[word])]
        for number, (entry, phones) in enumerate(entries):
            # Rebuilding the search once, after the last word, keeps this fast.
            self._grammar.add_word(entry, phones, number == len(entries) - 1)
        self._pronunciations.update({word: found[word] for word in missing})

    def new_stream(self) -> None:
        """A new audio stream: forget the live cepstral mean of the last one."""
        self._grammar.set_cmn(self._initial_cmn)

    def decode(self, pcm: bytes, *, measure_margin: Callable[[str], bool]) -> Decoded:
        """Decode one whole utterance; run the phone loop only when `measure_margin(text)`."""
        if not pcm:
            return Decoded("", None, None, None)
        whole = self.settings.batch_cmn
        try:
            _start_fresh(self._grammar)
            self._grammar.process_raw(pcm, False, whole)
            self._grammar.end_utt()
        except RuntimeError as error:
            raise RecognizerError(f"PocketSphinx failed to decode: {error}") from None
        hypothesis = self._grammar.hyp()
        text = " ".join(hypothesis.hypstr.split()) if hypothesis is not None else ""
        spoken = [(segment.start_frame, segment.end_frame) for segment in self._grammar.seg()
                  if segment.word not in FILLERS] if text else []
        if not text or not spoken:
            return Decoded("", None, None, None)
        if GARBAGE in text:
            return Decoded("", spoken[0][0], spoken[-1][1], None, garbage=True)
        margin = None
        speech_frames = max(1, sum(end - start + 1 for start, end in spoken))
        if self._phones is not None and measure_margin(text):
            _start_fresh(self._phones)
            self._phones.process_raw(pcm, False, whole)
            self._phones.end_utt()
            phones = self._phones.hyp()
            margin = (_log(hypothesis.score) - _log(phones.score if phones else 0.0)) \
                / speech_frames
        return Decoded(text, spoken[0][0], spoken[-1][1], margin)


def prepared_pcm(samples: Samples, noise: Samples, *, floor_gain: float,
                 comfort_noise: float, suppress: bool = True) -> bytes:
    """An utterance cleaned as PocketSphinx decodes best: stationary noise suppressed
    (`noise` is audio from before the speech) and a faint comfort noise over digital
    silence, which the acoustic model was never trained on."""
    if suppress:
        samples = suppress_noise(samples, noise, floor_gain=floor_gain)
    return to_pcm(add_comfort_noise(samples, comfort_noise))


def _probe_model(acoustic: Path, dictionary: Path) -> None:
    """Load a model given by the user in a child process first.

    PocketSphinx ends the whole process (exit status 1) on a corrupt model file,
    with no exception to catch; a child that dies instead tells us the model is
    broken and what PocketSphinx said about it.
    """
    code = ("import sys\nfrom pocketsphinx import Decoder\n"
            "Decoder(hmm=sys.argv[1], dict=sys.argv[2], lm=None, loglevel='ERROR')\n")
    try:
        probe = subprocess.run([sys.executable, "-c", code, str(acoustic), str(dictionary)],
                               capture_output=True, text=True, timeout=60, check=False)
    except subprocess.TimeoutExpired:
        raise RecognizerError(f"PocketSphinx took too long to load the model at "
                              f"{acoustic.parent}") from None
    if probe.returncode != 0:
        said = [line for line in probe.stderr.splitlines() if line.strip()]
        why = said[-1].strip() if said else f"exit status {probe.returncode}"
        raise RecognizerError(f"PocketSphinx could not load the model at {acoustic.parent}: "
                              f"{why}")


def _start_fresh(decoder: Any) -> None:
    """Start an utterance that owes nothing to the last one.

    Without start_stream() the front end's noise estimate carries over and the
    same audio decodes differently depending on what came before (measured:
    phone-loop margins of 0.1, 7.1 and 7.8 for three passes over one file).
    PocketSphinx 5 marks it deprecated, but it still resets that estimate.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        decoder.start_stream()
    decoder.start_utt()


def _log(score: float) -> float:
    return math.log(score) / LOG_BASE if score > 0 else -1e12


def _lookup_pronunciations(dictionary: Path, words: Sequence[str],
                           excluded: frozenset[str]) -> dict[str, list[str]]:
    """Each word's pronunciations from a CMU-style dictionary (`word(2)` are variants)."""
    wanted = set(words)
    found: dict[str, list[str]] = {}
    with dictionary.open(encoding="utf-8") as lines:
        for line in lines:
            entry, _, phones = line.strip().partition(" ")
            base = entry.split("(", 1)[0]
            if base in wanted and entry not in excluded and phones:
                found.setdefault(base, []).append(phones.strip())
    return found


def _sentences_jsgf(sentences: Sequence[str]) -> str:
    """The plain grammar: the slot-style JSGF when the sentences are the full grammar."""
    if set(sentences) == set(grammar_sentences()):
        return jsgf()
    body = " | ".join(sentences)
    return f"#JSGF V1.0;\ngrammar voicespit;\npublic <command> = {body};\n"
