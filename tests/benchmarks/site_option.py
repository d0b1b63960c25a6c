"""The benchmarks' ``--site DIR``: a folder with the engine installed in it (``pip install
--no-deps --target DIR`` of a wheel), checked before anything runs. A folder without one
would leave the benchmark timing this checkout's engine instead, under the other's name."""

from __future__ import annotations

import argparse
from pathlib import Path


def engine_site(text: str) -> Path:
    """``text`` as a folder holding an installed ``engine`` package, or a usage error."""
    folder = Path(text).resolve()
    if not (folder / "engine" / "__init__.py").is_file():
        raise argparse.ArgumentTypeError(f"no engine is installed in {folder}")
    return folder
