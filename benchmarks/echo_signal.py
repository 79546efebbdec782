"""What the echo canceller does to the signal, room by room: figures that do not flip.

    python -m benchmarks.echo_signal [--seconds 130] [--room RT60,DELAY_MS,ECHO_DB ...] [--json]

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
  mean over commands). Higher is better: the player comes through. The output lags
  the microphone by the canceller's own delay, found by correlation and reported.
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
    impulse_response,
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
    erle_db: float
    player_sdr_median_db: float
    player_sdr_mean_db: float
    commands: int
    canceller_lag_ms: float


def cancelled(timeline: Timeline, condition: RoomCondition, near: Floats,
              seconds: float, jitter_seed: int) -> tuple[Floats, Floats]:
    """The microphone's samples and the canceller's output (same length, 16 kHz) in `condition`."""
    far = FarEnd(timeline, ListeningGate("always"), ORIGIN)
    room_rng = np.random.default_rng(int(condition.rt60 * 100 + condition.delay_ms))
    responses = (impulse_response(condition.rt60, condition.delay_ms, far.rate, room_rng),
                 impulse_response(condition.rt60, condition.delay_ms + 0.7, far.rate, room_rng))
    stream = RoomStream(seconds, near, far, responses, echo_gain(timeline, responses,
                                                                  condition.echo_db))
    stream.clock.advance_to(ORIGIN)
    reference = PlaybackReference(far.rate)
    source = RoomSource(stream, seed=jitter_seed, tap=reference.push)
    stage = EchoStage(make_canceller("webrtc"), reference)
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
    return float(10 * np.log10(float(heard[start:] @ heard[start:])
                               / max(float(output[start:] @ output[start:]), 1e-9)))


def player_sdrs(near: Floats, output: Floats,
                spans: list[tuple[int, int]]) -> tuple[list[float], int]:
    """Each command's SDR in the output, at the canceller's own delay (found here)."""
    def agreement(lag: int) -> float:
        return sum(float(near[a:b] @ output[a + lag:b + lag]) for a, b in spans)

    lag = max(range(MAX_LAG + 1), key=agreement)
    shifted = output[lag:]
    sdrs = []
    for a, b in spans:
        voice, got = near[a:b], shifted[a:b]
        damage = got - voice
        sdrs.append(float(10 * np.log10(float(voice @ voice) / max(float(damage @ damage), 1e-9))))
    return sdrs, lag


def measure(condition: RoomCondition, seconds: float, jitter_seed: int) -> RoomSignal:
    timeline = narrated_match(7)
    silence = np.zeros(round((seconds + 1) * SAMPLE_RATE))
    heard, output = cancelled(timeline, condition, silence, seconds, jitter_seed)
    erle = erle_db(heard, output)
    placed = place_over_speech(commands_for("tuning"), speech_spans(timeline),
                               np.random.default_rng(11))
    placed = [u for u in placed if u.end + 1.0 < seconds]
    near = mix_near(placed, seconds + 1)
    _, output = cancelled(timeline, condition, near, seconds, jitter_seed)
    spans = [(round(u.onset * SAMPLE_RATE), round(u.end * SAMPLE_RATE)) for u in placed]
    sdrs, lag = player_sdrs(near, output, spans)
    return RoomSignal(condition.name, round(erle, 2), round(statistics.median(sdrs), 2),
                      round(statistics.fmean(sdrs), 2), len(sdrs),
                      round(1000 * lag / SAMPLE_RATE, 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=130.0,
                        help="of the narrated match, per room and per pass")
    parser.add_argument("--room", action="append", metavar="RT60,DELAY_MS,ECHO_DB")
    parser.add_argument("--jitter-seed", type=int, default=3,
                        help="the simulated sound card's timing jitter")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    conditions = [RoomCondition(*(float(x) for x in spec.split(","))) for spec in args.room] \
        if args.room else [c for c in CONDITIONS if c.echo_db in (0.0, 10.0)]
    rows = [measure(condition, args.seconds, args.jitter_seed) for condition in conditions]
    print("| room | ERLE, narration alone | player SDR median / mean | commands | canceller lag |")
    print("|---|---:|---:|---:|---:|")
    for row in rows:
        print(f"| {row.room} | {row.erle_db:.2f} dB | {row.player_sdr_median_db:.2f} / "
              f"{row.player_sdr_mean_db:.2f} dB | {row.commands} | {row.canceller_lag_ms} ms |")
    if args.json:
        print(json.dumps({"rooms": [asdict(row) for row in rows]}))


if __name__ == "__main__":
    main()
