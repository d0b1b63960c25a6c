"""The first table asks the player's name and badge; Esc on the start screen asks before
quitting."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from window import click, key, open_app, type_text

from client.screens.host import HostScene
from client.screens.join.screen import JoinScene
from client.screens.name import NameScene
from client.screens.start import StartScene
from client.settings import Settings
from client.ui.confirm import ConfirmScene


def _press(app: object, scene: StartScene, name: str) -> None:
    click(app, next(b.rect.center for b in scene.buttons() if b.name == name))  # type: ignore[arg-type]


@pytest.mark.parametrize(("button", "then"), [("host", HostScene), ("join", JoinScene)])
def test_the_first_table_asks_a_name_and_a_badge_once(
    tmp_path: Path, button: str, then: type, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("client.screens.name.system_name", lambda: "Igor")
    path = tmp_path / "settings.json"
    app = open_app(path, named=False)
    menu = app.stack[-1]
    assert isinstance(menu, StartScene)
    _press(app, menu, button)
    asking = app.stack[-1]
    assert isinstance(asking, NameScene) and asking.name == "Igor"  # the system's name
    key(app, pygame.K_BACKSPACE)
    key(app, pygame.K_RIGHT)  # the next badge
    type_text(app, "ry")  # and Enter
    assert isinstance(app.stack[-1], then)
    saved = Settings.load(path)
    assert (saved.name, saved.look, saved.named) == ("Igory", 1, True)
    app.pop()
    _press(app, menu, button)  # asked once: straight there the next time
    assert isinstance(app.stack[-1], then)
    app.close()


def test_esc_on_the_name_screen_goes_back_and_remembers_nothing(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    app = open_app(path, named=False)
    menu = app.stack[-1]
    assert isinstance(menu, StartScene)
    _press(app, menu, "join")
    key(app, 0, "Z")
    key(app, pygame.K_ESCAPE)
    assert app.stack[-1] is menu and not Settings.load(path).named
    app.close()


def test_esc_on_the_start_screen_asks_before_quitting(tmp_path: Path) -> None:
    app = open_app(tmp_path / "settings.json")
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.stack[-1], ConfirmScene) and app.running
    key(app, pygame.K_ESCAPE)  # no: still here
    assert isinstance(app.stack[-1], StartScene) and app.running
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_RETURN)  # yes
    assert not app.running


@pytest.mark.parametrize("size", [(1280, 720), (720, 1280)])
def test_back_is_on_the_left_and_going_on_at_the_right_as_on_the_host_screen(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = open_app(tmp_path / "settings.json", size=size)
    for scene, go in ((NameScene(app, then="host"), "continue"), (HostScene(app), "host")):
        buttons = {b.name: b.rect for b in scene.buttons()}
        assert buttons["back"].right < buttons[go].left
        assert buttons["back"].centery == buttons[go].centery
    app.close()
