"""The README says what the game does: its command and key tables are generated from
the grammar and the key map, and its quick start is what CI runs."""

from __future__ import annotations

import re
from pathlib import Path

from voicespit.app.reference import (
    COMMANDS_END,
    COMMANDS_START,
    KEYS_END,
    KEYS_START,
    commands_table,
    keys_table,
)

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def between(start: str, end: str) -> str:
    assert start in README and end in README, f"README lacks {start!r}"
    return README.split(start, 1)[1].split(end, 1)[0].strip()


def test_the_spoken_command_list_is_the_grammar() -> None:
    assert between(COMMANDS_START, COMMANDS_END) == commands_table(), \
        "regenerate with: python -m voicespit.app.reference"


def test_the_key_list_is_the_key_map() -> None:
    assert between(KEYS_START, KEYS_END) == keys_table(), \
        "regenerate with: python -m voicespit.app.reference"


def test_the_quick_start_is_two_commands_the_second_the_one_ci_runs() -> None:
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```\n(.*?)```", section, flags=re.DOTALL)
    assert block is not None
    commands = [line for line in block.group(1).splitlines() if line.strip()]
    assert commands == ["./quickstart play", "./quickstart test"]
    ci = (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text()
    assert "## Quick start" in ci and "count == 2" in ci
