"""From a game event to the first sample of its sound: earcon, speech, and urgent cut-in.

    python -m benchmarks.audio_latency [--runs N] [--block FRAMES]

The real path: a Stamped event -> narration -> LiveSpeaker -> pyttsx3 (espeak)
rendering to a file -> the mixer -> an output pulling blocks in real time. There
is no sound card here, so the output is the paced virtual card (blocks of
`--block` frames at 22,050 Hz, 5.8 ms for 128): a sample counts as heard when
its block is pulled. A real card adds its own buffer on top (PortAudio's "low"
latency, typically 5-20 ms). Times are read from the recording, not from the
speaker's bookkeeping: the cue is found in the side signal (speech is centred,
so left minus right holds only cues) and the words by matching their samples.

Measures, each over --runs events:
- earcon: an opponent's card played -> first sample of its cue;
- speech cold: the same -> first sample of its words, with the phrase cache off
  (every phrase rendered by pyttsx3 then);
- speech warm: the same with the cache on and warmed (how a game runs: a game
  says "Left: nine." again and again);
- urgent cut-in: a refusal raised while other words are playing -> its first word
  sample (the speech playing is stopped; cold render).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

import numpy as np

from voicespit.audio.announcer import Announcer
from voicespit.audio.output import Mixer, PacedOutput
from voicespit.audio.speaker import SPEECH_GAIN, LiveSpeaker
from voicespit.audio.tts import Pyttsx3Renderer, Voice
from voicespit.engine import Card, Rules, new_game
from voicespit.engine.events import CardPlayed
from voicespit.match.events import IntentRefused, Stamped
from voicespit.narration.announcement import Announcement, Priority
from voicespit.narration.narrator import Narrator, State
from voicespit.simulation.full_speed import game_rng

RANKS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
         "queen", "king", "ace")


class KeepingRenderer:
    """The pyttsx3 renderer, remembering what it rendered last for each text.

    espeak-ng's output for a phrase differs slightly from one utterance to the
    next within a process, so to find the words in the recording we need the very
    samples the speaker played, not a fresh render of the same text.
    """

    def __init__(self, cache_size: int) -> None:
        self.inner = Pyttsx3Renderer(cache_size=cache_size)
        self.sample_rate = self.inner.sample_rate
        self.rendered: dict[str, np.ndarray] = {}

    def render(self, text: str, voice: Voice, rate: int) -> np.ndarray:
        samples = self.inner.render(text, voice, rate)
        self.rendered[text] = samples
        return samples

    def game_voices(self) -> tuple[Voice, ...]:
        return self.inner.game_voices()

    def close(self) -> None:
        self.inner.close()


class Bench:
    """A live speaker on a recording virtual sound card."""

    def __init__(self, cache_size: int, block: int) -> None:
        self.renderer = KeepingRenderer(cache_size)
        self.mixer = Mixer(self.renderer.sample_rate)
        self.output = PacedOutput(self.mixer, block_frames=block, keep=True)
        self.speaker = LiveSpeaker(self.renderer, self.mixer)
        self.narrator = Narrator()
        self.announcer = Announcer(self.narrator, self.speaker)
        self.block = block
        self.output.start()
        self.state = _state()

    def close(self) -> None:
        self.speaker.close()
        self.output.close()
        self.renderer.close()

    def frame_at(self, when: float) -> int:
        times = [t for t, _ in self.output.blocks]
        return int(np.searchsorted(times, when)) * self.block

    def time_of(self, frame: int) -> float:
        block_time = self.output.blocks[frame // self.block][0]
        return block_time + (frame % self.block) / self.mixer.sample_rate

    def wait_for(self, found: Callable[[], int | None], limit: float = 5.0) -> int:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            frame = found()
            if frame is not None:
                return frame
            time.sleep(0.01)
        raise RuntimeError("the sound never played")

    def first_cue_frame(self, since: int) -> int | None:
        audio = self.output.recording()[since:]
        side = np.flatnonzero(np.abs(audio[:, 0] - audio[:, 1]) > 1e-4)
        return since + int(side[0]) if len(side) else None

    def words_frame(self, since: int, samples: np.ndarray, gain: float) -> int | None:
        """Where the words start: the first frame matching their opening samples."""
        head = samples[:min(len(samples), 2048)]
        start = int(np.argmax(np.abs(head) > 1e-3))
        recording = self.output.recording()[since:]
        audio = recording[:, 0] + recording[:, 1]
        needle = 2 * gain * head[start:start + 256]
        if len(audio) < len(needle) + start:
            return None
        windows = np.lib.stride_tricks.sliding_window_view(audio, len(needle))
        close = np.flatnonzero(np.max(np.abs(windows - needle), axis=1) < 2e-3)
        return since + int(close[0]) - start if len(close) else None


def _state() -> State:
    return new_game(Rules.for_game("spit", ()), game_rng(1, 0))


def card_event(run: int) -> CardPlayed:
    rank = run % 13
    return CardPlayed(1, Card.of(rank, run % 4), run % 2, Card.of((rank + 1) % 13, 0), 0)


def measure_play(bench: Bench, run: int) -> tuple[float, float]:
    """(earcon, speech) seconds from the event to their first sample."""
    event = Stamped(run + 1, time.monotonic(), card_event(run))
    since = bench.frame_at(time.monotonic()) - bench.block
    raised = time.monotonic()
    [said] = bench.announcer.announce(event, bench.state)
    cue = bench.wait_for(lambda: bench.first_cue_frame(max(since, 0)))
    bench.wait_for(lambda: 0 if said.text in bench.renderer.rendered else None)
    samples = bench.renderer.rendered.pop(said.text)
    words = bench.wait_for(lambda: bench.words_frame(max(since, 0), samples, SPEECH_GAIN))
    bench.speaker.silence()
    bench.speaker.wait_until_idle()
    return bench.time_of(cue) - raised, bench.time_of(words) - raised


def measure_cut_in(bench: Bench, run: int) -> float:
    bench.speaker.say(Announcement("Round one. Your cards: queen, nine, seven, three, queen.",
                                   "deal:0"))
    started = time.monotonic()
    while not bench.speaker.latencies or time.monotonic() - started < 0.3:
        time.sleep(0.01)
    reason = f"left shows {RANKS[run % 13]}; a {RANKS[(run + 5) % 13]} cannot go there {run}"
    refused = IntentRefused(0, None, reason, too_late=True)
    said = bench.narrator.refusal(refused)
    since = bench.frame_at(time.monotonic()) - bench.block
    quiet = Announcement(said.text, said.topic, Priority.URGENT, about=0)  # words only
    raised = time.monotonic()
    bench.speaker.say(quiet)
    bench.wait_for(lambda: 0 if quiet.text in bench.renderer.rendered else None)
    samples = bench.renderer.rendered.pop(quiet.text)
    words = bench.wait_for(lambda: bench.words_frame(max(since, 0), samples, SPEECH_GAIN))
    bench.speaker.silence()
    bench.speaker.wait_until_idle()
    return bench.time_of(words) - raised


def summary(name: str, seconds: list[float]) -> str:
    ms = sorted(1000 * s for s in seconds)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return (f"| {name} | {len(ms)} | {statistics.median(ms):.1f} | {p95:.1f} | {ms[-1]:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--block", type=int, default=128)
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    rows = []
    cold = Bench(cache_size=0, block=args.block)
    try:
        cold.renderer.render("Warming up.", cold.speaker.settings.voice_for(0),
                             cold.speaker.rate)
        plays = [measure_play(cold, run) for run in range(args.runs)]
        rows.append(summary("earcon (card played -> cue)", [p[0] for p in plays]))
        rows.append(summary("speech, cold render (card played -> words)", [p[1] for p in plays]))
        cut_ins = [measure_cut_in(cold, run) for run in range(args.runs)]
    finally:
        cold.close()
    warm = Bench(cache_size=512, block=args.block)
    try:
        for run in range(26):
            said = warm.narrator.narrate(card_event(run), warm.state)[0]
            warm.renderer.render(said.text, warm.speaker.settings.voice_for(said.about),
                                 warm.speaker.rate)
        warm_plays = [measure_play(warm, run) for run in range(args.runs)]
    finally:
        warm.close()
    rows.append(summary("speech, cached phrase (card played -> words)",
                        [p[1] for p in warm_plays]))
    rows.append(summary("urgent cut-in over speech (refusal -> words)", cut_ins))
    load_after = os.getloadavg()[0]
    print(f"{os.cpu_count()} cores; 1-minute load {load_before:.2f} before, {load_after:.2f} "
          f"after; output blocks of {args.block} frames at 22,050 Hz; milliseconds")
    print("| from the event to the first sample of | runs | median | p95 | max |")
    print("|---|---:|---:|---:|---:|")
    for row in rows:
        print(row)


if __name__ == "__main__":
    main()
