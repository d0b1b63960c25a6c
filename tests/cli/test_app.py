"""The standalone app (packaging/build_app.py) runs where there is no Python: built once,
moved to another folder and run with nothing on PATH, it prints its version, opens the
window, hosts a table whose Hard AI players think in worker processes of the app itself,
plays it with ``durak bot`` over loopback, and reviews a kept game.

The workers are the trap: a program frozen by PyInstaller starts a ``spawn`` worker as
itself, with multiprocessing's arguments; unless ``multiprocessing.freeze_support()`` runs
first, each worker runs ``durak`` instead (``durak play: error: unrecognized arguments:
--multiprocessing-fork``), the host replaces it again and again, and the game never ends.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from kept import kept

pytest.importorskip("PyInstaller", reason="the standalone app needs the app extra")
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
EXE = ".exe" if sys.platform == "win32" else ""
# what a program needs of the environment on Windows; nothing else comes along
KEPT_ENV = ("SYSTEMROOT", "WINDIR", "TEMP", "TMP", "LOCALAPPDATA", "APPDATA")
BUILD_OUTPUT = "build_app.txt"  # what packaging/build_app.py said, beside the app's folder
# A compiled engine wheel built before the suite (.ci/run builds it once for this test and
# for the engine's tests against it); without it the build compiles the engine itself
ENGINE_WHEEL = "DURAK_ENGINE_WHEEL"


@pytest.fixture
def app(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The app's folder, built and then moved elsewhere, as onto a USB stick."""
    built = tmp_path_factory.mktemp("dist")
    command = [sys.executable, str(ROOT / "packaging" / "build_app.py"), "--no-zip"]
    command += ["--dist", str(built), "--work", str(tmp_path_factory.mktemp("work"))]
    if os.environ.get(ENGINE_WHEEL):
        command += ["--engine-wheel", os.environ[ENGINE_WHEEL]]
    build = subprocess.run(command, check=True, capture_output=True, text=True, timeout=900)
    (folder,) = built.iterdir()
    moved = tmp_path_factory.mktemp("usb") / folder.name
    shutil.move(folder, moved)
    (moved.parent / BUILD_OUTPUT).write_text(build.stdout, encoding="utf-8")
    return moved


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """No venv, no Python on PATH, a home of its own, no display or sound card."""
    empty = tmp_path / "bin"
    empty.mkdir()
    assert shutil.which("python3", path=str(empty)) is None
    return {
        **{name: os.environ[name] for name in KEPT_ENV if name in os.environ},
        "PATH": str(empty),
        "HOME": str(tmp_path),
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "DURAK_SETTINGS": str(tmp_path / "config" / "settings.json"),
    }


def _run(
    app: Path, env: dict[str, str], *argv: str, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(app / f"durak{EXE}"), *argv],
        cwd=env["HOME"],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _files_are_there(app: Path) -> None:
    assert (app / f"durak{EXE}").is_file()
    for licence in ("LICENSE", "LICENSE-DejaVu.txt", "README.txt"):
        assert (app / licence).is_file(), licence
    assets = next(app.rglob("lan_durak_assets"))
    for part in ("fonts/DejaVuSans.ttf", "fonts/DejaVuSans-Bold.ttf", "sounds/turn.wav"):
        assert (assets / part).is_file(), part
    assert not list(app.rglob("make_sounds.py"))
    if sys.platform == "win32":
        assert (app / "Durak.exe").is_file()  # the window, with no console


def _version_and_window(app: Path, env: dict[str, str]) -> None:
    """The version, and the engine the build said it put in: compiled wherever there is a
    C compiler (pure Python only where compiling failed)."""
    built = (app.parent / BUILD_OUTPUT).read_text(encoding="utf-8")
    engine = "compiled" if "build_app: the engine is compiled" in built else "pure Python"
    if sys.platform != "win32" and shutil.which("cc"):
        assert engine == "compiled", built
    version = _run(app, env, "--version")
    assert (version.returncode, version.stdout) == (0, f"durak 0.1.0 (engine: {engine})\n")
    window = _run(app, env, "--frames", "5")
    assert (window.returncode, window.stderr) == (0, "")
    assert Path(env["DURAK_SETTINGS"]).is_file()  # the window ran and closed normally


@contextmanager
def _table(app: Path, env: dict[str, str]) -> Iterator[int]:
    """``durak host`` of the app on loopback, two Hard AI players in its last seats: its port."""
    options = ["--no-announce", "--no-save", "--seats", "3", "--ai", "hard,hard", "--autostart"]
    host = subprocess.Popen(
        [str(app / f"durak{EXE}"), "host", "--bind", "127.0.0.1", "--port", "0", *options],
        cwd=env["HOME"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert host.stdout is not None
        for line in host.stdout:
            found = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
            if found:
                yield int(found.group(1))
                break
        else:
            pytest.fail("the app's host never listened")
    finally:
        host.terminate()
        host.wait(timeout=30)


def _host_and_bot(app: Path, env: dict[str, str]) -> None:
    with _table(app, env) as port:
        bot = _run(
            app, env, "bot", "--connect", f"127.0.0.1:{port}", "--level", "normal",
            "--games", "1", "--no-reconnect", timeout=300,
        )  # fmt: skip
    assert bot.returncode == 0, bot.stdout + bot.stderr
    assert "deal verified" in bot.stdout
    assert re.search(r"^1 game: ", bot.stdout, re.MULTILINE)


def _review(app: Path, env: dict[str, str], folder: Path) -> None:
    review = _run(app, env, "review", str(kept(folder, with_log=True)), timeout=300)
    assert review.returncode == 0, review.stderr
    lines = review.stdout.splitlines()
    assert lines[0].startswith("Ann · ") and "decisions" in lines[0]
    assert len(lines) > 3


def test_the_app_built_once_runs_where_there_is_no_python(
    app: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """One test for one build (the suite runs on every core: one build per test module
    would be one per worker)."""
    _files_are_there(app)
    _version_and_window(app, env)
    _host_and_bot(app, env)
    _review(app, env, tmp_path)
