"""Build the standalone app: the game, its fonts, sounds and licences in one folder that
runs on a machine without Python (copy it onto a USB stick).

    python -m pip install -e ".[app]" && python packaging/build_app.py

writes ``dist/durak-VERSION-SYSTEM-MACHINE/`` (e.g. ``durak-0.1.0-linux-x86_64``) and a
zip of it beside. Inside: ``durak`` (``durak.exe``), the same command as the installed
game (a bare ``durak`` opens the window; ``durak host``, ``bot``, ``list``, ``review``...);
on Windows also ``Durak.exe``, the window without a console for a double-click; on macOS
also ``Durak.app``. Built with PyInstaller (the pinned ``app`` extra of pyproject.toml), as
a folder rather than one file: a one-file app unpacks itself into a temporary folder at
every start (a second or more for pygame and its SDL libraries), a folder starts at once.

A system builds only its own app: build on Windows for Windows, on macOS for macOS.

The app's engine is compiled by mypyc (packaging/engine_wheel.py: the wheel setup.py builds
with ``DURAK_COMPILE=1``, which needs a C compiler), several times as fast as pure Python.
Should compiling fail, the app is built with the pure-Python engine and says so here (and
``durak --version`` in it says which engine it has): never a broken app. ``--pure`` builds
it pure at once; ``--engine-wheel WHEEL`` takes the engine of a compiled wheel built
before (CI builds the wheel first).
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import struct
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path

import engine_wheel  # beside this script

ROOT = Path(__file__).resolve().parents[1]
SYSTEMS = {"win32": "windows", "darwin": "macos"}
ICON_SIZE = 256


def app_name() -> str:
    """The folder's name: the version and the system it was built on."""
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "version"
    ]
    system = SYSTEMS.get(sys.platform, sys.platform.rstrip("0123456789"))
    return f"durak-{version}-{system}-{platform.machine().lower()}"


def stage(folder: Path) -> None:
    """The assets as the installed package ``lan_durak_assets`` (what pyproject.toml ships:
    fonts, sounds, licences; not the script that makes the sounds), and the icons."""
    shutil.copytree(
        ROOT / "assets",
        folder / "lan_durak_assets",
        ignore=shutil.ignore_patterns("__pycache__", "make_sounds.py"),
    )
    png = draw_icon(folder / "lan_durak_assets")
    (folder / "icon.png").write_bytes(png)
    (folder / "icon.ico").write_bytes(ico(png))
    (folder / "icon.icns").write_bytes(icns(png))


def draw_icon(assets: Path) -> bytes:
    """The app's icon, a PNG: the window's own ace of spades on the felt."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from client.ui.assets import FELT_CENTRE, Assets
    from engine import Card

    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((8, 8))
    art = Assets(assets, sound=False)
    icon = pygame.Surface((ICON_SIZE, ICON_SIZE), pygame.SRCALPHA)
    pygame.draw.rect(icon, FELT_CENTRE, icon.get_rect(), border_radius=ICON_SIZE // 5)
    card = art.card(Card.parse("As"), ICON_SIZE * 4 // 5)
    icon.blit(card, card.get_rect(center=icon.get_rect().center))
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "icon.png"
        pygame.image.save(icon, str(path))
        data = path.read_bytes()
    pygame.quit()
    return data


def ico(png: bytes) -> bytes:
    """A Windows icon holding ``png`` as its one 256x256 image (Windows Vista and later
    read PNG inside an .ico): the header, one directory entry, the image."""
    header = struct.pack("<HHH", 0, 1, 1)
    entry = struct.pack("<BBBBHHII", 0, 0, 0, 0, 1, 32, len(png), 6 + 16)
    return header + entry + png


def icns(png: bytes) -> bytes:
    """A macOS icon holding ``png`` as its 256x256 image (type ``ic08``)."""
    entry = b"ic08" + struct.pack(">I", 8 + len(png)) + png
    return b"icns" + struct.pack(">I", 8 + len(entry)) + entry


def stage_engine(folder: Path, wheel: Path | None) -> bool:
    """The compiled engine of ``wheel`` (None: one built now) in ``folder``, with mypyc's
    shared module beside it: True; or False, having said why, for the pure engine."""
    try:
        with tempfile.TemporaryDirectory(prefix="durak-engine-") as scratch:
            if wheel is None:
                wheel = engine_wheel.build(Path(scratch))
            with zipfile.ZipFile(wheel) as archive:
                for name in archive.namelist():
                    if name.startswith("engine/") or "__mypyc." in name:
                        archive.extract(name, folder)
    except subprocess.CalledProcessError as exc:
        why = f"the wheel's build exited with status {exc.returncode}, its output above"
    except (OSError, zipfile.BadZipFile) as exc:
        why = str(exc)
    else:
        print("build_app: the engine is compiled (mypyc)")
        return True
    print(
        f"build_app: compiling the engine failed ({why}): the app is built with the"
        " pure-Python engine",
        file=sys.stderr,
    )
    return False


def build(dist: Path, work: Path, *, pure: bool = False, wheel: Path | None = None) -> Path:
    try:
        import PyInstaller.__main__ as pyinstaller
    except ImportError:
        raise SystemExit(
            'build_app: PyInstaller is not installed: python -m pip install -e ".[app]"'
        ) from None
    name = app_name()
    with tempfile.TemporaryDirectory(prefix="durak-stage-") as scratch:
        staged = Path(scratch)
        stage(staged)
        if pure:
            print("build_app: the app is built with the pure-Python engine (--pure)")
        else:
            stage_engine(staged, wheel)
        os.environ["DURAK_STAGE"] = str(staged)
        os.environ["DURAK_APP"] = name
        pyinstaller.run(
            [
                str(ROOT / "packaging" / "durak.spec"),
                "--noconfirm",
                "--clean",
                "--log-level=WARN",
                f"--distpath={dist}",
                f"--workpath={work}",
            ]
        )
    folder = dist / name
    for licence in ("LICENSE", "assets/fonts/LICENSE-DejaVu.txt"):
        shutil.copy2(ROOT / licence, folder / Path(licence).name)
    shutil.copy2(ROOT / "packaging" / "README.txt", folder / "README.txt")
    return folder


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="default: dist/")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "app", help=argparse.SUPPRESS)
    parser.add_argument("--no-zip", action="store_true", help="the folder only")
    engine = parser.add_mutually_exclusive_group()
    engine.add_argument("--pure", action="store_true", help="the pure-Python engine")
    engine.add_argument("--engine-wheel", type=Path, help="the engine of this compiled wheel")
    args = parser.parse_args()
    folder = build(
        args.dist.resolve(), args.work.resolve(), pure=args.pure, wheel=args.engine_wheel
    )
    size = sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
    print(f"build_app: {folder} ({size / 2**20:.0f} MiB)")
    if not args.no_zip:
        archive = shutil.make_archive(str(folder), "zip", folder.parent, folder.name)
        print(f"build_app: {archive} ({Path(archive).stat().st_size / 2**20:.0f} MiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
