"""The room screen's ready marks, its rules summary and level chips in the player's language,
and the way back to it after a LAN game, driven by posted input events against real hosts
on 127.0.0.1 (SDL dummy drivers)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pygame
import pytest
import window
from window import click, key

from client.app import App
from client.cli.bot_player import BotReport, play_bot
from client.i18n import LANGUAGES, Translator
from client.net.client import HostClosed, NetClient
from client.net.gamefile import GameFile
from client.net.remote import NetSession
from client.net.session import WATCHING, RoomChanged, Seated
from client.screens.room import chips as chips_module
from client.screens.room import header, middle, phones, plates, seatmenu
from client.screens.room import screen as room_screen
from client.screens.room import seating as seating_module
from client.screens.room.screen import RoomScene
from client.screens.room.share import share_lines
from client.screens.table.notices import EndScene
from client.screens.table.panels import PauseScene
from client.screens.table.screen import TableScene
from client.settings import Settings
from client.ui import render
from client.ui import scene as scene_module
from client.ui.confirm import ConfirmScene
from client.ui.qrcode import qr_image
from client.ui.render import button_px
from engine import Rules, Series
from host import HostConfig, lobby, run_in_thread
from protocol import Room, SeatInfo, Start

pytestmark = pytest.mark.usefixtures("headless")
FRAMES = 3000  # a bound against hanging (x 0.01 s), not a timing assertion


def make_app(tmp_path: Path, port: int) -> App:
    """Anna's window joining the table at ``port`` on 127.0.0.1."""
    chosen = {"lan_bind": "127.0.0.1", "name": "Anna", "animation": "fast"}
    return window.open_app(tmp_path / "settings.json", invite=f"127.0.0.1:{port}", **chosen)


def until(app: App, done: Callable[[], bool], frames: int = FRAMES, dt: float = 0.01) -> None:
    window.until(app, done, frames, dt)


def in_room(app: App) -> RoomScene:
    until(app, lambda: isinstance(app.stack[-1], RoomScene))
    room = app.stack[-1]
    assert isinstance(room, RoomScene)
    until(app, lambda: room.room is not None)
    return room


def button(room: RoomScene, name: str) -> tuple[pygame.Rect, str, bool]:
    found = next(b for b in room.buttons() if b.name == name)
    return found.rect, found.label, found.enabled


def mark(room: RoomScene, seat: int) -> bool:
    assert room.room is not None
    return room.room.seats[seat].ready


def chip_label(room: RoomScene, choice: str, seat: int) -> str:
    """What the chip ``choice`` under ``seat`` says in ``room``."""
    assert room.room is not None
    return chips_module.chip_label(room.app.tr, room.room, choice, seat)


def test_a_player_toggles_the_ready_mark_and_sees_it(tmp_path: Path) -> None:
    with run_in_thread(
        HostConfig(seats=4, ai=("normal",), announce=False, ai_processes=False)
    ) as handle:
        owner = NetSession("127.0.0.1", handle.port, "Boris", rooms=True)
        assert isinstance(owner.inbox.get(timeout=20), Seated)
        app = make_app(tmp_path, handle.port)
        room = in_room(app)
        until(app, lambda: room.seat == 1 and room.room.seats[1].kind == "human")  # type: ignore[union-attr]
        assert not room.owner and [b.name for b in room.buttons()] == ["ready", "leave"]
        assert button(room, "ready")[1:] == ("Ready", True) and not mark(room, 1)
        assert room._status_line() == "Press Ready when you want to play."
        key(app, pygame.K_r)  # the key
        until(app, lambda: mark(room, 1))
        assert button(room, "ready")[1] == "Not ready"
        assert room._status_line() == "Waiting for the owner to start the game…"
        pygame.image.save(app.screen, str(tmp_path / "ready.png"))
        click(app, button(room, "ready")[0].center)  # the button takes it back
        until(app, lambda: not mark(room, 1))
        key(app, pygame.K_SPACE)
        until(app, lambda: mark(room, 1))
        assert not room.message
        owner.close()
        owner.join(10)
        app.close()


def test_the_owners_start_waits_until_the_others_are_ready(tmp_path: Path) -> None:
    with run_in_thread(HostConfig(seats=3, announce=False, ai_processes=False)) as handle:
        app = make_app(tmp_path, handle.port)
        room = in_room(app)
        assert room.owner
        guest = NetSession("127.0.0.1", handle.port, "Boris", rooms=True)
        assert isinstance(guest.inbox.get(timeout=20), Seated)
        chip = next(c for c, s, choice in room.chips() if (s, choice) == (2, "easy"))
        click(app, chip.center)
        until(app, room.full)
        assert not mark(room, 1) and mark(room, 2)  # the computer is always ready
        assert button(room, "start")[2] is False
        assert room._status_line() == "Waiting for Boris to get ready…"
        key(app, pygame.K_RETURN)  # nothing happens: the Start is not enabled
        pygame.image.save(app.screen, str(tmp_path / "waiting.png"))
        guest.ready(True)
        until(app, room.can_start)
        assert button(room, "start")[2] is True
        assert room._status_line() == "Everyone is ready: start the game."
        click(app, button(room, "start")[0].center)
        until(app, lambda: isinstance(app.stack[-1], TableScene))
        guest.close()
        guest.join(10)
        app.close()


def test_the_room_speaks_german_and_a_row_of_chips_shares_one_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts: list[str] = []
    chips: dict[tuple[int, int, int, int], int | None] = {}  # a chip's rect -> its label size

    def text_spy(surface, assets, text, *args, **kwargs):  # type: ignore[no-untyped-def]
        texts.append(text)
        return render.draw_text(surface, assets, text, *args, **kwargs)

    def button_spy(surface, assets, rect, label, *args, px=None, **kwargs):  # type: ignore[no-untyped-def]
        chips[tuple(rect)] = px
        render.draw_button(surface, assets, rect, label, *args, px=px, **kwargs)

    monkeypatch.setattr(header, "draw_text", text_spy)  # the rules
    monkeypatch.setattr(middle, "draw_text", text_spy)  # the words in the table
    monkeypatch.setattr(plates, "draw_text", text_spy)  # the seats' words
    monkeypatch.setattr(room_screen, "draw_button", button_spy)
    monkeypatch.setattr(scene_module, "draw_button", button_spy)  # Start, Ready, Leave
    rules = Rules(deck_size=52, transfer=True, transfer_show_trump=True)
    with run_in_thread(
        HostConfig(seats=3, ai=("hard",), rules=rules, announce=False, ai_processes=False)
    ) as handle:
        app = make_app(tmp_path, handle.port)
        app.settings.language = "de"
        room = in_room(app)
        assert room.owner
        texts.clear()
        app.step(0.01)
        summary = "52 Karten, alle legen nach, erstes Gefecht höchstens 5, Schieben (Trumpf zeigen)"
        assert summary in texts
        pygame.image.save(app.screen, str(tmp_path / "room_de.png"))
        for language in LANGUAGES:
            app.settings.language = language
            chips.clear()
            app.step(0.01)
            drawn: dict[int, set[int | None]] = {}  # seat -> the sizes its chips were set at
            fits: dict[int, int] = {}  # seat -> the largest size at which every label fits
            for chip, seat, choice in room.chips():
                drawn.setdefault(seat, set()).add(chips[tuple(chip)])
                alone = button_px(app.assets, chip, chip_label(room, choice, seat))
                fits[seat] = min(fits.get(seat, alone), alone)
            assert drawn == {seat: {px} for seat, px in fits.items()} and sorted(fits) == [1, 2]
        app.close()


def owner_bot(port: int, games: int) -> tuple[threading.Thread, list[BotReport]]:
    """A bot that owns the room: it readies, and starts each game once we are ready."""
    reports: list[BotReport] = []

    def run() -> None:
        with contextlib.suppress(HostClosed):  # the test may end the table first
            reports.append(asyncio.run(play_bot("127.0.0.1", port, "random", games, seed=1)))

    thread = threading.Thread(target=run, name="owner-bot", daemon=True)
    thread.start()
    return thread, reports


def table_up(app: App) -> TableScene:
    until(app, lambda: isinstance(app.stack[-1], TableScene))
    table = app.stack[-1]
    assert isinstance(table, TableScene)
    return table


def test_a_players_rematch_goes_back_to_the_room_for_the_next_game(tmp_path: Path) -> None:
    # The turn timer plays our seat (nobody touches the cards): a short game by itself.
    rules = Rules(players=2, deck_size=24)
    config = HostConfig(
        seats=2, rules=rules, announce=False, turn_timer=0.02, seed=4, ai_processes=False
    )
    with run_in_thread(config) as handle:
        bot, _ = owner_bot(handle.port, 2)
        host = handle.host
        assert host is not None
        for _ in range(2000):  # the bot takes seat 0 and owns the room
            if host.table.owner == 0:
                break
            time.sleep(0.01)
        app = make_app(tmp_path, handle.port)
        room = in_room(app)
        assert not room.owner
        key(app, pygame.K_r)
        table = table_up(app)
        until(app, lambda: isinstance(app.stack[-1], EndScene), 20_000, dt=0.1)
        for _ in range(500):  # the game is kept (written beside the frame loop)
            if app.games.paths():
                break
            time.sleep(0.01)
        [kept] = [GameFile.load(p) for p in app.games.paths()]
        assert table.over is not None and kept.result == table.over.result
        # the LAN host revealed its deal (protocol 4), so the game is kept with its log
        assert table.over.deal is not None and table.over.deal.ok
        assert kept.where == "lan" and kept.log is not None
        assert kept.log.actions == table.over.deal.log.actions  # type: ignore[union-attr]
        assert kept.names[kept.seat] == "Anna" and kept.steps[-1].view == table.view
        rematch = next(b for b in app.stack[-1].buttons if b.name == "rematch")  # type: ignore[attr-defined]
        click(app, rematch.rect.center)
        # back in the room (with the room as it is now), not a "not the owner" toast; the
        # next game may already be on its way: our Rematch was our ready mark
        assert table.returned and table not in app.stack and room in app.stack
        assert room.room is not None and room.room.series.games == 1 and not room.message
        second = table_up(app)  # the owner started again
        assert second is not table and host.table.game == 2
        until(app, lambda: second.view is not None, dt=0.1)
        assert second.view is not None and second.view.result is None  # a new deal
        app.close()
        handle.stop()
        bot.join(30)


def test_leaving_a_lan_game_gives_the_seat_to_an_ai_for_the_rest_of_it(tmp_path: Path) -> None:
    """Menu mid-game asks first; Leave at a LAN table sends ``leave``: the host gives our
    seat to an AI for good (not held for our return) and the game plays on to its end."""
    rules = Rules(players=2, deck_size=24)
    config = HostConfig(
        seats=2, rules=rules, announce=False, turn_timer=5.0, seed=4, ai_processes=False
    )
    with run_in_thread(config) as handle:
        bot, reports = owner_bot(handle.port, 1)
        host = handle.host
        assert host is not None
        for _ in range(2000):  # the bot takes seat 0 and owns the room
            if host.table.owner == 0:
                break
            time.sleep(0.01)
        app = make_app(tmp_path, handle.port)
        in_room(app)
        key(app, pygame.K_r)  # ready: the owner bot starts
        table = table_up(app)
        until(app, lambda: table.view is not None, dt=0.1)
        seat = table.seat
        click(app, next(b for b in table.buttons if b.name == "menu").rect.center)
        pause = app.stack[-1]
        assert isinstance(pause, PauseScene) and table in app.stack  # it asks first
        assert "draw" not in [b.name for b in pause.buttons]  # the owner's alone
        click(app, next(b for b in pause.buttons if b.name == "leave").rect.center)
        assert table not in app.stack
        for _ in range(3000):
            if host.table.seats[seat].kind == "ai":
                break
            time.sleep(0.01)
        assert host.table.seats[seat].kind == "ai"  # played by an AI, not held for us
        bot.join(60)  # the owner bot's game ends: the AI played our seat to the end
        assert len(reports) == 1 and len(reports[0].results) == 1
        app.close()
        handle.stop()


def test_the_owner_sends_a_squatter_away(tmp_path: Path) -> None:
    """A player who sits down and is never ready cannot hold the table: the owner's
    "Send away" chip under their seat frees it (their token is gone with it)."""
    with run_in_thread(HostConfig(seats=3, announce=False, ai_processes=False)) as handle:
        host = handle.host
        assert host is not None
        app = make_app(tmp_path, handle.port)
        room = in_room(app)
        assert room.owner
        told: list[object] = []

        def squat() -> None:
            async def body() -> None:
                client = await NetClient.connect("127.0.0.1", handle.port, "Squatter")
                try:
                    while True:
                        await client.receive()
                except HostClosed as exc:
                    told.append(exc.code)

            asyncio.run(body())

        squatter = threading.Thread(target=squat, name="squatter", daemon=True)
        squatter.start()
        until(app, lambda: room.room is not None and room.room.seats[1].kind == "human")
        chip = next((c for c, seat, choice in room.chips() if seat == 1), None)
        assert chip is not None and chip_label(room, "kick", 1) == "Send away"
        assert [choice for _, seat, choice in room.chips() if seat == 1] == ["kick"]
        click(app, chip.center)  # asks first: one tap beside the mark sent them away
        assert isinstance(app.stack[-1], ConfirmScene) and room.room.seats[1].kind == "human"
        key(app, pygame.K_RETURN)  # Send away
        until(app, lambda: room.room is not None and room.room.seats[1].kind == "empty")
        squatter.join(10)
        assert told == ["kicked"]
        app.close()


def test_the_owner_ends_a_lan_game_as_a_draw(tmp_path: Path) -> None:
    """The owner's pause has End the game as a draw: everyone's game ends with no Durak."""
    config = HostConfig(
        seats=2, ai=("random",), announce=False, turn_timer=30.0, seed=2, ai_processes=False
    )
    with run_in_thread(config) as handle:
        app = make_app(tmp_path, handle.port)
        room = in_room(app)
        until(app, lambda: room.owner and room.can_start())
        key(app, pygame.K_RETURN)  # the owner starts
        table = table_up(app)
        until(app, lambda: table.view is not None and table.room is not None, dt=0.1)
        click(app, next(b for b in table.buttons if b.name == "menu").rect.center)
        pause = app.stack[-1]
        assert isinstance(pause, PauseScene)
        names = [b.name for b in pause.buttons]
        assert "draw" in names, names
        click(app, next(b for b in pause.buttons if b.name == "draw").rect.center)
        until(app, lambda: table.over is not None, dt=0.1)
        assert table.over is not None and table.over.result.draw
        app.close()


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

    monkeypatch.setattr(header, "draw_text", text_spy)  # the rules
    monkeypatch.setattr(middle, "draw_text", text_spy)  # the words in the table
    monkeypatch.setattr(plates, "draw_text", text_spy)  # the seats' words
    monkeypatch.setattr(room_screen, "draw_button", button_spy)
    monkeypatch.setattr(scene_module, "draw_button", button_spy)  # Start, Ready, Leave
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
