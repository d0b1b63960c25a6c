"""Shared fixtures.

The suite runs on every core (pytest-xdist, ``-n auto`` in pyproject.toml), so no two tests
may share a port, a folder or an environment variable: hosts listen on port 0, files go to
``tmp_path``, and each worker is a process of its own with its own environment."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

# Where platformdirs puts the game's files on Linux and the BSDs (settings, saved tables,
# recorded games): pointed at a temporary folder for the tests, and for every host and
# window they start as a subprocess, which inherit the environment.
XDG_FOLDERS = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")
# A developer's own choices that would change what the tests' hosts and windows do.
PERSONAL = ("DURAK_SETTINGS", "DURAK_PASSWORD")


@pytest.fixture(scope="session", autouse=True)
def user_folders(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The tests write nothing to the user's folders: the games a window keeps
    (``DURAK_GAMES``) and everything platformdirs finds go to a temporary folder, one per
    xdist worker (``tmp_path_factory`` gives each worker its own)."""
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DURAK_GAMES", str(home / "games"))
        for name in XDG_FOLDERS:
            patch.setenv(name, str(home / name.lower()))
        for name in PERSONAL:
            patch.delenv(name, raising=False)
        yield


@pytest.fixture(scope="module")
def headless() -> Iterator[None]:
    """SDL's dummy video and audio drivers for one test module (CI has no display)."""
    import pygame

    saved = {k: os.environ.get(k) for k in ("SDL_VIDEODRIVER", "SDL_AUDIODRIVER")}
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    yield
    pygame.quit()
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
