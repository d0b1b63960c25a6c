"""Compiled code the suite leaves behind. Where the tests keep compiled code under one
folder of their own (``sys.pycache_prefix``: tests/conftest.py says why), Python files it
by each source's absolute path, so the code of sources in temporary folders (the venvs,
wheels and apps the tests build, pip's build environments, pytest's own temporary
folders) goes there too, under new names each run: 14 to 30 MB a run, kept forever. None
of it is read again once its folder is gone, so the session removes it at its end.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

__all__ = ["prune_temporary", "temporary_mirror"]


def temporary_mirror(prefix: Path, temporary: Path) -> Path:
    """Where Python, writing compiled code under ``prefix``, keeps the code of sources
    under the folder ``temporary`` (an absolute path): its path without its anchor (the
    root, and a drive on Windows) under the prefix."""
    return prefix.joinpath(*temporary.parts[1:])


def prune_temporary(prefix: Path) -> None:
    """The compiled code of sources in the temporary folder removed from ``prefix``
    (under the folder's name and its real path, where a link leads to it)."""
    folder = Path(tempfile.gettempdir()).absolute()
    for temporary in {folder, folder.resolve()}:
        shutil.rmtree(temporary_mirror(prefix, temporary), ignore_errors=True)
