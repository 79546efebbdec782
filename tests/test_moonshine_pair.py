"""The Moonshine study's tokenizer: SentencePiece BPE read from a list of pieces in id order.

The real `tokenizer.bin` comes with `moonshine-cpp`, which the project does not install;
its ids were checked against Hugging Face's tokenizer on every written form of the
grammar when the study was made (benchmarks/LEVERS.md, round 21). Here a small piece
list of the same layout checks the rules themselves: the merge whose joined piece has
the lowest id goes first, and what no piece covers falls back to its bytes.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.moonshine_pair import PieceTokenizer

SPECIAL = [b"<unk>", b"<s>", b"</s>"]
BYTES = [bytes([value]) for value in range(256)]
"""Ids 3 to 258, as in the real file: the byte fallback."""
SPACE = "▁".encode()


def pieces_file(tmp_path: Path, pieces: list[bytes]) -> Path:
    path = tmp_path / "tokenizer.bin"
    path.write_bytes(b"".join(bytes([len(piece)]) + piece for piece in pieces))
    return path


def tokenizer_with(tmp_path: Path, *merged: bytes) -> tuple[PieceTokenizer, dict[bytes, int]]:
    """Characters first (as single pieces), then `merged` in merge order."""
    characters = [SPACE, *(letter.encode() for letter in "abcdefghijklmnopqrstuvwxyz")]
    pieces = [*SPECIAL, *BYTES, *characters, *merged]
    ids = {piece: index for index, piece in enumerate(pieces)}
    return PieceTokenizer(pieces_file(tmp_path, pieces)), ids


def test_the_lowest_id_merges_first(tmp_path: Path) -> None:
    # In "even", merging from the left would join "▁e" first and leave "v" alone; by id,
    # "en" goes first, then "ev", and "▁" has nothing left to join.
    tokenizer, ids = tokenizer_with(tmp_path, b"en", b"ev", SPACE + b"e")
    assert tokenizer.encode("even") == (ids[SPACE], ids[b"ev"], ids[b"en"])


def test_a_whole_word_piece_covers_the_word_and_spaces_mark_each_word(tmp_path: Path) -> None:
    tokenizer, ids = tokenizer_with(tmp_path, b"on", SPACE + b"on", b"ft", b"le",
                                    SPACE + b"le", SPACE + b"left")
    assert tokenizer.encode("on left") == (ids[SPACE + b"on"], ids[SPACE + b"left"])


def test_what_no_piece_covers_falls_back_to_its_bytes(tmp_path: Path) -> None:
    tokenizer, ids = tokenizer_with(tmp_path)
    assert tokenizer.encode("a7") == (ids[SPACE], ids[b"a"], 3 + ord("7"))
    assert tokenizer.encode("é") == (ids[SPACE], *(3 + byte for byte in "é".encode()))
