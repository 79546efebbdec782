"""Reading a CTranslate2 `model.bin` without CTranslate2: the decoder weights the scorer needs.

The format is the one CTranslate2's own converter writes
(`ctranslate2/specs/model_spec.py`, `_serialize`): a little-endian header
(binary version, spec name, revision, variable count), then for each variable
its name, rank, shape, type id and byte count followed by the raw values, and
finally a list of aliases (name -> the variable it shares, such as the output
projection tied to the embeddings). Strings are a 16-bit length that counts a
trailing NUL. Type ids follow CTranslate2's DataType enum.

The whole file is memory-mapped and only the variables asked for are copied
out, so reading the decoder of a 75 MB model costs a fraction of a second.
"""

from __future__ import annotations

import mmap
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from voicespit.errors import VoiceSpitError

_TYPES: dict[int, type[np.generic]] = {0: np.float32, 1: np.int8, 2: np.int16, 3: np.int32,
                                       4: np.float16}
"""CTranslate2's DataType ids (5, bfloat16, has no numpy type and is refused)."""
_KNOWN_VERSIONS = range(1, 7)


class ModelFileError(VoiceSpitError):
    """A model.bin that is not CTranslate2's format, or is cut short."""


@dataclass(frozen=True, slots=True)
class _Entry:
    shape: tuple[int, ...]
    type_id: int
    offset: int
    size: int


class ModelFile:
    """The variables of one model.bin, read on demand."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            with path.open("rb") as file:
                self._map = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError) as error:
            raise ModelFileError(f"{path}: cannot read it ({error})") from None
        self._position = 0
        try:
            self.version = self._u32()
            self.spec = self._string()
            self.revision = self._u32() if self.version >= 2 else 1
            self._entries: dict[str, _Entry] = {}
            for _ in range(self._u32()):
                name = self._string()
                shape = tuple(self._u32() for _ in range(self._u8()))
                type_id = self._u8()
                size = self._u32()
                self._entries[name] = _Entry(shape, type_id, self._position, size)
                self._position += size
            self.aliases = {}
            if self._position < len(self._map):
                for _ in range(self._u32()):
                    alias = self._string()
                    self.aliases[alias] = self._string()
        except (struct.error, UnicodeDecodeError, IndexError):
            raise ModelFileError(f"{path}: not a CTranslate2 model, or cut short") from None
        if self.version not in _KNOWN_VERSIONS or self._position > len(self._map):
            raise ModelFileError(f"{path}: not a CTranslate2 model, or cut short")

    def __contains__(self, name: str) -> bool:
        return self.aliases.get(name, name) in self._entries

    def array(self, name: str) -> npt.NDArray[np.float32]:
        """A variable as float32 (weights) or its own integer type (flags and counts)."""
        shaped = self.stored(name)
        if np.issubdtype(shaped.dtype, np.floating):
            return shaped.astype(np.float32)
        return shaped.copy()  # type: ignore[return-value]

    def stored(self, name: str) -> npt.NDArray[np.generic]:
        """A variable as stored, without a copy (a read-only view of the mapped file)."""
        entry = self._entries.get(self.aliases.get(name, name))
        if entry is None:
            raise ModelFileError(f"{self.path}: the model has no {name}")
        kind = _TYPES.get(entry.type_id)
        if kind is None:
            raise ModelFileError(f"{self.path}: {name} has a type VoiceSpit cannot read")
        values = np.frombuffer(self._map, dtype=np.dtype(kind).newbyteorder("<"),
                               count=entry.size // np.dtype(kind).itemsize, offset=entry.offset)
        return values.reshape(entry.shape)

    def scalar(self, name: str) -> int:
        return int(self.array(name).reshape(-1)[0])

    def close(self) -> None:
        self._map.close()

    def _u8(self) -> int:
        value: int = self._map[self._position]
        self._position += 1
        return value

    def _u32(self) -> int:
        (value,) = struct.unpack_from("<I", self._map, self._position)
        self._position += 4
        return int(value)

    def _string(self) -> str:
        (length,) = struct.unpack_from("<H", self._map, self._position)
        start = self._position + 2
        self._position = start + length
        return bytes(self._map[start:start + length - 1]).decode("utf-8")
