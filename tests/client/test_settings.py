"""The settings screen and the settings file: each setting changes with posted input and is
remembered; the language switches the start screen at once; an old file keeps its values,
a corrupt one is set aside and the defaults are used; the name is the one the host sees."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest
from window import click, key, open_app, open_from_menu

from client.app import App
from client.screens.howto import HowToScene
from client.screens.settings import SettingsScene
from client.screens.start import StartScene
from client.settings import NAME_MAX, Settings
from engine import Rules

pytestmark = pytest.mark.usefixtures("headless")


def make_app(path: Path, size: tuple[int, int] = (1280, 720)) -> App:
    return open_app(path, size=size, named=False)  # (the defaults, as a new player has)


def row(scene: SettingsScene, key: str) -> tuple[int, int]:
    index = [r.label for r in scene.rows].index(key)
    return scene._row_rects()[index].center


def test_each_setting_changes_and_is_remembered(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    app = make_app(path)
    scene = open_from_menu(app, "settings", SettingsScene)
    click(app, row(scene, "settings.language"))
    click(app, row(scene, "settings.animation"))
    click(app, row(scene, "settings.hints"))
    click(app, row(scene, "settings.sound"))
    click(app, row(scene, "settings.fullscreen"))
    saved = Settings.load(path)
    assert (saved.language, saved.animation, saved.hints, saved.muted, saved.fullscreen) == (
        "de",
        "fast",
        False,
        True,
        True,
    )
    click(app, row(scene, "settings.fullscreen"))
    assert app.size == (1280, 720) and not Settings.load(path).fullscreen
    key(app, pygame.K_ESCAPE)
    assert isinstance(app.stack[-1], StartScene)


def test_the_name_is_typed_and_kept_short(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    app = make_app(path)
    scene = open_from_menu(app, "settings", SettingsScene)
    click(app, row(scene, "settings.name"))
    assert scene.editing
    for ch in "Anja":
        key(app, 0, ch)
    key(app, pygame.K_BACKSPACE)
    key(app, 0, "\t")  # not printable: ignored
    key(app, 0, "ä")
    key(app, pygame.K_RETURN)
    assert not scene.editing and Settings.load(path).name == "Anjä"
    click(app, row(scene, "settings.name"))
    for _ in range(NAME_MAX + 5):
        key(app, 0, "x")
    key(app, pygame.K_ESCAPE)  # ends the typing, not the screen
    assert app.stack[-1] is scene
    assert Settings.load(path).name == ("Anjä" + "x" * NAME_MAX)[:NAME_MAX]


def test_the_keyboard_moves_and_changes_rows(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    app = make_app(path)
    open_from_menu(app, "settings", SettingsScene)
    key(app, pygame.K_DOWN)  # the badge row
    key(app, pygame.K_RIGHT)  # the star -> the sun
    key(app, pygame.K_DOWN)  # the language row
    key(app, pygame.K_LEFT)  # en -> ru
    assert Settings.load(path).language == "ru" and Settings.load(path).look == 1


def test_the_volume_follows_a_drag_along_its_slider_and_the_keys(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    app = make_app(path)
    scene = open_from_menu(app, "settings", SettingsScene)
    rects = scene._row_rects()
    index = next(i for i, r in enumerate(scene.rows) if r.label == "settings.volume")
    value = scene._value_rect(rects, rects[index])
    track_left, y = value.left + value.h * 0.36, value.centery
    app.step(
        0.0, [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(round(track_left), y), button=1)]
    )
    assert app.settings.volume == 0 and app.assets.volume == 0  # heard at once
    far = (value.right, y)
    app.step(0.0, [pygame.event.Event(pygame.MOUSEMOTION, pos=far, rel=(1, 0), buttons=(1, 0, 0))])
    app.step(0.0, [pygame.event.Event(pygame.MOUSEBUTTONUP, pos=far, button=1)])
    assert Settings.load(path).volume == 100
    key(app, pygame.K_LEFT)  # the slider keeps the focus: ten less
    assert Settings.load(path).volume == 90 and app.assets.volume == 0.9


def test_music_is_off_until_its_slider_is_raised(tmp_path: Path) -> None:
    settings = Settings()
    assert settings.music == 0 and settings.music_level == 0  # no music by default
    settings.music, settings.volume = 50, 80
    assert settings.music_level == 0.4
    settings.muted = True  # M at the table silences the music too
    assert settings.music_level == 0 and settings.effects_level == 0


def test_the_language_switch_changes_the_start_screen(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    app = make_app(path)
    menu = app.stack[-1]
    assert isinstance(menu, StartScene)
    play = menu.buttons()[0]
    assert play.label == "Play"

    def pixels() -> bytes:
        app.step(0.0)
        return pygame.image.tobytes(app.screen.subsurface(play.rect), "RGB")

    english = pixels()
    scene = open_from_menu(app, "settings", SettingsScene)
    click(app, row(scene, "settings.language"))  # Deutsch
    key(app, pygame.K_ESCAPE)
    assert app.stack[-1] is menu and menu.buttons()[0].label == "Spielen"
    assert pixels() != english
    assert Settings.load(path).language == "de"


def test_how_to_play_opens_pages_and_returns(tmp_path: Path) -> None:
    app = make_app(tmp_path / "settings.json")
    menu = app.stack[-1]
    assert isinstance(menu, StartScene)
    scene = open_from_menu(app, "howto", HowToScene)
    nxt = next(b.rect.center for b in scene.buttons() if b.name == "next")
    click(app, nxt)
    key(app, pygame.K_RIGHT)
    assert scene.page == 2
    key(app, pygame.K_ESCAPE)
    assert app.stack[-1] is menu


def test_a_corrupt_file_gives_the_defaults_and_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text('{"language": "de", "opponents": 3', encoding="utf-8")
    app = make_app(path)
    assert app.settings == Settings()
    assert (tmp_path / "settings.json.broken").exists()
    app.close()
    assert Settings.load(path) == Settings()  # the next save wrote a whole new file


def test_an_old_file_keeps_its_values_and_gains_the_new_ones(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"name": "You", "opponents": 4, "hints": False}), encoding="utf-8")
    settings = Settings.load(path)
    assert (settings.name, settings.opponents, settings.hints) == ("You", 4, False)
    assert settings.language == "en"
    path.write_text(json.dumps({"language": "xx", "name": "A\nvery long name indeed!"}))
    settings = Settings.load(path)
    assert settings.language == "en" and settings.name == "A very long name"


def test_the_host_is_joined_with_the_player_name_and_ai_names_in_their_script(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import client.net.remote
    from client.app import computer_game

    seen: list[tuple[str, str, int]] = []

    def hosted(
        rules: Rules, name: str, levels: object, ai_names: tuple[str, ...], look: int
    ) -> None:
        seen.append((name, ai_names[0], look))

    monkeypatch.setattr(client.net.remote, "computer_game", hosted)
    computer_game(Rules(players=2), Settings(name="Katja", look=6))
    computer_game(Rules(players=2), Settings(language="ru"))
    # the AI in the player's script; the player's badge
    assert seen == [("Katja", "Boris", 6), ("Игрок", "Борис", 0)]


def test_a_lost_table_is_explained_in_the_chosen_language() -> None:
    from client.net.scripted import ScriptedSession
    from client.net.session import Closed
    from client.screens.table.screen import TableScene
    from engine import new_game

    app = App(Settings(language="de"), None, size=(640, 360), sound=False)
    scene = TableScene(app, ScriptedSession(new_game(Rules(players=2), 1)))
    scene._show(Closed("Could not reach the table: refused", "unreachable"))
    assert app.stack[-1].text == "Der Tisch ist nicht erreichbar."  # type: ignore[attr-defined]
    scene._show(Closed("Room is full", "room_full"))
    # the host's own words for codes the window lacks
    assert app.stack[-1].text == "Room is full"  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", [(360, 640), (640, 360), (1280, 720), (3840, 2160)])
def test_the_settings_screen_fits_the_window(tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path / "settings.json", size)
    scene = open_from_menu(app, "settings", SettingsScene)
    rects = [*scene._row_rects(), scene._back()]
    screen = pygame.Rect((0, 0), size)
    assert all(screen.contains(rect) for rect in rects)
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1 :])


@pytest.mark.parametrize(
    ("login", "name"),
    [("igor", "Igor"), ("anna_maria", "Anna maria"), ("McKay", "McKay"), ("root", ""), ("", "")],
)
def test_the_name_asked_first_is_the_login_name(
    login: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import getpass

    from client.settings import system_name

    monkeypatch.setattr(getpass, "getuser", lambda: login)
    assert system_name() == name


def test_no_login_name_asks_with_an_empty_field(monkeypatch: pytest.MonkeyPatch) -> None:
    import getpass

    from client.settings import system_name

    def no_login() -> str:
        raise OSError("No username set in the environment")

    monkeypatch.setattr(getpass, "getuser", no_login)
    assert system_name() == ""
