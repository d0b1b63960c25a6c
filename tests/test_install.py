"""The game installs and starts like any Python app: a wheel that carries its fonts and
sounds and runs from any folder, ``durak --version``, and a clear word (not a silent
offscreen window, not a screen of ALSA errors) when there is no display or no sound card."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import venv
import zipfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
VERSION = PYPROJECT["project"]["version"]
ASSETS_PACKAGE = "lan_durak_assets"


def _durak(tmp_path: Path, env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    """``python -m client *argv`` (the window unless argv names a command) in a clean folder."""
    env = {**env, "DURAK_SETTINGS": str(tmp_path / "settings.json")}
    return subprocess.run(
        [sys.executable, "-m", "client", *argv],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_version_is_the_one_in_pyproject(tmp_path: Path) -> None:
    result = _durak(tmp_path, dict(os.environ), "--version")
    assert (result.returncode, result.stdout, result.stderr) == (
        0,
        f"durak {VERSION} (engine: pure Python)\n",
        "",
    )


def test_every_package_of_the_source_tree_goes_into_the_wheel() -> None:
    """pyproject.toml lists the packages by hand (assets/ installs under another name): a new
    package folder that is not listed would be missing from an installed game."""
    folders = {
        ".".join(folder.relative_to(ROOT).parts)
        for top in ("engine", "protocol", "host", "client")
        for folder in [ROOT / top, *(ROOT / top).rglob("*")]
        if folder.is_dir() and any(folder.glob("*.py"))
    }
    setuptools = PYPROJECT["tool"]["setuptools"]
    assert set(setuptools["packages"]) == folders | {ASSETS_PACKAGE}
    assert setuptools["package-dir"] == {ASSETS_PACKAGE: "assets"}


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or Path("/dev/dri").exists(),
    reason="only Linux can be left without a display (and with /dev/dri SDL may take the console)",
)
def test_window_without_a_display_says_so_and_fails(tmp_path: Path) -> None:
    hidden = ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")
    env = {k: v for k, v in os.environ.items() if k not in hidden}
    result = _durak(tmp_path, {**env, "SDL_AUDIODRIVER": "dummy"}, "--frames", "3")
    assert result.returncode == 1
    assert result.stderr.startswith("durak: no display to open the window on (")
    assert "SDL_VIDEODRIVER=dummy" in result.stderr
    assert "XDG_RUNTIME_DIR" not in result.stderr  # what Wayland says stays out of the way
    assert not (tmp_path / "settings.json").exists()  # no window ran


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or Path("/dev/dri").exists(),
    reason="only Linux can be left without a display (and with /dev/dri SDL may take the console)",
)
def test_a_display_that_cannot_be_reached_is_named(tmp_path: Path) -> None:
    hidden = ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")
    env = {k: v for k, v in os.environ.items() if k not in hidden}
    result = _durak(
        tmp_path, {**env, "DISPLAY": ":97", "SDL_AUDIODRIVER": "dummy"}, "--frames", "3"
    )
    assert result.returncode == 1
    assert "the display DISPLAY=':97' could not be opened" in result.stderr
    assert "desktop session" not in result.stderr.splitlines()[0]


@pytest.mark.parametrize(
    "audio",
    [
        {"SDL_AUDIODRIVER": "alsa", "AUDIODEV": "durak-no-such-device"},  # "ALSA lib pcm.c..."
        {"SDL_AUDIODRIVER": "durak-no-such-driver"},
    ],
    ids=["no-sound-card", "no-audio-driver"],
)
def test_window_without_sound_plays_silently(tmp_path: Path, audio: dict[str, str]) -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", **audio}
    result = _durak(tmp_path, env, "--frames", "3")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    assert (tmp_path / "settings.json").exists()  # the window ran and closed normally


def _venv(root: Path) -> tuple[Path, Path, Path]:
    """A fresh venv without pip: its python, its ``durak`` command and its site-packages."""
    venv.EnvBuilder(with_pip=False).create(root)
    scripts = root / ("Scripts" if sys.platform == "win32" else "bin")
    suffix = ".exe" if sys.platform == "win32" else ""
    python = scripts / f"python{suffix}"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    return python, scripts / f"durak{suffix}", Path(site)


@pytest.mark.slow
def test_wheel_installs_and_plays_from_any_folder(tmp_path: Path) -> None:
    """``pip wheel .`` into a fresh venv, run from a folder that is not the checkout. The
    venv gets the dependencies already installed for the tests through a .pth file (no
    download); the game itself comes only from the wheel."""
    source = tmp_path / "source"  # a copy: building in the checkout would leave build/ there
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".*", "build", "dist", "*.egg-info", "__pycache__", "tests", "docs"
        ),
    )
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    pure = {name: value for name, value in os.environ.items() if name != "DURAK_COMPILE"}
    subprocess.run([*pip, "wheel", "--no-deps", "-w", tmp_path, source], check=True, env=pure)
    (wheel,) = tmp_path.glob("lan_durak-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert wheel.name.endswith("-py3-none-any.whl")  # pure Python unless asked to compile
    assert not {n for n in names if n.endswith(tuple(EXTENSION_SUFFIXES))}
    shipped = {
        f"{ASSETS_PACKAGE}/{path.relative_to(ROOT / 'assets').as_posix()}"
        for pattern in ("fonts/*.ttf", "fonts/LICENSE-*.txt", "sounds/*.wav", "README.md")
        for path in (ROOT / "assets").glob(pattern)
    }
    assert (
        {
            f"{ASSETS_PACKAGE}/fonts/DejaVuSans.ttf",
            f"{ASSETS_PACKAGE}/fonts/DejaVuSans-Bold.ttf",
            f"{ASSETS_PACKAGE}/fonts/LICENSE-DejaVu.txt",
            f"{ASSETS_PACKAGE}/sounds/turn.wav",
        }
        <= shipped
        <= names
    )
    assert not {n for n in names if n.startswith(("tests/", "assets/")) or "make_sounds" in n}

    python, durak, site = _venv(tmp_path / "venv")
    subprocess.run([*pip, "--python", python, "install", "--no-deps", wheel], check=True)
    deps = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (site / "durak-test-deps.pth").write_text("\n".join(sorted(deps)) + "\n", encoding="utf-8")

    play = tmp_path / "elsewhere"
    play.mkdir()
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "DURAK_SETTINGS": str(play / "settings.json"),
    }
    env.pop("PYTHONPATH", None)

    def run(command: Path, *argv: str) -> str:
        result = subprocess.run(
            [command, *argv], cwd=play, env=env, capture_output=True, text=True, timeout=120
        )
        assert result.returncode == 0, result.stderr
        return result.stdout

    where = "import client, lan_durak_assets as a; print(client.__file__); print(a.__file__)"
    for module in run(python, "-c", where).splitlines():
        assert Path(module).is_relative_to(site), module  # from the wheel, not the checkout
    assert run(durak, "--version") == f"durak {VERSION} (engine: pure Python)\n"
    assert run(durak, "--frames", "3") == ""
    assert (play / "settings.json").exists()
    lines = run(durak, "simulate", "--games", "2", "--seed", "1").splitlines()
    assert lines[0] == "2 games, 2 players, 36 cards, throw-in all, first bout 5, seed 1"
