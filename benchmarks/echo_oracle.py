"""What the recognizer makes of each canceller's output, given the player found exactly.

    python -m benchmarks.echo_oracle [--seconds 130] [--room RT60,DELAY_MS,ECHO_DB ...]
                                     [--canceller webrtc --canceller speex ...]

The room benchmark (`benchmarks.echo`) counts commands through the whole listener: the
talk detector, the echo mask, the endpointer and the recognizer. This one takes the
detector out: each command spoken over the narration (tuning split, no background
noise, as in `benchmarks.echo_signal`) is cut from the canceller's output exactly
where it was said (0.3 s before, 0.4 s after, at the canceller's own delay) and given
to the default recognizer alone. It says how much of the player a canceller leaves
for the recognizer, whatever finds them; "game silent" is the ceiling.
"""

from __future__ import annotations

import argparse

import numpy as np

from benchmarks.echo import commands_for
from benchmarks.echo_signal import Variant, cancelled, player_sdrs
from benchmarks.room import (
    RoomCondition,
    mix_near,
    narrated_match,
    place_over_speech,
    speech_spans,
)
from voicespit.config import PROJECT_ROOT
from voicespit.speech.language.parser import command_in, parse
from voicespit.speech.recognizer import SAMPLE_RATE
from voicespit.speech.recognizers.select import make_recognizer

BEFORE, AFTER = 0.3, 0.4
"""Seconds of the output kept around each command."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=130.0)
    parser.add_argument("--room", action="append", metavar="RT60,DELAY_MS,ECHO_DB")
    parser.add_argument("--canceller", action="append",
                        help="webrtc (AEC3), speex, ... (see benchmarks.echo_signal)")
    args = parser.parse_args()
    rooms: list[RoomCondition | None] = [None, *(
        RoomCondition(*(float(x) for x in spec.split(",")))
        for spec in (args.room or ["0.5,45,10", "0.5,45,0"]))]
    timeline = narrated_match(7)
    placed = place_over_speech(commands_for("tuning"), speech_spans(timeline),
                               np.random.default_rng(11))
    placed = [u for u in placed if u.end + 1.0 < args.seconds]
    near = mix_near(placed, args.seconds + 1)
    spans = [(round(u.onset * SAMPLE_RATE), round(u.end * SAMPLE_RATE)) for u in placed]
    recognizer, _ = make_recognizer("auto", models_dir=PROJECT_ROOT / "models")
    print("| room | canceller | heard right | wrong | player SI-SDR median |")
    print("|---|---|---:|---:|---:|")
    for room in rooms:
        for kind in args.canceller or ["webrtc", "speex"]:
            _, output = cancelled(timeline, room, near, args.seconds, 3, Variant(kind))
            _, invariant, lag = player_sdrs(near, output, spans)
            right = wrong = 0
            for utterance, (a, b) in zip(placed, spans, strict=True):
                cut = output[a + lag - round(BEFORE * SAMPLE_RATE):
                             b + lag + round(AFTER * SAMPLE_RATE)]
                recognizer.reset()
                pcm = np.clip(np.rint(cut), -32768, 32767).astype("<i2").tobytes()
                results = recognizer.accept_audio(pcm) + recognizer.finish()
                commands = [command_in(r.text) for r in results
                            if r.is_final and r.text and not r.rejected]
                heard = [c for c in commands if c is not None]
                if heard == [parse(utterance.transcript)]:
                    right += 1
                elif heard:
                    wrong += 1
            print(f"| {room.name if room else 'game silent'} | {kind} | {right}/{len(placed)} "
                  f"| {wrong} | {float(np.median(invariant)):.1f} dB |", flush=True)


if __name__ == "__main__":
    main()
