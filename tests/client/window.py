"""Driving the game window in tests: input posted as pygame events, then one frame."""

from __future__ import annotations

from typing import TypeVar

import pygame

from client.app import App
from client.screens.start import StartScene
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
