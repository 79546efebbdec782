"""Tuning Whisper's refusal rule on recorded scores, without decoding again.

    python -m benchmarks.whisper_replay record --split tuning --out /tmp/tuning.pkl
    python -m benchmarks.whisper_replay replay /tmp/tuning.pkl [/tmp/fsdd-tuning.pkl ...]

`record` streams a split through the Whisper recognizer exactly as the game
does, with refusal off (so every utterance ends in a final), and saves each
final's scores, those of the second look's shifted window (scored for every final,
so that the second look replays: `Rule.second_look_from`) and what the PocketSphinx
cross-check heard. `replay` applies the
game's own rule (`whisper_choice.choose`, `CrossCheck.needed`) over a grid of
margins, pruning distances, PocketSphinx cross-checks and deficit limits and
prints, per recording and setting, accuracy, wrong and refused per condition
and chatter taken, so the settings are chosen on tuning splits and the chosen
one is then measured, streaming, by `benchmarks.speech` on the held-out splits.

Replaying over a run without refusal is an approximation of the streaming
game: when the game refuses at a pause it waits for more audio, which the
recording never heard. `benchmarks.speech` measures the real thing.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import pickle
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from benchmarks.speech import CORPUS
from voicespit.speech.language.parser import command_in, parse
from voicespit.speech.recognizer import Recognition
from voicespit.speech.recognizers.transcription import CorpusItem, read_corpus, transcribe
from voicespit.speech.recognizers.whisper_acceptance import (
    AcceptanceModel,
    acts_on,
    heard_too_long,
    second_look_due,
)
from voicespit.speech.recognizers.whisper_choice import (
    Choice,
    CommandTable,
    CrossCheck,
    WindowScores,
    averaged,
    choose,
)
from voicespit.speech.recognizers.whisper_recognizer import (
    Scored,
    WhisperRecognizer,
    WhisperSettings,
)

RECORDED_WITHIN = 8.0


class Recording(WhisperRecognizer):
    """The recognizer, keeping the window scores of every final it gives (each final
    says which, as its "record" score), and those of the second look's shifted window
    (`WhisperSettings.second_look_shift`), which the recording scores for every final
    so that `Rule.second_look_from` replays."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kept: list[dict[str, Any]] = []
        self._second: dict[int, WindowScores] = {}
        self._scoring_second = False
        self._window_audio: np.ndarray | None = None

    # The recognizer encodes a window and scores the encoding in two steps (it keeps the
    # encoding to score again after a lead word), so the audio is caught at the first
    # and the second look scored at the second.
    def _timed_encoding(self, audio: np.ndarray) -> np.ndarray:
        if not self._scoring_second:
            self._window_audio = audio
        return super()._timed_encoding(audio)

    def _scores_of(self, encoded: np.ndarray) -> WindowScores:
        window = super()._scores_of(encoded)
        if not self._scoring_second and self._window_audio is not None:
            audio, self._window_audio = self._window_audio, None
            self._scoring_second = True
            try:
                self._second = {id(window): self._score_window(self._shifted(audio))}
            finally:
                self._scoring_second = False
        return window

    def _final(self, answer: Scored) -> Recognition:
        assert answer.window is not None, "every scoring keeps its window"
        second = self._second.get(id(answer.window))
        assert second is not None, "every scoring has its second look"
        self.kept.append({
            "totals": answer.window.totals.astype(np.float32),
            "deficits": answer.window.deficits.astype(np.float32),
            "pooled": answer.window.pooled.astype(np.float32),
            "second": (second.totals.astype(np.float32), second.deficits.astype(np.float32)),
            "first_word_deficit": (answer.window.first_word_deficit, second.first_word_deficit),
            "leaning_taken": (self.settings.leaning_weight * self._leaning).astype(np.float32),
            "speech_seconds": answer.speech_seconds,
            "above_floor_db": answer.above_floor_db,
            "pocketsphinx": answer.heard_by_pocketsphinx})
        result = super()._final(answer)
        return dataclasses.replace(result, scores={**(result.scores or {}),
                                                   "record": float(len(self.kept) - 1)})


RECORDING_SETTINGS = dataclasses.replace(
    WhisperSettings(), margin=0.0, deficit_per_token=1e9, prune_within=RECORDED_WITHIN,
    cross_check=CrossCheck(0.0, 0.0, 0.0, 0.0), fitted_acceptance=False,
    longest_word_seconds=None, lead_from=None)
"""Refusing nothing, so every utterance ends in a final (the length limit too would
refuse at a pause and wait for more speech): wide pruning, so that replays can narrow it
(`Rule.within`); PocketSphinx's cross-check decode kept with no margin, so that every
rule of `CrossCheck` replays over it. Nothing is scored again after a lead word
(`WhisperSettings.lead_from`): that second scoring is not replayed."""


def record(split: str, out: Path, every: int, offset: int = 0,
           compute_type: str | None = None, model_dir: Path | None = None,
           window_seconds: float | None = None) -> None:
    """Writes a header, then one pickle per file as it is done (a partial recording
    replays too). `compute_type`: the encoder's (None: the recognizer's own);
    `model_dir`: another Whisper model folder (None: the shipped tiny.en);
    `window_seconds`: `WhisperSettings.window_seconds` (None: the default's)."""
    from voicespit.speech.recognizers.whisper_model import WhisperModel

    model = WhisperModel.load(model_dir) if compute_type is None else \
        WhisperModel.load(model_dir, compute_type=compute_type)
    settings = RECORDING_SETTINGS if window_seconds is None else dataclasses.replace(
        RECORDING_SETTINGS, window_seconds=window_seconds or None)
    with out.open("wb") as file:
        write_recording(Recording(model, settings=settings), split,
                        read_corpus(CORPUS / split)[offset::every], file)


def write_recording(recognizer: Recording, split: str, items: Sequence[CorpusItem],
                    file: BinaryIO) -> None:
    """`record`'s work on a recognizer already made: the header, then each item's finals
    as soon as it is streamed."""
    table = recognizer.table
    pickle.dump({"split": split, "sentences": list(table.sentences),
                 "sentence_of": list(table.sentence_of),
                 "talk": table.talk_sentences()}, file)
    for item in items:
        recognizer.kept = []
        transcribe(recognizer, item)
        pickle.dump({"name": item.name, "kind": item.kind, "expected": item.transcript,
                     "finals": recognizer.kept}, file)
        file.flush()


def load(path: Path) -> dict[str, Any]:
    """A recording: its header with "files", every file recorded so far."""
    with path.open("rb") as file:
        recording: dict[str, Any] = pickle.load(file)
        recording.setdefault("files", [])
        while True:
            try:
                recording["files"].append(pickle.load(file))
            except EOFError:
                return recording


@dataclasses.dataclass(frozen=True)
class Rule:
    margin: float
    deficit: float
    token_bonus: float = WhisperSettings.token_bonus
    """Per token; the recording was made with the default, the difference is applied."""
    within: float = WhisperSettings.prune_within
    """Pruning distance: scores further behind the best are taken as that far (what
    pruning closer than the recording's would have given)."""
    cross_check: CrossCheck | None = None
    """How PocketSphinx's recorded decode sets the margin (None: Whisper alone)."""
    acceptance: AcceptanceModel | None = None
    """A fitted acceptance model deciding instead of the margins and deficit above."""
    second_look_from: float | None = None
    """`WhisperSettings.second_look_from`: a refusal this doubtful looks again (on the
    recording's shifted window; recordings without one never do)."""
    second_look_bar: float = WhisperSettings.second_look_bar
    """`WhisperSettings.second_look_bar`."""
    longest_word_seconds: float | None = WhisperSettings.longest_word_seconds
    """`WhisperSettings.longest_word_seconds`: refused, whatever the rule, when heard in
    longer speech than this a word (recordings refuse nothing, so it replays)."""

    def accepts(self, choice: Choice, final: dict[str, Any], tokens: int) -> bool:
        """Whether this rule acts on `choice`, the best command of a recorded final."""
        # A recording holds PocketSphinx's decode of every final ("" or None: no command).
        return acts_on(choice, final["pocketsphinx"] or "", tokens,
                       recorded_log_probability(final, choice, tokens), final["speech_seconds"],
                       final["above_floor_db"], model=self.acceptance, margin=self.margin,
                       cross_check=self.cross_check, deficit_per_token=self.deficit)

    def decide(self, choice: Choice, final: dict[str, Any], tokens: int,
               table: CommandTable, lengths: np.ndarray) -> tuple[Choice, bool]:
        """The command this rule settles on for a recorded final, and whether it acts on
        it: `choice` and `accepts`, or, for a doubtful refusal, the same on the average
        of the recorded window and its second look, as the recognizer does; the length
        limit last, as in the recognizer."""
        settled, accepted = self._settled(choice, final, tokens, table, lengths)
        return settled, accepted and not heard_too_long(
            settled.sentence, final["speech_seconds"], self.longest_word_seconds)

    def _settled(self, choice: Choice, final: dict[str, Any], tokens: int,
                 table: CommandTable, lengths: np.ndarray) -> tuple[Choice, bool]:
        if table.is_talk(choice.form):
            return choice, False  # as the recognizer: no second look at a talk word
        if self.accepts(choice, final, tokens):
            return choice, True
        if "second" not in final or not second_look_due(
                choice, final["pocketsphinx"] or "", tokens,
                recorded_log_probability(final, choice, tokens), final["speech_seconds"],
                final["above_floor_db"], model=self.acceptance,
                from_probability=self.second_look_from):
            return choice, False
        first = _window(final, table, self, lengths)
        totals, deficits = (np.asarray(values, dtype=np.float64) for values in final["second"])
        totals = totals + (self.token_bonus - WhisperSettings.token_bonus) * lengths
        second = WindowScores(totals, deficits, table.pool(totals), within=first.within,
                              first_word_deficit=_first_word_deficits(final)[1])
        window = averaged([first, second], table)
        again = choose(table.without_talk(window), table)
        tokens = int(lengths[again.form])
        log_probability = _without_bonus(final, window.totals, again.form, tokens)
        assert self.acceptance is not None, "only the model looks again"
        model = dataclasses.replace(self.acceptance,
                                    threshold=self.acceptance.threshold + self.second_look_bar)
        return again, acts_on(again, final["pocketsphinx"] or "", tokens, log_probability,
                              final["speech_seconds"], final["above_floor_db"],
                              model=model, margin=self.margin,
                              cross_check=self.cross_check, deficit_per_token=self.deficit)


def recorded_log_probability(final: dict[str, Any], choice: Choice, tokens: int) -> float:
    """The best form's log-probability without the bonus the recording added."""
    return _without_bonus(final, _first_window(final["totals"]), choice.form, tokens)


def _without_bonus(final: dict[str, Any], totals: np.ndarray, form: int, tokens: int) -> float:
    """`totals[form]` less what the recording added to it: the token bonus, and its
    leaning taken off (recordings have no prior; older ones took no leaning off)."""
    taken = float(final["leaning_taken"][form]) if "leaning_taken" in final else 0.0
    return float(totals[form]) - WhisperSettings.token_bonus * tokens + taken


def form_lengths(recording: dict[str, Any]) -> np.ndarray:
    """Tokens (with the end of text) of every written form the recording scored."""
    from voicespit.speech.recognizers.whisper_model import shipped_model_dir, written_forms
    from voicespit.speech.recognizers.whisper_tokens import Tokenizer

    if "lengths" not in recording:
        folder = shipped_model_dir()
        assert folder is not None, "the Whisper model is not installed"
        tokenizer = Tokenizer.load(folder)
        texts = [text for sentence in recording["sentences"] for text in written_forms(sentence)]
        assert len(texts) == len(recording["sentence_of"]), "recorded with other written forms"
        recording["lengths"] = np.asarray([len(tokenizer.encode(" " + text)) + 1
                                           for text in texts], dtype=np.float64)
    return np.asarray(recording["lengths"])


def table_of(recording: dict[str, Any]) -> CommandTable:
    """The recording's sentences as the recognizer grouped them (talk words since round
    38; a recording made before has none)."""
    return CommandTable.build(recording["sentences"], recording["sentence_of"],
                              talk=recording.get("talk", ()))


def choices(recording: dict[str, Any], rule: Rule) -> Iterator[tuple[dict[str, Any],
                                                                       list[tuple[Choice, int]]]]:
    """Per recorded file, the best command of each of its finals under `rule`'s token
    bonus and pruning, with the length in tokens of its best written form."""
    table = table_of(recording)
    lengths = form_lengths(recording)
    for file in recording["files"]:
        found = []
        for final in file["finals"]:
            choice = choose(table.as_decided(_window(final, table, rule, lengths)), table)
            found.append((choice, int(lengths[choice.form])))
        yield file, found


def _window(final: dict[str, Any], table: CommandTable, rule: Rule,
            lengths: np.ndarray | None = None) -> WindowScores:
    """A recorded final's window under `rule`'s pruning (and token bonus: `lengths`
    needed when it is not the recording's)."""
    totals, deficits, pooled = (_first_window(final[key])
                                for key in ("totals", "deficits", "pooled"))
    if rule.token_bonus != WhisperSettings.token_bonus:
        assert lengths is not None
        totals = totals + (rule.token_bonus - WhisperSettings.token_bonus) * lengths
        pooled = table.pool(totals)
    return WindowScores(totals, deficits, pooled, within=min(rule.within, RECORDED_WITHIN),
                        first_word_deficit=_first_word_deficits(final)[0])


def replay(recording: dict[str, Any], rule: Rule,
           confusions: list[str] | None = None) -> dict[str, float]:
    """The rates of `rule` over the recording; each wrong or chatter command taken is
    described in `confusions` when given."""
    outcome: dict[str, list[str]] = {}
    table = table_of(recording)
    lengths = form_lengths(recording)
    for file, found in choices(recording, rule):
        commands = []
        taken = []
        for final, (first, tokens) in zip(file["finals"], found, strict=True):
            choice, accepted = rule.decide(first, final, tokens, table, lengths)
            if accepted:
                command = command_in(choice.sentence)
                if command is not None:
                    commands.append(command)
                    heard = final["pocketsphinx"]
                    taken.append(f"{choice.sentence} (margin {choice.margin:.2f}, deficit "
                                 f"{choice.deficit_per_token:.2f}, PocketSphinx {heard!r})")
        condition = file["name"].split("/")[0]
        if file["kind"] == "chatter":
            verdict = "taken" if commands else "ignored"
            condition = "chatter"
        elif commands == [parse(file["expected"])]:
            verdict = "correct"
        elif any(c.is_action and c != parse(file["expected"]) for c in commands):
            verdict = "wrong move"
        else:
            verdict = "wrong" if commands else "refused"
        outcome.setdefault(condition, []).append(verdict)
        if confusions is not None and verdict in ("wrong", "wrong move", "taken"):
            confusions.append(f"{file['name']}: {file['expected']!r} -> {' | '.join(taken)}")
    rates: dict[str, float] = {}
    commands_total = [v for c, vs in outcome.items() if c != "chatter" for v in vs]
    for condition, verdicts in sorted(outcome.items()):
        if condition == "chatter":
            rates["chatter"] = verdicts.count("taken") / len(verdicts)
        else:
            rates[condition] = verdicts.count("correct") / len(verdicts)
    if commands_total:  # a split of chatter alone (fsdd-chatter-tuning) has none
        moves = commands_total.count("wrong move")
        rates["wrong"] = (commands_total.count("wrong") + moves) / len(commands_total)
        rates["wrong move"] = moves / len(commands_total)
        rates["refused"] = commands_total.count("refused") / len(commands_total)
    return rates


def grid(margins: Sequence[float],
         deficits: Sequence[float], token_bonuses: Sequence[float], withins: Sequence[float],
         cross_checks: Sequence[CrossCheck | None] = (None,)) -> list[Rule]:
    return [Rule(*values) for values in
            itertools.product(margins, deficits, token_bonuses, withins, cross_checks)]


def _cross_checks(text: str) -> list[CrossCheck | None]:
    """"none;1.0,inf,1.25,1.25,inf": ;-separated, each none or the margins of
    `CrossCheck` in order (the last may be left out)."""
    return [None if chosen == "none" else CrossCheck(*(float(v) for v in chosen.split(",")))
            for chosen in text.split(";")]


def _first_word_deficits(final: dict[str, Any]) -> tuple[float, float]:
    """The window's and its second look's `WindowScores.first_word_deficit` (0: recorded
    before it was kept)."""
    first, second = final.get("first_word_deficit", (0.0, 0.0))
    return float(first), float(second)


def _first_window(scores: np.ndarray) -> np.ndarray:
    """The scores as float64; of a recording made when the recognizer could score
    several shifted windows (a row each), the unshifted one's."""
    values = np.asarray(scores, dtype=np.float64)
    return values[0] if values.ndim == 2 else values


def _described(check: CrossCheck | None) -> str:
    if check is None:
        return "none"
    return ",".join(f"{value:g}" for value in dataclasses.astuple(check))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    recorder = commands.add_parser("record")
    recorder.add_argument("--split", required=True)
    recorder.add_argument("--every", type=int, default=1, help="take every Nth file")
    recorder.add_argument("--offset", type=int, default=0,
                          help="starting from this one (the espeak-ng splits list each "
                               "sentence in every condition in turn)")
    recorder.add_argument("--out", type=Path, required=True)
    recorder.add_argument("--model", type=Path, default=None,
                          help="another Whisper model folder (default: the shipped tiny.en)")
    recorder.add_argument("--compute-type", choices=("int8", "float32"),
                          help="the encoder's precision (default: the recognizer's)")
    recorder.add_argument("--window-seconds", type=float,
                          help="pad each window with silence to this length (0: none; "
                               "default: the recognizer's)")
    replayer = commands.add_parser("replay")
    replayer.add_argument("recordings", type=Path, nargs="+")
    replayer.add_argument("--margins", default="1.0,1.25,1.5,2.0")
    replayer.add_argument("--deficits", default="2.5")
    replayer.add_argument("--token-bonuses", default="1.0")
    replayer.add_argument("--withins", default="8.0", help="pruning distances")
    replayer.add_argument("--cross-checks", default="none",
                          help="none, or agreed,disputed move,disputed,unheard move[,longer move] "
                               "margins; "
                               ";-separated")
    replayer.add_argument("--confusions", action="store_true",
                          help="list every wrong command and chatter taken, per rule")
    args = parser.parse_args()
    if args.command == "record":
        record(args.split, args.out, args.every, args.offset, args.compute_type, args.model,
               args.window_seconds)
        return
    recordings = [load(path) for path in args.recordings]
    rules = grid([float(m) for m in args.margins.split(",")],
                 [float(d) for d in args.deficits.split(",")],
                 [float(b) for b in args.token_bonuses.split(",")],
                 [float(w) for w in args.withins.split(",")],
                 _cross_checks(args.cross_checks))
    for recording in recordings:
        print(f"\n{recording['split']} ({len(recording['files'])} files)")
        for rule in rules:
            confusions: list[str] | None = [] if args.confusions else None
            rates = replay(recording, rule, confusions)
            cells = " ".join(f"{key} {value:.3f}" for key, value in rates.items())
            print(f"margin {rule.margin:4.2f} "
                  f"deficit {rule.deficit:4.1f} bonus {rule.token_bonus:3.1f} "
                  f"within {rule.within} "
                  f"cross {_described(rule.cross_check)} | {cells}", flush=True)
            for line in confusions or []:
                print("    " + line)


if __name__ == "__main__":
    main()
