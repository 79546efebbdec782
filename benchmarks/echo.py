"""Listening while the game speaks: the room benchmark (see benchmarks/room.py).

    python -m benchmarks.echo [--split report|tuning] [--recognizer auto|pocketsphinx|...]
                              [--mode always --mode echo_guard ...] [--quick] [--json]

For each room (reverberation time x delay x echo level) and listening mode:
- the game's narration of a whole match with nobody speaking: commands recognized
  (false commands), barge-ins (the game cutting itself off), "say it again" answers;
- the player's commands, each begun while the game is talking: accuracy, wrong
  commands, and how long from the start of the player's voice to the announcement
  stopping (barge-in);
and, once, the same commands with the game silent, the accuracy the rest is measured
against. Every block goes through the real canceller, detector, listener and
recognizer in real block order. With --json the last line is one JSON object.

Splits: `report` uses the recordings' test takes (0-4) and the held-out espeak-ng
voices; `tuning` uses other takes and voices. Tune on tuning, report on report.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.echo_record import live_finals
from benchmarks.make_corpus import ADDED_AFTER_THE_ROOM, SPLITS, speak, trim
from benchmarks.new_phrasings import sentences_of
from benchmarks.room import (
    NOISE_BELOW_PLAYER_DB,
    FarEnd,
    RoomCondition,
    RoomSource,
    RoomStream,
    Utterance,
    echo_gain,
    levelled,
    loudspeaker_paths,
    mix_near,
    narrated_match,
    narration_digest,
    noise_bed,
    place_over_speech,
    speech_spans,
)
from voicespit.config import PROJECT_ROOT, bool_from_word
from voicespit.speech.language.grammar import sentences
from voicespit.speech.language.parser import command_in, parse
from voicespit.speech.listening import over_game
from voicespit.speech.listening.barge_in import TalkDetector, TalkSettings
from voicespit.speech.listening.echo import EchoStage
from voicespit.speech.listening.far_end import PlaybackReference
from voicespit.speech.listening.gate import ListeningGate
from voicespit.speech.listening.listener import DISPUTED_LEAD, Listener
from voicespit.speech.listening.near_end import NearEndEvidence
from voicespit.speech.listening.room_watch import LIMIT as ROOM_LIMIT
from voicespit.speech.listening.room_watch import WINDOW as ROOM_WINDOW
from voicespit.speech.listening.room_watch import RoomWatch
from voicespit.speech.listening.sources import read_wav
from voicespit.speech.listening.talk_over import TalkHooks
from voicespit.speech.recognizer import SAMPLE_RATE, Recognition, Recognizer
from voicespit.speech.recognizers.select import make_recognizer
from voicespit.speech.signal import FRAME

DATA = PROJECT_ROOT.parent / "shared" / "data"
VOICES = DATA / "real-voices" / "fsdd-dev"
NOISES = DATA / "real-noise"
RANKS = ("two", "three", "four", "five", "six", "seven", "eight", "nine")
CONDITIONS = [RoomCondition(rt60, delay, echo)
              for rt60, delay in ((0.2, 10.0), (0.5, 45.0), (0.8, 80.0))
              for echo in (0.0, 5.0, 10.0)]
QUICK = [RoomCondition(0.5, 45.0, 10.0)]
MODES = ("always", "echo_guard", "watch", "unguarded", "auto")
"""always: the canceller and barge-in; echo_guard: deaf while speaking (the fallback);
watch: the echo guard as the game runs it when a canceller starts (`auto`): the player
heard under the game's voice through the canceller, never acted on, answered "say it
again"; unguarded: listening through the game's voice with nothing done about it (what
would happen without any); auto: the game's default, `always` until the room watch judges
the room too lively, then `watch` (`speech/listening/room_watch.py`)."""
DETAIL = ("barge_latencies_ms", "stop_latencies_ms", "heard", "recorded", "false_hushed_at",
          "hushed_at", "stopped_at")
LOSSES = ("not found", "found, nothing heard", "doubtful, right", "doubtful, other",
          "near-end", "self-echo", "disputed")
"""Where a command that was neither right nor wrong was lost: the talk detector never
found the player during it; it did, but the recognizer gave no result; Whisper refused
its result as doubtful (the right command, or another); the listener refused it for
too little of the player's voice (`near_end`), as the game's own words (`self_echo`), or
as a command PocketSphinx disputed that Whisper did not lead by enough (`near_end`,
`Listener.disputed_lead`)."""
"""Outcome fields left out of the JSON summary (kept for --dump)."""
OVER_GAME_LABEL = ", over the game"
"""Added to a job's label when the over-the-game model decides (`--over-game`)."""
WINDOW_AFTER = 2.5
"""A result up to this long after a command's end belongs to it."""
HELD_BEFORE = 1.0
"""A result may begin this long before the command it belongs to: the echo mask lets a
command through from up to a second before it was found (`EchoMask.suspected_hold`), and
the recognizer's endpointer can start on the game's residual in that stretch."""


def data_dir() -> Path:
    """The shared data folder (beside the worktree, or VOICESPIT_DATA)."""
    return Path(os.environ.get("VOICESPIT_DATA", DATA))


def room_sentences() -> list[str]:
    """The sentences the room's espeak-ng commands are drawn from: the grammar but the
    phrasings added after the rooms' figures were first compared from round to round
    (`ADDED_AFTER_THE_ROOM`), since a sentence more would change which 40 are drawn, and
    every figure with them."""
    added = set(sentences_of(list(ADDED_AFTER_THE_ROOM)))
    return [sentence for sentence in sentences() if sentence not in added]


def commands_for(split: str, limit: int | None = None) -> list[Utterance]:
    """The split's commands: real recordings of the bare ranks, and espeak-ng sentences."""
    takes = range(0, 5) if split == "report" else range(5, 10)
    found: list[Utterance] = []
    for path in sorted((data_dir() / "real-voices" / "fsdd-dev").glob("*.wav")):
        digit, _speaker, take = path.stem.split("_")
        if int(take) in takes and 2 <= int(digit) <= 9:
            pcm, _ = read_wav(path)
            samples = np.frombuffer(pcm, dtype="<i2").astype(np.float64)
            found.append(Utterance(levelled(samples), RANKS[int(digit) - 2]))
    corpus_split = SPLITS["heldout" if split == "report" else "tuning"]
    rng = np.random.default_rng(corpus_split.seed)
    phrases = room_sentences()
    chosen = [phrases[i] for i in rng.choice(len(phrases), size=40, replace=False)]
    with tempfile.TemporaryDirectory() as folder:
        for index, text in enumerate(chosen):
            voice = corpus_split.voices[index % len(corpus_split.voices)]
            rate = int(rng.integers(140, 200))
            samples = trim(speak(text, voice, rate, Path(folder))).astype(np.float64)
            found.append(Utterance(levelled(samples), text))
    order = np.random.default_rng(5).permutation(len(found))
    shuffled = [found[i] for i in order]
    return shuffled[:limit] if limit is not None else shuffled


def noise_recording(split: str) -> np.ndarray:
    """Real room noise: the first half of each recording for tuning, the second for reports,
    each at the same level. The recordings differ by 23 dB (the bike at -33 dBFS, the white
    noise at -10); scaled only as a whole, the white noise was the stated 20 dB under the
    player and the bike 44 dB under, and the room's noise jumped by that much every 30 s,
    where the recognizer, hearing nothing while the game talked, could not follow it."""
    parts = []
    for path in sorted((data_dir() / "real-noise").glob("*.wav")):
        samples = np.frombuffer(read_wav(path)[0], dtype="<i2").astype(np.float64)
        half = len(samples) // 2
        part = samples[half:] if split == "report" else samples[:half]
        parts.append(part / np.sqrt(np.mean(part ** 2)))
    return np.concatenate(parts)


@dataclass
class Job:
    condition: RoomCondition | None
    """None: the game silent."""
    mode: str
    with_commands: bool
    split: str
    recognizer: str
    canceller: str
    seconds: float | None
    commands: list[Utterance] = field(default_factory=list)
    mask_echo: bool = True
    """Let the recognizer hear only the player while the game plays (`speech/listening/echo_mask.py`)."""
    self_echo: bool = True
    """Refuse a command the game's own words around it also make (`speech/listening/self_echo.py`)."""
    hush: bool = True
    """Hush the game's voice as soon as the player may be talking (`Mixer.hush`)."""
    quiet_own_refusals: bool = True
    """Answer no refusal of the game's own voice "Say again?" (`Listener.quiet_own_refusals`)."""
    near_end_minimum: float | None = None
    """The listener's least share of the player's frames in a command (None: its default)."""
    disputed_lead: float | None = DISPUTED_LEAD
    """Whisper's least lead for a command PocketSphinx disputes over the game (None: no such
    check, the baseline; `Listener.disputed_lead`)."""
    talk: dict[str, float] = field(default_factory=dict)
    """Talk detector settings changed from the game's (`barge_in.TalkSettings`), to try one."""
    noise_below_db: float = NOISE_BELOW_PLAYER_DB
    """How far under the player the room's noise is (a quiet room: 40)."""
    microphone_gain_db: float = 0.0
    """The microphone turned down (negative): everything it hears that much quieter, over
    its converter's hiss (`RoomStream.microphone_gain_db`)."""
    record: bool = False
    """Keep every final command with what the over-the-game model would be asked about it
    (`echo_record`)."""
    over_game: bool = False
    """Let the over-the-game model decide on commands heard over the game (`over_game`; the
    game does not)."""
    room_watch: tuple[int, float] = (ROOM_LIMIT, ROOM_WINDOW)
    """`auto`: the room watch's false hushes and the seconds they are counted over
    (`room_watch.RoomWatch`; the game's by default)."""
    turned: tuple[float, float] | None = None
    """(seconds into the run, dB): the echo turned up or down then (`RoomStream.turned`)."""

    @property
    def name(self) -> str:
        """The job's name in recordings: split, room, what was played."""
        if self.condition is None:
            return f"room-{self.split}-silent"
        room = self.condition
        played = "commands" if self.with_commands else "narration"
        return f"room-{self.split}-{room.rt60:g}-{room.delay_ms:g}-{room.echo_db:g}-{played}"


@dataclass
class Outcome:
    label: str
    mode: str
    condition: str
    with_commands: bool
    seconds: float
    commands: int = 0
    correct: int = 0
    wrong: int = 0
    false_commands: int = 0
    barge_ins: int = 0
    said_again: int = 0
    """Commands answered with "I was talking: say it again" (echo guard)."""
    refusals_voiced: int = 0
    """Refused (or empty) finals the listener handed on: the game answers each "Say
    again?" (`VoiceCommands.on_recognition`), to the player or, with nobody speaking, to
    nobody."""
    refusals_unsaid: int = 0
    """Refusals of the game's own voice the listener kept from the game (no "Say
    again?": `Listener.refusals_unsaid`)."""
    answered_again: int = 0
    """Of the commands over the game that were not heard, those that got either answer."""
    barge_latencies_ms: list[float] = field(default_factory=list)
    canceller_cpu: float = 0.0
    held_back: int = 0
    self_echoes: int = 0
    """Commands refused as the game's own words (each answered as not understood)."""
    hushes: int = 0
    false_hushes: int = 0
    """Hushes put back with no barge-in (the detector's suspicion was not the player)."""
    false_hushed_at: list[float] = field(default_factory=list)
    """When each of those was put back, seconds into the run."""
    hushed_at: list[float] = field(default_factory=list)
    """When the game's voice was hushed (heard so), seconds into the run."""
    stopped_at: list[float] = field(default_factory=list)
    """When an announcement was stopped for the player, seconds into the run."""
    fell_back_at: float | None = None
    """`auto`: when the room watch handed listening to the watched echo guard, seconds into
    the run (None: it did not)."""
    fell_back_times: list[float] = field(default_factory=list)
    """`auto`: every time it did (seconds into the run)."""
    listening_again_at: list[float] = field(default_factory=list)
    """`auto`: when it went back to listening over the game (the echo turned down)."""
    unvoiced_refusals: int = 0
    """Commands refused for too little of the player's voice (`near_end`)."""
    over_game_taken: int = 0
    """Results Whisper refused that the over-the-game model acted on (`over_game`)."""
    over_game_refused: int = 0
    """Results Whisper accepted that the over-the-game model refused."""
    stop_latencies_ms: list[float] = field(default_factory=list)
    """From the player's first sound to the announcement stopping (the hush not counted)."""
    heard: list[dict[str, Any]] = field(default_factory=list)
    """Every final result with text: what, when, its near-end share, how it was scored, and
    what the player said in the command it belongs to ("said"; None: it belongs to none)."""
    lost: dict[str, int] = field(default_factory=dict)
    """The commands neither right nor wrong, by where they were lost (`LOSSES`)."""
    recorded: dict[str, Any] | None = None
    """With `Job.record`: the final commands and their features (`echo_record.live_finals`)."""


def make_canceller(kind: str) -> Any:
    """The canceller named; with "+speex", the one whose suppressor decides and not the
    linear one beside it (`make_linear`)."""
    kind = kind.removesuffix("+speex")
    if kind in ("webrtc", "webrtc-stereo"):
        from voicespit.speech.listening.echo import open_canceller

        return open_canceller(2 if kind == "webrtc-stereo" else 1)
    from benchmarks import echo_candidates

    return echo_candidates.make(kind)


def make_linear(kind: str) -> Any:
    """speexdsp beside the canceller, for the recognizer to hear ("webrtc+speex"), or None."""
    if not kind.endswith("+speex"):
        return None
    from voicespit.speech.listening.linear_echo import open_linear_canceller

    linear = open_linear_canceller()
    if linear is None:
        raise SystemExit("speexdsp will not run here: pip install speexdsp-aec, "
                         "apt-get install libspeexdsp1")
    return linear


def run(job: Job) -> Outcome:
    timeline = narrated_match(7) if job.condition is not None else None
    spans = speech_spans(timeline) if timeline is not None else speech_spans(narrated_match(7))
    rng = np.random.default_rng(11)
    placed = place_over_speech(job.commands, spans, rng) if job.with_commands else []
    if job.seconds is not None:
        duration = job.seconds
        placed = [u for u in placed if u.end + WINDOW_AFTER < duration]
    elif placed:
        duration = placed[-1].end + WINDOW_AFTER + 1.0
    else:
        assert timeline is not None
        duration = timeline.duration + 2.0
    near = mix_near(placed, duration) + noise_bed(noise_recording(job.split), duration, rng,
                                                  job.noise_below_db)
    clock_start = 1000.0
    gate_mode = {"always": "always", "unguarded": "headphones", "watch": "echo_guard",
                 "auto": "always"}.get(job.mode, job.mode)
    gate = ListeningGate(gate_mode)
    far = FarEnd(timeline, gate, clock_start)
    responses = gain = None
    if job.condition is not None and timeline is not None:
        condition = job.condition
        responses = loudspeaker_paths(condition, far.rate)
        gain = echo_gain(timeline, responses, condition.echo_db)
    stream = RoomStream(duration, near, far, responses, gain or 1.0, turned=job.turned,
                        microphone_gain_db=job.microphone_gain_db)
    stream.clock.advance_to(clock_start)
    canceller = make_canceller(job.canceller) if job.mode in ("always", "watch", "auto") \
        else None
    reference = PlaybackReference(far.rate, channels=canceller.channels if canceller else 1)
    source = RoomSource(stream, seed=3, tap=reference.push)
    echo = EchoStage(canceller, reference, linear=make_linear(job.canceller) if canceller else None)
    outcome = Outcome(f"{job.mode}{OVER_GAME_LABEL if job.over_game else ''}", job.mode,
                      job.condition.name if job.condition else "game silent",
                      job.with_commands, duration)
    processing: list[float] = []

    def barge_in(at: float) -> None:
        processing.append(time.perf_counter() - source.last_handed_over)
        far.barge_in(at)

    said_again: list[float] = []
    always = job.mode in ("always", "auto")
    talk = TalkHooks(barge_in=barge_in if always else None,
                     player_done=far.player_done, dropped=said_again.append,
                     hush=far.hush if always and job.hush else None)
    recognizer: Recognizer
    recognizer, _ = make_recognizer(job.recognizer,  # type: ignore[arg-type]
                                    models_dir=PROJECT_ROOT / "models")
    results: list[Recognition] = []
    detector = FoundAt(TalkSettings(**job.talk))  # type: ignore[arg-type]
    listener = Listener(source, recognizer, gate, results.append, stream.clock, echo=echo,
                        talk=None if job.mode == "unguarded" else talk, detector=detector,
                        mask_echo=job.mask_echo, spoken=far.spoken if job.self_echo else None,
                        watch_under_guard=job.mode == "watch",
                        room_watch=RoomWatch(*job.room_watch) if job.mode == "auto" else None)
    if job.near_end_minimum is not None:
        listener.near_end_minimum = job.near_end_minimum
    listener.quiet_own_refusals = job.quiet_own_refusals
    listener.disputed_lead = job.disputed_lead
    if job.over_game and listener.mask is not None:
        listener.over_game = over_game.fitted()
    if job.record:  # every frame judgement of the run, to describe each final afterwards
        listener.evidence = NearEndEvidence(keep=duration + 60.0)
    listener.start()
    listener.wait()
    score(outcome, placed, results, said_again, far, processing, clock_start, spans)
    outcome.lost = losses(placed, results, detector.found_at)
    if job.record and job.condition is not None:
        outcome.recorded = live_finals(job.name, results, placed, listener.evidence,
                                       listener.near_end_minimum, _owner)
    outcome.barge_ins = listener.barge_ins
    outcome.canceller_cpu = listener.echo_seconds / duration
    outcome.held_back = far.skipped
    outcome.self_echoes = listener.self_echoes
    if listener.talk_over is not None:
        outcome.hushes = listener.talk_over.hushes
        outcome.false_hushes = listener.talk_over.false_hushes
        outcome.false_hushed_at = [at - clock_start for at in listener.talk_over.false_hushed_at]
    outcome.hushed_at = [at - clock_start for at in far.hushes]
    outcome.stopped_at = [stop.barged_at - clock_start for stop in far.stops]
    if listener.fell_back_at is not None:
        outcome.fell_back_at = listener.fell_back_at - clock_start
    outcome.fell_back_times = [at - clock_start for at in listener.fell_back_times]
    outcome.listening_again_at = [at - clock_start for at in listener.listening_again_times]
    outcome.unvoiced_refusals = listener.unvoiced_refusals
    outcome.refusals_unsaid = listener.refusals_unsaid
    outcome.over_game_taken = listener.over_game_taken
    outcome.over_game_refused = listener.over_game_refused
    return outcome


def score(outcome: Outcome, placed: list[Utterance], results: list[Recognition],
          said_again: list[float], far: FarEnd, processing: list[float], clock_start: float,
          spans: list[tuple[float, float]]) -> None:
    finals = [r for r in results if r.is_final and r.text]
    accepted = [r for r in finals if not r.rejected and command_in(r.text) is not None]
    refused = [r for r in results if r.is_final and r.unusable]
    outcome.refusals_voiced = len(refused)
    heard = [(r.speech_span[0], command_in(r.text)) for r in accepted]
    ends = [r.speech_span[1] for r in accepted]
    owner = {i: owned for i, (at, _) in enumerate(heard)
             if (owned := _owner(at, ends[i], placed)) is not None}
    used: set[int] = set()
    verdicts: dict[int, str] = {}
    outcome.commands = len(placed)
    for index, utterance in enumerate(placed):
        following = placed[index + 1].onset if index + 1 < len(placed) else float("inf")
        window_end = min(utterance.end + WINDOW_AFTER, following - 0.2)
        mine = [i for i in owner if owner[i] == index]
        used.update(mine)
        commands = [heard[i][1] for i in mine]
        expected = parse(utterance.transcript)
        for i in mine:
            verdicts[i] = "correct" if heard[i][1] == expected else "wrong"
        if commands == [expected]:
            outcome.correct += 1
        elif commands:
            outcome.wrong += 1
        elif any(clock_start + utterance.onset - 0.3 <= at < clock_start + window_end
                 for at in said_again) \
                or any(_owner(*r.speech_span, placed) == index for r in refused):
            outcome.answered_again += 1
        stopped = _barge_latency(utterance, far, processing, clock_start, spans)
        outcome.stop_latencies_ms.extend(stopped)
        outcome.barge_latencies_ms.extend(_hush_latency(utterance, far, clock_start, stopped))
    outcome.false_commands = len(heard) - len(used)
    for result in finals:
        found = next((i for i, r in enumerate(accepted) if r is result), None)
        said = _owner(*result.speech_span, placed)
        outcome.heard.append({
            "text": result.text, "start": result.speech_start, "end": result.speech_end,
            "rejected": result.rejected, "scores": dict(result.scores or {}),
            "verdict": "refused" if found is None else verdicts.get(found, "false"),
            "said": None if said is None else placed[said].transcript})
    outcome.said_again = len(said_again)


class FoundAt(TalkDetector):
    """The game's talk detector, noting the stream time of each start of the player's
    speech it finds (every block is whole 10 ms frames from the stream's start)."""

    def __init__(self, settings: TalkSettings | None = None) -> None:
        super().__init__(settings)
        self.found_at: list[float] = []

    def feed(self, cancelled: Any, microphone: Any, game_playing: bool = False,
             far: Any = None, linear: Any = None) -> bool:
        started = super().feed(cancelled, microphone, game_playing, far, linear)
        if started and self.onset_frame is not None:
            self.found_at.append((self.onset_frame - 1) * FRAME / SAMPLE_RATE)
        return started


def losses(placed: list[Utterance], results: list[Recognition],
           found_at: list[float]) -> dict[str, int]:
    """How many commands were lost at each step (`LOSSES`): those with no result taken
    (right or wrong) that belongs to them."""
    finals = [r for r in results if r.is_final and r.text]
    taken = {_owner(*r.speech_span, placed) for r in finals
             if not r.rejected and command_in(r.text) is not None}
    counts = dict.fromkeys(LOSSES, 0)
    for index, utterance in enumerate(placed):
        if index in taken:
            continue
        mine = [r for r in finals if _owner(*r.speech_span, placed) == index]
        scored = [dict(r.scores or {}) for r in mine]
        expected = parse(utterance.transcript)
        if any("self_echo" in s for s in scored):
            cause = "self-echo"
        elif any("near_end" in s for s in scored):
            cause = "near-end"
        elif any("disputed_over_game" in s for s in scored):
            cause = "disputed"
        elif any(command_in(r.text) == expected for r in mine):
            cause = "doubtful, right"
        elif mine:
            cause = "doubtful, other"
        elif any(utterance.onset - HELD_BEFORE <= at <= utterance.end for at in found_at):
            cause = "found, nothing heard"
        else:
            cause = "not found"
        counts[cause] += 1
    return counts


def _owner(start: float, end: float, placed: Sequence[Utterance]) -> int | None:
    """The command a result heard over [start, end] belongs to: the latest one it reaches
    (it ends after the command began) that it begins no earlier than HELD_BEFORE before, and
    within WINDOW_AFTER of its end (before the next one); None: it belongs to none."""
    owner = None
    for index, utterance in enumerate(placed):
        following = placed[index + 1].onset if index + 1 < len(placed) else float("inf")
        window_end = min(utterance.end + WINDOW_AFTER, following - 0.2)
        if utterance.onset - HELD_BEFORE <= start < window_end and end > utterance.onset:
            owner = index
    return owner


def _barge_latency(utterance: Utterance, far: FarEnd, processing: list[float],
                   clock_start: float, spans: list[tuple[float, float]]) -> list[float]:
    """From the player's first sound to the announcement stopping: by barge-in, or (not
    stopped) its natural end, which counts against the figure."""
    onset = clock_start + utterance.onset
    for index, stop in enumerate(far.stops):
        if onset - 0.05 <= stop.barged_at <= onset + 1.5 and stop.heard_until is not None:
            delay = processing[index] if index < len(processing) else 0.0
            return [1000.0 * (stop.heard_until + delay - onset)]
    for start, end in spans:
        if clock_start + start <= onset < clock_start + end:
            return [1000.0 * (clock_start + end - onset)]
    return []


def _hush_latency(utterance: Utterance, far: FarEnd, clock_start: float,
                  stopped: list[float]) -> list[float]:
    """From the player's first sound to the announcement being hushed or stopped,
    whichever is heard first (the processing time is in the stop's figure only)."""
    onset = clock_start + utterance.onset
    hushed = [1000.0 * (at - onset) for at in far.hushes if onset - 0.05 <= at <= onset + 1.5]
    return [min([*hushed[:1], *stopped])] if hushed or stopped else []


def jobs_for(args: argparse.Namespace, commands: list[Utterance]) -> list[Job]:
    conditions = QUICK if args.quick else CONDITIONS
    if args.room:
        conditions = [RoomCondition(*(float(part) for part in room.split(",")))
                      for room in args.room]
    jobs = []
    checks = {"mask_echo": not args.no_mask, "self_echo": not args.no_self_echo,
              "hush": not args.no_hush, "near_end_minimum": args.near_end_minimum,
              "disputed_lead": None if args.no_disputed_lead else DISPUTED_LEAD,
              "quiet_own_refusals": not args.answer_every_refusal,
              "noise_below_db": args.noise_below,
              "microphone_gain_db": args.microphone_gain, "record": args.record is not None,
              "talk": talk_settings(args.talk),
              "over_game": args.over_game == "on"}
    deciders = (False, True) if args.over_game == "both" else (checks["over_game"],)
    for mode in args.mode or ["always"]:
        for over in deciders if mode == "always" else (False,):
            checks["over_game"] = over
            for condition in conditions:
                jobs.append(Job(condition, mode, False, args.split, args.recognizer,
                                args.canceller, args.narration_seconds, [], **checks))
                if not args.narration_only:
                    jobs.append(Job(condition, mode, True, args.split, args.recognizer,
                                    args.canceller, None, commands, **checks))
    checks["over_game"] = False  # the game silent: the model is never asked
    if not args.narration_only:
        jobs.append(Job(None, "always", True, args.split, args.recognizer, args.canceller,
                        None, commands, **checks))
    return jobs


def talk_settings(changes: list[str] | None) -> dict[str, float]:
    """KEY=VALUE ... (--talk, and talk_replay's --set) as `TalkSettings` fields, each checked
    against it; a bool is written as the config file writes one (`bool_from_word`)."""
    fields = {name: type(value) for name, value in asdict(TalkSettings()).items()}
    found: dict[str, float] = {}
    for change in changes or []:
        key, _, value = change.partition("=")
        if key not in fields:
            raise SystemExit(f"{change}: TalkSettings has no {key!r}")
        kind = fields[key]
        if kind is not bool:
            found[key] = kind(value)
            continue
        flag = bool_from_word(value)
        if flag is None:  # any other word would silently measure one of the two
            raise SystemExit(f"{change}: {key} is true or false")
        found[key] = flag
    return found


def p95(values: list[float]) -> float | None:
    if not values:
        return None
    return float(np.percentile(values, 95))


def asked_nobody(outcome: Outcome) -> int:
    """With nobody speaking (the narration alone): the times the game asked them to say
    it again, "I was talking: say it again" or "Say again?"."""
    return outcome.said_again + outcome.refusals_voiced


def report_narration(outcomes: list[Outcome], args: argparse.Namespace) -> dict[str, object]:
    """The table for --narration-only: what the game's own voice did, room by room."""
    print("\n| mode | room | narration alone: false commands | refused as its own words "
          "| barge-ins | asked nobody to say it again | refusals kept quiet | canceller CPU |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for o in outcomes:
        print(f"| {o.label} | {o.condition} | {o.false_commands} ({o.seconds / 60:.1f} min) "
              f"| {o.self_echoes} | {o.barge_ins} | {asked_nobody(o)} | {o.refusals_unsaid} "
              f"| {100 * o.canceller_cpu:.1f} % |")
    always = [o for o in outcomes if o.label == _headline(outcomes)]
    summary: dict[str, object] = {}
    summary.update(
        recognizer=args.recognizer, canceller=args.canceller, split=args.split,
        mask_echo=not args.no_mask, self_echo=not args.no_self_echo,
        false_commands=sum(o.false_commands for o in always),
        false_barge_ins=sum(o.barge_ins for o in always),
        asked_nobody=sum(asked_nobody(o) for o in always),
        self_echoes=sum(o.self_echoes for o in always),
        cpu_share=round(statistics.median(o.canceller_cpu for o in always), 4)
        if always else None,
        outcomes=[{k: v for k, v in asdict(o).items() if k not in DETAIL}
                  for o in outcomes])
    return summary


def report(outcomes: list[Outcome], args: argparse.Namespace) -> dict[str, object]:
    if args.narration_only:
        return report_narration(outcomes, args)
    silent = next(o for o in outcomes if o.condition == "game silent")
    silent_accuracy = silent.correct / max(1, silent.commands)
    print(f"\nCommands with the game silent: accuracy {silent_accuracy:.3f} "
          f"({silent.correct}/{silent.commands}), wrong {silent.wrong / max(1, silent.commands):.3f}")
    print("\n| mode | room | narration alone: false commands | barge-ins | asked nobody "
          "| commands over the game: accuracy | ratio | wrong | lost, answered | "
          "barge-in p50 / p95 ms | canceller CPU |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    figures: dict[str, dict[str, Any]] = {}
    for label in dict.fromkeys(o.label for o in outcomes if o.condition != "game silent"):
        alone = {o.condition: o for o in outcomes if o.label == label and not o.with_commands}
        talking = {o.condition: o for o in outcomes if o.label == label and o.with_commands}
        ratios, wrongs, false_total, stray_total, latencies, cpu = [], [], 0, 0, [], []
        nobody_total = 0
        for name, quiet in alone.items():
            busy = talking[name]
            accuracy = busy.correct / max(1, busy.commands)
            ratio = accuracy / silent_accuracy if silent_accuracy else 0.0
            # A command taken where nobody spoke, during the commands run, plays a card
            # nobody said just as a wrong one does: it counts as wrong (and is shown).
            wrong = (busy.wrong + busy.false_commands) / max(1, busy.commands)
            lost = busy.commands - busy.correct - busy.wrong
            lat = busy.barge_latencies_ms
            lat_text = (f"{statistics.median(lat):.0f} / {p95(lat):.0f}" if lat else "-")
            strays = f", {busy.false_commands} over the commands" if busy.false_commands else ""
            print(f"| {label} | {name} | {quiet.false_commands} ({quiet.seconds / 60:.0f} min)"
                  f"{strays} "
                  f"| {quiet.barge_ins} | {asked_nobody(quiet)} | {accuracy:.3f} | {ratio:.2f} "
                  f"| {wrong:.3f} | {lost}, {busy.answered_again} | {lat_text} "
                  f"| {100 * busy.canceller_cpu:.1f} % |")
            ratios.append(ratio)
            wrongs.append(wrong)
            false_total += quiet.false_commands
            nobody_total += asked_nobody(quiet)
            stray_total += busy.false_commands
            latencies.extend(lat)
            cpu.append(busy.canceller_cpu)
        figures[label] = {
            "false_commands": false_total,
            "stray_commands": stray_total,
            "asked_nobody": nobody_total,
            "accuracy_ratio": round(min(ratios), 4) if ratios else None,
            "wrong_rate": round(max(wrongs), 4) if wrongs else None,
            "barge_in_p95_ms": round(p95(latencies) or 0.0, 1) if latencies else None,
            "cpu_share": round(statistics.median(cpu), 4) if cpu else None}
    report_losses([o for o in outcomes if o.with_commands])
    report_fallback([o for o in outcomes if o.mode == "auto"])
    summary: dict[str, object] = {
        "recognizer": args.recognizer, "canceller": args.canceller, "split": args.split,
        "mask_echo": not args.no_mask, "self_echo": not args.no_self_echo,
        "silent_accuracy": round(silent_accuracy, 4)}
    summary.update(figures.get(_headline(outcomes), {}))
    if len(figures) > 1:
        summary["variants"] = figures
    summary["outcomes"] = [{k: v for k, v in asdict(o).items() if k not in DETAIL}
                           for o in outcomes]
    return summary


def report_fallback(outcomes: list[Outcome]) -> None:
    """`auto`: when each room was handed to the watched guard, and what the player met."""
    if not outcomes:
        return
    print("\n| auto: room | narration alone: fell back at | hushed / stopped for nobody, asked "
          "nobody | with commands: fell back at | right | wrong | answered again |")
    print("|---|---:|---|---:|---:|---:|---:|")
    alone = {o.condition: o for o in outcomes if not o.with_commands}
    for busy in (o for o in outcomes if o.with_commands):
        quiet = alone.get(busy.condition)
        if quiet is None:
            continue
        print(f"| {busy.condition} | {_at(quiet.fell_back_at)} | {quiet.false_hushes} / "
              f"{len(quiet.stopped_at)}, {asked_nobody(quiet)} | {_at(busy.fell_back_at)} "
              f"| {busy.correct} | {busy.wrong + busy.false_commands} "
              f"| {busy.answered_again} |")


def _at(seconds: float | None) -> str:
    return "never" if seconds is None else f"{seconds:.0f} s"


def _headline(outcomes: list[Outcome]) -> str:
    """The label whose figures the JSON summary leads with: listening over the game
    (`always`, with the over-the-game model off when both were run), else the game's
    default (`auto`), else the first run."""
    labels = [o.label for o in outcomes if o.condition != "game silent"]
    for label in ("always", "auto"):
        if label in labels:
            return label
    always = [label for label in labels if label.startswith("always")]
    return (always or labels or ["always"])[0]


def write_recordings(folder: Path, outcomes: list[Outcome]) -> None:
    """Each room job's final commands (`echo_record.live_finals`) to FOLDER/<job>.json."""
    folder.mkdir(parents=True, exist_ok=True)
    for outcome in outcomes:
        if outcome.recorded is None:
            continue
        path = folder / f"{outcome.recorded['job']}.json"
        path.write_text(json.dumps(outcome.recorded), encoding="utf-8")
        print(f"recorded {len(outcome.recorded['finals'])} finals to {path}")


def report_losses(outcomes: list[Outcome]) -> None:
    """Where the commands neither right nor wrong were lost, run by run (`LOSSES`)."""
    print("\n| mode | room | lost | " + " | ".join(LOSSES) + " |")
    print("|---|---|---:|" + "---:|" * len(LOSSES))
    for o in outcomes:
        print(f"| {o.label} | {o.condition} | {sum(o.lost.values())} | "
              + " | ".join(str(o.lost.get(cause, 0)) for cause in LOSSES) + " |")


def run_all(jobs: list[Job], workers: int) -> list[Outcome]:
    """Every job, `workers` at a time, in the order given. One process per job: espeak-ng's
    output shifts by a few samples with every utterance a process renders, so a worker
    reused for a second job narrated a slightly different match (470.63 s against
    470.86 s), and which job got which depended on the pool's scheduling: the same command
    line did not repeat."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context,
                             max_tasks_per_child=1) as pool:
        return list(pool.map(run, jobs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("report", "tuning"), default="report")
    parser.add_argument("--recognizer", default="auto", help="auto: the game's default (Whisper)")
    parser.add_argument("--canceller", default="webrtc+speex",
                        help="webrtc+speex (the game's: AEC3 decides who talks, the recognizer "
                             "hears speexdsp's output), webrtc (AEC3 alone, mono far end), "
                             "webrtc-stereo (both loudspeakers; also with +speex), "
                             "or a candidate: webrtc-ns, speex, apm")
    parser.add_argument("--mode", action="append", choices=MODES)
    parser.add_argument("--quick", action="store_true", help="one room, for a first look")
    parser.add_argument("--room", action="append", metavar="RT60,DELAY_MS,ECHO_DB",
                        help="rooms to measure instead of the table's nine (repeatable)")
    parser.add_argument("--narration-seconds", type=float, default=None,
                        help="play only this much of the match (default: all of it)")
    parser.add_argument("--commands", type=int, default=None, help="use only this many")
    parser.add_argument("--narration-only", action="store_true",
                        help="only the game's narration with nobody speaking (false commands)")
    parser.add_argument("--no-mask", action="store_true",
                        help="let the recognizer hear the residual echo (the mask's baseline)")
    parser.add_argument("--no-self-echo", action="store_true",
                        help="accept commands the game's own words also make (the check's "
                             "baseline)")
    parser.add_argument("--no-hush", action="store_true",
                        help="never hush the game on a suspicion, only stop it (the baseline)")
    parser.add_argument("--answer-every-refusal", action="store_true",
                        help="answer \"Say again?\" to refusals of the game's own voice too "
                             "(the baseline)")
    parser.add_argument("--over-game", nargs="?", const="on", choices=("on", "both"),
                        help="let the over-the-game model (over_game.json) decide on commands "
                             "heard over the game instead of Whisper (the game does not)")
    parser.add_argument("--talk", action="append", metavar="KEY=VALUE",
                        help="a talk detector setting to try (barge_in.TalkSettings), "
                             "e.g. suspect_onset=1 (repeatable)")
    parser.add_argument("--no-disputed-lead", action="store_true",
                        help="act on a command PocketSphinx disputes over the game at any lead "
                             "Whisper's acceptance allows (the check's baseline)")
    parser.add_argument("--near-end-minimum", type=float, default=None,
                        help="least share of a command's frames that are the player's voice")
    parser.add_argument("--noise-below", type=float, default=NOISE_BELOW_PLAYER_DB,
                        metavar="DB", help="the room's noise this far under the player "
                        f"(default {NOISE_BELOW_PLAYER_DB:.0f}; a quiet room: 40)")
    parser.add_argument("--microphone-gain", type=float, default=0.0, metavar="DB",
                        help="the microphone turned down (negative): all it hears this much "
                             "quieter, over its converter's hiss (default 0: as recorded)")
    parser.add_argument("--dump", type=Path, default=None,
                        help="write every result heard, with its scores, to this JSON file")
    parser.add_argument("--record", type=Path, default=None, metavar="FOLDER",
                        help="write each room job's final commands, with what the "
                             "over-the-game model would be asked, to FOLDER/<job>.json "
                             "(echo_record.py; the model must be off)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.record is not None and args.over_game:
        parser.error("--record fits the over-the-game model: record with it off")
    print(f"load average {os.getloadavg()[0]:.1f} at start; split {args.split}, "
          f"recognizer {args.recognizer}, canceller {args.canceller}, "
          f"noise {args.noise_below:.0f} dB under the player, microphone gain "
          f"{args.microphone_gain:g} dB")
    match = narrated_match(7)  # rendered (or read) once, before any job asks for it
    print(f"narration: {match.duration:.2f} s, sound digest {narration_digest(match)}")
    commands = commands_for(args.split, args.commands)
    outcomes = run_all(jobs_for(args, commands), args.workers)
    summary = report(outcomes, args)
    if args.dump is not None:
        args.dump.write_text(json.dumps([{k: v for k, v in asdict(o).items() if k != "recorded"}
                                         for o in outcomes], indent=1))
    if args.record is not None:
        write_recordings(args.record, outcomes)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    if args.json:
        print(json.dumps(summary))


if __name__ == "__main__":
    main()
