"""Vosk models on disk: where they live, what each is, and installing one.

A model is a folder `models/<name>/` in Vosk's layout (am/, conf/, graph/,
usually ivector/). Installing writes a small `voicespit-model.json` beside the
model's own files recording its language and where it came from, because a
Vosk model does not say which language it speaks: VoiceSpit needs that to pick
an English model for `auto`. Models copied in by hand are still recognised: the
language then comes from the folder name (Vosk names its models
`vosk-model-[small-]<language>-<version>`) or from the model's README.

Nothing here imports vosk: checking and installing are file operations, so
`voicespit models list` works on a machine without the recognizer.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from voicespit.errors import VoiceSpitError
from voicespit.speech.recognizers import model_archive
from voicespit.speech.recognizers.download import DownloadError, Progress, download, file_name_in_url, is_url

METADATA_FILE = "voicespit-model.json"
MODELS_DIR_VARIABLE = "VOICESPIT_MODELS_DIR"
"""Environment variable that moves the models folder (e.g. to a shared or larger disk)."""

_ACOUSTIC_MODEL = Path("am/final.mdl")
_KALDI_MODEL_MAGIC = b"\x00B<TransitionModel>"
_FST_MAGIC = bytes.fromhex("d6fdb27e")
"""OpenFst's binary header: a graph file that lacks it is not a graph."""

_NAME_LANGUAGE = re.compile(r"^vosk-model-(?:small-)?([a-z]{2,3})(-[a-z]{2})?(?=-|$)")
_README_LANGUAGES = {"english": "en"}


class ModelError(VoiceSpitError):
    """A recognizer model is missing, unusable, or could not be installed."""


class ModelNotFoundError(ModelError):
    pass


class NotAVoskModelError(ModelError):
    pass


class CorruptModelError(ModelError):
    pass


class ModelAlreadyInstalledError(ModelError):
    pass


class NotAZipError(ModelError):
    pass


class ModelDownloadError(ModelError, DownloadError):
    """Installing from a URL failed before there was anything to install."""


@dataclass(frozen=True, slots=True)
class ModelInfo:
    name: str
    path: Path
    language: str | None
    """A language code such as "en-us" or "ko"; None when nothing tells."""
    supports_grammar: bool
    """Has a look-ahead graph (HCLr.fst + Gr.fst), so decoding can be narrowed to our phrases."""
    size_bytes: int
    problem: str | None = None
    """Why the folder cannot be used as a model (None for a usable model)."""
    source: str | None = None
    """The zip or URL it was installed from, when VoiceSpit installed it."""
    kind: str = "vosk"
    """"vosk", or "whisper" for a faster-whisper folder (the `whisper_model` setting)."""

    @property
    def is_english(self) -> bool:
        return self.language is not None and self.language.split("-")[0] == "en"


def default_models_dir() -> Path:
    """$VOICESPIT_MODELS_DIR, else the project's `models/` in a source checkout,
    else a per-user data folder (an installed package has no project folder)."""
    configured = os.environ.get(MODELS_DIR_VARIABLE)
    if configured:
        return Path(configured).expanduser()
    project = Path(__file__).resolve().parents[3]
    if (project / "pyproject.toml").is_file() and (project / "models").is_dir():
        return project / "models"
    import platformdirs  # only here: the checkout case above needs nothing installed

    return Path(platformdirs.user_data_dir("voicespit")) / "models"


def check_model_layout(path: Path) -> None:
    """Raise ModelNotFoundError, NotAVoskModelError or CorruptModelError unless `path`
    looks like a Vosk model.

    Checks the files Vosk needs, their headers, and the damage that would crash Vosk
    rather than fail its load; a truncated file shows only when the model is loaded
    (CorruptModelError then).
    """
    if not path.exists():
        raise ModelNotFoundError(f"no model at {path}: the folder does not exist")
    if not path.is_dir():
        raise NotAVoskModelError(f"{path} is a file, not a model folder")
    missing = [str(part) for part in (_ACOUSTIC_MODEL, Path("conf/model.conf"))
               if not (path / part).is_file()]
    graph = _graph_files(path)
    if not graph:
        missing.append("graph/HCLG.fst or graph/HCLr.fst with graph/Gr.fst")
    if missing:
        raise NotAVoskModelError(f"{path} is not a Vosk model: missing {', '.join(missing)}")
    if not _starts_with(path / _ACOUSTIC_MODEL, _KALDI_MODEL_MAGIC):
        raise NotAVoskModelError(f"{path / _ACOUSTIC_MODEL} is not a Kaldi acoustic model")
    for fst in graph:
        if not _starts_with(fst, _FST_MAGIC):
            raise NotAVoskModelError(f"{fst} is not a decoding graph (no OpenFst header)")
    # Damage that aborts Vosk's whole process instead of failing the load (found by
    # truncating each file of a model in turn):
    model_conf = (path / "conf/model.conf").read_text(encoding="utf-8", errors="replace")
    if "--endpoint.silence-phones" not in model_conf:
        raise CorruptModelError(f"{path / 'conf/model.conf'} is damaged: it does not set "
                                "--endpoint.silence-phones")
    for needed in (path / "graph/disambig_tid.int", path / "ivector/splice.conf"):
        if needed.exists() and needed.stat().st_size == 0:
            raise CorruptModelError(f"{needed} is empty: the model is damaged")


def describe_model(path: Path) -> ModelInfo:
    """What VoiceSpit knows about the folder `path`, including why it is unusable if it is."""
    metadata = _read_metadata(path)
    if _is_whisper(path):
        return _describe_whisper(path, metadata)
    problem = None
    try:
        check_model_layout(path)
    except ModelError as error:
        problem = str(error)
    language = metadata.get("language") or language_from_name(path.name) or _readme_language(path)
    return ModelInfo(
        name=path.name,
        path=path,
        language=language,
        supports_grammar=(path / "graph/HCLr.fst").is_file() and (path / "graph/Gr.fst").is_file(),
        size_bytes=_folder_size(path),
        problem=problem,
        source=metadata.get("source"),
    )


def list_models(models_dir: Path) -> list[ModelInfo]:
    """Every folder in `models_dir`, usable or not, by name (hidden and temporary ones skipped)."""
    if not models_dir.is_dir():
        return []
    return [describe_model(entry) for entry in sorted(models_dir.iterdir())
            if entry.is_dir() and not entry.name.startswith(".")]


def find_english_model(models_dir: Path) -> Path | None:
    """The English model `auto` should use, or None.

    Only a model that accepts a grammar qualifies (VoiceSpit narrows decoding to the
    commands; the large static-graph models cannot be narrowed and run slower than
    real time here); among those the smallest (quickest to load), then by name.
    """
    return choose_english_model(list_models(models_dir))


def choose_english_model(models: list[ModelInfo]) -> Path | None:
    """`find_english_model` among models already described."""
    candidates = [model for model in models if model.kind == "vosk"
                  and model.problem is None and model.is_english and model.supports_grammar]
    if not candidates:
        return None
    return min(candidates, key=lambda model: (model.size_bytes, model.name)).path


def language_from_name(name: str) -> str | None:
    """"vosk-model-small-en-us-0.15" -> "en-us"; None when the name is not in Vosk's pattern."""
    match = _NAME_LANGUAGE.match(name.lower())
    if match is None:
        return None
    return match.group(1) + (match.group(2) or "")


def install_model(source: str | Path, models_dir: Path, *, name: str | None = None,
                  language: str | None = None, replace: bool = False,
                  progress: Progress | None = None) -> Path:
    """Install a Vosk model from a zip file, an unpacked model folder, or an http(s) URL.

    The model is unpacked into a temporary folder inside `models_dir`, checked, and
    only then renamed into place, so an interrupted or failed install leaves no
    half-model behind. Returns the installed model's folder.
    """
    models_dir.mkdir(parents=True, exist_ok=True)
    text = str(source)
    url = text if is_url(text) else None
    local = None if url else Path(text).expanduser()
    if local is not None and not local.exists():
        raise ModelNotFoundError(f"nothing to install at {text}: no such file or folder")
    if local is not None and _is_whisper(local):
        return _install_whisper(local, models_dir, name or local.name, replace=replace)
    if name is not None:
        _checked_name(name)
    # Before a long download, refuse early if the model the URL names is already here.
    early_name = name or (_strip_zip(file_name_in_url(url)) if url else None)
    if early_name and not replace:
        _refuse_if_installed(models_dir / early_name)

    staging = Path(tempfile.mkdtemp(prefix=".install-", dir=models_dir))
    try:
        if url is not None:
            archive = staging / "download.zip"
            try:
                download(url, archive, progress)
            except DownloadError as error:
                raise ModelDownloadError(str(error)) from None
            unpacked = _unpack(archive, staging, _strip_zip(file_name_in_url(url)), url)
            archive.unlink()
        else:
            assert local is not None
            unpacked = _unpack(local, staging, _strip_zip(local.name), str(local))
        check_model_layout(unpacked)
        final_name = _checked_name(name or unpacked.name)
        target = models_dir / final_name
        _write_metadata(unpacked, language or language_from_name(final_name)
                        or _readme_language(unpacked), url or str(local.resolve() if local else ""))
        if target.exists():
            if not replace:
                _refuse_if_installed(target)
            target.rename(staging / ".replaced")
        unpacked.rename(target)
        return target
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _unpack(source: Path, staging: Path, fallback_name: str, origin: str) -> Path:
    try:
        if source.is_dir():
            return model_archive.copy_model_folder(source, staging)
        return model_archive.unpack_model_zip(source, staging, fallback_name)
    except model_archive.ArchiveError as error:
        kind = NotAZipError if error.not_a_zip else NotAVoskModelError
        raise kind(f"{origin}: {error}") from None


def _refuse_if_installed(target: Path) -> None:
    if target.exists():
        raise ModelAlreadyInstalledError(
            f"a model named {target.name} is already installed in {target.parent}; "
            "use --replace to install over it")


def _checked_name(name: str) -> str:
    if not name or name.startswith(".") or "/" in name or "\\" in name or name in ("..",):
        raise ModelError(f"{name!r} cannot be a model name; choose one with --name")
    return name


def _strip_zip(file_name: str) -> str:
    return file_name[:-4] if file_name.lower().endswith(".zip") else file_name


def _graph_files(path: Path) -> list[Path]:
    lookahead = [path / "graph/HCLr.fst", path / "graph/Gr.fst"]
    if all(fst.is_file() for fst in lookahead):
        return lookahead
    static = path / "graph/HCLG.fst"
    return [static] if static.is_file() else []


def _starts_with(path: Path, magic: bytes) -> bool:
    with path.open("rb") as file:
        return file.read(len(magic)) == magic


def _read_metadata(path: Path) -> dict[str, str]:
    try:
        data = json.loads((path / METADATA_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {key: value for key, value in data.items() if isinstance(value, str)}


def _write_metadata(model: Path, language: str | None, source: str) -> None:
    metadata = {"language": language or "", "source": source,
                "installed": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    (model / METADATA_FILE).write_text(json.dumps(metadata, indent=2) + "\n", encoding="utf-8")


def _readme_language(path: Path) -> str | None:
    try:
        first_lines = (path / "README").read_text(encoding="utf-8", errors="replace")[:500].lower()
    except OSError:
        return None
    for word, code in _README_LANGUAGES.items():
        if word in first_lines:
            return code
    return None


def _folder_size(path: Path) -> int:
    return sum(entry.stat().st_size for entry in path.rglob("*") if entry.is_file())


def _is_whisper(path: Path) -> bool:
    from voicespit.speech.recognizers.whisper_model import is_whisper_folder

    return is_whisper_folder(path)


def _describe_whisper(path: Path, metadata: dict[str, str]) -> ModelInfo:
    from voicespit.speech.recognizers.whisper_model import WhisperModelError, check_whisper_folder

    problem = None
    try:
        check_whisper_folder(path).close()
    except WhisperModelError as error:
        problem = f"{error} ({error.detail})" if error.detail else str(error)
    return ModelInfo(name=path.name, path=path, language=metadata.get("language") or None,
                     supports_grammar=True, size_bytes=_folder_size(path), problem=problem,
                     source=metadata.get("source"), kind="whisper")


def _install_whisper(folder: Path, models_dir: Path, name: str, *, replace: bool) -> Path:
    """Copy a faster-whisper model folder in, check it, and record its checksum so that
    later loads notice damage (`whisper_model = "NAME"` then uses it)."""
    from voicespit.speech.recognizers.whisper_model import WhisperModelError, check_whisper_folder, sha256_of

    target = models_dir / _checked_name(name)
    if not replace:
        _refuse_if_installed(target)
    try:
        check_whisper_folder(folder).close()
    except WhisperModelError as error:
        raise NotAVoskModelError(f"{folder}: {error}") from None
    staging = Path(tempfile.mkdtemp(prefix=".install-", dir=models_dir))
    try:
        copied = staging / target.name
        shutil.copytree(folder, copied, symlinks=False)
        metadata = {"kind": "whisper", "language": "", "source": str(folder.resolve()),
                    "sha256": sha256_of(copied / "model.bin"),
                    "installed": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
        (copied / METADATA_FILE).write_text(json.dumps(metadata, indent=2) + "\n",
                                            encoding="utf-8")
        if target.exists():
            target.rename(staging / ".replaced")
        copied.rename(target)
        return target
    finally:
        shutil.rmtree(staging, ignore_errors=True)
