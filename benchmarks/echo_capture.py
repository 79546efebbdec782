"""The room's signals captured once, for judging talk detectors offline.

    python -m benchmarks.echo_capture [--split tuning] [--seconds 240] [--room RT60,DELAY_MS,ECHO_DB ...]

Runs the room benchmark's acoustic path (benchmarks/room.py: the narrated match through
the real mixer, the room, the player's commands placed over the game's speech, real noise)
through the game's cancellers, with the game never reacting (no hush, no stop), and keeps,
on one 16 kHz timeline: the microphone, the far end given to the cancellers, AEC3's output
and speexdsp's (both lined up with the microphone), and the player's clean voice. Each room
is captured twice, with the commands and without (the narration alone), into
benchmarks/.cache. `benchmarks.talk_detector` replays detectors over these.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from benchmarks.echo import CONDITIONS, commands_for, make_canceller, make_linear, noise_recording
from benchmarks.room import (
    NARRATION_CACHE,
    FarEnd,
    RoomCondition,
    RoomSource,
    RoomStream,
    echo_gain,
    loudspeaker_paths,
    mix_near,
    narrated_match,
    narration_digest,
    noise_bed,
    place_over_speech,
    speech_spans,
)
from voicespit.speech.listening.echo import EchoStage
from voicespit.speech.listening.far_end import PlaybackReference
from voicespit.speech.listening.gate import ListeningGate
from voicespit.speech.recognizer import SAMPLE_RATE

Int16 = npt.NDArray[np.int16]
ORIGIN = 1000.0


@dataclass
class Capture:
    microphone: Int16
    far: Int16
    aec3: Int16
    linear: Int16
    voice: Int16
    """The player's voice alone, as it reached the microphone (no noise)."""
    onsets: npt.NDArray[np.float64]
    ends: npt.NDArray[np.float64]
    game_speech: npt.NDArray[np.float64]
    """(start, end) of each announcement on the same timeline, seconds."""

    @classmethod
    def load(cls, path: Path) -> Capture:
        with np.load(path) as data:
            return cls(**{name: data[name] for name in cls.__dataclass_fields__})


def capture_path(split: str, condition: RoomCondition, with_commands: bool, seconds: float,
                 canceller: str) -> Path:
    digest = narration_digest(narrated_match(7))
    kind = "commands" if with_commands else "alone"
    name = (f"capture-{split}-{condition.rt60}-{condition.delay_ms:.0f}-{condition.echo_db:.0f}"
            f"-{kind}-{seconds:.0f}-{canceller}-{digest}.npz")
    return NARRATION_CACHE / name


def capture(split: str, condition: RoomCondition, with_commands: bool, seconds: float,
            canceller: str = "webrtc+speex") -> Path:
    path = capture_path(split, condition, with_commands, seconds, canceller)
    if path.is_file():
        return path
    timeline = narrated_match(7)
    spans = speech_spans(timeline)
    rng = np.random.default_rng(11)
    placed = place_over_speech(commands_for(split), spans, rng) if with_commands else []
    placed = [u for u in placed if u.end + 1.0 < seconds]
    voice = mix_near(placed, seconds)
    near = voice + noise_bed(noise_recording(split), seconds, rng)
    far_end = FarEnd(timeline, ListeningGate("always"), ORIGIN)
    responses = loudspeaker_paths(condition, far_end.rate)
    stream = RoomStream(seconds, near, far_end, responses,
                        echo_gain(timeline, responses, condition.echo_db))
    stream.clock.advance_to(ORIGIN)
    main = make_canceller(canceller)
    reference = PlaybackReference(far_end.rate, channels=main.channels)
    source = RoomSource(stream, seed=3, tap=reference.push)
    stage = EchoStage(main, reference, linear=make_linear(canceller))
    total = len(near)
    signals = {name: np.zeros(total, dtype=np.int16)
               for name in ("microphone", "far", "aec3", "linear")}
    for block in source.blocks():
        result = stage.cancel(block, ORIGIN + block.start)
        if result is None:
            continue
        at = round(result.start * SAMPLE_RATE)
        out = np.frombuffer(result.pcm, dtype="<i2")
        end = min(total, at + len(out))
        signals["microphone"][at:end] = stage.last_near[:end - at]
        signals["far"][at:end] = stage.last_far[:end - at]
        signals["aec3"][at:end] = out[:end - at]
        if stage.last_linear is not None:
            signals["linear"][at:end] = stage.last_linear[:end - at]
    # Both outputs lag the microphone by AEC3's delay: shift them back onto its timeline.
    lag = round(main.latency * SAMPLE_RATE)
    for name in ("aec3", "linear"):
        signals[name] = np.concatenate([signals[name][lag:], np.zeros(lag, dtype=np.int16)])
    NARRATION_CACHE.mkdir(exist_ok=True)
    np.savez(path, microphone=signals["microphone"], far=signals["far"], aec3=signals["aec3"],
             linear=signals["linear"],
             voice=np.clip(np.rint(voice), -32768, 32767).astype(np.int16),
             onsets=np.array([u.onset for u in placed]),
             ends=np.array([u.end for u in placed]),
             game_speech=np.array(spans, dtype=np.float64).reshape(-1, 2))
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("tuning", "report"), default="tuning")
    parser.add_argument("--seconds", type=float, default=240.0)
    parser.add_argument("--room", action="append", metavar="RT60,DELAY_MS,ECHO_DB")
    parser.add_argument("--canceller", default="webrtc+speex")
    args = parser.parse_args()
    rooms = [RoomCondition(*(float(x) for x in spec.split(","))) for spec in args.room] \
        if args.room else CONDITIONS
    for room in rooms:
        for with_commands in (True, False):
            print(capture(args.split, room, with_commands, args.seconds, args.canceller),
                  flush=True)


if __name__ == "__main__":
    main()
