"""What the echo canceller does to the signal, room by room: figures that do not flip.

    python -m benchmarks.echo_signal [--seconds 130] [--room RT60,DELAY_MS,ECHO_DB ...]
        [--canceller webrtc|speex|speex:TAIL_MS] [--same-paths] [--centred] [--json]

`benchmarks.echo` counts commands, and a count is a threshold: one sample changed
anywhere before the recognizer (another resampler's rounding, the sound card's
timing jitter) can turn a command heard into one refused, so its figures move by
a few commands whenever anything in the path changes, better or worse. This
benchmark measures the canceller's output itself, in the same simulated room and
block order, so a change to the acoustic path can be judged by numbers that move
only when the sound really changes:

- **ERLE** (echo return loss enhancement): the game's narration alone, nobody
  speaking; the microphone's energy over the canceller output's, in dB, after the
  first `SETTLE_SECONDS` (the canceller is still learning the room then). Higher is
  better: more of the game's voice removed.
- **Player SDR**: the player's commands spoken over the narration (no background
  noise, so only echo and the canceller's own damage count); for each command the
  player's voice over what differs from it in the output, in dB (the median and the
  mean over commands), and scale-invariant (SI-SDR: the voice at whatever level it
  comes out, against the rest). Higher is better: the player comes through. The first row,
  "game silent", is the same commands with nothing playing: what the canceller and
  its noise suppressor do to a voice alone, the ceiling for the rooms. The output lags
  the microphone by the canceller's own delay, found by correlation and reported.

What limits a linear canceller can be asked of the room itself: `--same-paths`
gives both loudspeaker channels the left one's response, and `--centred` plays the
game with every sound centred (each channel the mean of the two); either way the
mono far end the canceller is given is exact for the echo, whatever is panned.
"""

from __future__ import annotations

import argparse
import json
import statistics
from dataclasses import asdict, dataclass

import numpy as np
import numpy.typing as npt

from benchmarks.echo import CONDITIONS, commands_for, make_canceller
from benchmarks.room import (
    FarEnd,
    RoomCondition,
    RoomSource,
    RoomStream,
    echo_gain,
    loudspeaker_paths,
    mix_near,
    narrated_match,
    place_over_speech,
    speech_spans,
)
from voicespit.audio.timeline import Timeline
from voicespit.speech.listening.echo import EchoStage
from voicespit.speech.listening.far_end import PlaybackReference
from voicespit.speech.listening.gate import ListeningGate
from voicespit.speech.recognizer import SAMPLE_RATE

Floats = npt.NDArray[np.float64]

SETTLE_SECONDS = 5.0
ORIGIN = 1000.0
MAX_LAG = 300
"""Samples (19 ms) searched for the canceller's own delay."""


@dataclass
class RoomSignal:
    room: str
    erle_db: float | None
    """None with the game silent: there is no echo to remove."""
    player_sdr_median_db: float
    player_sdr_mean_db: float
    player_si_sdr_median_db: float
    """Scale-invariant: a voice made quieter or louder as a whole is not counted as damage."""
    commands: int
    canceller_lag_ms: float


@dataclass(frozen=True)
class Variant:
    """The canceller, and what the room is allowed to do that a mono far end cannot model."""

    canceller: str = "webrtc"
    same_paths: bool = False
    """Both loudspeaker channels reach the microphone by the same response."""
    centred: bool = False
    """Every sound the game plays is centred (both channels their mean)."""


class CentredFarEnd(FarEnd):
    """The match as if nothing were panned: each rendered block's channels made equal."""

    def render(self) -> tuple[npt.NDArray[np.float32], float]:
        block, at = super().render()
        centred = np.repeat(block.mean(axis=1, keepdims=True), block.shape[1], axis=1)
        return centred.astype(np.float32), at


def room_paths(condition: RoomCondition, rate: int, variant: Variant) -> tuple[Floats, Floats]:
    left, right = loudspeaker_paths(condition, rate)
    return (left, left) if variant.same_paths else (left, right)


def _mean(a: Floats, b: Floats) -> Floats:
    length = max(len(a), len(b))
    mean: Floats = (np.pad(a, (0, length - len(a))) + np.pad(b, (0, length - len(b)))) / 2
    return mean


def cancelled(timeline: Timeline, condition: RoomCondition | None, near: Floats,
              seconds: float, jitter_seed: int,
              variant: Variant = Variant()) -> tuple[Floats, Floats]:
    """The microphone's samples and the canceller's output (same length, 16 kHz) in
    `condition` (None: the game silent, nothing in the loudspeakers)."""
    far_end = CentredFarEnd if variant.centred else FarEnd
    far = far_end(timeline if condition is not None else None, ListeningGate("always"), ORIGIN)
    if condition is None:
        stream = RoomStream(seconds, near, far, None)
    else:
        responses = room_paths(condition, far.rate, variant)
        # Centred sound meets each response as the mean: its echo is the mean response's
        # on both channels, which is what sets the level.
        levelled_by = responses if not variant.centred else (_mean(*responses),) * 2
        stream = RoomStream(seconds, near, far, responses,
                            echo_gain(timeline, levelled_by, condition.echo_db))
    stream.clock.advance_to(ORIGIN)
    canceller = make_canceller(variant.canceller)
    reference = PlaybackReference(far.rate, channels=canceller.channels)
    source = RoomSource(stream, seed=jitter_seed, tap=reference.push)
    stage = EchoStage(canceller, reference)
    heard = np.zeros(len(near))
    output = np.zeros(len(near))
    for block in source.blocks():
        result = stage.cancel(block, ORIGIN + block.start)
        if result is None:
            continue
        at = round(result.start * SAMPLE_RATE)
        out = np.frombuffer(result.pcm, dtype="<i2").astype(np.float64)
        output[at:at + len(out)] = out
        heard[at:at + len(out)] = stage.last_near.astype(np.float64)
    return heard, output


def erle_db(heard: Floats, output: Floats) -> float:
    start = round(SETTLE_SECONDS * SAMPLE_RATE)
    return _ratio_db(heard[start:], output[start:])


def player_sdrs(near: Floats, output: Floats,
                spans: list[tuple[int, int]]) -> tuple[list[float], list[float], int]:
    """Each command's SDR and scale-invariant SDR in the output, at the canceller's own
    delay (found here)."""
    def agreement(lag: int) -> float:
        return sum(float(near[a:b] @ output[a + lag:b + lag]) for a, b in spans)

    lag = max(range(MAX_LAG + 1), key=agreement)
    shifted = output[lag:]
    sdrs, invariant = [], []
    for a, b in spans:
        voice, got = near[a:b], shifted[a:b]
        sdrs.append(_ratio_db(voice, got - voice))
        # The part of the output that is the voice at some level, and what is not.
        kept = voice * float(got @ voice) / float(voice @ voice)
        invariant.append(_ratio_db(kept, got - kept))
    return sdrs, invariant, lag


def _ratio_db(wanted: Floats, unwanted: Floats) -> float:
    return float(10 * np.log10(max(float(wanted @ wanted), 1e-9)
                               / max(float(unwanted @ unwanted), 1e-9)))


def measure(timeline: Timeline, condition: RoomCondition | None, seconds: float,
            jitter_seed: int, variant: Variant = Variant()) -> RoomSignal:
    """One room's figures; None: the player's SDR with the game silent (the baseline)."""
    erle = None
    if condition is not None:
        silence = np.zeros(round((seconds + 1) * SAMPLE_RATE))
        heard, output = cancelled(timeline, condition, silence, seconds, jitter_seed, variant)
        erle = erle_db(heard, output)
    placed = place_over_speech(commands_for("tuning"), speech_spans(timeline),
                               np.random.default_rng(11))
    placed = [u for u in placed if u.end + 1.0 < seconds]
    near = mix_near(placed, seconds + 1)
    _, output = cancelled(timeline, condition, near, seconds, jitter_seed, variant)
    spans = [(round(u.onset * SAMPLE_RATE), round(u.end * SAMPLE_RATE)) for u in placed]
    sdrs, invariant, lag = player_sdrs(near, output, spans)
    return RoomSignal(condition.name if condition else "game silent",
                      None if erle is None else round(erle, 2),
                      round(statistics.median(sdrs), 2), round(statistics.fmean(sdrs), 2),
                      round(statistics.median(invariant), 2), len(sdrs),
                      round(1000 * lag / SAMPLE_RATE, 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=130.0,
                        help="of the narrated match, per room and per pass")
    parser.add_argument("--room", action="append", metavar="RT60,DELAY_MS,ECHO_DB")
    parser.add_argument("--jitter-seed", type=int, default=3,
                        help="the simulated sound card's timing jitter")
    parser.add_argument("--canceller", default="webrtc",
                        help="webrtc (the game's, mono far end), webrtc-stereo (both loudspeakers), "
                        "or a candidate: speex, speex:TAIL_MS, apm")
    parser.add_argument("--same-paths", action="store_true",
                        help="both loudspeaker channels by the same room response")
    parser.add_argument("--centred", action="store_true",
                        help="every sound centred: both channels their mean")
    parser.add_argument("--no-baseline", action="store_true",
                        help="leave out the game-silent row")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    variant = Variant(args.canceller, args.same_paths, args.centred)
    conditions = [RoomCondition(*(float(x) for x in spec.split(","))) for spec in args.room] \
        if args.room else [c for c in CONDITIONS if c.echo_db in (0.0, 10.0)]
    rooms: list[RoomCondition | None] = [*([] if args.no_baseline else [None]), *conditions]
    # Rendered once: espeak-ng's output shifts by a few samples with each rendering in a
    # process, so each room must hear the same match.
    timeline = narrated_match(7)
    rows = [measure(timeline, condition, args.seconds, args.jitter_seed, variant)
            for condition in rooms]
    print("| room | ERLE, narration alone | player SDR median / mean | SI-SDR median | commands "
          "| canceller lag |")
    print("|---|---:|---:|---:|---:|---:|")
    for row in rows:
        erle = "-" if row.erle_db is None else f"{row.erle_db:.2f} dB"
        print(f"| {row.room} | {erle} | {row.player_sdr_median_db:.2f} / "
              f"{row.player_sdr_mean_db:.2f} dB | {row.player_si_sdr_median_db:.2f} dB | "
              f"{row.commands} | {row.canceller_lag_ms} ms |")
    if args.json:
        print(json.dumps({"variant": asdict(variant), "rooms": [asdict(row) for row in rows]}))


if __name__ == "__main__":
    main()
