"""The suite's compiled code of temporary sources (tests/pycache.py): found where Python
files it, and removed with nothing else."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from pycache import prune_temporary, temporary_mirror


def test_python_files_a_temporary_sources_code_under_its_mirror(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    prefix, temporary = tmp_path / "prefix", tmp_path / "temp"
    monkeypatch.setattr(sys, "pycache_prefix", str(prefix))
    compiled = Path(importlib.util.cache_from_source(str(temporary / "app" / "main.py")))
    assert compiled.is_relative_to(temporary_mirror(prefix, temporary))


def test_only_the_temporary_folders_code_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    prefix, temporary, checkout = tmp_path / "prefix", tmp_path / "temp", tmp_path / "game"
    monkeypatch.setenv("TMPDIR", str(temporary))
    monkeypatch.setenv("TEMP", str(temporary))
    monkeypatch.setenv("TMP", str(temporary))
    monkeypatch.setattr("tempfile.tempdir", None)  # (read from the variables again)
    temporary.mkdir()
    monkeypatch.setattr(sys, "pycache_prefix", str(prefix))
    kept, dropped = (
        Path(importlib.util.cache_from_source(str(folder / "module.py")))
        for folder in (checkout, temporary / "venv")
    )
    for path in (kept, dropped):
        path.parent.mkdir(parents=True)
        path.write_bytes(b"compiled")
    prune_temporary(prefix)
    assert kept.is_file()
    assert not dropped.exists()
