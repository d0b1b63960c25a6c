"""Scenes: the screens of the window, kept on a stack by the app.

A scene gets the game's own input events (``client.pointer``), advances with
``update(dt)`` (seconds) and paints itself with ``draw(surface)``, which changes nothing.
What a scene may ask of the app is the small ``Director`` protocol.
"""

from __future__ import annotations

from typing import Protocol

import pygame

from .assets import Assets
from .i18n import Translator
from .pointer import Input
from .settings import Settings

__all__ = ["Director", "Scene"]


class Director(Protocol):
    assets: Assets
    settings: Settings

    @property
    def size(self) -> tuple[int, int]: ...

    @property
    def tr(self) -> Translator: ...

    def push(self, scene: Scene) -> None: ...

    def pop(self) -> None: ...

    def save_settings(self) -> None: ...

    def toggle_fullscreen(self) -> None: ...

    def quit(self) -> None: ...


class Scene:
    def enter(self) -> None:
        """Called when the scene becomes the top of the stack."""

    def exit(self) -> None:
        """Called when the scene leaves the stack."""

    def resize(self, size: tuple[int, int]) -> None:
        """The window changed size."""

    def handle(self, event: Input) -> None:
        """One input event."""

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds."""

    def draw(self, surface: pygame.Surface) -> None:
        """Paint the whole window."""
