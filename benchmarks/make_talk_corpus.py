"""Build the corpus of what players say around commands, with espeak-ng.

    python -m benchmarks.make_talk_corpus [--out benchmarks/corpus] [--split NAME|all]

Players do not only say commands. They begin one with a word ("okay, flip", "so
nine", "alright, spit") and say short words to themselves between moves ("fine",
"then", "now"): neither is in `make_corpus`'s splits, whose table talk is mostly whole
sentences. These splits measure both (round 38, `benchmarks/LEVERS.md`):

- `lead-in-tuning`, `lead-in-heldout`: each of `LEAD_INS` before each of
  `LEAD_IN_COMMANDS`, a command (the transcript is the command alone, so heard right
  means that command, once, and nothing else);
- `short-talk-tuning`, `short-talk-heldout`: each of `SHORT_TALK` alone, chatter
  (heard right means no command).

Every item in every voice of the split's voices (`make_corpus.TUNING_VOICES` or
`HELDOUT_VOICES`), clean, 20 dB and 10 dB, in the layout `benchmarks.speech` reads.
A split of the tuning voices is for choosing, the held-out voices' for reporting;
the words are the same in both, so a word-by-word choice made on one is not
measured on the other.
"""

from __future__ import annotations

import random
import re
import shutil
import tempfile
import zlib
from collections.abc import Sequence
from pathlib import Path

from benchmarks.make_corpus import (
    CONDITIONS,
    HELDOUT_VOICES,
    RATES,
    TUNING_VOICES,
    SplitTables,
    Utterance,
    build_from_command_line,
    speak,
    trim,
    with_noise,
)

LEAD_INS = ("okay,", "ok", "so", "and", "now", "um,", "uh,", "right,", "alright,", "then",
            "please", "well,")
"""Words said before a command (a comma: espeak-ng pauses there, as people often do)."""
LEAD_IN_COMMANDS = ("flip", "spit", "seven on left", "nine", "what's on the left",
                    "slap left", "ready", "king on the right", "yes", "draw")
"""Commands of every kind: moves, a bare rank, a question, an answer."""
SHORT_TALK = ("okay", "alright", "so", "and", "now", "then", "fine", "oh", "right", "sure",
              "well", "nice", "good", "great", "wait", "hmm", "whatever", "line", "tree",
              "free", "door", "sticks", "heaven", "mine", "done", "cool", "again", "oops",
              "gosh", "all right", "ok", "okay then", "right then", "got it", "oh well",
              "go ahead", "and then", "so so", "um", "uh")
"""Short words said alone, many of them near a command word ("fine" and "five", "then"
and "ten", "tree" and "three", "now" and "no")."""

PROBES: dict[str, tuple[str, tuple[str, ...]]] = {
    "lead-in-tuning": ("lead-in", TUNING_VOICES),
    "lead-in-heldout": ("lead-in", HELDOUT_VOICES),
    "short-talk-tuning": ("short-talk", TUNING_VOICES),
    "short-talk-heldout": ("short-talk", HELDOUT_VOICES),
}


def items(kind: str) -> list[tuple[str, str, str]]:
    """(said, transcript, kind) per item of a probe kind."""
    if kind == "lead-in":
        return [(f"{lead} {command}", command, "command")
                for lead in LEAD_INS for command in LEAD_IN_COMMANDS]
    return [(words, words, "chatter") for words in SHORT_TALK]


def build(out: Path, name: str) -> Path:
    """Write one probe split under `out/name`; returns the manifest's path."""
    kind, voices = PROBES[name]
    return build_items(out / name, items(kind), voices, seed=name)


def build_items(directory: Path, said: Sequence[tuple[str, str, str]],
                voices: Sequence[str], *, seed: str) -> Path:
    """Every item in every voice, at a seeded rate, in every noise condition."""
    if directory.exists():
        shutil.rmtree(directory)
    rng = random.Random(seed)
    tables = SplitTables(directory)
    with tempfile.TemporaryDirectory() as workdir:
        for number, (text, transcript, kind) in enumerate(said):
            for voice in voices:
                utterance = Utterance(transcript, kind, voice, rng.randint(*RATES))
                speech = trim(speak(text, voice, utterance.rate, Path(workdir)))
                words = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
                for condition, snr_db in CONDITIONS.items():
                    relative = f"{condition}/{number:03d}-{voice}-{words[:40]}.wav"
                    tables.add(relative, with_noise(speech, snr_db,
                                                    zlib.crc32(f"{seed}:{relative}".encode())),
                               speech, utterance)
    return tables.write()


def main() -> None:
    build_from_command_line(__doc__.splitlines()[0], tuple(PROBES), build)


if __name__ == "__main__":
    main()
