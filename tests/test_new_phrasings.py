"""The vocabulary A/B's whole splits (benchmarks/new_phrasings.py): a split of commands
counts what was heard and what was taken wrong, a split of table talk what was taken."""

from __future__ import annotations

from pathlib import Path

from benchmarks.new_phrasings import whole_columns
from voicespit.speech.language.parser import parse
from voicespit.speech.recognizers.transcription import CorpusItem, FileResult


def result(transcript: str, kind: str, heard: str | None) -> FileResult:
    item = CorpusItem(Path(f"{transcript}.wav"), f"clean/{transcript}.wav", transcript, kind)
    return FileResult(item, commands=[parse(heard)] if heard else [])


def test_commands_heard_and_wrong_and_table_talk_taken_are_each_their_own_column() -> None:
    natural = [result("faster", "command", "faster"), result("slower", "command", "spit"),
               result("speed up", "command", None), result("slow down", "command", "slow down")]
    talk = [result("go on", "chatter", "hang on"), result("oh wow", "chatter", None)]
    assert whole_columns({"natural-tuning": natural, "chatter-tuning": talk}) == {
        "natural-tuning heard": 0.5, "natural-tuning wrong": 0.25, "chatter-tuning taken": 0.5}

