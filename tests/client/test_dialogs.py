"""The table's dialogs say what they mean and hide what is under them: nothing of the
table shows through a panel (a banner, the seats' plates read as part of it), "the player
will be right back" is for a watcher, not the player who paused, and what Leave does is
said under Leave, not under "Back in a minute"."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from tables import deal, scene, settle
from window import open_app

from client.i18n import translator
from client.net.scripted import ScriptedSession
from client.net.session import RoomChanged
from client.screens.table import overlays, screen
from client.screens.table.overlays import PauseKind, draw_pause, pause_buttons, pause_panel
from engine import Rules, Series
from protocol import Room, SeatInfo

pytestmark = pytest.mark.usefixtures("headless")

SIZE = (1280, 720)


def test_nothing_of_the_table_shows_through_the_pause(tmp_path: Path) -> None:
    """The same spot of the panel over a black table and over a white one: alike."""
    app = open_app(tmp_path / "settings.json", size=SIZE)
    kind = PauseKind(alone=False, lan=True, mark=True)
    panel, px = pause_panel(SIZE, kind)
    spot = (panel.right - round(px * 1.5), panel.top + round(px * 0.6))
    seen = []
    for under in ((0, 0, 0), (255, 255, 255)):
        frame = pygame.Surface(SIZE)
        frame.fill(under)
        draw_pause(frame, app.assets, kind, app.tr)
        seen.append(frame.get_at(spot))
    assert all(abs(a - b) <= 3 for a, b in zip(seen[0][:3], seen[1][:3], strict=True)), seen


def test_what_leave_does_is_said_under_leave(monkeypatch: pytest.MonkeyPatch) -> None:
    pygame.font.init()
    from client.ui.assets import Assets

    pygame.display.init()
    pygame.display.set_mode((64, 64))
    assets = Assets(sound=False)
    tr = translator("en")
    kind = PauseKind(alone=False, lan=True, owner=True, mark=True)
    said: dict[str, float] = {}

    def spy(surface, assets, text, px, at, *args, **kwargs):  # type: ignore[no-untyped-def]
        said[text] = at[1]
        return pygame.Rect(0, 0, 1, 1)

    monkeypatch.setattr(overlays, "draw_text", spy)
    draw_pause(pygame.Surface(SIZE), assets, kind, tr)
    buttons = {b.name: b.rect for b in pause_buttons(SIZE, tr, kind)}
    caption = said[tr("leave.lan")]
    assert buttons["leave"].bottom < caption < buttons["mark"].top
    assert said[tr("keys.title")] > buttons["draw"].bottom  # the keys after every button


def test_the_right_back_banner_is_for_a_watcher_not_the_player_who_paused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = open_app(tmp_path / "settings.json", size=SIZE)
    state = deal(Rules(), "6s 7h 8h 9d Tc Jc", "7s 8c 9h Td Qd Kh")
    session = ScriptedSession(state, names=["Vera", "Boris"])
    app.show("table", session=session)
    seats = (SeatInfo("human", "Vera", None, True), SeatInfo("ai", "Boris"))
    room = Room("T", "playing", 0, seats, Rules(), False, False, Series.new(2), 1, paused=True)
    session.inbox.put(RoomChanged(room))
    settle(app)
    shown: list[bool] = []
    monkeypatch.setattr(screen, "draw_paused", lambda *args: shown.append(True))
    table = scene(app)
    table.draw(app.screen)
    assert shown == []
    table.watching = True
    table.draw(app.screen)
    assert shown == [True]
