"""Typed settings from config/default.toml, the player's own file, and flags.

Layers, each overriding the one before: the defaults in this module (which
config/default.toml documents, and a test keeps the two equal), the user's file
(`voicespit config --path`), then command-line flags. A bad value is refused
with the file, the key, the value and what is allowed, before anything starts,
so the game never runs half-configured.
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from platformdirs import user_config_dir, user_data_dir

from voicespit.errors import VoiceSpitError

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FILE = PROJECT_ROOT / "config" / "default.toml"
APP_NAME = "voicespit"


class ConfigError(VoiceSpitError):
    """A setting that cannot be used; the message names file, key, value and what is allowed."""


def choice(*allowed: str) -> dict[str, object]:
    return {"allowed": allowed}


def number(minimum: float, maximum: float) -> dict[str, object]:
    return {"minimum": minimum, "maximum": maximum}


@dataclass(frozen=True)
class GameSettings:
    game: str = field(default="spit", metadata=choice("spit", "speed"))
    variants: dict[str, str] = field(default_factory=dict)
    """Rule variants by the names RULES.md uses; checked by the engine's Rules."""


@dataclass(frozen=True)
class OpponentSettings:
    pace: str = "adaptive"
    """"adaptive", a named pace, or seconds per card; checked against the opponent's paces."""
    target_win_rate: float = field(default=0.5, metadata=number(0.05, 0.95))


LISTEN_MODES = ("auto", "always", "echo_guard", "headphones", "push_to_talk")


@dataclass(frozen=True)
class InputSettings:
    input: str = field(default="auto", metadata=choice("auto", "mic", "keyboard", "wav"))
    recognizer: str = field(default="auto",
                            metadata=choice("auto", "vosk", "whisper", "pocketsphinx"))
    vosk_model: str = ""
    whisper_model: str = ""
    models_dir: str = ""
    microphone: str = ""
    listen: str = field(default="auto", metadata=choice(*LISTEN_MODES))
    echo_tail_ms: int = field(default=300, metadata=number(0, 3000))


@dataclass(frozen=True)
class OutputSettings:
    audio: bool = True
    voice: str = ""
    rate: int = field(default=175, metadata=number(80, 450))
    volume: float = field(default=1.0, metadata=number(0.0, 1.0))
    verbosity: str = field(default="normal", metadata=choice("full", "normal", "terse"))
    earcons: bool = True
    echo_plays: bool = False
    """At full detail, say each spoken move back ("Heard seven on left.") before its result."""


@dataclass(frozen=True)
class PlaySettings:
    auto_spit: bool = True
    countdown_seconds: int = field(default=3, metadata=number(0, 5))
    countdown_interval: float = field(default=1.0, metadata=number(0.2, 2.0))
    wait_for_announcements: bool = True
    profile: str = "default"


@dataclass(frozen=True)
class Settings:
    game: GameSettings = field(default_factory=GameSettings)
    opponent: OpponentSettings = field(default_factory=OpponentSettings)
    input: InputSettings = field(default_factory=InputSettings)
    output: OutputSettings = field(default_factory=OutputSettings)
    play: PlaySettings = field(default_factory=PlaySettings)


Validator = Callable[[str, Settings], None]
"""Checks a section or setting that a layer above the config knows about (rules, paces)."""


def user_config_path() -> Path:
    """The player's own settings file (it need not exist)."""
    return Path(user_config_dir(APP_NAME)) / "config.toml"


def settings_file(explicit: Path | None) -> Path | None:
    """The file whose settings override the defaults: the one given, else the
    player's own if it exists, else none."""
    if explicit is not None:
        return explicit
    path = user_config_path()
    return path if path.exists() else None


def data_directory() -> Path:
    """Where profiles live."""
    return Path(user_data_dir(APP_NAME))


def load_settings(user_file: Path | None = None,
                  overrides: Mapping[str, Mapping[str, object]] | None = None,
                  *, include_defaults_file: bool = True,
                  validators: tuple[Validator, ...] = ()) -> Settings:
    """Defaults, then the documented default file, then `user_file`, then `overrides`.

    `overrides` is {"section": {"key": value}} as flags produce it. Raises ConfigError.
    """
    layers = [("settings", Settings())]
    if include_defaults_file and DEFAULT_FILE.exists():
        layers.append((str(DEFAULT_FILE), apply_file(layers[-1][1], DEFAULT_FILE)))
    if user_file is not None:
        if not user_file.exists():
            raise ConfigError(f"{user_file}: no such config file")
        layers.append((str(user_file), apply_file(layers[-1][1], user_file)))
    if overrides:
        layers.append(("command line", apply_table(layers[-1][1], overrides, "command line")))
    _validate(layers, validators)
    return layers[-1][1]


def _validate(layers: list[tuple[str, Settings]], validators: tuple[Validator, ...]) -> None:
    """Check the final settings; a failure names the layer that brought the bad value in
    (the highest one before which all was well), never just "settings"."""
    for validate in validators:
        try:
            validate(layers[-1][0], layers[-1][1])
        except ConfigError:
            for index in range(len(layers) - 1, -1, -1):
                if index == 0 or _passes(validate, *layers[index - 1]):
                    validate(*layers[index])  # raises, naming that layer
            raise


def _passes(validate: Validator, origin: str, settings: Settings) -> bool:
    try:
        validate(origin, settings)
    except ConfigError:
        return False
    return True


def apply_file(settings: Settings, path: Path) -> Settings:
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not a text file in UTF-8; save it as UTF-8 text") from None
    return apply_table(settings, table, str(path))


def apply_table(settings: Settings, table: Mapping[str, Any], origin: str) -> Settings:
    sections = {f.name: f for f in dataclasses.fields(Settings)}
    changes: dict[str, object] = {}
    for section_name, values in table.items():
        if section_name not in sections:
            raise ConfigError(f"{origin}: unknown section [{section_name}]; known sections: "
                              f"{', '.join(sections)}")
        if not isinstance(values, Mapping):
            raise ConfigError(f"{origin}: [{section_name}] must be a table of settings")
        section = getattr(settings, section_name)
        changes[section_name] = _apply_section(section, section_name, values, origin)
    return dataclasses.replace(settings, **changes)  # type: ignore[arg-type]


def _apply_section(section: Any, name: str, values: Mapping[str, Any], origin: str) -> Any:
    known = {f.name: f for f in dataclasses.fields(section)}
    changes: dict[str, object] = {}
    for key, value in values.items():
        spec = known.get(key)
        if spec is None:
            raise ConfigError(f"{origin}: unknown setting [{name}] {key}; known settings: "
                              f"{', '.join(known)}")
        where = f"{origin}: [{name}] {key} = {value!r}"
        if key == "variants":
            if not isinstance(value, Mapping):
                raise ConfigError(f"{where} must be a table such as {{ stockpiles = 4 }}")
            merged = dict(getattr(section, key))
            merged.update({str(k): _variant_text(v) for k, v in value.items()})
            changes[key] = merged
            continue
        changes[key] = _coerce(spec.metadata, type(getattr(section, key)), value, where)
    return dataclasses.replace(section, **changes)


def _variant_text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def bool_from_word(text: str) -> bool | None:
    """A yes-or-no setting written as a word: true, yes, on or 1, false, no, off or 0 (any
    case); None for any other word, which the caller must refuse, as bool("false") is True.
    One reading for the config file and for the benchmarks' settings to try."""
    word = text.strip().lower()
    if word in ("true", "yes", "on", "1"):
        return True
    if word in ("false", "no", "off", "0"):
        return False
    return None


def _coerce(meta: Mapping[str, Any], kind: type, value: object, where: str) -> object:
    if kind is bool:
        if isinstance(value, bool):
            return value
        flag = bool_from_word(value) if isinstance(value, str) else None
        if flag is None:
            raise ConfigError(f"{where} is not allowed; use true or false")
        return flag
    if kind in (int, float):
        number_value = _as_number(value, integer=kind is int)
        low, high = meta.get("minimum"), meta.get("maximum")
        shown = "a whole number" if kind is int else "a number"
        if number_value is None or (low is not None and number_value < low) \
                or (high is not None and number_value > high):
            raise ConfigError(f"{where} is not allowed; use {shown} from {low} to {high}")
        return number_value
    text = str(value) if not isinstance(value, (bool, dict, list)) else None
    if text is None:
        raise ConfigError(f"{where} is not allowed; use text")
    allowed = meta.get("allowed")
    if allowed is not None and text not in allowed:
        raise ConfigError(f"{where} is not allowed; choose {', '.join(allowed)}")
    return text


def _as_number(value: object, *, integer: bool) -> float | int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return None
    if not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    if integer:
        return int(value) if float(value).is_integer() else None
    return float(value)


def describe(settings: Settings) -> dict[str, dict[str, object]]:
    """Every setting by section, as a config file would hold it."""
    return {f.name: dataclasses.asdict(getattr(settings, f.name))
            for f in dataclasses.fields(settings)}
