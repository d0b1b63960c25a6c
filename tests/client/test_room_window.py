"""The room screen in any window, without a host: a session already seated in a room the
test makes up (``Sitting``). Every word and chip lies inside the window, clear of the rest;
the owner's Start and a watcher's Take seat are lit exactly when the host's lobby would
agree; the host's lines say where others reach the table, in the oval or under the seats;
an open seat says so; one tap fills every open seat; the Phones button shows the page's
code; and a seat's one chip opens its choices where a row of chips has no room (SDL dummy
drivers)."""

from __future__ import annotations

import itertools
import queue
from dataclasses import replace

import pygame
import pytest
from rooms import chip_label, spy_on_drawing
from window import click, key

from client.app import App
from client.i18n import Translator
from client.net.session import WATCHING, RoomChanged, Seated
from client.screens.room import header, middle, phones, plates, seatmenu
from client.screens.room import seating as seating_module
from client.screens.room.screen import RoomScene
from client.screens.room.share import share_lines
from client.settings import Settings
from client.ui import render
from client.ui.confirm import ConfirmScene
from client.ui.qrcode import qr_image
from engine import Rules, Series
from host import lobby
from protocol import Room, SeatInfo, Start

pytestmark = pytest.mark.usefixtures("headless")


class Sitting:
    """A session already seated at ``seat`` of ``room`` (no network; ``WATCHING``: a
    watcher's)."""

    def __init__(self, room: Room, seat: int = 0) -> None:
        self.inbox: queue.Queue[object] = queue.Queue()
        self.inbox.put(Seated(seat, tuple(s.name for s in room.seats), room.rules))
        self.inbox.put(RoomChanged(room))

    def close(self) -> None:
        pass

    def start(self) -> None:
        pass

    def ready(self, ready: bool = True) -> None:
        pass

    def set_seat(self, seat: int, ai: str | None) -> None:
        pass


def a_room(seats: int, owner: int = 0) -> Room:
    """Us (the owner), a computer, an open seat; then a player ready, another computer..."""
    rules = Rules(
        players=seats, deck_size=52, transfer=True, transfer_show_trump=True,
        durak_defends_first=True,
    )  # fmt: skip
    infos = (
        SeatInfo("human", "Anna", None, True),
        SeatInfo("ai", "", "hard"),
        SeatInfo("empty"),
        SeatInfo("human", "Konstantin Konstantin", None, True, ready=True),
        SeatInfo("ai", "", "easy"),
        SeatInfo("empty"),
    )[:seats]
    name = {3: "Küchentisch", 4: "Der Stammtisch im Hinterzimmer"}.get(
        seats, "Der Stammtisch im Hinterzimmer der Gaststätte Zum Goldenen Hirsch"[:63]
    )
    return Room(name, "waiting", owner, infos, rules, False, False, Series.new(seats), 0)


# (seats, our view): the owner's, the owner's with the invite to share, a guest's
ROOMS = [(3, "owner"), (6, "host"), (4, "guest")]


@pytest.mark.parametrize(("seats", "view"), ROOMS)
@pytest.mark.parametrize("language", ["en", "de", "nl", "ru"])
@pytest.mark.parametrize("size", [(360, 640), (480, 800), (720, 1280), (800, 600), (1280, 720)])
def test_the_room_fits_the_window(
    size: tuple[int, int], language: str, seats: int, view: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every word and button of the room lies inside the window, clear of everything else
    (a seat's inside its box), and every chip's label fits it at a readable size."""
    rects: list[pygame.Rect] = []
    chip_sizes: dict[tuple[int, int, int, int], tuple[str, int]] = {}

    def text_spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        rects.append(render.draw_text(*args, **kwargs))
        return rects[-1]

    def button_spy(surface, assets, rect, label, *args, px=None, **kwargs):  # type: ignore[no-untyped-def]
        rects.append(pygame.Rect(rect))
        if px is not None:
            chip_sizes[tuple(rect)] = (label, px)
        render.draw_button(surface, assets, rect, label, *args, px=px, **kwargs)

    spy_on_drawing(monkeypatch, text_spy, button_spy)
    app = App(Settings(language=language), None, size=size, sound=False)
    room = a_room(seats, 3 if view == "guest" else 0)
    invite = "durak://192.168.178.120,10.0.0.1:45654" if view == "host" else ""
    page = "http://192.168.178.120:45656/" if view == "host" else ""
    scene = RoomScene(app, Sitting(room), invite, page=page)  # type: ignore[arg-type]
    if invite:
        scene.note = app.tr("room.copied")
    app.push(scene)
    app.step(0.02)
    assert scene.room is not None and scene.owner == (view != "guest")
    rects.clear()
    app.step(0.02)
    screen = pygame.Rect((0, 0), size)
    boxes = scene.seat_rects()
    assert all(screen.contains(rect) for rect in rects + boxes), (size, rects, boxes)
    assert not overlaps(rects), overlaps(rects)
    assert not overlaps(boxes), overlaps(boxes)
    for box in boxes:
        inside = [rect for rect in rects if rect.colliderect(box)]
        assert inside and all(box.contains(rect) for rect in inside), (box, inside)
    chips = scene.chips()
    # the owner: levels and clear under AI and open seats (or the one chip that opens
    # them, where a box has no room for the row), "send away" under another player
    rows = {3: 2, 6: 5, 4: 0} if scene.seating().menus else {3: 7, 6: 15, 4: 0}
    assert len(chips) == len(chip_sizes) == rows[seats]
    for chip, seat, choice in chips:
        label, px = chip_sizes[tuple(chip)]
        assert label == chip_label(scene, choice, seat)
        assert px >= render.MIN_PX, (label, px)
        width = app.assets.font(px, True).size(label)[0]
        assert width <= chip.w - chip.h * 0.5, (label, px, chip)  # as button_px measures
    app.close()


def overlaps(rects: list[pygame.Rect]) -> list[tuple[pygame.Rect, pygame.Rect]]:
    return [(a, b) for i, a in enumerate(rects) for b in rects[i + 1 :] if a.colliderect(b)]


def test_the_room_screen_and_the_host_lobby_agree() -> None:
    """The same rooms shown to the screen and asked of the host's lobby: the owner's Start
    is lit exactly when the host would start, the screen names the players the host's
    start waits for, "fill the seats" exactly when the host would say seats_empty, and a
    watcher's Take seat is lit exactly when the host would seat them."""
    app = App(Settings(), None, size=(800, 600), sound=False)
    kinds = (
        SeatInfo("human", "Anna", None, True),
        SeatInfo("human", "Boris", None, True, ready=True),
        SeatInfo("ai", "", "easy", ready=True),
        SeatInfo("empty"),
    )
    checked = 0
    for seats in itertools.product(kinds, repeat=3):
        for owner, status in itertools.product((0, 1, None), ("lobby", "playing")):
            room = Room("T", status, owner, seats, Rules(players=3), False, False, Series.new(3), 0)
            for seat in (0, 1, 2, WATCHING):
                scene = RoomScene(app, Sitting(room, seat))  # type: ignore[arg-type]
                app.push(scene)
                app.step(0.02)
                lit = {b.name: b.enabled for b in scene.buttons()}
                host_start = lobby.check(room, seat, Start(1))
                assert lit.get("start", False) == (scene.owner and host_start is None)
                assert scene.can_start() == (host_start is None)
                assert scene.waiting() == lobby.waiting(room)
                if owner is not None and status == "lobby":
                    seats_empty = lobby.check(room, owner, Start(1)) == "seats_empty"
                    assert scene.full() == (not seats_empty)
                open_seat = any(s.kind == "empty" for s in seats)  # the host's ``_sit``
                sit = seat == WATCHING and status == "lobby" and open_seat
                assert lit.get("sit", False) == scene.can_sit() == sit
                scene.handed = True  # (leave the session to the next room)
                app.pop()
                checked += 1
    app.close()
    assert checked == 4**3 * 6 * 4


@pytest.mark.parametrize("language", ["en", "de", "nl", "ru"])
def test_the_hosts_room_says_where_others_can_reach_it(language: str) -> None:
    """Its LAN addresses and port, for typing where the Join list stays empty, and the link;
    a host only this machine can reach says so rather than show 127.0.0.1."""
    tr = Translator(language)
    link = "durak://192.168.1.5,10.0.0.1:45654"
    lines = [text for text, _ in share_lines(link, "", tr, platform="linux")]
    assert lines == [
        tr("room.lan", addresses="192.168.1.5, 10.0.0.1", port=45654),
        tr("room.firewall.other", port=45654),
        tr("room.invite", link=link),
    ]
    assert "45654" in lines[1] and "5353" in lines[1]  # what a firewall must let in
    for system, said in (("win32", "room.firewall.win32"), ("darwin", "room.firewall.darwin")):
        assert share_lines(link, "", tr, platform=system)[1][0] == tr(said)
    assert "192.168.1.5, 10.0.0.1" in lines[0] and "45654" in lines[0]
    lines = [text for text, _ in share_lines("durak://127.0.0.1:45654", "copied", tr)]
    assert lines[0] == tr("room.no_lan", port=45654) and "127.0.0.1" not in lines[0]
    assert lines[-1] == "copied"
    assert share_lines("", "", tr) == []  # a guest's room: someone else's table


def test_an_open_seat_says_so_in_the_middle_of_its_box_unless_chips_go_under(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A guest saw "Open seat" at the top of an empty box, as if something were missing."""
    drawn: list[pygame.Rect] = []

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        drawn.append(render.draw_text(*args, **kwargs))
        return drawn[-1]

    monkeypatch.setattr(plates, "draw_text", spy)
    app = App(Settings(), None, size=(1280, 720), sound=False)
    box = pygame.Rect(100, 100, 300, 80)
    words = plates.SeatWords("Open seat", "", (230, 230, 230), None)
    for chips in (False, True):
        drawn.clear()
        plates.draw_seat(app.screen, app.assets, box, words, 20, False, True, chips)
        assert len(drawn) == 1
        assert (abs(drawn[0].centery - box.centery) <= 1) is not chips
    app.close()


class Filling(Sitting):
    """A room's session that keeps the seats the owner set."""

    def __init__(self, room: Room, seat: int = 0) -> None:
        super().__init__(room, seat)
        self.set: list[tuple[int, str | None]] = []

    def set_seat(self, seat: int, ai: str | None) -> None:
        self.set.append((seat, ai))


def test_one_tap_fills_every_open_seat_with_an_ai() -> None:
    """Five taps filled five open seats: while open seats keep Start from being pressed,
    the owner's button beside Leave fills them all, at the level of the start screen's
    first opponent; then it is Start again. A guest has none."""
    app = App(Settings(language="en", levels=["hard"] * 5), None, size=(1280, 720), sound=False)
    session = Filling(a_room(6))
    scene = RoomScene(app, session)  # type: ignore[arg-type]
    app.push(scene)
    app.step(0.02)
    fill = next(b for b in scene.buttons() if b.name == "fill")
    assert fill.label == "Fill with AI" and "start" not in [b.name for b in scene.buttons()]
    click(app, fill.rect.center)
    assert session.set == [(2, "hard"), (5, "hard")]
    full = replace(a_room(6), seats=tuple(
        SeatInfo("ai", "", "hard") if s.kind == "empty" else s for s in a_room(6).seats
    ))  # fmt: skip
    session.inbox.put(RoomChanged(full))
    app.step(0.02)
    assert [b.name for b in scene.buttons()] == ["start", "leave"]
    guest = RoomScene(app, Filling(a_room(6, owner=3)))  # type: ignore[arg-type]
    app.push(guest)
    app.step(0.02)
    assert "fill" not in [b.name for b in guest.buttons()]
    app.close()


@pytest.mark.parametrize("size", [(360, 640), (720, 1280), (1280, 720), (1920, 1080)])
def test_the_hosts_phones_button_shows_the_pages_code_and_address(
    size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Guests with a phone scan the code the host's room shows (or type its address);
    the code, the words and the button all fit the window, and Esc goes back."""
    page = "http://192.168.178.120:45656/"
    shown: list[tuple[str, pygame.Rect]] = []

    def text_spy(surface, assets, text, *args, **kwargs):  # type: ignore[no-untyped-def]
        shown.append((text, render.draw_text(surface, assets, text, *args, **kwargs)))
        return shown[-1][1]

    monkeypatch.setattr(phones, "draw_text", text_spy)
    app = App(Settings(language="en"), None, size=size, sound=False)
    scene = RoomScene(app, Sitting(a_room(3)), page=page)  # type: ignore[arg-type]
    app.push(scene)
    app.step(0.02)
    button = next(b for b in scene.buttons() if b.name == "phones")
    assert button.label == "Phones"
    click(app, button.rect.center)
    overlay = app.stack[-1]
    assert isinstance(overlay, phones.PhonesScene)
    app.step(0.02)
    screen = pygame.Rect((0, 0), size)
    assert page in [text for text, _ in shown]
    assert all(screen.contains(rect) for _, rect in shown)
    code = qr_image(page, overlay._panel()[2])
    assert overlay._panel()[0].height <= size[1] and len(overlay._panel()[3]) <= 4
    assert code.get_width() >= min(size) * 0.3  # large enough to scan across a table
    key(app, pygame.K_ESCAPE)
    assert app.stack[-1] is scene
    guest = RoomScene(app, Sitting(a_room(4, owner=3)))  # type: ignore[arg-type]
    app.push(guest)
    app.step(0.02)
    assert "phones" not in [b.name for b in guest.buttons()]  # (not our table: no page)
    app.close()


def open_room(seats: int) -> Room:
    infos = (SeatInfo("human", "Anna", None, True),) + (SeatInfo("empty"),) * (seats - 2)
    infos += (SeatInfo("human", "Boris", None, True),)
    return Room("Anna's table", "waiting", 0, infos, Rules(players=seats), False, False,
                Series.new(seats), 0)  # fmt: skip


def mixed_room(seats: int) -> Room:
    """``a_room`` with a player at its last seat (a guest's view is theirs)."""
    room = a_room(seats)
    last = SeatInfo("human", "Konstantin Konstantin", None, True, ready=True)
    return replace(room, seats=(*room.seats[:-1], last))


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("size", [(720, 1280), (1280, 720), (1920, 1080)])
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_the_host_sees_the_oval_table_the_guests_see(
    size: tuple[int, int], seats: int, language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The owner of a table hosted here has chips under the other seats and four lines
    more (where others join, the firewall, the invite): the chips fold into one a seat and
    the lines go under the seats where they do not fit, instead of the owner's room turning
    into a column of seats while the guests' is an oval (as it did at 720x1280); every word
    in the table lies within its ellipse, every word under it clear of the seats."""
    drawn: list[tuple[str, pygame.Rect]] = []

    def text_spy(surface, assets, text, px, *args, **kwargs):  # type: ignore[no-untyped-def]
        rect = render.draw_text(surface, assets, text, px, *args, **kwargs)
        drawn.append((text, rect))
        assert px >= seating_module.SMALLEST, (text, px)  # readable
        return rect

    monkeypatch.setattr(header, "draw_text", text_spy)
    monkeypatch.setattr(middle, "draw_text", text_spy)
    invite, page = "durak://192.168.178.120,10.0.0.1:45654", "http://192.168.178.120:45656/"
    for seat, view in ((0, "host"), (seats - 1, "guest")):
        app = App(Settings(language=language), None, size=size, sound=False)
        host = view == "host"
        session = Sitting(mixed_room(seats), seat)
        link, shown = (invite, page) if host else ("", "")
        scene = RoomScene(app, session, link, page=shown)  # type: ignore[arg-type]
        app.push(scene)
        app.step(0.02)
        assert scene.owner is host
        drawn.clear()
        app.step(0.02)
        seating = scene.seating()
        assert not seating.column, (view, size, seats, language)
        oval, strip = seating.table, seating.strip
        inside = [(t, r) for t, r in drawn if oval.collidepoint(r.center)]
        under = [(t, r) for t, r in drawn if strip is not None and strip.collidepoint(r.center)]
        assert len(inside) + len(under) >= (4 if host else 1)
        assert any("durak://" in text for text, _ in inside + under) is host  # the invite
        a, b = oval.w / 2, oval.h / 2
        for text, rect in inside:
            for x, y in (rect.topleft, rect.topright, rect.bottomleft, rect.bottomright):
                assert ((x - oval.centerx) / a) ** 2 + ((y - oval.centery) / b) ** 2 <= 1.0, text
        leave = next(b for b in scene.buttons() if b.name == "leave").rect
        for text, rect in under:
            assert rect.left >= 0 and rect.right <= size[0] and rect.bottom < leave.top, text
            assert not any(box.colliderect(rect) for box in scene.seat_rects()), text
        if host:  # every seat but ours has the owner's chips
            assert {i for _, i, _ in scene.chips()} == set(range(1, seats))
        app.close()


def test_the_owner_sets_a_seat_from_its_one_chip_where_a_row_has_no_room() -> None:
    """At 720x1280 a seat's box around the oval is too narrow for Easy, Normal, Hard and
    clear: its one chip says the level ("Fill with AI" on an open seat) and opens them; a
    choice goes to the host, Esc or a tap beside the menu changes nothing; "Send away"
    still asks first."""
    app = App(Settings(language="en"), None, size=(720, 1280), sound=False)
    session = Filling(mixed_room(4))
    scene = RoomScene(app, session)  # type: ignore[arg-type]
    app.push(scene)
    app.step(0.02)
    assert scene.seating().menus and not scene.seating().column
    chips = {seat: (chip, choice) for chip, seat, choice in scene.chips()}
    assert [(seat, chip_label(scene, choice, seat)) for seat, (_, choice) in chips.items()] == [
        (1, "Hard ▾"), (2, "Fill with AI ▾"), (3, "Send away"),
    ]  # fmt: skip
    screen = pygame.Rect((0, 0), app.size)

    def open_menu(seat: int) -> seatmenu.SeatMenuScene:
        click(app, chips[seat][0].center)
        menu = app.stack[-1]
        assert isinstance(menu, seatmenu.SeatMenuScene)
        assert all(screen.contains(b.rect) for b in menu.buttons())
        return menu

    menu = open_menu(2)
    assert [(b.name, b.label) for b in menu.buttons()] == [
        ("easy", "Easy"), ("normal", "Normal"), ("hard", "Hard"),
    ]  # fmt: skip
    click(app, next(b.rect.center for b in menu.buttons() if b.name == "normal"))
    assert app.stack[-1] is scene and session.set == [(2, "normal")]
    menu = open_menu(1)
    assert [(b.name, b.label, b.style) for b in menu.buttons()][2:] == [
        ("hard", "Hard", "chosen"), ("clear", "✕ Open seat", "secondary"),
    ]  # fmt: skip
    click(app, next(b.rect.center for b in menu.buttons() if b.name == "clear"))
    assert session.set[-1] == (1, None)
    open_menu(1)
    key(app, pygame.K_ESCAPE)
    assert app.stack[-1] is scene
    menu = open_menu(1)
    panel = menu.panel()[0]
    click(app, (panel.centerx, panel.bottom + 20 if panel.bottom + 20 < 1280 else 10))
    assert app.stack[-1] is scene and len(session.set) == 2
    click(app, chips[3][0].center)
    assert isinstance(app.stack[-1], ConfirmScene)
    app.close()
