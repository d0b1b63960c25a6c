"""The window's Party menu, end to end: the start screen's Party opens it; Join and Board
take an address (a bad one is refused in words and opens nothing); Host a party starts a
real party host in this process on 127.0.0.1, joins it as the organiser, starts the
night, and the party's call takes the window to its table, seated by the party's token."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from window import click, key, open_app, type_text, until

from client.app import App
from client.net.party_link import party_address
from client.net.remote import NetSession
from client.net.session import WATCHING
from client.screens.host import HostScene
from client.screens.name import NameScene
from client.screens.party.between import BetweenScene, Homing
from client.screens.party.board import BoardScene
from client.screens.party.menu import PartyHostScene, PartyJoinScene, PartyMenuScene
from client.screens.party.model import Stage
from client.screens.start import StartScene
from client.screens.stats import StatsScene
from client.screens.table.screen import TableScene
from client.ui import render, widgets
from client.ui.widgets import Button

pytestmark = pytest.mark.usefixtures("headless")


def press(app: App, name: str) -> None:
    scene = app.stack[-1]
    button = next(b for b in scene.buttons() if b.name == name)  # type: ignore[attr-defined]
    click(app, button.rect.center)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    window = open_app(tmp_path / "settings.json", lan_bind="127.0.0.1", name="Vera")
    yield window
    window.close()


def test_party_opens_the_menu_and_its_screens(app: App) -> None:
    assert isinstance(app.stack[-1], StartScene)
    press(app, "party")
    assert isinstance(app.stack[-1], PartyMenuScene)
    for name, kind in (
        ("host", PartyHostScene),
        ("join", PartyJoinScene),
        ("board", PartyJoinScene),
    ):
        press(app, name)
        if name != "board":  # who we are tonight, first
            assert isinstance(app.stack[-1], NameScene)
            press(app, "continue")
        assert isinstance(app.stack[-1], kind)
        press(app, "back")
        assert isinstance(app.stack[-1], PartyMenuScene)
    press(app, "back")
    assert isinstance(app.stack[-1], StartScene)


@pytest.mark.parametrize("form", ["host", "join"])
def test_hosting_or_joining_asks_who_you_are_with_the_badges(app: App, form: str) -> None:
    """The table's own name screen, under the party's title: the name typed and the badge
    chosen there are the party's player (the night is named after its organiser); the
    join form asks no name of its own."""
    press(app, "party")
    press(app, form)
    asked = app.stack[-1]
    assert isinstance(asked, NameScene) and asked.title == "party.who"
    for _ in "Vera":
        key(app, pygame.K_BACKSPACE)
    click(app, asked.badges()[5].center)
    type_text(app, "Mila")  # Enter: Continue
    assert (app.settings.name, app.settings.look) == ("Mila", 5)
    scene = app.stack[-1]
    if form == "host":
        assert isinstance(scene, PartyHostScene)
        assert scene.fields["party.name"] == "Mila's party"
    else:
        assert isinstance(scene, PartyJoinScene)
        assert [row.label for row in scene.rows] == ["party.where", "join.address"]


@pytest.mark.parametrize("size", [(1280, 720), (720, 1280)])
@pytest.mark.parametrize("form", ["host", "party"])
def test_every_row_of_a_form_sits_on_a_panel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], form: str
) -> None:
    """The table's form and the party's: each section on a panel of its own, in two
    columns or in one."""
    panels: list[pygame.Rect] = []

    def panel_spy(surface, assets, rect, *args):  # type: ignore[no-untyped-def]
        panels.append(pygame.Rect(rect))
        render.draw_panel(surface, assets, rect, *args)

    monkeypatch.setattr(widgets, "draw_panel", panel_spy)
    window = open_app(tmp_path / "settings.json", size=size, lan_bind="127.0.0.1")
    press(window, form)
    if form == "party":
        press(window, "host")
        press(window, "continue")  # (who we are tonight)
    scene = window.stack[-1]
    assert isinstance(scene, HostScene | PartyHostScene)
    panels.clear()
    window.step(0.02)
    rows = scene.row_rects()
    assert len(panels) == 2
    assert all(any(panel.contains(row) for panel in panels) for row in rows)
    window.close()


def test_a_bad_address_is_refused_in_words(app: App) -> None:
    app.show("party_join")
    scene = app.stack[-1]
    assert isinstance(scene, PartyJoinScene)
    type_text(app, "not an address:99999")
    type_text(app, "")  # Enter again: Join
    assert app.stack[-1] is scene
    assert scene.message == app.tr("party.bad_address")


def test_the_address_may_leave_out_the_party_port() -> None:
    assert party_address("192.168.1.20") == ("192.168.1.20", 45655)
    assert party_address("durak://10.0.0.2,10.0.0.3:50000") == ("10.0.0.2", 50000)
    with pytest.raises(ValueError):
        party_address("host:port")


def test_hosting_a_party_seats_its_organiser_at_a_real_table(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    options = {"ai_processes": False, "announce": False, "gather": 1.0, "break_s": 60.0}
    monkeypatch.setattr(PartyHostScene, "ports", (0,))
    monkeypatch.setattr(PartyHostScene, "options", options)
    app.show("party_host")
    host = app.stack[-1]
    assert isinstance(host, PartyHostScene)
    host.seats = 2  # one player and an AI at a table of two
    press(app, "start")
    until(app, lambda: isinstance(app.stack[-1], BetweenScene), dt=0.05)
    night = app.stack[-1]
    assert isinstance(night, BetweenScene)
    until(app, lambda: night.view is not None, dt=0.05)
    assert night.view is not None and night.view.stage is Stage.GATHERING
    assert night.view.organiser and [row.name for row in night.view.standings] == ["Vera"]
    assert night.invite is not None and night.invite.endswith(f":{night.feed.link.port}")  # type: ignore[attr-defined]
    press(app, "start")  # the organiser starts the night
    until(app, lambda: isinstance(app.stack[-1], Homing), frames=3000, dt=0.1)
    table = app.stack[-2]
    assert isinstance(table, TableScene) and isinstance(table.session, NetSession)
    assert table.session.token is not None  # the seat the party holds for us
    assert table.session.look == app.settings.look  # our badge beside our name
    # the table took us at the seat the party held for us, and deals
    until(app, lambda: table.names[table.seat : table.seat + 1] == ("Vera",), frames=3000, dt=0.05)
    assert table.seat != WATCHING and not table.watching
    until(app, lambda: table.view is not None, frames=3000, dt=0.05)
    assert night.view is not None and night.view.round == 1
    assert night.view.tables and "Vera" in night.view.tables[0].names


def test_a_party_hosted_here_is_saved_and_the_menu_resumes_it(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A party hosted from the window is saved where ``durak party`` saves one (the
    window's saves), its organiser's token beside it. The window closed in the middle of
    the night (its party host with it), the Party menu offers the unfinished night and
    takes it up on its port: the organiser is back as the same player, called to their
    table of the round in play."""
    import socket

    options = {"ai_processes": False, "announce": False, "gather": 1.0, "break_s": 60.0}
    monkeypatch.setattr(PartyHostScene, "ports", (0,))
    monkeypatch.setattr(PartyHostScene, "options", options)
    app.show("party")
    menu = app.stack[-1]
    assert isinstance(menu, PartyMenuScene) and menu.saved is None  # nothing to resume yet
    press(app, "host")
    press(app, "continue")  # (who we are tonight)
    host = app.stack[-1]
    assert isinstance(host, PartyHostScene)
    host.seats = 2  # one player and an AI at a table of two
    press(app, "start")
    until(app, lambda: isinstance(app.stack[-1], BetweenScene), dt=0.05)
    night = app.stack[-1]
    assert isinstance(night, BetweenScene)
    until(app, lambda: night.view is not None, dt=0.05)
    press(app, "start")  # the organiser starts the night
    until(app, lambda: isinstance(app.stack[-1], Homing), frames=3000, dt=0.1)
    port = night.feed.link.port  # type: ignore[attr-defined]
    assert (app.saves / f"party-{port}.json").exists()
    until(app, lambda: (app.saves / f"party-{port}-player.json").exists(), dt=0.05)
    while app.stack[-1] is not menu:  # the window closes the night: its party host stops
        app.pop()

    def stopped() -> bool:
        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", port)) != 0

    until(app, stopped, dt=0.05)
    assert menu.saved is not None and (menu.saved.port, menu.saved.round) == (port, 1)
    assert menu.saved.player == "Vera"
    resume = next(b for b in menu.buttons() if b.name == "resume")
    assert resume.label == f"Resume {menu.saved.name}, round 1"
    press(app, "resume")
    until(app, lambda: isinstance(app.stack[-1], BetweenScene), dt=0.05)
    again = app.stack[-1]
    assert isinstance(again, BetweenScene) and again is not night
    until(app, lambda: again.view is not None, dt=0.05)
    assert again.view is not None and again.view.round == 1
    assert [(row.name, row.me) for row in again.view.standings] == [("Vera", True)]
    until(app, lambda: isinstance(app.stack[-1], Homing), frames=3000, dt=0.1)
    table = app.stack[-2]  # called to the table of the round in play again, by its token
    assert isinstance(table, TableScene) and isinstance(table.session, NetSession)
    until(app, lambda: table.names[table.seat : table.seat + 1] == ("Vera",), frames=3000, dt=0.05)


def test_the_board_of_a_party_nobody_runs_says_so(app: App) -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app.show("party_join", board=True)
    type_text(app, f"127.0.0.1:{port}")
    type_text(app, "")
    board = app.stack[-1]
    assert isinstance(board, BoardScene)
    until(app, lambda: board.feed.problem is not None, dt=0.05)


def test_a_party_announced_on_the_lan_is_listed_and_a_tap_fills_it_in(app: App) -> None:
    from client.net.party_thread import host_party
    from engine import Rules
    from host.party import PartyConfig
    from protocol import Night

    # Other tests announce parties on 127.0.0.1 meanwhile: this one has a name of its own.
    name = f"Friday night {secrets.token_hex(3)}"
    config = PartyConfig(
        name=name, bind="127.0.0.1", setup=Night(Rules(players=4)), ai_processes=False
    )
    party = host_party(config)  # announced on 127.0.0.1 only

    def ours() -> list[Button]:
        found = [b for b in join.buttons() if b.name.startswith("found:")]
        return [b for b in found if b.label.startswith(f"{name} · ")]

    try:
        app.show("party_join")
        join = app.stack[-1]
        assert isinstance(join, PartyJoinScene)
        until(app, lambda: bool(ours()), frames=4000, dt=0.05)
        (listed,) = ours()
        assert listed.label.startswith(f"{name} · 0 players")
        click(app, listed.rect.center)
        assert join.fields["join.address"] == f"127.0.0.1:{party.port}"
    finally:
        app.close()
        party.stop()


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (720, 1280), (1080, 1920)])
def test_the_party_menu_and_the_statistics_stand_near_the_middle(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """Title to Back, each screen is set down so that the felt left below it is at most
    about twice what is left above (it stood at the top, half an upright window empty)."""
    window = open_app(tmp_path / "settings.json", size=size)
    press(window, "party")
    menu = window.stack[-1]
    assert isinstance(menu, PartyMenuScene)
    window.pop()
    press(window, "stats")
    stats = window.stack[-1]
    assert isinstance(stats, StatsScene)
    h = size[1]
    for top, bottom in (
        (menu.lowered(), menu.buttons()[-1].rect.bottom),
        (stats.panel().top - stats.title_h, stats.buttons()[-1].rect.bottom),
    ):
        assert top > 0 and h - bottom <= 2 * top + 0.1 * h
    window.close()


def test_a_tap_on_the_length_never_changes_rounds_into_minutes(app: App) -> None:
    """Rounds and minutes are two controls: the length steps within its kind either way
    (one tap left of "3 rounds" once made a 3-hour night), and only the kind's own row
    turns a night of rounds into one of time."""
    app.show("party_host")
    host = app.stack[-1]
    assert isinstance(host, PartyHostScene)
    labels = [row.label for row in host.rows]
    kind, length = labels.index("party.lasts"), labels.index("party.length")

    def tap(index: int, side: str) -> str:
        rect = host.row_rects()[index]
        value = host.value_rect(host.rows[index], rect)
        click(app, (value.left + 4 if side == "left" else value.right - 4, value.centery))
        return host.rows[length].value()

    assert host.rows[length].value() == "3 rounds"
    assert tap(length, "left") == "2 rounds"
    seen = {tap(length, side) for side in ("left",) * 5 + ("right",) * 5}
    assert seen == {f"{n} rounds" for n in (2, 3, 4, 5, 6)}
    assert tap(kind, "right") == "90 minutes"
    assert {tap(length, "right") for _ in range(4)} == {f"{n} minutes" for n in (60, 90, 120, 180)}
    assert tap(kind, "left") == "2 rounds"  # (each kind keeps its own length)
