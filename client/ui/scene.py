"""Scenes: the screens of the window, kept on a stack by the app.

A scene gets the game's own input events (``client.ui.pointer``), advances with
``update(dt)`` (seconds) and paints itself with ``draw(surface)``, which changes nothing.
``next_frame()`` says when it needs a frame without any input: the window sleeps until
then (or until input or a session's message wakes it), so a still screen costs nothing.
What a scene may ask of the app is the small ``Director`` protocol: among it, the next
screen by name (``show("room", session=...)``), so that no screen imports another.

A scene that is not ``opaque`` is an overlay (a pause, a picker, an end panel): the scenes
under it still show and move. The window draws and updates the scenes from the topmost
opaque one up (``shown``), as Tuxemon's state manager does; input goes to the top one.
A screen keeps its overlays on a ``Stack`` (the app's, or a screen's own when it draws
something over them, as the replay's bar is).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import pygame

from client.i18n import Translator
from client.net.gamefile import GameStore
from client.net.session import GameOver
from client.settings import Settings
from client.stats import Stats
from client.ui.assets import Assets
from client.ui.pointer import Input, Pointer
from client.ui.render import draw_button
from client.ui.widgets import Button
from engine import Rules

__all__ = ["ButtonScene", "Director", "Scene", "Stack", "shown"]


class Stack(Protocol):
    """Where a screen's overlays go: on top, off the top, and those over a scene."""

    def push(self, scene: Scene) -> None: ...

    def pop(self) -> None: ...

    def above(self, scene: Scene) -> list[Scene]:
        """The scenes over ``scene``, the lowest first (none if it is the top)."""
        ...


class Director(Protocol):
    assets: Assets
    settings: Settings
    stats: Stats
    games: GameStore  # the kept games (``client.net.gamefile``)
    saves: Path  # where a party hosted here is saved (``client.net.party_saves``)

    @property
    def size(self) -> tuple[int, int]: ...

    @property
    def tr(self) -> Translator: ...

    def push(self, scene: Scene) -> None: ...

    def show_named(self, name: str, **options: Any) -> None:
        """``show``, once the player has said what the others should call them."""

    def show(self, name: str, **options: Any) -> None:
        """Open the screen called ``name`` on top (``options`` go to its constructor)."""

    def start_game(self, rules: Rules) -> None:
        """A game against the computer under ``rules``, at the table screen."""

    def record_game(self, over: GameOver, seat: int, lineup: Sequence[str] | None) -> GameOver:
        """Count a finished game (``lineup`` None: at a LAN table); the end to show."""

    def pop(self) -> None: ...

    def above(self, scene: Scene) -> list[Scene]:
        """The scenes over ``scene``, the lowest first (none if it is the top)."""
        ...

    def save_settings(self) -> None: ...

    def toggle_fullscreen(self) -> None: ...

    def quit(self) -> None: ...

    def wake(self) -> None:
        """Wake the window's loop if it sleeps (safe from any thread)."""


class Scene:
    opaque = True  # it paints the whole window (False: an overlay over the scene under it)

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

    def next_frame(self) -> float:
        """Seconds until the scene changes by itself (an animation, a timer, a poll):
        0 while something moves, ``math.inf`` when only input or a session's message
        (which wakes the window) can change it. A scene that does not know says 0."""
        return 0.0


def shown(stack: Sequence[Scene]) -> list[Scene]:
    """The scenes that show: from the topmost opaque one up (the lowest first)."""
    for k in range(len(stack) - 1, -1, -1):
        if stack[k].opaque:
            return list(stack[k:])
    return list(stack)


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
        for button in self.buttons():
            if button.enabled and button.rect.collidepoint(event.pos):
                self.activate(button.name)
                return True
        return False

    def draw_buttons(self, surface: pygame.Surface, assets: Assets) -> None:
        """Every button of ``buttons()``, lit under the pointer."""
        for b in self.buttons():
            hover = self.hover is not None and b.rect.collidepoint(self.hover)
            draw_button(surface, assets, b.rect, b.label, b.style, hover, b.enabled)
