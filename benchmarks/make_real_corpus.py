"""Build the real-voice corpus from the Free Spoken Digit Dataset: bare ranks, quiet and noisy.

    python -m benchmarks.make_real_corpus [--out benchmarks/corpus] [--tuning-takes 5-49]

Real people (../shared/data/real-voices/fsdd-dev: three speakers, 8 kHz) saying
"two" ... "nine", which the game takes as bare-rank plays, heard against the
whole grammar. Each recording is upsampled to 16 kHz (soxr, a well-kept
resampler), given the silence a microphone hears around a command, and written
twice: quiet, and mixed with a real background recording (exercise bike,
running tap, white noise; ../shared/data/real-noise) at 10 dB SNR. Two splits:
`fsdd-tuning` (takes 5-49, everything is chosen on it) and `fsdd-test`
(takes 0-4, the dataset's own test split, only ever reported). Deterministic:
the noise file and its offset come from a seed per file. A third, `fsdd-test-8k`, is
`fsdd-test` as an 8 kHz device would record it (the same mixes, brought down by
soxr's very-high quality), so the game's own resampling is in the path: what its
conversion to 16 kHz costs a recognizer is the difference between the two rows.

The layout is `benchmarks.make_corpus`'s (manifest.tsv, timings.tsv), so
`voicespit recognize --corpus` and `benchmarks.speech` read it as they read
the espeak-ng corpus.
"""

from __future__ import annotations

import argparse
import shutil
import wave
import zlib
from pathlib import Path

import numpy as np
import numpy.typing as npt

from benchmarks.make_corpus import (
    LEAD_SECONDS,
    SAMPLE_RATE,
    TAIL_SECONDS,
    speech_end,
    write_tables,
    write_wav,
)

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
VOICES = SHARED / "real-voices" / "fsdd-dev"
NOISES = SHARED / "real-noise"
DIGIT_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
               9: "nine"}
"""The digits that are card ranks (zero and one are not; ten is not in the dataset)."""
SNR_DB = 10.0
SPLITS = {"fsdd-tuning": range(5, 50), "fsdd-test": range(5)}
OWN_RATE_SPLITS = {"fsdd-test-8k": ("fsdd-test", 8_000)}
"""Splits written at a recording device's rate: (the split they copy, the rate)."""


def read_clip(path: Path) -> tuple[npt.NDArray[np.float64], int]:
    with wave.open(str(path), "rb") as wav:
        rate = wav.getframerate()
        samples = np.frombuffer(wav.readframes(wav.getnframes()), dtype="<i2")
    return samples.astype(np.float64), rate


def upsample(samples: npt.NDArray[np.float64], rate: int) -> npt.NDArray[np.float64]:
    import soxr

    return np.asarray(soxr.resample(samples, rate, SAMPLE_RATE, quality="HQ"), dtype=np.float64)


def at_rate(samples: npt.NDArray[np.int16], rate: int) -> npt.NDArray[np.int16]:
    """A 16 kHz mix as a device recording at `rate` would have it."""
    if rate == SAMPLE_RATE:
        return samples
    import soxr

    return np.asarray(soxr.resample(samples, SAMPLE_RATE, rate, quality="VHQ"), dtype=np.int16)


def mixed(speech: npt.NDArray[np.float64], noise: npt.NDArray[np.float64] | None,
          seed: int) -> npt.NDArray[np.int16]:
    """Silence around the speech, and the noise (if any) under all of it at SNR_DB."""
    lead = np.zeros(int(LEAD_SECONDS * SAMPLE_RATE))
    tail = np.zeros(int(TAIL_SECONDS * SAMPLE_RATE))
    signal = np.concatenate([lead, speech, tail])
    if noise is not None:
        offset = np.random.default_rng(seed).integers(0, len(noise) - len(signal))
        piece = noise[offset:offset + len(signal)]
        speech_power = float(np.mean(speech ** 2))
        noise_power = float(np.mean(piece ** 2)) or 1.0
        signal = signal + piece * np.sqrt(speech_power / noise_power / 10 ** (SNR_DB / 10))
    return np.clip(np.round(signal), -32768, 32767).astype(np.int16)


def build(out: Path, split: str, takes: range, speakers: tuple[str, ...] | None = None,
          rate: int = SAMPLE_RATE, like: str | None = None) -> Path:
    """Write one split under `out/split` at `rate`, its mixes those of split `like` (by
    default its own); returns the manifest's path."""
    noises = [read_clip(path)[0] for path in sorted(NOISES.glob("*.wav"))]
    directory = out / split
    if directory.exists():
        shutil.rmtree(directory)
    manifest = ["path\ttranscript\tkind"]
    timings = ["path\tspeech_start\tspeech_end"]
    for path in sorted(VOICES.glob("*.wav")):
        digit, speaker, take = path.stem.split("_")
        if int(digit) not in DIGIT_WORDS or int(take) not in takes:
            continue
        if speakers is not None and speaker not in speakers:
            continue
        samples, rate = read_clip(path)
        speech = upsample(samples, rate)
        end = LEAD_SECONDS + speech_end(speech.astype(np.int16))
        for condition in ("quiet", "noise10"):
            seed = zlib.crc32(f"{like or split}:{condition}:{path.name}".encode())
            noise = None if condition == "quiet" else noises[seed % len(noises)]
            relative = f"{condition}/{speaker}/{path.name}"
            write_wav(directory / relative, at_rate(mixed(speech, noise, seed), rate), rate)
            manifest.append(f"{relative}\t{DIGIT_WORDS[int(digit)]}\tcommand")
            timings.append(f"{relative}\t{LEAD_SECONDS:.3f}\t{end:.3f}")
    return write_tables(directory, manifest, timings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "corpus")
    args = parser.parse_args()
    builds = [(split, takes, SAMPLE_RATE, split) for split, takes in SPLITS.items()]
    builds += [(split, SPLITS[like], rate, like) for split, (like, rate) in OWN_RATE_SPLITS.items()]
    for split, takes, rate, like in builds:
        manifest = build(args.out, split, takes, rate=rate, like=like)
        print(f"{split}: {len(manifest.read_text().splitlines()) - 1} files, manifest {manifest}")


if __name__ == "__main__":
    main()
