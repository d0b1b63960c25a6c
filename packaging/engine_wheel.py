"""Build the wheel whose engine is compiled by mypyc (setup.py with ``DURAK_COMPILE=1``),
from a copy of the source so that nothing of the build is left in the checkout:

    python packaging/engine_wheel.py FOLDER

writes ``lan_durak-VERSION-TAGS.whl`` into FOLDER and prints its path. It needs a C
compiler (and fetches mypy into the build's own environment). packaging/build_app.py puts
its engine into the standalone app; .ci/run installs it outside the checkout and runs the
engine's tests against it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# What a wheel is not built from (and what a build of the checkout would have left there)
NOT_SOURCE = (".*", "build", "dist", "*.egg-info", "__pycache__", "tests", "docs")


def build(folder: Path) -> Path:
    """The compiled wheel in ``folder``; ``CalledProcessError`` if the build failed."""
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="durak-compile-") as scratch:
        source = Path(scratch) / "source"
        shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*NOT_SOURCE))
        command = [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "-q",
            "-w",
            scratch,
            str(source),
        ]
        subprocess.run(command, env={**os.environ, "DURAK_COMPILE": "1"}, check=True)
        (wheel,) = Path(scratch).glob("lan_durak-*.whl")
        return Path(shutil.copy2(wheel, folder))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    print(build(parser.parse_args().folder.resolve()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
