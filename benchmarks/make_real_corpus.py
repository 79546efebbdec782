"""Build the real-voice corpus from the Free Spoken Digit Dataset: bare ranks, quiet and noisy.

    python -m benchmarks.make_real_corpus [--out benchmarks/corpus] [--tuning-takes 5-49]

Real people (../shared/data/real-voices/fsdd-dev: three speakers, 8 kHz) saying
"two" ... "nine", which the game takes as bare-rank plays, heard against the
whole grammar. Each recording is given the room a microphone hears around a
command (`room_around`: its own background, continued), upsampled to 16 kHz
(soxr, a well-kept resampler), and written twice: quiet, and mixed with a real
background recording (exercise bike, running tap, white noise;
../shared/data/real-noise) at 10 dB SNR. Two splits:
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
import functools
import shutil
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
from voicespit.speech.recording_room import room_around

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
VOICES = SHARED / "real-voices" / "fsdd-dev"
NOISES = SHARED / "real-noise"
DIGIT_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
               9: "nine"}
"""The digits that are card ranks (zero and one are not; ten is not in the dataset)."""
CHATTER_WORDS = {0: "zero", 1: "one"}
"""The digits that are not a command: real voices saying a word the game must not act on
("one" is in "flip one" and "move one to two", never alone)."""
SNR_DB = 10.0
SPLITS = {"fsdd-tuning": range(5, 50), "fsdd-test": range(5)}
CHATTER_SPLITS = {"fsdd-chatter-tuning": range(5, 50), "fsdd-chatter-test": range(5)}
"""Real chatter, apart from the command splits so that their figures stay comparable
with every earlier round's: the same takes, tuned on and reported on the same way."""
OWN_RATE_SPLITS = {"fsdd-test-8k": ("fsdd-test", 8_000)}
"""Splits written at a recording device's rate: (the split they copy, the rate)."""


def read_clip(path: Path) -> tuple[npt.NDArray[np.float64], int]:
    """The recording's first channel in 16-bit units, and its rate (libsndfile: it also
    reads the WAVs Python's wave module refuses, such as Debian's speaker test's)."""
    import soundfile

    samples, rate = soundfile.read(str(path), dtype="int16", always_2d=True)
    return samples[:, 0].astype(np.float64), int(rate)


def upsample(samples: npt.NDArray[np.float64], rate: int) -> npt.NDArray[np.float64]:
    import soxr

    return np.asarray(soxr.resample(samples, rate, SAMPLE_RATE, quality="HQ"), dtype=np.float64)


def at_rate(samples: npt.NDArray[np.int16], rate: int) -> npt.NDArray[np.int16]:
    """A 16 kHz mix as a device recording at `rate` would have it."""
    if rate == SAMPLE_RATE:
        return samples
    import soxr

    return np.asarray(soxr.resample(samples, SAMPLE_RATE, rate, quality="VHQ"), dtype=np.int16)


def in_its_own_room(clip: npt.NDArray[np.float64], rate: int,
                    name: str) -> npt.NDArray[np.float64]:
    """The clip at 16 kHz with its own room around it (`recording_room.room_around`,
    seeded by the file's name): the same padding every time the corpus or a test makes
    it.

    FSDD clips are trimmed close to the speech and carry the room they were recorded
    in (jackson's about 25 dB below his voice, yweweler's near digital silence).
    Padding them with digital zeros, as this corpus did, is what no microphone
    delivers: the endpointer learnt its floor on the zeros and then took the clip's
    own background after the word for more speech (jackson's "six" waited up to
    580 ms)."""
    around = room_around(clip, rate, zlib.crc32(name.encode()), lead_seconds=LEAD_SECONDS,
                         tail_seconds=TAIL_SECONDS)
    return upsample(around, rate)


def mixed(around: npt.NDArray[np.float64], speech: npt.NDArray[np.float64],
          noise: npt.NDArray[np.float64] | None, seed: int) -> npt.NDArray[np.int16]:
    """The speech with the room `around` it, and the noise (if any) under all of it at
    SNR_DB of the speech's own power."""
    signal = around
    if noise is not None:
        offset = np.random.default_rng(seed).integers(0, len(noise) - len(signal))
        piece = noise[offset:offset + len(signal)]
        speech_power = float(np.mean(speech ** 2))
        noise_power = float(np.mean(piece ** 2)) or 1.0
        signal = signal + piece * np.sqrt(speech_power / noise_power / 10 ** (SNR_DB / 10))
    return np.clip(np.round(signal), -32768, 32767).astype(np.int16)


def build(out: Path, split: str, takes: range, speakers: tuple[str, ...] | None = None,
          rate: int = SAMPLE_RATE, like: str | None = None,
          words: dict[int, str] = DIGIT_WORDS, kind: str = "command") -> Path:
    """Write one split under `out/split` at `rate`, its mixes those of split `like` (by
    default its own), of the digits in `words` as `kind`; returns the manifest's path."""
    directory, noises, manifest, timings = new_split(out, split)
    for path in sorted(VOICES.glob("*.wav")):
        digit, speaker, take = path.stem.split("_")
        if int(digit) not in words or int(take) not in takes:
            continue
        if speakers is not None and speaker not in speakers:
            continue
        samples, clip_rate = read_clip(path)
        speech = upsample(samples, clip_rate)
        around = in_its_own_room(samples, clip_rate, path.name)
        end = LEAD_SECONDS + speech_end(speech.astype(np.int16))
        write_quiet_and_noisy(directory, f"{speaker}/{path.name}", around, speech, end,
                              f"{words[int(digit)]}\t{kind}", like or split, noises,
                              manifest, timings, rate)
    return write_tables(directory, manifest, timings)


def new_split(out: Path, split: str) -> tuple[Path, list[npt.NDArray[np.float64]], list[str],
                                              list[str]]:
    """An empty folder for `split` under `out` (what was there is removed), the real
    noises to mix in, and the manifest's and timings' header lines."""
    directory = out / split
    if directory.exists():
        shutil.rmtree(directory)
    noises = [read_clip(path)[0] for path in sorted(NOISES.glob("*.wav"))]
    return directory, noises, ["path\ttranscript\tkind"], ["path\tspeech_start\tspeech_end"]


def write_quiet_and_noisy(directory: Path, name: str, around: npt.NDArray[np.float64],
                          speech: npt.NDArray[np.float64], end: float, label: str,
                          seed_key: str, noises: list[npt.NDArray[np.float64]],
                          manifest: list[str], timings: list[str],
                          rate: int = SAMPLE_RATE) -> None:
    """Write a clip (`speech` with the room `around` it) as `quiet/name` and, with one of
    `noises` at SNR_DB, as `noise10/name` under `directory` at `rate`, and add their lines
    to the manifest (`label`: transcript and kind) and the timings (speech from
    LEAD_SECONDS to `end`); the noise and its offset are seeded by `seed_key`, the
    condition and the file's name, so a split is the same every time it is built."""
    for condition in ("quiet", "noise10"):
        seed = zlib.crc32(f"{seed_key}:{condition}:{Path(name).name}".encode())
        noise = None if condition == "quiet" else noises[seed % len(noises)]
        relative = f"{condition}/{name}"
        write_wav(directory / relative, at_rate(mixed(around, speech, noise, seed), rate), rate)
        manifest.append(f"{relative}\t{label}")
        timings.append(f"{relative}\t{LEAD_SECONDS:.3f}\t{end:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "corpus")
    args = parser.parse_args()
    builds = [functools.partial(build, args.out, split, takes) for split, takes in SPLITS.items()]
    builds += [functools.partial(build, args.out, split, SPLITS[like], rate=rate, like=like)
               for split, (like, rate) in OWN_RATE_SPLITS.items()]
    builds += [functools.partial(build, args.out, split, takes, words=CHATTER_WORDS,
                                 kind="chatter") for split, takes in CHATTER_SPLITS.items()]
    for written in builds:
        manifest = written()
        print(f"{manifest.parent.name}: {len(manifest.read_text().splitlines()) - 1} files, "
              f"manifest {manifest}")


if __name__ == "__main__":
    main()
