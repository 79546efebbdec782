"""The architecture of docs/ARCHITECTURE.md, checked: each package imports only the ones
below it, no module-level import circle, the engine is pure, and nothing needs the
audio stack just to be imported."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "voicespit"
AUDIO_STACK = ("vosk", "pocketsphinx", "pyttsx3", "sounddevice", "ctranslate2", "pywebrtc_audio")

CROSS_CUTTING = {"errors", "clock", "config", "profile", "resampling"}
"""The only modules outside a package (with `__init__` and `__main__`): what every layer
may lean on. `resampling` is here because both `audio` and `speech` need it and neither
may import the other."""

# From the bottom up. A unit may import its own layer and the layers below it. A unit is
# a top-level module or package, or one of speech's sub-packages; "speech" alone is the
# speech package's own modules (the recognizer contract and the signal arithmetic).
LAYERS = (
    CROSS_CUTTING,
    {"engine"},
    {"match"},
    {"opponent", "narration"},
    {"simulation"},
    {"speech"},
    {"speech.language"},
    {"speech.listening"},
    {"speech.recognizers"},
    {"audio"},
    {"app"},
    {"cli", "__main__"},
)
APART = (("audio", "speech"), ("speech", "audio"))
"""Neither may lean on the other, whatever their layers: the app wires sound in and out."""
SPEECH_PARTS = ("language", "listening", "recognizers")


def unit_of(module: str) -> str:
    """`voicespit.speech.listening.gate` -> "speech.listening"; `voicespit.match.inbox` -> "match"."""
    parts = module.split(".")[1:]
    if not parts:
        return ""
    if parts[0] == "speech" and len(parts) > 2 and parts[1] in SPEECH_PARTS:
        return f"speech.{parts[1]}"
    return parts[0]


def layer_of(unit: str) -> int:
    for index, names in enumerate(LAYERS):
        if unit in names:
            return index
    raise AssertionError(f"voicespit.{unit} is in no layer: add it to LAYERS in {__file__}")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported_modules(path: Path, module_level_only: bool) -> Iterator[str]:
    """The voicespit modules `path` imports: `from a.b import c` names a.b.c when that is
    a module, else a.b. With `module_level_only`, only imports run when the module loads
    (not those inside functions or under `if TYPE_CHECKING`)."""
    tree = ast.parse(path.read_text())
    nodes = tree.body if module_level_only else list(ast.walk(tree))
    for node in nodes:
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name.startswith("voicespit."))
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and node.module.startswith("voicespit"):
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                yield submodule if submodule in MODULES else node.module


@pytest.mark.parametrize("name", sorted(MODULES), ids=str)
def test_each_package_imports_only_the_ones_below_it(name: str) -> None:
    unit = unit_of(name)
    if not unit:
        return
    mine = layer_of(unit)
    for imported in imported_modules(MODULES[name], module_level_only=False):
        theirs = unit_of(imported)
        if theirs == unit or not theirs:
            continue
        assert layer_of(theirs) <= mine, f"{name} ({unit}) imports {imported}, a layer above"
        for low, high in APART:
            assert not (unit.startswith(low) and theirs.startswith(high)), \
                f"{name} must not import {imported}"


def test_only_the_cross_cutting_modules_sit_outside_a_package() -> None:
    loose = {path.stem for path in PACKAGE.glob("*.py")} - {"__init__", "__main__"}
    assert loose == CROSS_CUTTING


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("__init__.py")),
                         ids=lambda p: str(p.parent.relative_to(PACKAGE.parent)))
def test_each_package_says_what_it_owns_and_what_it_may_import(path: Path) -> None:
    docstring = ast.get_docstring(ast.parse(path.read_text())) or ""
    assert docstring and ("May import" in docstring or path.parent == PACKAGE), path


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of two or more modules (or one importing itself),
    each given as one circle through it: ["a", "b", "a"]."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for neighbour in sorted(graph.get(node, ())):
            if neighbour not in index:
                visit(neighbour)
                low[node] = min(low[node], low[neighbour])
            elif neighbour in on_stack:
                low[node] = min(low[node], index[neighbour])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, ()):
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_circle_through(group, graph) for group in groups]


def _circle_through(group: list[str], graph: dict[str, set[str]]) -> list[str]:
    """A shortest path from the group's first member back to itself, inside the group."""
    start, members = group[0], set(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for neighbour in sorted(graph.get(node, set()) & members):
                if neighbour == start:
                    return [*paths[node], start]
                if neighbour not in paths:
                    paths[neighbour] = [*paths[node], neighbour]
                    following.append(neighbour)
        frontier = following
    raise AssertionError(f"{group} is not a circle")


def test_the_circle_finder_names_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert import_circles(graph) == [["a", "b", "c", "a"], ["e", "e"]]
    assert import_circles({"a": {"b"}, "b": set()}) == []


def test_no_module_level_import_circle() -> None:
    graph = {name: set(imported_modules(path, module_level_only=True)) - {name}
             for name, path in MODULES.items()}
    circles = [" -> ".join(circle) for circle in import_circles(graph)]
    assert not circles, "import circles: " + "; ".join(circles)


def test_the_command_language_does_not_import_itself_back() -> None:
    """Not even inside a function: the value types know nothing of the grammar."""
    imported = set(imported_modules(MODULES["voicespit.speech.language.commands"],
                                    module_level_only=False))
    assert not {name for name in imported if name.startswith("voicespit.speech")}


def test_the_map_names_only_files_that_exist() -> None:
    """docs/ARCHITECTURE.md is where a newcomer looks first: a path it names that has gone
    sends them nowhere."""
    project = PACKAGE.parent
    text = (project / "docs" / "ARCHITECTURE.md").read_text()
    # Paths from the project (voicespit/engine/rules.py) or the package (match/inbox.py).
    named = set(re.findall(r"(?<![\w/])((?:[a-z_]+/)+[a-z_]+\.(?:py|toml))\b", text))
    named |= {f"tests/{name}" for name in re.findall(r"\b(test_\w+\.py)\b", text)}
    missing = sorted(path for path in named if "NAME" not in path and not (project / path).exists()
                     and not (PACKAGE / path).exists())
    assert len(named) > 50 and not missing, missing
    for unit in {unit for layer in LAYERS for unit in layer} - {"__main__"}:
        folder = unit.replace(".", "/")
        assert f"`{folder}/`" in text or f"`{folder}.py`" in text or unit == "speech", unit


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
    names = [name for name in MODULES if not name.endswith("__main__")]
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
