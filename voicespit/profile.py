"""The player's profile: learned opponent pace, statistics and last settings.

Stored as JSON in the platform's data directory and written atomically (a
temporary file in the same directory, flushed and synced, then renamed over the
old one), so a crash, a kill or a power cut leaves either the old profile or the
new one, never half of one. A profile that cannot be read is set aside under a
new name with a message; the game then starts with a fresh one.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import tempfile
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from voicespit.errors import VoiceSpitError

FORMAT_VERSION = 1
NAME_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,40}$")


class ProfileError(VoiceSpitError):
    """A profile name that cannot be used, or a profile directory that cannot be written."""


@dataclass
class Profile:
    """What VoiceSpit remembers about one player between launches."""

    name: str = "default"
    games: int = 0
    wins: int = 0
    cards_played: int = 0
    seconds_played: float = 0.0
    commands_heard: int = 0
    commands_misheard: int = 0
    """Utterances that produced no command (not understood or rejected as unsure)."""
    opponent_seconds_per_card: float | None = None
    """The adaptive opponent's learned pace, so the next game starts where this one ended."""
    settings: dict[str, str] = field(default_factory=dict)
    """Settings the player changed in play (speech rate, verbosity, pace), as config values."""

    @property
    def cards_per_minute(self) -> float:
        return 60.0 * self.cards_played / self.seconds_played if self.seconds_played else 0.0

    def to_json(self) -> str:
        return json.dumps({"version": FORMAT_VERSION, **asdict(self)}, indent=2, sort_keys=True)

    @staticmethod
    def from_json(text: str) -> Profile:
        """Parse a stored profile; raises ValueError when it is not one."""
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
            raise ValueError("not a VoiceSpit profile of a known version")
        known = {f.name: f for f in fields(Profile)}
        values: dict[str, object] = {}
        for key, value in data.items():
            if key == "version" or key not in known:
                continue
            values[key] = _checked(key, value)
        return Profile(**values)  # type: ignore[arg-type]


def _checked(key: str, value: object) -> object:
    """Refuse values of the wrong type, so a damaged file cannot poison the game."""
    expected: dict[str, tuple[type, ...]] = {
        "name": (str,), "games": (int,), "wins": (int,), "cards_played": (int,),
        "seconds_played": (int, float), "commands_heard": (int,), "commands_misheard": (int,),
        "opponent_seconds_per_card": (int, float, type(None)), "settings": (dict,),
    }
    if isinstance(value, bool) or not isinstance(value, expected[key]):
        raise ValueError(f"{key} has the wrong type")
    if isinstance(value, (int, float)) and value < 0:
        raise ValueError(f"{key} is negative")
    if key == "settings":
        assert isinstance(value, dict)
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
            raise ValueError("settings must map names to text")
    return value


_WHY_NOT_WRITTEN = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk is full",
    errno.EROFS: "the disk cannot be written to",
    errno.EACCES: "I am not allowed to write there",
    errno.EPERM: "I am not allowed to write there",
    errno.ENOTDIR: "its folder cannot be made",
    errno.EEXIST: "its folder cannot be made",
}


def why_not_written(error: OSError) -> str:
    """Why a file could not be written, in words a player understands (no path, no code)."""
    return _WHY_NOT_WRITTEN.get(error.errno or 0, "the disk refused it")


class ProfileStore:
    """Profiles as `<directory>/<name>.json`."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def path_of(self, name: str) -> Path:
        if not NAME_PATTERN.match(name):
            raise ProfileError(
                f"profile name {name!r} is not allowed: use 1-40 letters, digits, - or _")
        return self.directory / f"{name}.json"

    def load(self, name: str = "default") -> tuple[Profile, str | None]:
        """The stored profile (or a fresh one) and a message to speak, if any."""
        path = self.path_of(name)
        self._remove_leftovers(name)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return Profile(name=name), None
        except OSError as error:
            return Profile(name=name), f"I could not read your profile ({error.strerror}); " \
                "starting fresh for this game."
        try:
            # Decoded here, not read as text: bytes that are not UTF-8 are damage too
            # (UnicodeDecodeError is a ValueError), never a traceback.
            profile = Profile.from_json(data.decode("utf-8"))
        except (ValueError, TypeError):
            kept = self._set_aside(path)
            return Profile(name=name), (
                f"Your profile was damaged. I kept it as {kept.name} and started a fresh one.")
        profile.name = name
        return profile, None

    def save(self, profile: Profile) -> Path:
        """Write atomically: the old file stays whole until the new one is complete."""
        path = self.path_of(profile.name)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            descriptor, temporary = tempfile.mkstemp(
                prefix=f".{profile.name}.", suffix=".tmp", dir=self.directory)
            try:
                with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
                    handle.write(profile.to_json())
                    handle.flush()
                    os.fsync(handle.fileno())
                Path(temporary).replace(path)
            except BaseException:
                with contextlib.suppress(OSError):
                    Path(temporary).unlink()
                raise
            self._sync_directory()
        except OSError as error:
            raise ProfileError(f"I could not save your profile: {why_not_written(error)}",
                               detail=f"{self.directory}: {error.strerror or error}") from error
        return path

    def _remove_leftovers(self, name: str) -> None:
        # A save killed between creating its temporary file and the rename leaves the
        # temporary behind; the real profile is intact, so the leftover can go.
        for leftover in self.directory.glob(f".{name}.*.tmp"):
            with contextlib.suppress(OSError):
                leftover.unlink()

    def _sync_directory(self) -> None:
        # The rename is durable only once the directory entry itself is on disk.
        with contextlib.suppress(OSError):
            descriptor = os.open(self.directory, os.O_RDONLY)
            try:
                os.fsync(descriptor)
            finally:
                os.close(descriptor)

    def _set_aside(self, path: Path) -> Path:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        kept = path.with_name(f"{path.stem}.damaged-{stamp}.json")
        counter = 1
        while kept.exists():
            counter += 1
            kept = path.with_name(f"{path.stem}.damaged-{stamp}-{counter}.json")
        path.replace(kept)
        return kept
