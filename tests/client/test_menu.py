"""The start screen and the app around the scenes: choices are remembered, Play starts a
game with them, Esc leaves the table, F11 toggles full screen; a table that cannot be
reached says so."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from window import click, key, open_app

from client.app import App
from client.net.remote import NetSession
from client.net.scripted import ScriptedSession
from client.net.session import Closed, Seated
from client.screens import start as start_screen
from client.screens.start import StartScene
from client.screens.table.panels import PauseScene
from client.screens.table.screen import TableScene
from client.settings import Settings
from client.ui import render
from client.ui.render import GOLD, WHITE
from engine import Rules, new_game

pytestmark = pytest.mark.usefixtures("headless")


class Recorder:
    """A session factory that remembers the rules it was asked for."""

    def __init__(self) -> None:
        self.rules: list[Rules] = []
        self.sessions: list[ScriptedSession] = []

    def __call__(self, rules: Rules, settings: Settings) -> ScriptedSession:
        self.rules.append(rules)
        self.sessions.append(ScriptedSession(new_game(rules, 5)))
        return self.sessions[-1]


def row(menu: StartScene, label: str) -> tuple[int, int]:
    for r, rect in zip(menu.rows, menu._row_rects(), strict=True):
        if r.label == label or r.text(menu.app.tr) == label:
            return rect.center
    raise KeyError(label)


def make_app(tmp_path: Path, factory: Recorder, size: tuple[int, int] = (1280, 720)) -> App:
    return open_app(tmp_path / "settings.json", size=size, session_factory=factory)


@pytest.mark.parametrize("size", [(1280, 720), (720, 1280), (640, 360)])
def test_choices_are_remembered_and_play_uses_them(tmp_path: Path, size: tuple[int, int]) -> None:
    factory = Recorder()
    app = make_app(tmp_path, factory, size)
    menu = app.stack[-1]
    assert isinstance(menu, StartScene)
    click(app, row(menu, "Opponents"))  # 2 -> 3
    click(app, row(menu, "Transfer (Perevodnoy)"))
    click(app, row(menu, "Deck"))  # 36 -> 52
    remembered = Settings.load(tmp_path / "settings.json")
    assert remembered.opponents == 3 and remembered.rules["transfer"] is True
    click(app, menu.buttons()[0].rect.center)  # Play
    assert factory.rules == [Rules(players=4, transfer=True, deck_size=52)]
    assert isinstance(app.stack[-1], TableScene)


def right_click(app: App, pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=3, touch=False))
    app.step(0.02)


def wheel(app: App, pos: tuple[int, int], y: int) -> None:
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    )
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=y, flipped=False, touch=False))
    app.step(0.02)


def value_pill(menu: StartScene, label: str) -> pygame.Rect:
    i = next(i for i, r in enumerate(menu.rows) if r.text(menu.app.tr) == label)
    return menu.row_parts(i, menu._row_rects()[i])[3]


def test_a_choice_steps_back_as_well_as_on(tmp_path: Path) -> None:
    """2 -> 1 opponent is one step back, not four steps round: a right-click, the wheel
    or a tap on the left arrow of the value step back; elsewhere on the row steps on."""
    app = make_app(tmp_path, Recorder())
    menu = app.stack[-1]
    assert isinstance(menu, StartScene)
    assert app.settings.opponents == 2
    right_click(app, row(menu, "Opponents"))
    assert app.settings.opponents == 1
    wheel(app, row(menu, "Opponents"), 1)
    assert app.settings.opponents == 2
    wheel(app, row(menu, "Opponents"), -1)
    assert app.settings.opponents == 1
    pill = value_pill(menu, "Opponents")
    click(app, (pill.left + pill.h // 2, pill.centery))  # the back arrow: round to 5
    assert app.settings.opponents == 5
    click(app, (pill.right - pill.h // 2, pill.centery))  # the arrow on: round to 1
    assert app.settings.opponents == 1
    click(app, (pill.left + pill.h // 2, pill.centery))
    key(app, pygame.K_LEFT)  # the keyboard steps the focused row both ways too
    key(app, pygame.K_RIGHT)
    assert Settings.load(tmp_path / "settings.json").opponents == 5


def test_a_rule_set_away_from_the_usual_is_marked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rule that is not the usual one is drawn in gold with a dot before it."""
    drawn: list[tuple[str, tuple[int, int, int]]] = []

    def spy(surface, assets, text, px, pos, anchor="center", colour=WHITE, *rest, **kw):  # type: ignore[no-untyped-def]
        drawn.append((text, colour))
        return render.draw_text(surface, assets, text, px, pos, anchor, colour, *rest, **kw)

    monkeypatch.setattr(start_screen, "draw_text", spy)
    app = make_app(tmp_path, Recorder())
    menu = app.stack[-1]
    assert isinstance(menu, StartScene)
    deck = next(r for r in menu.rows if r.label == "menu.deck")
    assert not deck.changed() and ("Deck", WHITE) in drawn and "•" not in dict(drawn)
    click(app, row(menu, "Deck"))  # 36 -> 52
    drawn.clear()
    app.step(0.0)
    assert deck.changed() and app.settings.rules["deck_size"] == 52
    assert ("Deck", GOLD) in drawn and dict(drawn)["•"] == GOLD
    right_click(app, row(menu, "Deck"))  # back to the usual 36
    assert not deck.changed()


def test_rules_that_cannot_be_dealt_keep_play_from_starting(tmp_path: Path) -> None:
    factory = Recorder()
    app = make_app(tmp_path, factory)
    menu = app.stack[-1]
    assert isinstance(menu, StartScene)
    app.settings.opponents = 5
    app.settings.rules = dict(app.settings.rules, deck_size=24)
    assert isinstance(menu.rules(), str) and "24-card deck" in str(menu.rules())
    key(app, pygame.K_RETURN)
    assert factory.rules == [] and app.stack[-1] is menu


def test_escape_asks_then_leaves_the_table_and_closes_its_session(tmp_path: Path) -> None:
    factory = Recorder()
    app = make_app(tmp_path, factory)
    key(app, pygame.K_RETURN)
    table = app.stack[-1]
    assert isinstance(table, TableScene)
    key(app, pygame.K_ESCAPE)  # mid-game: asks first
    assert isinstance(app.stack[-1], PauseScene) and app.stack[-2] is table
    assert not factory.sessions[0].closed
    key(app, pygame.K_q)  # Leave
    assert isinstance(app.stack[-1], StartScene) and factory.sessions[0].closed


def test_f11_toggles_full_screen_and_remembers_it(tmp_path: Path) -> None:
    app = make_app(tmp_path, Recorder())
    key(app, pygame.K_F11)
    assert app.fullscreen and app.settings.fullscreen
    key(app, pygame.K_F11)
    assert not app.fullscreen and app.size == (1280, 720)
    assert Settings.load(tmp_path / "settings.json").fullscreen is False


def test_a_table_that_cannot_be_reached_says_so() -> None:
    import socket

    with socket.socket() as probe:  # a port on 127.0.0.1 that nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    session = NetSession("127.0.0.1", port, "Anna")
    message = session.inbox.get(timeout=10)
    session.close()
    assert session.join(timeout=10)
    assert isinstance(message, Closed) and "reach" in message.text


def test_a_net_session_joins_a_host_and_plays(tmp_path: Path) -> None:
    from client.net.remote import computer_game

    session = computer_game(Rules(players=2), "Anna", ["random"])
    try:
        seated = session.inbox.get(timeout=10)
        assert isinstance(seated, Seated) and seated.seat == 0 and seated.names[0] == "Anna"
        assert seated.rules.players == 2
    finally:
        session.close()  # returns at once; the host stops behind it
    assert session.join(timeout=15)
    assert not session.link.thread.is_alive()


@pytest.mark.parametrize("size", [(360, 640), (640, 360), (800, 600), (1280, 720), (3840, 2160)])
def test_the_start_screen_fits_the_window(tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path, Recorder(), size)
    menu = app.stack[-1]
    assert isinstance(menu, StartScene)
    screen = pygame.Rect((0, 0), size)
    rects = menu._row_rects() + [b.rect for b in menu.buttons()]
    assert all(screen.contains(rect) for rect in rects)
    assert not any(a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1 :])


@pytest.mark.parametrize("language", ["en", "de", "nl", "ru"])
@pytest.mark.parametrize("size", [(1280, 720), (720, 1280), (800, 600), (480, 360), (360, 640)])
def test_nothing_on_the_start_screen_touches_a_border(size: tuple[int, int], language: str) -> None:
    app = App(Settings(language=language), None, size=size, sound=False)
    menu = app.stack[-1]
    assert isinstance(menu, StartScene)
    screen = pygame.Rect((0, 0), size)
    panels = menu.panels()
    buttons = [b.rect for b in menu.buttons()]
    assert all(screen.contains(panel) and panel.top >= int(menu.title_h) for panel in panels)
    assert not any(panel.colliderect(b) for panel in panels for b in buttons)
    span = range(panels[0].left, panels[-1].right + 1)  # the buttons under the panels
    assert all(b.left in span and b.right in span for b in buttons), "a button past the panels"
    if len(panels) == 2:
        assert panels[1].left - panels[0].right >= 8
    for i, rect in enumerate(menu._row_rects()):
        panel = next(p for p in panels if p.colliderect(rect))
        assert panel.inflate(-12, -12).contains(rect), "a row close to its panel's rim"
        if menu.rows[i].change is not None:
            _label, _px, label, value = menu.row_parts(i, rect)
            assert rect.contains(label) and rect.contains(value)
            assert value.left - label.right >= menu.px * 0.8, "a label close to its button"
    app.step(0.02)  # and it draws
    app.close()
