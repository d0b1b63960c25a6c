"""Driving the game window in tests: input posted as pygame events, then one frame."""

from __future__ import annotations

import pygame

from client.app import App

FRAME = 0.02  # seconds of one frame after an input


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
