"""The speech benchmark: a row per recognizer, and each lever switched on and off, on one split.

    python -m benchmarks.make_corpus && python -m benchmarks.make_real_corpus   # once
    python -m benchmarks.speech [--split fsdd-test] [--config NAME ...] [--runs 3]

By default the recognizers (`whisper`, `pocketsphinx`, and `vosk` when an English
Vosk model is installed) are measured in the same run, so their latency and speed
can be compared on the same machine load. Each configuration runs in a fresh process
(so peak memory and load time are its own), streams every file exactly as
`voicespit recognize` does, and prints one Markdown table row: accuracy per noise
condition (the corpus's first path part), then wrong, refused, chatter taken,
latency, the endpointer's part of it ("wait": from the end of speech to the audio frame
the command went out at, the rest being processing and backlog), real-time factor
(wall clock, waits for a core included), the same in processor
time (what a machine with nothing else running would take), peak memory and model load
time. With --by-speaker a
row per speaker or voice (the second path part of the real corpus) follows. With
--runs N the latency and speed figures are medians over N runs (the machine is
shared: single runs are noisy); the accuracy figures are identical run to run
because decoding is deterministic.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from voicespit.speech.listening.endpoint import EndpointSettings
from voicespit.speech.recognizer import Recognizer
from voicespit.speech.recognizers.pocketsphinx_recognizer import PocketSphinxRecognizer, PocketSphinxSettings
from voicespit.speech.recognizers.transcription import FileResult, read_corpus, summarize, transcribe_all
from voicespit.speech.recognizers.whisper_recognizer import PROMPT, WhisperSettings

FINAL = PocketSphinxSettings()
WHISPER = WhisperSettings()


def _fitted_unpadded(model_file: str, **changes: Any) -> WhisperSettings:
    """A row whose acceptance model (`model_file`, beside this module) was fitted before
    round 17 padded the window with silence: it hears the utterance alone, as the model
    was fitted on."""
    return dataclasses.replace(WHISPER, window_seconds=None,
                               acceptance_file=Path(__file__).with_name(model_file), **changes)


WHISPER_CONFIGS: dict[str, WhisperSettings] = {
    "whisper": WHISPER,
    # The acceptance model fitted with `chatter-tuning`'s table talk beside the four
    # recordings (round 18): a third of the table talk taken on the tuning voices, but
    # held out it refused more commands than the chatter it saved (not the default).
    "whisper, fitted with more table talk": dataclasses.replace(
        WHISPER, acceptance_file=Path(__file__).with_name("whisper_acceptance_with_table_talk.json")),
    # The default until round 17: the utterance encoded alone, not padded with silence
    # towards Whisper's 30 s window, with the acceptance model fitted so.
    "whisper, window unpadded": _fitted_unpadded("whisper_acceptance_unpadded.json"),
    # No limit on how long the speech may be for the command heard (round 17).
    "whisper without the length limit": dataclasses.replace(WHISPER, longest_word_seconds=None),
    # The default until round 15: Whisper's leaning towards each sentence left in.
    "whisper without the leaning": _fitted_unpadded(
        "whisper_acceptance_without_leaning.json", leaning_weight=0.0),
    # The leaning taken off, the acceptance model fitted on the three command recordings
    # alone (as every default before round 15), not with real chatter beside them.
    "whisper, fitted on commands only": _fitted_unpadded(
        "whisper_acceptance_commands_only.json"),
    # The rule until this round: the cross-check's margins and the deficit limit.
    "whisper with the hand rule": dataclasses.replace(WHISPER, fitted_acceptance=False),
    # The pruning distance until this round (the same decisions on every tuning split).
    "whisper pruned at 5.0": dataclasses.replace(WHISPER, prune_within=5.0),
    # The default two rounds ago: Whisper alone, margin 1.25.
    "whisper alone": dataclasses.replace(WHISPER, cross_check=None, margin=1.25,
                                         fitted_acceptance=False),
    "whisper without rejection": dataclasses.replace(WHISPER, margin=0.0, deficit_per_token=1e9,
                                                     cross_check=None, fitted_acceptance=False),
    "whisper, bare words only": dataclasses.replace(WHISPER, written_forms=False),
    "whisper without the token bonus": dataclasses.replace(WHISPER, token_bonus=0.0),
    "whisper with a full-grammar wait of 250 ms": dataclasses.replace(
        WHISPER, endpoint=dataclasses.replace(WHISPER.endpoint, settle_frames=25)),
    # The endpointer until this round: quiet and speech measured from the floor alone.
    "whisper, endpoint from the floor alone": dataclasses.replace(
        WHISPER, endpoint=dataclasses.replace(WHISPER.endpoint, room_spreads=0.0,
                                              room_start_spreads=0.0)),
    # The default until round 9: how clear the speech is, judged from the floor.
    "whisper, clear judged from the floor": dataclasses.replace(
        WHISPER, endpoint=dataclasses.replace(WHISPER.endpoint, clear_of_quiet=False)),
    "whisper without longer waits in noise": dataclasses.replace(
        WHISPER, endpoint=dataclasses.replace(WHISPER.endpoint, noisy_extra_frames=0)),
    # The second look on the utterance played 0.9 and 1.1 times as fast (round 14).
    "whisper, second look at other speeds": dataclasses.replace(
        WHISPER, second_look_speeds=(0.9, 1.1)),
    # The default until the second look: a doubtful refusal is not scored again.
    "whisper without the second look": dataclasses.replace(WHISPER, second_look_from=None),
    # The same with Whisper's own first word as a feature (threshold 0.82 as its cost
    # chose): fewer mistakes still, and fewer commands (docs/speech-record.md, round 10). This row,
    # "whisper, fitted with real chatter" and "whisper with the prompt" run with the
    # leaning left in: their models were fitted so (before round 15).
    "whisper, first word and real chatter": _fitted_unpadded(
        "whisper_acceptance_first_word.json", leaning_weight=0.0),
    # The acceptance model fitted with real voices saying words that are not commands
    # ("zero", "one": fsdd-chatter-tuning) beside the three command recordings; held out
    # it played no card that was not said on real voices and took fewer commands
    # elsewhere, so it is not the default (docs/speech-record.md, round 10).
    "whisper, fitted with real chatter": _fitted_unpadded(
        "whisper_acceptance_with_real_chatter.json", leaning_weight=0.0),
    # The default until round 12: Whisper's refusal stands when PocketSphinx names its
    # close second (LEVERS.md).
    "whisper without the tie-break": dataclasses.replace(WHISPER, tie_break_within=None),
    # The shipped model, and no command when Whisper's own first word is likelier than
    # every command's first word by more than 4 (chosen on the tuning splits; held out it
    # refused none of the real chatter the default took, so it is not the default:
    # LEVERS.md, round 11).
    "whisper, first-word veto at 4": dataclasses.replace(WHISPER, first_word_veto=4.0),
    # The default until round 38: no talk words scored beside the commands, so "alright"
    # was heard as "four right" (LEVERS.md, round 38).
    "whisper without talk words": dataclasses.replace(WHISPER, talk_words=()),
    # The default until round 39: a command said after "okay", "now", "please" ... is
    # refused when Whisper doubts it, with no second scoring after that word.
    "whisper without lead words": dataclasses.replace(WHISPER, lead_from=None),
    # Whisper told "Commands for a card game." was said before, with the acceptance
    # model fitted that way; the second look off, as its cost chose (LEVERS.md).
    "whisper with the prompt": _fitted_unpadded(
        "whisper_acceptance_with_prompt.json", prompt=PROMPT, second_look_from=None,
        leaning_weight=0.0),
}
"""The Whisper levers, each against the final settings."""
RECOGNIZERS = ("whisper", "pocketsphinx", "vosk")
"""The rows measured when no --config is given (vosk only with an English model)."""
CONFIGS: dict[str, PocketSphinxSettings] = {
    "plain": PocketSphinxSettings.plain(),
    "final": FINAL,
    "without agreement": dataclasses.replace(FINAL, agreement=False),
    "without garbage path": dataclasses.replace(FINAL, garbage_probability=0.0),
    "plus phone-loop confidence": dataclasses.replace(FINAL, phone_loop=True,
                                                      confidence_threshold=-8.0),
    "without noise suppression": dataclasses.replace(FINAL, noise_suppression=False),
    "without comfort noise": dataclasses.replace(FINAL, comfort_noise=0.0),
    "live CMN instead of per-utterance": dataclasses.replace(FINAL, batch_cmn=False),
    "slot JSGF instead of word graph": dataclasses.replace(FINAL, word_graph=False),
    "silence-only endpoint": dataclasses.replace(FINAL, end_on_hypothesis=False),
    "without longer waits in noise": dataclasses.replace(
        FINAL, endpoint=EndpointSettings(noisy_extra_frames=0)),
    "without accent pronunciations": dataclasses.replace(FINAL, extra_pronunciations={}),
    "measure": dataclasses.replace(FINAL, confidence_threshold=None, phone_loop=True),
}
"""Each lever off (or, for the phone loop, on) against the final settings. "measure"
records every score for tuning and is not a row of the table."""
TABLE = [name for name in CONFIGS if name != "measure"]
CORPUS = Path(__file__).parent / "corpus"


def make(name: str, overrides: dict[str, Any] | None) -> Recognizer:
    """The recognizer a configuration names ("pocketsphinx" is the final PocketSphinx)."""
    if name == "vosk":
        from voicespit.speech.language.grammar import vosk_phrases
        from voicespit.speech.recognizers.models import default_models_dir, find_english_model
        from voicespit.speech.recognizers.vosk_recognizer import VoskRecognizer

        model = find_english_model(default_models_dir())
        assert model is not None
        return VoskRecognizer(model, vosk_phrases())
    if name in WHISPER_CONFIGS:
        from voicespit.speech.recognizers.whisper_model import WhisperModel
        from voicespit.speech.recognizers.whisper_recognizer import WhisperRecognizer

        whisper = dataclasses.replace(WHISPER_CONFIGS[name], **(overrides or {}))
        return WhisperRecognizer(WhisperModel.load(), settings=whisper)
    key = "final" if name == "pocketsphinx" else name
    settings = dataclasses.replace(CONFIGS[key], **(overrides or {}))
    return PocketSphinxRecognizer(settings=settings)


def run_config(name: str, split: str, overrides: dict[str, Any] | None = None,
               every: int = 1) -> dict[str, object]:
    started = time.perf_counter()
    recognizer = make(name, overrides)
    load_seconds = time.perf_counter() - started
    results = list(transcribe_all(recognizer, read_corpus(CORPUS / split)[::every]))
    summary = summarize(results)
    summary["config"] = name
    summary["load_seconds"] = round(load_seconds, 2)
    summary["by_speaker"] = by_speaker(results, _voices(CORPUS / split))
    summary["finals"] = [
        {"path": r.item.name, "kind": r.item.kind, "expected": r.item.transcript,
         "finals": [(f.text, f.confidence, f.rejected, dict(f.scores or {})) for f in r.finals]}
        for r in results]
    return summary


def by_speaker(results: list[FileResult],
               voices: dict[str, str]) -> dict[str, dict[str, object]]:
    """Accuracy per speaker: the second path part in the real corpus, the espeak-ng
    voice (voices.tsv) in the synthetic one."""
    groups: dict[str, list[FileResult]] = {}
    for result in results:
        parts = result.item.name.split("/")
        speaker = parts[1] if len(parts) > 2 else voices.get(result.item.name)
        if speaker is not None:
            groups.setdefault(speaker, []).append(result)
    return {name: summarize(members) for name, members in sorted(groups.items())}


def _voices(directory: Path) -> dict[str, str]:
    path = directory / "voices.tsv"
    if not path.exists():
        return {}
    return {fields[0]: fields[1] for line in path.read_text().splitlines()[1:]
            if len(fields := line.split("\t")) >= 2}


def _cell(value: object, digits: int = 3) -> str:
    return "-" if value is None else f"{float(value):.{digits}f}"  # type: ignore[arg-type]


def row(name: str, runs: list[dict[str, object]], conditions: list[str] | None = None) -> str:
    first = runs[0]
    by = first["by_condition"]
    assert isinstance(by, dict)
    conditions = conditions or sorted(by)

    def median(key: str) -> float | None:
        values = [float(run[key]) for run in runs if run.get(key) is not None]  # type: ignore[arg-type]
        return statistics.median(values) if values else None

    cells = [name, *(_cell(by[c]["command_accuracy"]) if c in by else "-" for c in conditions),
             _cell(first["wrong_rate"]), _cell(first.get("wrong_move_rate")),
             _cell(first["reject_rate"]),
             _cell(first["chatter_false_accept"]), _cell(median("latency_ms_p50"), 0),
             _cell(median("latency_ms_p95"), 0), _cell(median("hangover_ms_p50"), 0),
             _cell(median("hangover_ms_p95"), 0), _cell(median("real_time_factor")),
             _cell(median("cpu_real_time_factor")),
             _cell(median("peak_rss_mb"), 0), _cell(median("load_seconds"), 2)]
    return "| " + " | ".join(cells) + " |"


def header(conditions: list[str]) -> str:
    names = " | ".join(conditions)
    return (f"| configuration | {names} | wrong | wrong move | reject | chatter FA | p50 ms "
            f"| p95 ms | wait p50 | wait p95 | RTF | CPU RTF | RSS MB | load s |\n"
            f"|---|{'---:|' * (len(conditions) + 12)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="heldout")
    parser.add_argument("--config", action="append",
                        choices=[*RECOGNIZERS, *WHISPER_CONFIGS, *CONFIGS], metavar="NAME",
                        help="configurations to run (default: every recognizer): "
                             + ", ".join([*RECOGNIZERS, *WHISPER_CONFIGS, *CONFIGS]))
    parser.add_argument("--by-speaker", action="store_true",
                        help="a row per speaker (the real corpus) after each configuration")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--every", type=int, default=1,
                        help="take every Nth file (quick tuning runs; odd N mixes conditions)")
    parser.add_argument("--out", type=Path, help="also write every summary here as JSON lines")
    parser.add_argument("--set", action="append", default=[], metavar="SETTING=JSON",
                        help="override a PocketSphinxSettings field (for tuning on the "
                             "tuning split), e.g. garbage_phone_probability=1e-6")
    args = parser.parse_args()
    names = args.config or [name for name in RECOGNIZERS if name != "vosk" or _has_vosk()]
    overrides = {key: json.loads(value) for key, _, value in
                 (setting.partition("=") for setting in args.set)} or None
    conditions = sorted({line.split("/", 1)[0] for line in
                         (CORPUS / args.split / "manifest.tsv").read_text().splitlines()[1:]
                         if "/" in line})
    every = f", every {args.every}th file" if args.every > 1 else ""
    print(f"split {args.split}{every}; load average {os.getloadavg()[0]:.1f} at start")
    print(header(conditions))
    context = multiprocessing.get_context("spawn")
    for name in names:
        runs = []
        for _ in range(args.runs):
            with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
                runs.append(pool.submit(run_config, name, args.split, overrides,
                                        args.every).result())
        if args.out is not None:
            with args.out.open("a") as out:
                for run in runs:
                    out.write(json.dumps(run) + "\n")
        label = name + "".join(f" {setting}" for setting in args.set)
        print(row(label, runs, conditions), flush=True)
        if args.by_speaker:
            speakers = runs[0]["by_speaker"]
            assert isinstance(speakers, dict)
            for speaker, summary in speakers.items():
                print(row(f"{label}: {speaker}", [summary], conditions), flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


def _has_vosk() -> bool:
    from voicespit.speech.recognizers.models import default_models_dir, find_english_model

    return find_english_model(default_models_dir()) is not None


if __name__ == "__main__":
    main()
