"""Which engine runs, and that it is the one meant: pure Python from a checkout (nothing
compiled may shadow the .py files one edits), the compiled build where CI installed it
(.ci/run sets ``DURAK_EXPECT_ENGINE=compiled``)."""

from __future__ import annotations

import os
from importlib.machinery import EXTENSION_SUFFIXES, SOURCE_SUFFIXES
from pathlib import Path

import engine.state
from engine.compiled import engine_kind, is_compiled

ROOT = Path(__file__).resolve().parents[2]


def test_an_extension_module_is_compiled_and_a_py_file_is_not() -> None:
    folder = Path("site-packages") / "engine"
    for suffix in EXTENSION_SUFFIXES:
        assert is_compiled(str(folder / f"state{suffix}"))
    for name in (f"state{SOURCE_SUFFIXES[0]}", "state.pyc"):
        assert not is_compiled(str(folder / name))


def test_the_engine_imported_is_the_one_expected() -> None:
    expected = os.environ.get("DURAK_EXPECT_ENGINE", "pure Python")
    where = Path(engine.state.__file__ or "")
    assert engine_kind() == expected, where
    assert where.is_relative_to(ROOT) == (expected == "pure Python"), where
