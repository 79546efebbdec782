"""The architecture of DESIGN.md, checked: imports point downward, the engine is pure,
and nothing needs the audio stack just to be imported."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "voicespit"
AUDIO_STACK = ("vosk", "pocketsphinx", "pyttsx3", "sounddevice", "ctranslate2", "pywebrtc_audio")

# From the bottom up. A module may import its own layer and the layers below it.
LAYERS = (
    {"errors", "clock", "config", "profile", "resampling"},
    {"engine"},
    # The real-time referee and the pieces it is built from.
    {"match"},
    {"opponent", "simulation"},
    {"narration"},
    {"audio", "speech"},
    {"app"},
    {"cli", "__main__"},
)
SIBLINGS_APART = {("audio", "speech"), ("speech", "audio")}
"""Same layer, but neither may lean on the other: the app wires them together."""


def layer_of(top: str) -> int:
    for index, names in enumerate(LAYERS):
        if top in names:
            return index
    raise AssertionError(f"voicespit.{top} is in no layer: add it to LAYERS in {__file__}")


def modules() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py"))


def top_name(path: Path) -> str:
    relative = path.relative_to(PACKAGE)
    return relative.parts[0].removesuffix(".py") if relative.parts[0] != "__init__.py" else ""


def voicespit_imports(path: Path) -> list[tuple[str, bool]]:
    """(imported top-level voicespit module, imported at module level) pairs."""
    tree = ast.parse(path.read_text())
    found: list[tuple[str, bool]] = []
    module_level = {id(node) for node in tree.body}
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            parts = name.split(".")
            if parts[0] == "voicespit" and len(parts) > 1:
                found.append((parts[1], id(node) in module_level))
    return found


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_downward(path: Path) -> None:
    top = top_name(path)
    if not top:
        return
    mine = layer_of(top)
    for imported, _ in voicespit_imports(path):
        if imported == top:
            continue
        assert layer_of(imported) <= mine, f"{top} (layer {mine}) imports {imported}, a layer above"
        assert (top, imported) not in SIBLINGS_APART, f"{top} must not import {imported}"


ENGINE_FORBIDDEN = {"time", "threading", "os", "io", "socket", "subprocess", "sys", "pathlib",
                    "asyncio", "datetime", "multiprocessing", "queue", "logging"}


@pytest.mark.parametrize("path", sorted((PACKAGE / "engine").glob("*.py")), ids=lambda p: p.name)
def test_the_engine_has_no_clock_threads_io_or_global_randomness(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                assert alias.name.split(".")[0] not in ENGINE_FORBIDDEN, f"imports {alias.name}"
        elif isinstance(node, ast.ImportFrom) and node.module:
            assert node.module.split(".")[0] not in ENGINE_FORBIDDEN, f"imports {node.module}"
            if node.module == "random":
                assert all(alias.name == "Random" for alias in node.names), "global random"
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id == "random":
            assert node.attr == "Random", f"random.{node.attr} uses the global generator"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in ("open", "print", "input"), f"calls {node.func.id}()"


def test_every_module_imports_without_the_audio_stack() -> None:
    """Engine, match, opponent, parser and narration load on a machine with no audio
    libraries; adapters import theirs lazily, so even they must import cleanly."""
    names = []
    for path in modules():
        relative = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = list(relative.parts)
        if parts[-1] == "__main__":
            continue
        if parts[-1] == "__init__":
            parts.pop()
        names.append(".".join(parts))
    program = (
        "import sys\n"
        f"for blocked in {AUDIO_STACK!r}:\n"
        "    sys.modules[blocked] = None\n"
        "import importlib\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        f"loaded = [m for m in {AUDIO_STACK!r} if sys.modules.get(m) is not None]\n"
        "assert not loaded, loaded\n"
        "print(len(" + repr(names) + "))\n"
    )
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                            cwd=PACKAGE.parent, timeout=120)
    assert result.returncode == 0, result.stderr
    assert int(result.stdout.strip()) == len(names) > 20
