"""The game's one window, made so that a high-DPI screen gets its real pixels.

``pygame.display.set_mode`` cannot ask SDL for a high-DPI window, so on a Retina Mac the
game was drawn at half the screen's resolution and stretched. A ``pygame.Window`` made
with ``allow_high_dpi`` draws into a surface of the screen's pixels (SDL sizes the window's
surface in pixels), while the window's size and the mouse stay in the system's points:
``scale`` is the pixels to a point (2.0 on Retina, 1.0 elsewhere), and the input mapper
multiplies mouse positions by it. On Windows the process declares itself DPI aware
instead (``client.app.crisp_on_windows``), and points are pixels there; so they are on X11
and under the headless drivers.

The process has one window, as ``set_mode``'s display was one: a new ``App`` (the tests
make hundreds) takes the window over instead of opening another. A ``pygame.Window`` must
not outlive SDL's video (after ``pygame.quit`` its SDL window is freed, and destroying it
then reads freed memory), so the window is destroyed by a function ``pygame.quit`` calls
before it stops the display.
"""

from __future__ import annotations

from typing import Any

__all__ = ["GameWindow"]

_open: list[Any] = []  # the process's one window, while SDL's video runs


def _window(pygame: Any, size: tuple[int, int]) -> Any:
    """The window, made (or taken over, windowed at ``size``)."""
    if _open:
        window = _open[0]
        window.set_windowed()
        window.size = size
        return window
    window = pygame.Window("Durak", size, resizable=True, allow_high_dpi=True)
    _open.append(window)
    pygame.register_quit(_close)
    return window


def _close() -> None:
    """Destroy the window before SDL's video stops (``pygame.quit`` calls this first)."""
    while _open:
        _open.pop().destroy()


class GameWindow:
    """The window, its surface of pixels, full screen or not."""

    def __init__(self, pygame: Any, size: tuple[int, int], fullscreen: bool) -> None:
        self.pygame = pygame
        self.window = _window(pygame, size)
        self.fullscreen = False
        self.surface = self.window.get_surface()
        if fullscreen:
            self.set_fullscreen(True)

    @property
    def size(self) -> tuple[int, int]:
        """The surface's size in pixels: what every screen lays itself out in."""
        width, height = self.surface.get_size()
        return width, height

    @property
    def points(self) -> tuple[int, int]:
        """The window's size in the system's points (the size the settings remember)."""
        width, height = self.window.size
        return width, height

    @property
    def scale(self) -> float:
        """Pixels to a point: what a mouse position (in points) is multiplied by."""
        return self.size[0] / self.points[0] if self.points[0] else 1.0

    def set_fullscreen(self, on: bool) -> None:
        """Full screen at the desktop's own mode (no mode switch), or back to the window."""
        if on:
            self.window.set_fullscreen(desktop=True)
        else:
            self.window.set_windowed()
        self.fullscreen = on
        self.refresh()

    def refresh(self) -> None:
        """Take the window's surface again: it is a new one after a resize."""
        self.surface = self.window.get_surface()

    def set_icon(self, icon: Any) -> None:
        self.window.set_icon(icon)

    def flip(self) -> None:
        self.window.flip()

    def refresh_rate(self) -> int:
        """The screen's refresh rate in Hz, 0 when SDL does not know it."""
        rates: list[int] = self.pygame.display.get_desktop_refresh_rates()
        return rates[0] if rates else 0
