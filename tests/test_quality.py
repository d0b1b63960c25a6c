"""The code stays lint-clean, formatted and strictly typed (ruff and mypy, as configured
in pyproject.toml). Skipped where the tools are not installed (they come with `.[test]`)."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed")
    return found


def test_ruff_lint_is_clean() -> None:
    result = _run(_tool("ruff"), "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    result = _run(_tool("ruff"), "format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("platform", ["linux", "win32", "darwin"])
def test_mypy_strict_is_clean(platform: str) -> None:
    """Strict on each system the players run, as mypy reads ``sys.platform`` checks: a
    POSIX-only call must stand behind one (each platform keeps a cache of its own). Slow:
    7 s of CPU each on a fresh cache here, three platforms, so outside the quick suite."""
    cache = f".mypy_cache/{platform}"
    result = _run(_tool("mypy"), "--platform", platform, "--cache-dir", cache)
    assert result.returncode == 0, result.stdout + result.stderr


def _imports(package: str) -> Iterator[tuple[str, str]]:
    """(file, top-level module) for every absolute import in a package."""
    for path in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                roots = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                roots = [node.module.split(".")[0]]
            else:
                continue
            for root in roots:
                yield str(path.relative_to(ROOT)), root


STDLIB = set(sys.stdlib_module_names) | {"__future__"}


# The standard library's ways to reach files, sockets, processes and the event loop.
IO = {
    "asyncio",
    "io",
    "os",
    "pathlib",
    "selectors",
    "shutil",
    "socket",
    "ssl",
    "subprocess",
    "tempfile",
}


def test_engine_imports_only_the_standard_library_less_its_io() -> None:
    """The layering rule: engine/ imports nothing outside the standard library and itself,
    and does no I/O (no file, socket or process module, no ``open``): the rules and the AI
    are pure, and whoever keeps a log in a file writes its bytes."""
    for path, root in _imports("engine"):
        assert root in (STDLIB - IO) | {"engine"}, f"{path} imports {root}"
    for path in (ROOT / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id != "open", f"{path.relative_to(ROOT)} calls open()"


def test_protocol_imports_only_engine_msgpack_and_no_io() -> None:
    """protocol/ is sans-I/O: engine, msgpack and the standard library less its I/O."""
    allowed = (STDLIB - {"asyncio", "socket", "selectors", "ssl"}) | {
        "engine",
        "msgpack",
        "protocol",
    }
    for path, root in _imports("protocol"):
        assert root in allowed, f"{path} imports {root}"


def test_host_never_imports_pygame_or_the_client() -> None:
    for path, root in _imports("host"):
        assert root not in ("pygame", "client"), f"{path} imports {root}"


def test_the_command_line_and_network_layers_never_load_pygame() -> None:
    """``client.cli`` and ``client.net`` (and the pure table pieces) run headless tools and
    bots: importing every module of them leaves pygame unloaded."""
    modules = [
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for package in ("client/cli", "client/net")
        for path in (ROOT / package).rglob("*.py")
    ]
    modules += ["client.ui.metrics", "client.screens.table.layout", "client.screens.table.board"]
    modules += ["client.screens.table.pacing", "client.screens.table.intent"]
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "print('pygame' in sys.modules)\n"
    )
    result = _run(sys.executable, "-c", script)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_the_window_layers_import_downwards_only() -> None:
    """``ui`` never imports a screen or the app; a screen never imports the app or another
    screen (it asks the app for it by name): only its own package and ``screens.choices``."""
    for path, module in _client_imports("client/ui"):
        assert not module.startswith(("client.screens", "client.app")), f"{path} imports {module}"
    for path, module in _client_imports("client/screens"):
        own = ".".join(Path(path).parent.parts)  # a screen's package: room, table
        nested = own != "client.screens" and module.startswith(own + ".")
        allowed = nested or module == "client.screens.choices"
        if module.startswith("client.screens"):
            assert allowed, f"{path} imports {module}"
        assert module != "client.app", f"{path} imports the app"


def _client_imports(package: str) -> Iterator[tuple[str, str]]:
    """(file, module) for every absolute ``client.`` import in a package, nested ones too."""
    for path in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                if name.startswith("client"):
                    yield str(path.relative_to(ROOT)), name


def _module_imports(root: Path, package: str, *, for_typing: bool = False) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports, at any depth of the code
    (imports inside functions count); those only for type checking (under ``if
    TYPE_CHECKING:``) only ``for_typing``."""
    graph: dict[str, set[str]] = {}
    for path in (root / package).rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        here = name if parts[-1] == "__init__" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = (
            set()
            if for_typing
            else {
                id(n)
                for node in ast.walk(tree)
                if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
                for n in ast.walk(node)
            }
        )
        found: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif _loads_module(node):
                assert isinstance(node, ast.Call) and isinstance(node.args[0], ast.Constant)
                found.add(str(node.args[0].value))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join([*anchor, *([base] if base else [])])
                found |= {f"{base}:{alias.name}" for alias in node.names}
        graph[name] = found
    modules = set(graph)

    def target(imported: str) -> str:
        """``from package import name``: the submodule where there is one, else the package."""
        base, _, name = imported.partition(":")
        return f"{base}.{name}" if f"{base}.{name}" in modules else base

    return {m: {target(i) for i in found} & modules - {m} for m, found in graph.items()}


def _loads_module(node: ast.AST) -> bool:
    """``import_module("a.b")`` (or ``importlib.import_module``) with a literal name: an
    import all the same, made where it runs (the cycle check counts it)."""
    if not isinstance(node, ast.Call) or not node.args:
        return False
    func, name = node.func, node.args[0]
    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    return (
        called == "import_module" and isinstance(name, ast.Constant) and isinstance(name.value, str)
    )


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """The first import cycle found (its modules, the first one again at the end), or None."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        for imported in sorted(graph[module]):
            cycle = visit(imported, [*path, module])
            if cycle is not None:
                return cycle
        done.add(module)
        return None

    for module in sorted(graph):
        cycle = visit(module, [])
        if cycle is not None:
            return cycle
    return None


# The engine's modules form a stack even for the type checker: a circle hidden under ``if
# TYPE_CHECKING:`` still means two modules cannot be understood (or split) apart.
TYPING_TOO = {"engine"}


@pytest.mark.parametrize("package", ["engine", "protocol", "host", "client"])
def test_no_package_has_an_import_cycle(package: str) -> None:
    cycle = _cycle(_module_imports(ROOT, package, for_typing=package in TYPING_TOO))
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_an_import_only_for_type_checking_closes_a_cycle_where_typing_counts(
    tmp_path: Path,
) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from .b import B\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from .a import A\n"
    )
    assert _cycle(_module_imports(tmp_path, "pkg")) is None
    assert _cycle(_module_imports(tmp_path, "pkg", for_typing=True)) == ["pkg.a", "pkg.b", "pkg.a"]


def test_a_module_loaded_by_name_closes_a_cycle(tmp_path: Path) -> None:
    """``importlib.import_module("pkg.a")`` inside a function is an import of ``pkg.a``."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from .b import B\n")
    (package / "b.py").write_text(
        "import importlib\n\n\ndef later():\n    return importlib.import_module('pkg.a')\n"
    )
    assert _cycle(_module_imports(tmp_path, "pkg")) == ["pkg.a", "pkg.b", "pkg.a"]


def test_the_ci_workflow_is_a_valid_workflow() -> None:
    """The OS-matrix workflow cannot run here: its syntax is checked against the schema of
    such files, which check-jsonschema carries (no download)."""
    workflows = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
    assert workflows
    result = _run(
        _tool("check-jsonschema"),
        "--builtin-schema",
        "vendor.github-workflows",
        *map(str, workflows),
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_two_test_folders_have_a_helper_module_of_one_name() -> None:
    """pytest puts each test folder on ``sys.path`` and imports a helper by its bare name:
    two ``tables.py`` in two folders are one module to a run that reaches both, and the
    second folder's tests import the first's (it broke the suite once)."""
    seen: dict[str, Path] = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if path.name.startswith("test_") or path.name in ("conftest.py", "__init__.py"):
            continue
        if "benchmarks" in path.parts:
            continue
        other = seen.setdefault(path.name, path)
        assert other == path, f"{other.relative_to(ROOT)} and {path.relative_to(ROOT)}"
