"""How fast the standalone app opens its window (run by hand, not by CI).

    python tests/benchmarks/app_start.py APP_FOLDER [--runs N]

APP_FOLDER is what ``python packaging/build_app.py`` made (``dist/durak-...``). Starts the
app's ``durak`` N times (5) with the dummy video driver, from a new home folder each time,
and times the start to the first frame drawn: from just before the process is started to
the moment the window reports its first frame (``DURAK_TIMING``'s ``first_frame_at``, a
wall-clock time printed by the window right after its first frame). Prints each run, the
folder's size, and last exactly ``app_first_frame_s=<median>``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def first_frame(app: Path) -> float:
    with tempfile.TemporaryDirectory() as home:
        env = {
            "HOME": home,
            "PATH": home,  # no Python, nothing at all on PATH
            "SDL_VIDEODRIVER": "dummy",
            "SDL_AUDIODRIVER": "dummy",
            "DURAK_TIMING": "1",
            "DURAK_SETTINGS": str(Path(home) / "settings.json"),
            **{k: os.environ[k] for k in ("SYSTEMROOT", "TEMP", "TMP") if k in os.environ},
        }
        exe = app / ("durak.exe" if sys.platform == "win32" else "durak")
        started = time.time()
        out = subprocess.run(
            [str(exe), "--frames", "1"], env=env, capture_output=True, text=True, check=True
        ).stdout
    at = float(out.split("first_frame_at=")[1].split()[0])
    return at - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("app", type=Path, help="the app's folder (dist/durak-...)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    size = sum(f.stat().st_size for f in args.app.rglob("*") if f.is_file())
    print(f"{args.app.name}: {size / 2**20:.1f} MiB in {sum(1 for _ in args.app.rglob('*'))} files")
    times = []
    for run in range(args.runs):
        times.append(first_frame(args.app))
        print(f"run {run + 1}: first frame after {times[-1]:.3f} s")
    print(f"app_first_frame_s={statistics.median(times):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
