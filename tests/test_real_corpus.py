"""The real-voice corpus (benchmarks/make_real_corpus.py): which words become commands and which chatter."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.make_real_corpus import CHATTER_WORDS, DIGIT_WORDS, build
from tests.conftest import REAL_VOICES


@pytest.mark.skipif(not REAL_VOICES.is_dir(), reason="the real recordings are not beside the repo")
def test_ranks_are_commands_and_the_other_digits_are_chatter(tmp_path: Path) -> None:
    commands = build(tmp_path, "commands", range(1), speakers=("theo",))
    chatter = build(tmp_path, "chatter", range(1), speakers=("theo",), words=CHATTER_WORDS,
                    kind="chatter")
    command_rows = [line.split("\t") for line in commands.read_text().splitlines()[1:]]
    chatter_rows = [line.split("\t") for line in chatter.read_text().splitlines()[1:]]
    # Take 0 of each word, quiet and in noise.
    assert sorted(said for _, said, _ in command_rows) == sorted(2 * list(DIGIT_WORDS.values()))
    assert {kind for _, _, kind in command_rows} == {"command"}
    assert sorted(said for _, said, _ in chatter_rows) == ["one", "one", "zero", "zero"]
    assert {kind for _, _, kind in chatter_rows} == {"chatter"}
    for path, _, _ in chatter_rows:
        assert (chatter.parent / path).stat().st_size > 0
