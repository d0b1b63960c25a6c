"""Shared fixtures."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session", autouse=True)
def games_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The games a test's window keeps go to a temporary folder, not the user's."""
    saved = os.environ.get("DURAK_GAMES")
    os.environ["DURAK_GAMES"] = str(tmp_path_factory.mktemp("games"))
    yield
    if saved is None:
        os.environ.pop("DURAK_GAMES", None)
    else:
        os.environ["DURAK_GAMES"] = saved


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
