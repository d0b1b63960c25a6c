"""Driving the game window in tests: input posted as pygame events, then one frame."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pygame

from client.app import App
from client.net.session import Session
from client.screens.start import StartScene
from client.settings import Settings
from client.ui.scene import Scene

FRAME = 0.02  # seconds of one frame after an input
S = TypeVar("S", bound=Scene)


def click(app: App, pos: tuple[int, int]) -> None:
    """A left-button press and release at ``pos``."""
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False))
    app.step(FRAME)


def key(app: App, k: int, text: str = "") -> None:
    """One key press (``text``: the character it types, if any)."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=text))
    app.step(FRAME)


def type_text(app: App, text: str) -> None:
    """Type ``text`` and press Enter."""
    for char in text:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=0, mod=0, unicode=char))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode=""))
    app.step(FRAME)


def open_from_menu(app: App, name: str, kind: type[S]) -> S:
    """Click the start screen's ``name`` button; the screen it opens (a ``kind``)."""
    menu = app.stack[-1]
    assert isinstance(menu, StartScene)
    click(app, next(b.rect.center for b in menu.buttons() if b.name == name))
    scene = app.stack[-1]
    assert isinstance(scene, kind)
    return scene


def open_app(
    settings_path: Path,
    *,
    size: tuple[int, int] = (1280, 720),
    invite: str | None = None,
    session_factory: Callable[[Any, Settings], Session] | None = None,
    **chosen: Any,
) -> App:
    """The window (silent) on its first frame, with the settings remembered at
    ``settings_path`` and ``chosen`` ones set over them (e.g. ``lan_bind="127.0.0.1"``);
    the games it keeps go to ``games`` beside the settings, the parties it hosts to
    ``saves``."""
    settings = Settings.load(settings_path)
    chosen.setdefault("named", True)  # asked already (tests/client/test_name.py asks)
    for name, value in chosen.items():
        setattr(settings, name, value)
    options: dict[str, Any] = (
        {} if session_factory is None else {"session_factory": session_factory}
    )
    games = settings_path.parent / "games"  # the games it keeps: beside its settings
    saves = settings_path.parent / "saves"  # and the parties it hosts
    app = App(
        settings,
        settings_path,
        size=size,
        sound=False,
        invite=invite,
        games=games,
        saves=saves,
        **options,
    )
    app.step(FRAME)
    return app


def until(app: App, done: Callable[[], bool], frames: int = 1500, dt: float = 0.01) -> None:
    """Step the window until ``done`` (``frames`` bounds a hang; it is not a timing
    assertion); a bigger ``dt`` plays the animations out faster."""
    for _ in range(frames):
        if done():
            return
        time.sleep(0.01 if dt <= 0.01 else 0.002)
        app.step(dt)
    raise AssertionError("the window never got there")
