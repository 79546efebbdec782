"""Does AEC3 (pywebrtc-audio) given a stereo far end model each loudspeaker's path?

    python -m benchmarks.echo_stereo [--seconds 30]

Independent noise (shaped like speech) on the left and right loudspeakers, each
through its own synthetic path, into one microphone. A mono far end (their mean)
cannot stand for that echo; one path for both makes it exact. If AEC3 with
`num_channels=2` (the microphone on both channels, interleaved) models both paths,
it removes as much echo as the exact mono case. Echo removed is measured after 8 s
(the filter has learned the room); CPU is this process's time over the audio's.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import numpy.typing as npt

from voicespit.speech.listening.echo import WebRtcCanceller
from voicespit.speech.recognizer import SAMPLE_RATE

Floats = npt.NDArray[np.float64]


def shaped_noise(count: int, rng: np.random.Generator) -> Floats:
    kernel = np.exp(-np.arange(40) / 8.0)
    noise: Floats = np.convolve(rng.standard_normal(count), kernel / np.sqrt(np.sum(kernel ** 2)),
                                "same") * 3000
    return noise


def path(delay: int, seed: int) -> Floats:
    """A direct path after `delay` samples and a 0.2 s decaying tail."""
    rng = np.random.default_rng(seed)
    response = np.zeros(delay + 2000)
    response[delay] = 1.0
    response[delay:] += rng.standard_normal(2000) * np.exp(-6.9 * np.arange(2000) / SAMPLE_RATE
                                                            / 0.2) * 0.05
    return response


def removed_db(channels: int, one_path: bool, seconds: float) -> tuple[float, float]:
    count = round(seconds * SAMPLE_RATE)
    rng = np.random.default_rng(1)
    left, right = shaped_noise(count, rng), shaped_noise(count, rng)
    left_path = path(300, 2)
    right_path = left_path if one_path else path(311, 3)
    echo = np.convolve(left, left_path)[:count] + np.convolve(right, right_path)[:count]
    microphone = np.clip(np.rint(echo), -32768, 32767).astype(np.int16)
    canceller = WebRtcCanceller(channels=channels)
    out = np.zeros(count)
    started = time.process_time()
    for first in range(0, count - 160 + 1, 160):
        frame = slice(first, first + 160)
        if channels == 1:
            far = np.rint((left[frame] + right[frame]) / 2).astype(np.int16)
        else:
            far = np.rint(np.stack([left[frame], right[frame]], axis=1)).astype(np.int16)
        out[frame] = canceller.process(microphone[frame], far)
    cpu = (time.process_time() - started) / seconds
    settled = slice(8 * SAMPLE_RATE, count)
    ratio = np.sum(microphone[settled].astype(np.float64) ** 2) / max(
        float(np.sum(out[settled] ** 2)), 1.0)
    return float(10 * np.log10(ratio)), cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    print("| far end | paths | echo removed | CPU |")
    print("|---|---|---:|---:|")
    for channels, one_path in ((1, False), (2, False), (1, True)):
        erle, cpu = removed_db(channels, one_path, args.seconds)
        print(f"| {'mono' if channels == 1 else 'stereo'} | {'one' if one_path else 'two'} "
              f"| {erle:.1f} dB | {100 * cpu:.1f} % of a core |")


if __name__ == "__main__":
    main()
