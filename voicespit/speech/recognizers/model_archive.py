"""Unpacking a model zip (or copying an unpacked model folder) into a staging folder.

Vosk publishes each model as a zip holding one folder (`vosk-model-small-en-us-0.15/`
with am/, conf/, graph/ ...). People also re-zip models with the files at the top,
or let their browser unpack the download, so the model's root is found wherever
`am/final.mdl` sits. Members are written one by one under checked paths: a zip
cannot write outside the staging folder, nor plant a symbolic link.
"""

from __future__ import annotations

import shutil
import stat
import zipfile
from pathlib import Path, PurePosixPath

from voicespit.speech.recognizers.download import disk_space_shortfall

_MARKER = PurePosixPath("am/final.mdl")
_IGNORED_PREFIXES = ("__MACOSX/",)


class ArchiveError(Exception):
    """The zip or folder holds no single model; `not_a_zip` when it is not a zip at all."""

    def __init__(self, message: str, *, not_a_zip: bool = False) -> None:
        super().__init__(message)
        self.not_a_zip = not_a_zip


def unpack_model_zip(archive: Path, staging: Path, fallback_name: str) -> Path:
    """Unpack the one model in `archive` into `staging/<name>` and return that folder.

    The name is the zip's top folder, or `fallback_name` when the files sit at the top.
    """
    if not zipfile.is_zipfile(archive):
        raise ArchiveError("not a zip file", not_a_zip=True)
    try:
        with zipfile.ZipFile(archive) as bundle:
            members = [member for member in bundle.infolist()
                       if not member.filename.startswith(_IGNORED_PREFIXES)]
            root = _model_root([PurePosixPath(member.filename) for member in members])
            name = root.name or fallback_name
            if not name:
                raise ArchiveError("cannot tell the model's name; give one with --name")
            target = staging / name
            chosen = [member for member in members if _is_under(member.filename, root)]
            shortfall = disk_space_shortfall(staging, sum(member.file_size for member in chosen))
            if shortfall:
                raise ArchiveError(shortfall)
            for member in chosen:
                _extract(bundle, member, root, target)
    except zipfile.BadZipFile as error:
        raise ArchiveError(f"the zip is damaged ({error}); download it again",
                           not_a_zip=True) from None
    return target


def copy_model_folder(folder: Path, staging: Path) -> Path:
    """Copy an unpacked model (the folder itself, or its one model sub-folder) into staging."""
    roots = sorted({marker.parent.parent for marker in folder.glob("**/am/final.mdl")},
                   key=lambda root: (len(root.parts), str(root)))
    if not roots:
        raise ArchiveError(f"{folder} holds no Vosk model (no am/final.mdl inside)")
    if len(roots) > 1 and len(roots[0].parts) == len(roots[1].parts):
        raise ArchiveError(f"{folder} holds several models; install them one at a time")
    target = staging / roots[0].name
    shutil.copytree(roots[0], target, symlinks=False)
    return target


def _model_root(paths: list[PurePosixPath]) -> PurePosixPath:
    for path in paths:
        if path.is_absolute() or ".." in path.parts:
            raise ArchiveError(f"the zip holds an unsafe path: {path}")
    roots = sorted({_root_of(path) for path in paths if _ends_with_marker(path)},
                   key=lambda root: (len(root.parts), str(root)))
    if not roots:
        raise ArchiveError("no Vosk model inside (no am/final.mdl)")
    if len(roots) > 1 and len(roots[0].parts) == len(roots[1].parts):
        raise ArchiveError("the zip holds several models; install them one at a time")
    return roots[0]


def _ends_with_marker(path: PurePosixPath) -> bool:
    return path.parts[-len(_MARKER.parts):] == _MARKER.parts


def _root_of(marker_path: PurePosixPath) -> PurePosixPath:
    return PurePosixPath(*marker_path.parts[:-len(_MARKER.parts)])


def _is_under(filename: str, root: PurePosixPath) -> bool:
    return root == PurePosixPath() or PurePosixPath(filename).parts[:len(root.parts)] == root.parts


def _extract(bundle: zipfile.ZipFile, member: zipfile.ZipInfo, root: PurePosixPath,
             target: Path) -> None:
    if stat.S_ISLNK(member.external_attr >> 16):
        raise ArchiveError(f"the zip holds a symbolic link ({member.filename}); refusing it")
    relative = PurePosixPath(member.filename).relative_to(root)
    destination = target.joinpath(*relative.parts)
    if member.is_dir():
        destination.mkdir(parents=True, exist_ok=True)
        return
    destination.parent.mkdir(parents=True, exist_ok=True)
    with bundle.open(member) as source, destination.open("wb") as output:
        shutil.copyfileobj(source, output, 1024 * 1024)

