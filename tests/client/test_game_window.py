"""The game's window: on a high-DPI screen the game lays itself out in the screen's pixels,
the settings keep the window's size in points, and a click lands where the pointer is; the
process keeps one window, which ``pygame.quit`` takes down safely."""

from __future__ import annotations

from pathlib import Path

import pygame
from window import click

from client.app import App
from client.screens.start import StartScene
from client.settings import Settings
from client.ui.window import GameWindow


class RetinaWindow(GameWindow):
    """The real window, but with a surface of twice its points, as SDL gives a window made
    with ``allow_high_dpi`` on a Retina screen."""

    def refresh(self) -> None:
        width, height = self.window.size
        self.surface = pygame.Surface((2 * width, 2 * height))


def test_a_retina_window_is_drawn_in_its_pixels_and_clicked_in_its_points(
    tmp_path: Path,
) -> None:
    app = App(Settings(), tmp_path / "settings.json", size=(640, 360), fullscreen=False)
    real = app.window
    app.window = RetinaWindow.__new__(RetinaWindow)
    app.window.__dict__.update(real.__dict__)
    app._resized()
    assert app.size == (1280, 720) and app.settings.window == [640, 360]
    app.step(0.02)
    start = app.stack[-1]
    assert isinstance(start, StartScene)
    button = next(b for b in start.buttons() if b.name == "settings")
    x, y = button.rect.center
    click(app, (x // 2, y // 2))  # the system reports the mouse in points
    assert app.stack[-1] is not start
    app.close()


def test_a_window_resized_by_the_system_is_laid_out_again_and_remembered(tmp_path: Path) -> None:
    app = App(Settings(), tmp_path / "settings.json", size=(800, 500), fullscreen=False)
    assert app.window.points == (800, 500) == app.size and app.window.scale == 1.0
    app.window.window.size = (900, 600)
    app.step(0.02)
    assert app.size == (900, 600) and app.settings.window == [900, 600]
    app.close()


def test_a_new_app_takes_the_one_window_over_and_quitting_closes_it(tmp_path: Path) -> None:
    first = App(Settings(), tmp_path / "a.json", size=(800, 500), fullscreen=False)
    second = App(Settings(), tmp_path / "b.json", size=(640, 400), fullscreen=False)
    assert second.window.window is first.window.window and second.size == (640, 400)
    window = second.window.window
    pygame.quit()  # destroys the window before SDL's video stops (no freed window kept)
    third = App(Settings(), tmp_path / "c.json", size=(320, 200), fullscreen=False)
    third.step(0.02)
    assert third.window.window is not window and third.size == (320, 200)
    third.close()
