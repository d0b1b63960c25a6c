"""Scenes: the screens of the window, kept on a stack by the app.

A scene gets the game's own input events (``client.ui.pointer``), advances with
``update(dt)`` (seconds) and paints itself with ``draw(surface)``, which changes nothing.
What a scene may ask of the app is the small ``Director`` protocol.
"""

from __future__ import annotations

from typing import Protocol

import pygame

from client.i18n import Translator
from client.settings import Settings
from client.ui.assets import Assets
from client.ui.pointer import Input, Pointer

__all__ = ["Button", "ButtonScene", "Director", "Scene"]

Button = tuple[pygame.Rect, str, str, bool]  # where, name, label, enabled


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


class ButtonScene(Scene):
    """A screen with buttons: it tracks the pointer for hover and turns a press on an
    enabled button into ``activate(name)``."""

    hover: tuple[float, float] | None = None
    size: tuple[int, int]  # the window's
    tallest_button = 56  # pixels

    def button_h(self) -> int:
        """The height of the screen's buttons: 7.5% of the window's, 26 pixels at least."""
        return round(max(26, min(self.tallest_button, self.size[1] * 0.075)))

    def buttons(self) -> list[Button]:
        return []

    def activate(self, name: str) -> None:
        """A button was pressed."""

    def press(self, event: Pointer) -> bool:
        """Hover and button presses; True when ``event`` needs nothing more."""
        if event.kind == "move":
            self.hover = event.pos
            return True
        if event.kind != "down":
            return True
        for rect, name, _, enabled in self.buttons():
            if enabled and rect.collidepoint(event.pos):
                self.activate(name)
                return True
        return False
