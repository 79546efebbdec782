"""A room to test listening in: the game's real output, a loudspeaker, a microphone, a player.

No build machine has a microphone or a loudspeaker, so the acoustic path is
simulated, and everything else is the game's own:

- The far end is a narrated match (`voicespit.audio.narrate`, the real referee,
  narration and speech engine), played through the real `Mixer` block by block.
  The mixer's tap feeds the real `PlaybackReference`, exactly as the live output
  does. Barge-in stops speech through the real `Playing.stop()`; while the player
  talks, speech that would start is held back (skipped here), as the live speaker
  holds it.
- The room: each loudspeaker channel reaches the microphone through its own
  synthetic impulse response (a direct path after `delay_ms`, then a decaying noise
  tail with the given reverberation time), at the mixer's rate; the sum is scaled so
  the echo is `echo_db` louder than the player, and resampled to 16 kHz by a filter
  other than the reference's (a microphone's converter is not the game's resampler).
- The near end: the player's commands (real recordings and espeak-ng voices, each
  levelled to `PLAYER_DB`) and real background noise `NOISE_BELOW_PLAYER_DB` under them.
- Time: blocks reach the listener `INPUT_LATENCY` after they are recorded, as from a
  sound card; the output renders `OUTPUT_LATENCY` ahead of when a block is heard.
  The fake clock moves with the blocks, so the listener runs in real block order.
"""

from __future__ import annotations

import concurrent.futures
import functools
import hashlib
import io
import multiprocessing
import os
import pickle
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from voicespit.audio.narrate import narrate_game
from voicespit.audio.output import FADE_SECONDS, Mixer, Playing, sounding_seconds
from voicespit.audio.timeline import Placed, Timeline
from voicespit.clock import FakeClock
from voicespit.engine import Rules
from voicespit.resampling import Resampler
from voicespit.speech.listening.far_end import PlaybackReference
from voicespit.speech.listening.gate import ListeningGate
from voicespit.speech.listening.self_echo import SpokenWords
from voicespit.speech.listening.sources import AudioBlock
from voicespit.speech.recognizer import SAMPLE_RATE

Floats = npt.NDArray[np.float64]

PLAYER_DB = -26.0
"""The player's voice at the microphone: RMS over the speech, dB full scale."""
NOISE_BELOW_PLAYER_DB = 20.0
INPUT_LATENCY = 0.010
"""From a sound reaching the microphone to its block reaching the listener (plus jitter)."""
INPUT_JITTER = 0.004
OUTPUT_LATENCY = 0.020
"""From the mixer rendering a block to it being heard (the sound card's buffer)."""
OUTPUT_BLOCK = 256
MIC_BLOCK = 480
"""30 ms microphone blocks, as the live microphone delivers them."""


@dataclass(frozen=True)
class RoomCondition:
    rt60: float
    """Reverberation time, seconds."""
    delay_ms: float
    """Loudspeaker to microphone: the direct path's delay."""
    echo_db: float
    """How much louder the game's echo is than the player (speech RMS against speech RMS)."""

    @property
    def name(self) -> str:
        return f"RT60 {self.rt60:.1f} s, {self.delay_ms:.0f} ms, echo {self.echo_db:+.0f} dB"


def impulse_response(rt60: float, delay_ms: float, rate: int,
                     rng: np.random.Generator) -> Floats:
    """A synthetic room: silence for the delay, the direct path, a few early reflections,
    then Gaussian noise decaying by 60 dB over `rt60`, whose energy against the direct
    path falls from +6 dB (dry, 0.2 s) to -3 dB (0.8 s) as rooms get livelier."""
    delay = round(delay_ms / 1000 * rate)
    length = round(1.1 * rt60 * rate)
    t = np.arange(length) / rate
    tail = rng.standard_normal(length) * np.exp(-6.9 * t / rt60)
    onset = round(0.002 * rate)
    tail[:onset] = 0.0
    direct_to_reverb_db = 6.0 - 15.0 * (rt60 - 0.2)
    tail *= np.sqrt(10 ** (-direct_to_reverb_db / 10) / np.sum(tail ** 2))
    response = tail
    response[0] = 1.0
    for _ in range(4):  # floor, ceiling and two walls
        at = int(rng.integers(round(0.002 * rate), round(0.015 * rate)))
        response[at] += float(rng.uniform(-0.5, 0.5))
    return np.concatenate([np.zeros(delay), response])


def loudspeaker_paths(condition: RoomCondition, rate: int) -> tuple[Floats, Floats]:
    """Each loudspeaker channel's path to the microphone in `condition`: the same room on
    every run (seeded by the condition), the right channel 0.7 ms farther than the left."""
    rng = np.random.default_rng(int(condition.rt60 * 100 + condition.delay_ms))
    return (impulse_response(condition.rt60, condition.delay_ms, rate, rng),
            impulse_response(condition.rt60, condition.delay_ms + 0.7, rate, rng))


class PartitionedConvolver:
    """Streaming convolution, one block of `block` samples at a time (overlap-save with the
    response cut into block-long partitions): a second of room costs ~0.1 ms a block."""

    def __init__(self, response: Floats, block: int) -> None:
        self.block = block
        parts = -(-len(response) // block)
        padded = np.zeros(parts * block)
        padded[:len(response)] = response
        self._spectra = np.fft.rfft(padded.reshape(parts, block), n=2 * block, axis=1)
        self._history = np.zeros((parts, block + 1), dtype=complex)
        self._previous = np.zeros(block)

    def process(self, samples: Floats) -> Floats:
        spectrum = np.fft.rfft(np.concatenate([self._previous, samples]))
        self._previous = samples
        self._history = np.roll(self._history, 1, axis=0)
        self._history[0] = spectrum
        out = np.fft.irfft(np.sum(self._history * self._spectra, axis=0))
        return out[self.block:]


NARRATION_CACHE = Path(__file__).resolve().parent / ".cache"
"""Where narrated matches are kept between runs (git ignores it)."""


@functools.lru_cache(maxsize=4)
def narrated_match(seed: int = 7) -> Timeline:
    """A whole narrated match of Spit (computer against a simulated player), rendered once
    and kept in NARRATION_CACHE under the digest of the game's code.

    Rendering again is not the same match to the sample: espeak-ng's output shifts by a
    few samples with every utterance a process renders, and on a loaded machine an
    utterance can time out and be rendered again. Two benchmark runs, or two jobs of one,
    that rendered their own narrations therefore heard slightly different games (470.63
    against 470.86 s), and their figures differed for no reason in the code. So the match
    is rendered in a process of its own, whose speech engine has said nothing before:
    rendered in the test suite's process, after the speech its earlier tests render, it
    was another match than the benchmark's, and which tests rendered speech first decided
    a test's outcome (round 31).

    A fresh process is not enough on a busy machine: an utterance espeak-ng cancels
    and the renderer says again (`NarrateResult.speech_retries`) can leave the
    engine's state moved on, and every later utterance then differs by a few samples.
    One CI checkout in four rendered a match drifted so (479.505 s against 479.481 s;
    that run kept no count of retries), and three echo tests, which sit close to their
    thresholds in the hardest rooms, failed on it (round 35). Rendered here beside busy
    loops, a render with a retry drifted once in two, and each of 20 without one was the
    same match to the sample. So a render with retries is thrown away and the match is
    rendered again in another fresh process."""
    path = NARRATION_CACHE / f"narration-{seed}-{_code_digest()}.pickle"
    if path.is_file():
        timeline: Timeline = pickle.loads(path.read_bytes())
        return timeline
    timeline = _render_without_retries(seed)
    NARRATION_CACHE.mkdir(exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.partial")
    partial.write_bytes(pickle.dumps(timeline))
    partial.replace(path)  # whole or not at all, whichever job gets there first
    return timeline


RENDER_ATTEMPTS = 8
"""Fresh processes tried for a render without retries. Measured with three busy loops
beside four renders at once on two cores: 2 renders in 12 had a retry."""


class NarrationRenderError(RuntimeError):
    """Every render of the narrated match had utterances espeak-ng cancelled."""


def first_without_retries(renders: Iterable[tuple[Timeline, int]]) -> Timeline:
    """The first render whose speech engine said nothing twice; later renders are not made."""
    tried = 0
    for timeline, retries in renders:
        tried += 1
        if retries == 0:
            return timeline
    raise NarrationRenderError(f"each of {tried} renders of the narrated match had utterances"
                               " the speech engine cancelled and said again; such a render"
                               " is not the same match to the sample")


def _render_without_retries(seed: int, attempts: int = RENDER_ATTEMPTS) -> Timeline:
    return first_without_retries(_render_in_fresh_process(seed) for _ in range(attempts))


def _render_in_fresh_process(seed: int) -> tuple[Timeline, int]:
    fresh = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=fresh) as renderer:
        return renderer.submit(_render_match, seed).result()


def _render_match(seed: int) -> tuple[Timeline, int]:
    """The match and how many utterances the speech engine had to render again."""
    with tempfile.TemporaryDirectory() as folder:
        result = narrate_game(Rules.for_game("spit", []), seed, Path(folder) / "match.wav",
                              io.StringIO())
    return result.timeline, result.speech_retries


def narration_digest(timeline: Timeline) -> str:
    """A short digest of the narration's sound, to tell two runs heard the same match."""
    return hashlib.sha256(timeline.mix(0, round(timeline.duration * timeline.sample_rate))
                          .tobytes()).hexdigest()[:12]


NOT_NARRATION = ("speech", "app", "cli")
"""Packages the narration cannot depend on: `voicespit.audio` (and what it builds on) never
imports them (tests/test_layers.py), so a change to how the game listens does not render
the match again, and runs before and after it hear the same narration."""


def _code_digest() -> str:
    """The digest of the code that makes the narration (a change to it may change it)."""
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parents[1] / "voicespit"
    for source in sorted(package.rglob("*.py")):
        if source.relative_to(package).parts[0] not in NOT_NARRATION:
            digest.update(source.read_bytes())
    return digest.hexdigest()[:12]


def speech_spans(timeline: Timeline) -> list[tuple[float, float]]:
    """(start, end) of each stretch of speech, in timeline seconds."""
    return sorted((p.start, p.end) for p in timeline.entries if p.kind == "speech")


@dataclass
class Utterance:
    samples: Floats
    """16 kHz, already levelled to the player's level."""
    transcript: str
    onset: float = 0.0
    """Stream seconds where it starts (its first sample is speech: trimmed)."""

    @property
    def end(self) -> float:
        return self.onset + len(self.samples) / SAMPLE_RATE


def levelled(samples: Floats, level_db: float = PLAYER_DB) -> Floats:
    """Scaled so the RMS over its loud frames (within 30 dB of the loudest) is `level_db`."""
    frames = samples[:len(samples) // 160 * 160].reshape(-1, 160)
    power = np.mean(frames ** 2, axis=1) + 1e-9
    loud = power > power.max() * 1e-3
    rms = float(np.sqrt(np.mean(power[loud])))
    scaled: Floats = samples * (32768 * 10 ** (level_db / 20) / rms)
    return scaled


def echo_gain(timeline: Timeline, responses: tuple[Floats, Floats], echo_db: float,
              seconds: float = 90.0) -> float:
    """The gain that puts the echo of the game's speech `echo_db` above the player."""
    rate = timeline.sample_rate
    mix = timeline.mix(0, round(min(seconds, timeline.duration) * rate)).astype(np.float64)
    echo = sum(np.fft.irfft(np.fft.rfft(mix[:, channel], n=len(mix) + len(h))
                            * np.fft.rfft(h, n=len(mix) + len(h)))[:len(mix)]
               for channel, h in enumerate(responses))
    speech = np.zeros(len(mix), dtype=bool)
    for start, end in speech_spans(timeline):
        speech[round(start * rate):round(end * rate)] = True
    frames = len(mix) // 441
    power = np.mean((np.asarray(echo)[:frames * 441] * 32768).reshape(-1, 441) ** 2, axis=1)
    active = speech[:frames * 441].reshape(-1, 441).all(axis=1) & (power > 0)
    rms = np.sqrt(np.mean(power[active]))
    return float(32768 * 10 ** ((PLAYER_DB + echo_db) / 20) / rms)


@dataclass
class Stop:
    barged_at: float
    """Clock time the listener called barge-in."""
    heard_until: float | None = None
    """Clock time the stopped speech's last (faded) sample was heard."""


class FarEnd:
    """The narrated match played through the real mixer, answering barge-in like the speaker."""

    def __init__(self, timeline: Timeline | None, gate: ListeningGate, origin: float) -> None:
        self.rate = timeline.sample_rate if timeline is not None else 22_050
        self.mixer = Mixer(self.rate)
        self.gate = gate
        self.origin = origin
        self.entries: list[Placed] = sorted(timeline.entries, key=lambda p: p.start) \
            if timeline is not None else []
        self._next = 0
        self.rendered = 0
        """Frames rendered so far."""
        self.held = False
        self.skipped = 0
        """Speech that would have started while the player was talking (held, not played)."""
        self.stops: list[Stop] = []
        self.hushes: list[float] = []
        """Clock times at which each hush was heard (the next block rendered, ramped down)."""
        self._speaking: list[Playing] = []
        self.spoken = SpokenWords()
        """The words played, as the live speaker reports them (`on_words_played`)."""

    @property
    def frontier(self) -> float:
        """Clock time up to which the output has been rendered."""
        return self.origin + self.rendered / self.rate

    def render(self) -> tuple[npt.NDArray[np.float32], float]:
        at = self.frontier
        end = at + OUTPUT_BLOCK / self.rate
        while self._next < len(self.entries) and self.origin + self.entries[self._next].start < end:
            self._start(self.entries[self._next], at)
            self._next += 1
        block = self.mixer.render(OUTPUT_BLOCK, at)
        self.rendered += OUTPUT_BLOCK
        return block, at

    def _start(self, placed: Placed, block_at: float) -> None:
        if placed.kind == "speech" and self.held:
            self.skipped += 1
            return
        lead = max(0, round((self.origin + placed.start - block_at) * self.rate))
        sound = np.concatenate([np.zeros((lead, 2), dtype=np.float32),
                                placed.segment(0, placed.frames)])
        if placed.kind != "speech":
            self.mixer.play(sound, cue_from=lead)
            return
        playing: Playing | None = None

        def started(at: float) -> None:
            heard_at = at + lead / self.rate
            self.gate.speaking_started(heard_at)
            self.spoken.played(placed.announcement.text, heard_at,
                               heard_at + sounding_seconds(placed.segment(0, placed.frames),
                                                           self.rate))

        def finished(at: float, completed: bool) -> None:
            if playing in self._speaking:
                self._speaking.remove(playing)
            if not completed and self.stops and self.stops[-1].heard_until is None:
                self.stops[-1].heard_until = at
            self.gate.speaking_finished(at)

        playing = self.mixer.play(sound, on_start=started, on_finish=finished, is_speech=True)
        self._speaking.append(playing)

    def barge_in(self, at: float) -> None:
        self.held = True
        self.stops.append(Stop(at))
        for playing in self._speaking:
            playing.stop()

    def hush(self, hushed: bool) -> None:
        """As the live speaker hushes: the mixer takes speech down from its next block."""
        self.mixer.hush(hushed)
        if hushed:
            self.hushes.append(self.frontier + FADE_SECONDS)

    def player_done(self, at: float) -> None:
        self.held = False


@dataclass
class RoomStream:
    """Everything the room needs for one run."""

    duration: float
    near: Floats
    """16 kHz: the player's commands and the noise, whole run."""
    far: FarEnd
    responses: tuple[Floats, Floats] | None
    gain: float = 1.0
    clock: FakeClock = field(default_factory=lambda: FakeClock(1000.0))
    reference: PlaybackReference | None = None
    arrivals: dict[float, float] = field(default_factory=dict)
    """Block start (stream time) -> the wall-clock moment it was handed over."""
    turned: tuple[float, float] | None = None
    """(seconds into the run, dB): from the game's sound played then on, its echo reaches
    the microphone this much louder (negative: the loudspeakers turned down; -inf:
    headphones put on). None: the same all along."""
    microphone_gain_db: float = 0.0
    """The microphone turned down (negative) or up: everything it hears, the player, the
    room and the game's echo alike, this much quieter or louder, over the converter's
    own hiss (`CONVERTER_HISS`), which the gain does not touch. 0: as recorded, no hiss
    added (the runs before round 47)."""

    def echo_gain(self, played_at: float) -> float:
        """The echo's scale for sound played at stream time `played_at` (seconds)."""
        if self.turned is None or played_at < self.turned[0]:
            return self.gain
        return self.gain * 10 ** (self.turned[1] / 20)


CONVERTER_HISS = 1.0
"""The hiss of a microphone's converter, RMS in sample steps (-90 dBFS): under the
quietest room in the real recordings (yweweler's, whose quietest 10 ms reach -86 dBFS),
so a microphone turned down still hears some noise of its own, never digital silence."""


def turned_down(samples: Floats, gain_db: float, rng: np.random.Generator) -> Floats:
    """What a microphone turned down by `gain_db` records of `samples` (int16 scale): all
    of it quieter, over its converter's hiss (`CONVERTER_HISS`, drawn from `rng`), which
    the gain does not touch."""
    hiss: Floats = rng.normal(0.0, CONVERTER_HISS, len(samples))
    return samples * 10 ** (gain_db / 20) + hiss


class RoomSource:
    """The microphone in the room: an `AudioSource` driving the fake clock block by block."""

    def __init__(self, stream: RoomStream, seed: int = 0,
                 tap: Callable[[npt.NDArray[np.float32], float], None] | None = None) -> None:
        self.stream = stream
        self.rng = np.random.default_rng(seed)
        self._hiss = np.random.default_rng(seed + 1)
        """Its own generator: the blocks' jitter is the same at any microphone gain."""
        self._closed = False
        far = stream.far
        if tap is not None:
            far.mixer.add_tap(tap)
        self._rooms = None if stream.responses is None else [
            PartitionedConvolver(h, OUTPUT_BLOCK) for h in stream.responses]
        # Another quality than the reference's: a microphone's converter is not the game's.
        self._converter = Resampler(far.rate, SAMPLE_RATE, quality="VHQ")
        self._echo = np.zeros(0)
        self._echo_base = 0
        """Stream sample index of _echo[0] (what the listener has taken is let go)."""
        self.last_handed_over = 0.0
        """perf_counter() when the latest block was handed to the listener."""

    def blocks(self) -> Iterator[AudioBlock]:
        stream, far = self.stream, self.stream.far
        origin = far.origin
        total = round(stream.duration * SAMPLE_RATE) // MIC_BLOCK * MIC_BLOCK
        for first in range(0, total, MIC_BLOCK):
            if self._closed:
                return
            last = first + MIC_BLOCK
            arrival = origin + last / SAMPLE_RATE + INPUT_LATENCY \
                + float(self.rng.uniform(0, INPUT_JITTER))
            stream.clock.advance_to(max(arrival, stream.clock.now()))
            while far.frontier < arrival + OUTPUT_LATENCY \
                    or self._echo_base + len(self._echo) < last:
                self._play_into_room(*far.render())
            lo = first - self._echo_base
            pcm = self._echo[lo:lo + MIC_BLOCK] + stream.near[first:last]
            if stream.microphone_gain_db:
                pcm = turned_down(pcm, stream.microphone_gain_db, self._hiss)
            self._echo = self._echo[lo + MIC_BLOCK:]
            self._echo_base += lo + MIC_BLOCK
            self.last_handed_over = time.perf_counter()
            yield AudioBlock(np.clip(np.rint(pcm), -32768, 32767).astype("<i2").tobytes(),
                             first / SAMPLE_RATE)

    def _play_into_room(self, block: npt.NDArray[np.float32], at: float) -> None:
        if self._rooms is None:
            heard = np.zeros(len(block))
        else:
            heard = np.sum([room.process(block[:, channel].astype(np.float64))
                            for channel, room in enumerate(self._rooms)], axis=0)
        gain = self.stream.echo_gain(at - self.stream.far.origin)
        scaled = np.clip(np.asarray(heard) * gain * 32768, -32768, 32767)
        converted = self._converter.process(np.rint(scaled).astype(np.int16))
        self._echo = np.concatenate([self._echo, converted.astype(np.float64)])

    def close(self) -> None:
        self._closed = True


def noise_bed(noise: Floats, seconds: float, rng: np.random.Generator,
              below_player_db: float = NOISE_BELOW_PLAYER_DB) -> Floats:
    """`seconds` of the noise recording (looped from a random point), `below_player_db`
    under the player."""
    count = round(seconds * SAMPLE_RATE)
    start = int(rng.integers(0, len(noise)))
    looped = np.resize(np.roll(noise, -start), count)
    rms = float(np.sqrt(np.mean(noise ** 2)))
    bed: Floats = looped * (32768 * 10 ** ((PLAYER_DB - below_player_db) / 20) / rms)
    return bed


def place_over_speech(utterances: Sequence[Utterance], spans: list[tuple[float, float]],
                      rng: np.random.Generator, gap: float = 3.0) -> list[Utterance]:
    """Give each utterance an onset inside the game's speech (between 15 % and 50 % into an
    announcement at least 0.6 s long), each at least `gap` after the one before ends."""
    placed: list[Utterance] = []
    cursor = 2.0
    spans = [span for span in spans if span[1] - span[0] >= 0.6]
    index = 0
    for utterance in utterances:
        while index < len(spans) and spans[index][0] < cursor:
            index += 1
        if index >= len(spans):
            break
        start, end = spans[index]
        onset = start + float(rng.uniform(0.15, 0.5)) * min(end - start, 1.6)
        placed.append(Utterance(utterance.samples, utterance.transcript, onset))
        cursor = placed[-1].end + gap
    return placed


def mix_near(placed: Sequence[Utterance], duration: float) -> Floats:
    near = np.zeros(round(duration * SAMPLE_RATE))
    for utterance in placed:
        first = round(utterance.onset * SAMPLE_RATE)
        part = utterance.samples[:max(0, len(near) - first)]
        near[first:first + len(part)] += part
    return near
