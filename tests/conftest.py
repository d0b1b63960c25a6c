"""Shared fixtures.

The suite runs on every core, two workers a core (pytest-xdist: ``-n auto`` in
pyproject.toml, and ``pytest_xdist_auto_num_workers`` below), so no two tests may share a
port, a folder or an environment variable: hosts listen on port 0, files go to
``tmp_path``, and each worker is a process of its own with its own environment. Each
worker's share of the tests starts with its long ones (tests/longfirst.py), timed by the
last run here."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from longfirst import KEY, deal, timed
from pycache import prune_temporary

# Compiled code. Where PYTHONDONTWRITEBYTECODE is set (as on the machine the suite's figures
# come from), every xdist worker compiled each test module (its asserts rewritten) and each
# module of the game again, and so did every ``durak`` process a test starts. The tests keep
# their compiled code in pytest's cache folder instead, never beside the sources (what the
# variable is usually set to avoid). Set here, before the workers start: they inherit it.
# The compiled code of the temporary folders' sources goes at the session's end
# (tests/pycache.py).
PYCACHE: Path | None = None
if sys.dont_write_bytecode:
    PYCACHE = Path(__file__).resolve().parents[1] / ".pytest_cache" / "pycache"
    sys.dont_write_bytecode = False
    sys.pycache_prefix = str(PYCACHE)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(PYCACHE)

# Where platformdirs puts the game's files on Linux and the BSDs (settings, saved tables,
# recorded games): pointed at a temporary folder for the tests, and for every host and
# window they start as a subprocess, which inherit the environment.
XDG_FOLDERS = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")
# A developer's own choices that would change what the tests' hosts and windows do.
PERSONAL = ("DURAK_SETTINGS", "DURAK_PASSWORD")
# SDL's drivers that show and play nothing, for every window the suite opens: CI has no
# display, and without SDL_VIDEODRIVER SDL falls back to its "offscreen" driver (or opens
# real windows on a developer's desktop), whose every frame's flip costs about 4 ms where
# the dummy driver's costs nothing. SDL keeps the driver it started with until
# ``pygame.quit``, so one module's window would set it for the modules after it.
DRIVERS = {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}


@pytest.fixture(scope="session", autouse=True)
def user_folders(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The tests write nothing to the user's folders: the games a window keeps
    (``DURAK_GAMES``) and everything platformdirs finds go to a temporary folder, one per
    xdist worker (``tmp_path_factory`` gives each worker its own). And every window is
    SDL's dummy one (``DRIVERS``)."""
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DURAK_GAMES", str(home / "games"))
        for name in XDG_FOLDERS:
            patch.setenv(name, str(home / name.lower()))
        for name in PERSONAL:
            patch.delenv(name, raising=False)
        for name, driver in DRIVERS.items():
            patch.setenv(name, driver)
        yield


@pytest.fixture(scope="module")
def headless() -> Iterator[None]:
    """A module of window tests: SDL's display stopped after it (``pygame.quit``), so that
    the next module's windows start afresh."""
    import pygame

    yield
    pygame.quit()


# --- how many workers, and the long tests first (tests/longfirst.py) -----------------------

WORKERS_A_CORE = 2


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: two workers a core. Much of the suite waits rather than computes (a
    browser's cards fly at a person's pace, a heartbeat's silence runs out, a process
    starts), and a second worker on each core runs while the first waits: on a quiet
    2-core machine the whole suite took 499 s with one worker a core, 346 s with two and
    379 s with three (docs/development.md). ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still says
    how many, as pytest-xdist documents."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    affinity = getattr(os, "sched_getaffinity", None)  # the cores this process may use
    cores = len(affinity(0)) if affinity else (os.cpu_count() or 1)
    return WORKERS_A_CORE * cores


_took: dict[str, float] = {}  # this run's seconds per test (setup, call and teardown)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """(pytest-xdist, in the controller) Each worker is given the last run's times, read
    once here so that every worker deals the same order."""
    cache = getattr(node.config, "cache", None)
    node.workerinput["durak_durations"] = {} if cache is None else cache.get(KEY, {})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    workerinput = getattr(config, "workerinput", None)
    if workerinput is None:  # one process (``-n 0``): the collected order
        return
    durations = workerinput.get("durak_durations", {})
    cost = [
        timed(item.nodeid, item.get_closest_marker("slow") is not None, durations) for item in items
    ]
    items[:] = deal(items, cost, int(workerinput["workercount"]))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _took[report.nodeid] = _took.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The controller (or the one process) keeps this run's times for the next run, and
    drops the compiled code of the temporary folders' sources."""
    if hasattr(session.config, "workerinput"):
        return
    if PYCACHE is not None:
        prune_temporary(PYCACHE)
    cache = getattr(session.config, "cache", None)
    if cache is None or not _took:
        return
    durations = {**cache.get(KEY, {}), **{k: round(v, 2) for k, v in _took.items()}}
    cache.set(KEY, durations)
