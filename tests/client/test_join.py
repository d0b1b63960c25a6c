"""Joining a LAN table from the window: the list zeroconf finds (on 127.0.0.1 only, each
table's rules in the player's language), the address field, ``durak durak://HOST:PORT``,
and a clear message for every refusal."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import queue
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pygame
import pytest
from window import click, open_app, open_from_menu, type_text, until

from client.app import App, add_arguments
from client.net.lan import Invite, LanBrowser, invite_link, parse_invite
from client.net.remote import NetSession
from client.net.session import Closed, Seated
from client.screens.host import HostScene, copy_to_clipboard
from client.screens.join import rows as join_rows
from client.screens.join import screen as join_screen
from client.screens.join.screen import JoinScene
from client.screens.room.screen import RoomScene
from client.screens.table.screen import TableScene
from client.settings import Settings
from client.ui import render, widgets
from client.ui import scene as scene_module
from engine import Rules
from host import Announcer, HostConfig, HostHandle, TableAd, run_in_thread

pytestmark = pytest.mark.usefixtures("headless")


def make_app(tmp_path: Path, invite: str | None = None) -> App:
    """Anna's window, on 127.0.0.1 only (never a real interface in tests)."""
    return open_app(tmp_path / "settings.json", invite=invite, lan_bind="127.0.0.1", name="Anna")


def joined(app: App) -> bool:
    return isinstance(app.stack[-1], RoomScene)


@pytest.fixture
def host() -> Iterator[HostHandle]:
    with run_in_thread(
        HostConfig(name="Küchentisch", seats=3, ai=("easy",), announce=False, ai_processes=False)
    ) as handle:
        yield handle


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("durak://127.0.0.1:5000", Invite(("127.0.0.1",), 5000)),
        ("durak://kitchen.local:41234/", Invite(("kitchen.local",), 41234)),
        ("DURAK://[::1]:7", Invite(("::1",), 7)),
        (" 192.168.1.20:4000 ", Invite(("192.168.1.20",), 4000)),
        # A host's link lists each of its LAN addresses: the joiner tries them all.
        ("durak://10.99.5.1,10.0.0.1:45111", Invite(("10.99.5.1", "10.0.0.1"), 45111)),
    ],
)
def test_an_invite_is_parsed(text: str, expected: Invite) -> None:
    assert parse_invite(text) == expected
    assert parse_invite(expected.link) == expected  # the link reads back as itself


@pytest.mark.parametrize(
    "text",
    [
        "",
        "durak://",
        "durak://host",
        "durak://host:0",
        "durak://host:70000",
        "http://a:1",
        "host:port",
        "durak://:5000",
        "durak://a b:5",
        "durak://h:\uff15",
        "durak://a,:5",
        "durak://,b:5",
    ],
)
def test_a_bad_invite_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_invite(text)


def test_the_play_command_takes_an_invite() -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["durak://127.0.0.1:5000", "--bind", "127.0.0.1"])
    assert (args.invite, args.bind) == ("durak://127.0.0.1:5000", "127.0.0.1")


@pytest.mark.slow
def test_a_table_announced_on_loopback_is_listed_and_joined_with_a_tap(tmp_path: Path) -> None:
    config = HostConfig(
        name="Küchentisch", seats=3, ai=("easy",), password="pw", announce=True, ai_processes=False
    )
    with run_in_thread(config) as handle:
        app = make_app(tmp_path)
        scene = open_from_menu(app, "join", JoinScene)
        until(app, lambda: any(ad.port == handle.port for _, ad in scene.table_rects()))
        rect, ad = next((r, ad) for r, ad in scene.table_rects() if ad.port == handle.port)
        assert (ad.name, ad.address, ad.taken, ad.seats, ad.password) == (
            "Küchentisch",
            "127.0.0.1",
            1,
            3,
            True,
        )
        assert ad.reachable  # (its address answered)
        pygame.image.save(app.screen, str(tmp_path / "join.png"))
        click(app, rect.center)
        until(app, lambda: scene.asking)  # the table wants a password
        assert scene.error == "This table needs a password."
        type_text(app, "pw")
        until(app, lambda: joined(app))
        app.close()


@contextlib.contextmanager
def announced(port: int, name: str, addresses: list[str]) -> Iterator[None]:
    """The table at ``port`` announced on loopback at ``addresses`` (in a thread)."""
    ready, stop = threading.Event(), threading.Event()

    async def announce() -> None:
        announcer = Announcer("127.0.0.1", port, name, addresses=addresses)
        await announcer.start({"name": name, "seats": "1/3", "status": "lobby"})
        ready.set()
        try:
            await asyncio.to_thread(stop.wait)
        finally:
            await announcer.close()

    thread = threading.Thread(target=asyncio.run, args=(announce(),), daemon=True)
    thread.start()
    try:
        assert ready.wait(20)  # a bound against hanging, not a timing assertion
        yield
    finally:
        stop.set()
        thread.join(20)


@pytest.mark.slow
def test_a_table_is_listed_and_joined_at_the_address_that_answers(
    tmp_path: Path, host: HostHandle
) -> None:
    """Announced at 127.0.0.2 (loopback, but nothing listens there) and 127.0.0.1, in
    whatever order zeroconf answers: the row shows 127.0.0.1, and a tap joins."""
    with announced(host.port, "Zwei Wege", ["127.0.0.2", "127.0.0.1"]):
        app = make_app(tmp_path)
        scene = open_from_menu(app, "join", JoinScene)
        until(app, lambda: any(ad.port == host.port for _, ad in scene.table_rects()))
        rect, ad = next((r, ad) for r, ad in scene.table_rects() if ad.port == host.port)
        assert (ad.address, ad.reachable, set(ad.addresses)) == (
            "127.0.0.1",
            True,
            {"127.0.0.1", "127.0.0.2"},
        )
        assert scene.listing().meta(ad)[1] == f"127.0.0.1:{host.port}"
        click(app, rect.center)
        until(app, lambda: joined(app))
        app.close()


def drawn_texts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the Join screen draws from now on, in order."""
    shown: list[str] = []

    def spy(surface, assets, text, *args, **kwargs):  # type: ignore[no-untyped-def]
        shown.append(text)
        return render.draw_text(surface, assets, text, *args, **kwargs)

    for module in (join_screen, join_rows):  # the screen's words and its list's
        monkeypatch.setattr(module, "draw_text", spy)
    return shown


@pytest.mark.slow
def test_the_list_shows_a_tables_rules_in_the_players_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown = drawn_texts(monkeypatch)
    rules = Rules(transfer=True, durak_defends_first=True)
    config = HostConfig(
        name="Küchentisch", seats=3, ai=("easy",), rules=rules, announce=True, ai_processes=False
    )
    with run_in_thread(config) as handle:
        app = make_app(tmp_path)
        app.settings.language = "de"
        scene = open_from_menu(app, "join", JoinScene)
        until(app, lambda: any(ad.port == handle.port for _, ad in scene.table_rects()))
        ad = next(ad for _, ad in scene.table_rects() if ad.port == handle.port)
        shown.clear()
        app.step(0.01)
        german = "36 Karten, alle legen nach, erstes Gefecht höchstens 5, Schieben, "
        assert german + "Durak wehrt zuerst ab" in shown and ad.rules not in shown
        pygame.image.save(app.screen, str(tmp_path / "join_de.png"))
        # an announcement without the rules keys (an older host): its English summary
        assert scene.listing().rules_text(replace(ad, game_rules=None)) == ad.rules
        app.close()


def test_an_address_typed_in_joins(tmp_path: Path, host: HostHandle) -> None:
    app = make_app(tmp_path)
    scene = open_from_menu(app, "join", JoinScene)
    type_text(app, f"127.0.0.1:{host.port}")
    until(app, lambda: joined(app))
    app.close()
    assert scene.browser is None


def test_an_invite_on_the_command_line_goes_straight_to_the_table(
    tmp_path: Path, host: HostHandle
) -> None:
    app = make_app(tmp_path, invite=f"durak://127.0.0.1:{host.port}")
    until(app, lambda: joined(app))
    app.close()


def test_an_invite_naming_several_addresses_joins_at_the_one_that_answers(
    tmp_path: Path, host: HostHandle
) -> None:
    """127.0.0.2 is loopback too, but the host listens on 127.0.0.1 only: refused there."""
    app = make_app(tmp_path, invite=f"durak://127.0.0.2,127.0.0.1:{host.port}")
    until(app, lambda: joined(app))
    app.close()


def test_a_bad_invite_on_the_command_line_says_so(tmp_path: Path) -> None:
    app = make_app(tmp_path, invite="durak://nowhere")
    scene = app.stack[-1]
    assert isinstance(scene, JoinScene)
    assert scene.error.startswith("That is not an address")
    app.close()


def test_a_wrong_password_is_asked_again(tmp_path: Path) -> None:
    config = HostConfig(seats=2, password="secret", announce=False, ai_processes=False)
    with run_in_thread(config) as handle:
        app = make_app(tmp_path)
        scene = open_from_menu(app, "join", JoinScene)
        type_text(app, f"127.0.0.1:{handle.port}")
        until(app, lambda: scene.asking)
        type_text(app, "guess")
        until(app, lambda: scene.error == "Wrong password: try again.")
        assert scene.asking and scene.password == ""
        pygame.image.save(app.screen, str(tmp_path / "password.png"))
        type_text(app, "secret")
        until(app, lambda: joined(app))
        app.close()


def test_a_full_table_says_so(tmp_path: Path) -> None:
    with run_in_thread(
        HostConfig(seats=2, ai=("easy",), announce=False, ai_processes=False)
    ) as handle:
        first = NetSession("127.0.0.1", handle.port, "Boris")
        assert isinstance(first.inbox.get(timeout=20), Seated)
        app = make_app(tmp_path)
        scene = open_from_menu(app, "join", JoinScene)
        type_text(app, f"127.0.0.1:{handle.port}")
        until(app, lambda: bool(scene.error))
        assert scene.error == "This table is full: every seat is taken."
        assert not joined(app)
        first.close()
        first.join(10)
        app.close()


def test_an_unreachable_host_says_so(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    app.settings.language = "de"
    scene = open_from_menu(app, "join", JoinScene)
    type_text(app, f"127.0.0.1:{free_port()}")
    until(app, lambda: bool(scene.error))
    assert scene.error == app.tr("join.unreachable")
    assert scene.error.startswith("Der Tisch ist nicht erreichbar") and "Firewall" in scene.error
    pygame.image.save(app.screen, str(tmp_path / "unreachable.png"))
    app.close()


@pytest.mark.slow
def test_the_owner_fills_the_seats_with_ai_and_starts(tmp_path: Path) -> None:
    with run_in_thread(HostConfig(seats=3, announce=False, ai_processes=False)) as handle:
        app = make_app(tmp_path, invite=f"durak://127.0.0.1:{handle.port}")
        until(app, lambda: joined(app))
        room = app.stack[-1]
        assert isinstance(room, RoomScene)
        until(app, lambda: room.room is not None)
        assert room.owner and not room.can_start()
        # while seats are open the owner is offered to fill them (Start could not start)
        assert (room.buttons()[0].name, room.buttons()[0].label, room.buttons()[0].enabled) == (
            "fill",
            "Fill with AI",
            True,
        )
        for seat, level in ((1, "easy"), (2, "hard")):
            chip = next(c for c, s, choice in room.chips() if (s, choice) == (seat, level))
            click(app, chip.center)
            until(app, lambda s=seat: room.room.seats[s].kind == "ai")  # type: ignore[union-attr]
        assert [s.level for s in room.room.seats[1:]] == ["easy", "hard"]  # type: ignore[union-attr]
        clear = next(c for c, s, choice in room.chips() if (s, choice) == (2, "clear"))
        click(app, clear.center)
        until(app, lambda: room.room.seats[2].kind == "empty")  # type: ignore[union-attr]
        normal = next(c for c, s, choice in room.chips() if (s, choice) == (2, "normal"))
        click(app, normal.center)
        until(app, room.can_start)
        pygame.image.save(app.screen, str(tmp_path / "room.png"))
        click(app, room.buttons()[0].rect.center)
        until(app, lambda: isinstance(app.stack[-1], TableScene))
        table = app.stack[-1]
        until(app, lambda: table.view is not None)  # type: ignore[attr-defined]
        assert table.names[0] == "Anna"  # type: ignore[attr-defined]
        pygame.image.save(app.screen, str(tmp_path / "table.png"))
        app.close()


def test_a_player_who_is_not_the_owner_waits(tmp_path: Path) -> None:
    with run_in_thread(HostConfig(seats=3, announce=False, ai_processes=False)) as handle:
        owner = NetSession("127.0.0.1", handle.port, "Boris", rooms=True)
        assert isinstance(owner.inbox.get(timeout=20), Seated)
        app = make_app(tmp_path, invite=f"127.0.0.1:{handle.port}")
        until(app, lambda: joined(app))
        room = app.stack[-1]
        assert isinstance(room, RoomScene)
        until(app, lambda: room.room is not None and room.room.seats[1].kind == "human")
        assert not room.owner and room.chips() == []
        assert [b.name for b in room.buttons()] == ["ready", "leave"]
        pygame.image.save(app.screen, str(tmp_path / "waiting.png"))
        owner.close()
        owner.join(10)
        app.close()


@pytest.mark.slow
def test_hosting_a_table_lands_in_its_room_with_an_invite(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    scene = open_from_menu(app, "host", HostScene)
    assert scene.name == "Anna's table"
    rects = dict(zip([r.label for r in scene.rows], scene.row_rects(), strict=True))
    click(app, rects["host.seats"].center)  # 3 -> 4
    click(app, rects["host.name"].center)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode=""))
    type_text(app, "!")  # Enter ends the editing
    assert (scene.name, scene.seats, scene.editing) == ("Anna's tabl!", 4, None)
    pygame.image.save(app.screen, str(tmp_path / "host.png"))
    click(app, scene.buttons()[1].rect.center)  # Open the table
    until(app, lambda: isinstance(app.stack[-1], RoomScene))
    room = app.stack[-1]
    assert isinstance(room, RoomScene)
    until(app, lambda: room.room is not None)
    assert room.owner and room.room is not None and len(room.room.seats) == 4
    assert room.room.name == "Anna's tabl!"
    port = scene.host.port  # type: ignore[attr-defined]
    assert room.invite == f"durak://127.0.0.1:{port}"
    pygame.image.save(app.screen, str(tmp_path / "hosted.png"))
    app.close()
    scene.host.stop()  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (720, 1280)])
def test_the_host_forms_panels_stand_clear_and_use_a_big_window(size: tuple[int, int]) -> None:
    """Upright, the table's panel and the rules' sat rim on rim; on a 1080p window the
    form filled its top quarter."""
    app = App(Settings(), None, size=size, sound=False)
    scene = HostScene(app)
    rects = scene.row_rects()
    sections = [
        [r for r, row in zip(rects, scene.rows, strict=True) if row.column == col] for col in (0, 1)
    ]
    panels = [box[0].unionall(box).inflate(24, 16) for box in sections]  # (as it draws them)
    screen = pygame.Rect((0, 0), size)
    assert not panels[0].colliderect(panels[1])
    assert all(screen.contains(panel) for panel in panels)
    assert max(p.bottom for p in panels) < scene.buttons()[0].rect.top
    assert panels[0].unionall(panels[1:]).h >= size[1] * 0.35
    app.close()


def test_an_invite_link_is_copied_where_there_is_a_clipboard() -> None:
    assert invite_link("127.0.0.1", 4000) == "durak://127.0.0.1:4000"
    assert isinstance(copy_to_clipboard("durak://127.0.0.1:4000"), bool)  # never raises


class Refused:
    """A session the host has already refused with ``code``."""

    def __init__(self, code: str) -> None:
        self.inbox: queue.Queue[object] = queue.Queue()
        self.inbox.put(Closed("host text", code))
        self.closed = False

    def close(self) -> None:
        self.closed = True


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("version_mismatch", "This table runs another version of Durak"),
        ("game_in_progress", "A game is being played at this table"),
        ("something_new", "host text"),
    ],
)
def test_every_refusal_reads_clearly(tmp_path: Path, code: str, message: str) -> None:
    app = make_app(tmp_path)
    sessions: list[Refused] = []

    def joiner(
        address: str,
        port: int,
        name: str,
        password: str | None,
        ai: object,
        watch: bool = False,
        look: object = None,
    ) -> Refused:
        sessions.append(Refused(code))
        return sessions[-1]

    scene = JoinScene(app, joiner=joiner, browse=False)  # type: ignore[arg-type]
    app.push(scene)
    type_text(app, "durak://192.0.2.7:4000")
    assert scene.error.startswith(message) and sessions[0].closed
    app.close()


def test_a_game_session_keeps_reporting_the_room_during_play() -> None:
    from client.net.remote import computer_game
    from client.net.session import RoomChanged
    from engine import Rules

    session = computer_game(Rules(players=2), "Anna", ["random"])
    try:
        deadline = time.monotonic() + 20  # a bound against hanging, not a timing assertion
        while time.monotonic() < deadline:
            message = session.inbox.get(timeout=20)
            if isinstance(message, RoomChanged) and message.room.status == "playing":
                break
        else:
            raise AssertionError("no room update during the game")
        assert [s.status for s in message.room.seats] == ["connected", "ai"]
    finally:
        session.close()
        assert session.join(timeout=10)


LONG_RULES = Rules(deck_size=52, transfer=True, transfer_show_trump=True, durak_defends_first=True)
ADS = (
    TableAd("a._durak._tcp.local.", "Küchentisch", "127.0.0.1", 45699, 2, 1, 4, "", "waiting",
            False, Rules()),
    TableAd("b._durak._tcp.local.", "Der sehr lange Tisch am Fenster hinten links",
            "192.168.178.120", 45654, 2, 2, 6, LONG_RULES.summary, "playing", True, LONG_RULES),
)  # fmt: skip


class Announced:
    """A browser that has found ``ADS`` (no network)."""

    failed = False

    def __init__(self) -> None:
        self.tables = {ad.name: ad for ad in ADS}

    def poll(self) -> bool:
        return False

    def close(self, timeout: float = 5.0) -> None:
        pass


def drawn_rects(monkeypatch: pytest.MonkeyPatch, module, rects: list[pygame.Rect]) -> None:  # type: ignore[no-untyped-def]
    """Every text (as ``draw_text`` returns it) and button ``module`` draws, into ``rects``."""

    def text_spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        rects.append(render.draw_text(*args, **kwargs))
        return rects[-1]

    def button_spy(surface, assets, rect, *args, **kwargs):  # type: ignore[no-untyped-def]
        rects.append(pygame.Rect(rect))
        render.draw_button(surface, assets, rect, *args, **kwargs)

    monkeypatch.setattr(module, "draw_text", text_spy)
    for drawer in (module, scene_module):  # a screen's own buttons, and ButtonScene's
        if hasattr(drawer, "draw_button"):
            monkeypatch.setattr(drawer, "draw_button", button_spy)


def overlaps(rects: list[pygame.Rect]) -> list[tuple[pygame.Rect, pygame.Rect]]:
    return [(a, b) for i, a in enumerate(rects) for b in rects[i + 1 :] if a.colliderect(b)]


@pytest.mark.parametrize("language", ["en", "de", "nl", "ru"])
@pytest.mark.parametrize("size", [(360, 640), (480, 800), (720, 1280), (800, 600), (1280, 720)])
def test_the_list_of_tables_fits_the_window(
    size: tuple[int, int], language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both tables are listed, and every word, padlock and button of the screen lies inside
    the window, its row or the field, and clear of everything else."""
    rects: list[pygame.Rect] = []
    drawn_rects(monkeypatch, join_screen, rects)
    drawn_rects(monkeypatch, join_rows, rects)
    drawn_rects(monkeypatch, widgets, rects)  # the field (``widgets.draw_field``)
    locks: list[pygame.Rect] = []

    def padlock_spy(*args):  # type: ignore[no-untyped-def]
        locks.append(join_screen_padlock(*args))
        return locks[-1]

    join_screen_padlock = join_rows.draw_padlock
    monkeypatch.setattr(join_rows, "draw_padlock", padlock_spy)
    app = App(Settings(language=language), None, size=size, sound=False)
    scene = JoinScene(app, browse=False)
    scene.browser = Announced()  # type: ignore[assignment]
    app.push(scene)
    scene.address = "192.168.178.120:45654"
    screen = pygame.Rect((0, 0), size)
    for asking in (False, True):  # then the password prompt, with a long message
        if asking:
            scene.choose(ADS[1])
            scene.password = "secret"
            scene.error = app.tr("join.in_progress")
        rects.clear()
        locks.clear()
        app.step(0.02)
        rows = [rect for rect, _ in scene.table_rects()]
        field = scene.field()
        assert len(rows) == 2 and len(locks) == 1
        in_field = [rect for rect in rects if field.contains(rect)]
        shown = [rect for rect in rects if rect not in in_field] + locks + [field]
        assert len(in_field) == 1, "the text typed, alone in its field"
        assert all(screen.contains(rect) for rect in shown), (size, shown)
        assert not overlaps(shown), overlaps(shown)
        panel = scene.panel()
        for row in rows:
            assert panel.contains(row)
            inside = [rect for rect in shown if rect.colliderect(row)]
            assert len(inside) >= 4 and all(row.contains(rect) for rect in inside), (row, inside)
        assert not overlaps(rows)
    assert scene.asking and scene.error
    app.close()


def test_the_table_whose_password_is_asked_is_edged_in_gold() -> None:
    """The prompt says "This table needs a password." under a list of several."""
    app = App(Settings(), None, size=(1280, 720), sound=False)
    scene = JoinScene(app, browse=False)
    scene.browser = Announced()  # type: ignore[assignment]
    app.push(scene)
    scene.choose(ADS[1])
    app.step(0.02)
    edges = {ad.name: tuple(app.screen.get_at(rect.midtop))[:3] for rect, ad in scene.table_rects()}
    assert edges[ADS[1].name] == render.GOLD
    assert list(edges.values()).count(render.GOLD) == 1  # (the other row's edge is green)
    app.close()


def test_a_big_wide_window_shows_the_list_larger() -> None:
    """At 1920x1080 the list was drawn as at 1280x720, in half the window's width."""
    rows = {}
    for size in ((1280, 720), (1920, 1080)):
        app = App(Settings(), None, size=size, sound=False)
        scene = JoinScene(app, browse=False)
        scene.browser = Announced()  # type: ignore[assignment]
        rows[size] = scene.table_rects()[0][0]
        app.close()
    small, large = rows[(1280, 720)], rows[(1920, 1080)]
    assert large.h >= small.h * 1.2 and large.w >= 1920 * 0.55


@pytest.mark.slow
def test_a_table_whose_game_started_says_so_in_the_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown = drawn_texts(monkeypatch)
    # every seat an AI and autostart: the table starts as soon as it is up
    config = HostConfig(
        name="Stube",
        seats=2,
        ai=("easy", "easy"),
        autostart=True,
        announce=True,
        ai_processes=False,
    )
    with run_in_thread(config) as handle:
        app = make_app(tmp_path)
        app.settings.language = "de"
        scene = open_from_menu(app, "join", JoinScene)
        until(
            app,
            lambda: any(
                ad.port == handle.port and ad.status == "playing" for _, ad in scene.table_rects()
            ),
        )
        shown.clear()
        app.step(0.01)
        assert "im Spiel · 2/2 Plätze" in shown
        app.close()


class NothingFound(Announced):
    """A browser that is searching and has found nothing (no network)."""

    def __init__(self) -> None:
        self.tables = {}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_an_empty_list_says_it_is_searching_then_what_may_be_wrong(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At first "searching"; after ``HINT_AFTER`` seconds of nothing, the firewall, guest
    Wi-Fi and the address field; a table found ends it. The window wakes for the hint."""
    shown = drawn_texts(monkeypatch)
    app = App(Settings(language=language), None, size=(1280, 720), sound=False)
    scene = JoinScene(app, browse=False)
    scene.browser = NothingFound()  # type: ignore[assignment]
    app.push(scene)
    app.step(0.02)
    assert app.tr("join.searching") in shown
    assert 0 < scene.next_frame() <= join_screen.HINT_AFTER
    shown.clear()
    app.step(join_screen.HINT_AFTER)
    words = " ".join(shown)
    hint = app.tr("join.hint")
    assert app.tr("join.searching") not in shown and all(w in words for w in hint.split())
    assert scene.next_frame() == float("inf")
    scene.browser.tables = {ad.name: ad for ad in ADS}  # type: ignore[union-attr]
    shown.clear()
    app.step(0.02)
    assert "Küchentisch" in shown and not any(w in shown for w in hint.split(". "))
    app.close()


def test_a_table_that_answered_nowhere_says_so_and_is_tried_everywhere(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path)
    joined: list[tuple[object, int]] = []

    def joiner(
        address: object,
        port: int,
        name: str,
        password: str | None,
        ai: object,
        watch: bool = False,
        look: object = None,
    ) -> Refused:
        joined.append((address, port))
        return Refused("table_full")

    scene = JoinScene(app, joiner=joiner, browse=False)  # type: ignore[arg-type]
    away = replace(ADS[0], address="10.0.0.1", addresses=("10.0.0.1", "10.99.5.1"))
    scene.browser = Announced()  # type: ignore[assignment]
    scene.browser.tables = {away.name: replace(away, reachable=False)}  # type: ignore[union-attr]
    app.push(scene)
    assert scene.listing().meta(scene.tables()[0])[1] == app.tr("join.not_reachable")
    scene.choose(scene.tables()[0])
    assert joined == [(("10.0.0.1", "10.99.5.1"), away.port)]
    app.close()


def test_the_lan_browser_closed_as_it_starts_stops_at_once() -> None:
    """Leaving the Join screen the moment it opened: the browser's thread, not yet running
    its loop when asked to close, still stops (it used to browse on, and the window waited
    5 s for it)."""
    for _ in range(5):
        browser = LanBrowser("127.0.0.1")
        browser.close(timeout=5.0)
        assert not browser._thread.is_alive()
