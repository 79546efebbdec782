"""Build real chatter from recordings Debian ships: real people saying what is no command.

    python -m benchmarks.make_found_chatter [--out benchmarks/corpus] [--cache DIR]

The Free Spoken Digit Dataset gives the project two words that are no command ("zero",
"one"), and the acceptance model was judged on them twice. Two Debian packages hold real
voices saying other things, which no model here was ever fitted or tuned on:

- `alsa-utils` (GPL-2): its speaker test, one voice naming loudspeakers ("Front left",
  "Rear right", "Side left"): the pile words without a rank, said as no command is.
- `codec2-examples` (LGPL-2.1): the speech codec's test recordings, Harvard sentences
  read by several speakers ("The birch canoe slid on the smooth planks.") and an
  amateur radio operator talking for two minutes (8 and 16 kHz).

Each recording is cut into phrases where Silero VAD (a maintained detector) hears a
pause of PAUSE_SECONDS, and each phrase is written as `benchmarks.make_real_corpus`
writes a real clip: its own room around it, upsampled to 16 kHz, quiet and at 10 dB of
real noise. One split, `found-chatter`, only ever reported: every phrase is chatter, and
whatever the game takes from one is a command nobody gave. Some phrases hold a word the
game knows ("Four hours of steady work faced us.", "five watts"): a sentence that starts
with a rank is still no command, and the figures say how often such a word gets through.

Left out on purpose: the codec's decoded copies of the same takes (f2400, m2400), the
concatenation of all of them (all.wav), a ham operator counting "one two three four
five" (vk5qi: said alone, a rank is a command), and two recordings in which Whisper
hears no English (david4, vk2tpm_004). The packages are fetched by pinned version with
`apt-get download` and every recording is checked against its SHA-256 before use.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import numpy.typing as npt

from benchmarks.endpointing import silero
from benchmarks.make_corpus import LEAD_SECONDS, speech_end, write_tables
from benchmarks.make_real_corpus import (
    in_its_own_room,
    new_split,
    read_clip,
    upsample,
    write_quiet_and_noisy,
)

SPLIT = "found-chatter"
PACKAGES = {"alsa-utils": "1.2.8-1", "codec2-examples": "1.0.5-1"}
"""Debian 12's versions, fetched as `apt-get download name=version`."""
RECORDINGS = {
    "usr/share/sounds/alsa/Front_Center.wav":
        "0d61518bcd3f13b0c709a5298e939caf698b80d31d71d50475365ee0e5536cc9",
    "usr/share/sounds/alsa/Front_Left.wav":
        "9f97e8458785da2f0aa0ec60bf9cc81520cbf80a4683e83eca9cb5f2958e9fef",
    "usr/share/sounds/alsa/Front_Right.wav":
        "1fdea4d7003f1f7d3e48d3521aaab0a112c4ac570b02ddf1813abacac3070f6f",
    "usr/share/sounds/alsa/Rear_Center.wav":
        "9343207e3298813fdc4d26b7948e15a38533c37a9f232c3eff809b565398b330",
    "usr/share/sounds/alsa/Rear_Left.wav":
        "1679e0557701864d55b742a0abd3fe5f50d95b1bfcb55ffad4b597dcc7e3c7b8",
    "usr/share/sounds/alsa/Rear_Right.wav":
        "12828d125f692faa75c7445d52125dcc2c36f82c4f7a3ef49b8ae6afd74ada9d",
    "usr/share/sounds/alsa/Side_Left.wav":
        "03dc7c641d7825417d2a261831715e945e95d87343fb037db910e7ce4f87a2a1",
    "usr/share/sounds/alsa/Side_Right.wav":
        "ecdd0329945f355960796a56f8126d5080ed93fdd2437c7eaddbbbd56137d7e9",
    "usr/share/codec2/wav/big_dog.wav":
        "a33203b0d50b53b347e86b3850bfb5609204bb6eab05a0cac8a03bed086efe69",
    "usr/share/codec2/wav/cross.wav":
        "2904143330ee53ddee3c500ea346908dd04ffa1b4ea9ce5a67b30819ff14ed46",
    "usr/share/codec2/wav/forig.wav":
        "6ba62aa43cc32122bbc948e8ff93cafcc07bad44b3ca3ae16d722f5a31eac66d",
    "usr/share/codec2/wav/hts1a.wav":
        "7c39b56baa597463d22ae2c05ae2cf479d0d1b8267ae0acc40f7c3b61d89279b",
    "usr/share/codec2/wav/hts2a.wav":
        "b646ae5f34d0688366c7333bb6ce862766a3c8032c92900cf0ae7c0a6dc63085",
    "usr/share/codec2/wav/mmt1.wav":
        "9ba61e240a1542204d8a8110efb6ccb546187391d6e178c65c35cac766759fc7",
    "usr/share/codec2/wav/morig.wav":
        "9266ab16d586391439d8fad7e18acbd2bfa928d712e338f0e85b08ab413114e3",
    "usr/share/codec2/wav/wia_16kHz.wav":
        "8b7d6b3ff68725a6f23dc86b8ac076bfb4d08d9f4a9cb7ced6ffe40e22fd76a7",
    "usr/share/codec2/wav/ve9qrp.wav":
        "d242333c60d551e010965e591f65ed77372207f36852b98adceb713975c590a0",
    "usr/share/codec2/raw/speech_orig_16k.wav":
        "594c291468dfb3c0974ee204cf1ddd7925a87c1dbdcd905fcd23a43942b660f7",
}
"""Every recording used, by its path in the package, and its SHA-256."""
PAUSE_SECONDS = 0.15
"""A pause this long ends a phrase (Silero VAD bridges shorter ones; 0.3 s left the radio
operator's two minutes in 12 phrases of up to 17 s, 0.15 s in 30, median 2 s over all).
A phrase still holds several of the listener's utterances: the file counts as taken when
any of them comes out as a command, as a player hears it."""
SHORTEST_SECONDS = 0.2
EDGE_SECONDS = 0.1
"""The recording's own audio kept either side of the speech Silero VAD found."""


def fetch(cache: Path) -> Path:
    """The pinned packages unpacked under `cache/root` (fetched once), every recording
    checked; SystemExit with what to do when they cannot be had."""
    root = cache / "root"
    for name, version in PACKAGES.items():
        if not any(cache.glob(f"{name}_{version}_*.deb")):
            cache.mkdir(parents=True, exist_ok=True)
            fetched = subprocess.run(["apt-get", "download", f"{name}={version}"], cwd=cache,
                                     capture_output=True, text=True)
            if fetched.returncode != 0:
                raise SystemExit(f"could not fetch {name} {version} from Debian's archive "
                                 f"(apt-get download): {fetched.stderr.strip()}")
    if root.exists():
        shutil.rmtree(root)
    for deb in sorted(cache.glob("*.deb")):
        subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)
    for relative, digest in RECORDINGS.items():
        path = root / relative
        if not path.is_file() or hashlib.sha256(path.read_bytes()).hexdigest() != digest:
            raise SystemExit(f"{relative} is missing or not the recording this corpus "
                             f"was built from: delete {cache} and run again")
    return root


def phrases(speech: npt.NDArray[np.float64]) -> list[tuple[float, float]]:
    """(start, end) in seconds of each phrase of a 16 kHz recording: Silero VAD's speech
    (probability 0.5 and up), ended by a pause of PAUSE_SECONDS."""
    marks, chunk = silero(np.clip(np.round(speech), -32768, 32767).astype("<i2").tobytes())
    found: list[tuple[float, float]] = []
    for index, speaking in enumerate(marks):
        if not speaking:
            continue
        start, end = index * chunk, (index + 1) * chunk
        if found and start - found[-1][1] < PAUSE_SECONDS:
            found[-1] = (found[-1][0], end)
        else:
            found.append((start, end))
    return [(start, end) for start, end in found if end - start >= SHORTEST_SECONDS]


def build(out: Path, root: Path) -> Path:
    """Write the split under `out/SPLIT`; returns the manifest's path."""
    directory, noises, manifest, timings = new_split(out, SPLIT)
    for relative in RECORDINGS:
        clip, rate = read_clip(root / relative)
        source = Path(relative).stem.lower()
        for number, (start, end) in enumerate(phrases(upsample(clip, rate)), start=1):
            first = max(0, round((start - EDGE_SECONDS) * rate))
            piece = clip[first:round((end + EDGE_SECONDS) * rate)]
            name = f"{source}_{number:02d}.wav"
            speech = upsample(piece, rate)
            around = in_its_own_room(piece, rate, name)
            spoken_end = LEAD_SECONDS + speech_end(np.clip(speech, -32768, 32767).astype(np.int16))
            write_quiet_and_noisy(directory, f"{source}/{name}", around, speech, spoken_end,
                                  f"{source} phrase {number}\tchatter", SPLIT, noises,
                                  manifest, timings)
    return write_tables(directory, manifest, timings)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "corpus")
    parser.add_argument("--cache", type=Path,
                        default=Path(tempfile.gettempdir()) / "voicespit-found-chatter")
    args = parser.parse_args()
    manifest = build(args.out, fetch(args.cache))
    print(f"{SPLIT}: {len(manifest.read_text().splitlines()) - 1} files, manifest {manifest}")


if __name__ == "__main__":
    main()
