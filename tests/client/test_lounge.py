"""The room as a guest sees it, without a host: the badges, the padlock, the Send-away
question, a player sent away back at Join with why, and the watcher's "Watch"."""

from __future__ import annotations

import contextlib
import dataclasses
import queue
from collections.abc import Callable
from pathlib import Path

import pygame
from window import click, key, open_app

from client.app import App
from client.net.session import Closed, Message, RoomChanged, Seated
from client.screens.join.screen import JoinScene
from client.screens.room.chips import KICK
from client.screens.room.screen import RoomScene
from client.ui.confirm import ConfirmScene
from engine import Rules, Series
from protocol import Room, SeatInfo


class Seat:
    """A room's session that keeps what it was asked (no host behind it)."""

    def __init__(self, *messages: Message) -> None:
        self.inbox: queue.Queue[Message] = queue.Queue()
        for message in messages:
            self.inbox.put(message)
        self.kicked: list[int] = []
        self.closed = False
        self.inflight = None

    def kick(self, seat: int) -> None:
        self.kicked.append(seat)

    def start(self) -> None: ...
    def ready(self, ready: bool = True) -> None: ...
    def set_seat(self, seat: int, ai: str | None) -> None: ...
    def sit(self) -> None: ...
    def send(self, action: object) -> None: ...
    def emote(self, code: str) -> None: ...
    def rematch(self) -> None: ...
    def leave(self) -> None: ...
    def draw(self) -> None: ...
    def pause(self, paused: bool) -> None: ...
    def back_soon(self, on: bool) -> None: ...

    def close(self) -> None:
        self.closed = True


def room(owner: int = 0, password: bool = True) -> Room:
    seats = (
        SeatInfo("human", "Anna", None, True, ready=True, look=2),
        SeatInfo("human", "Boris", None, True, ready=False, look=5),
        SeatInfo("ai", "Random", "random", True, ready=True),
    )
    return Room(
        "Kitchen", "lobby", owner, seats, Rules(players=3), password, False, Series.new(3), 0
    )


def in_room(app: App, seat: int, owner: int = 0) -> tuple[JoinScene, RoomScene, Seat]:
    join = JoinScene(app, browse=False)
    app.push(join)
    session = Seat(
        Seated(seat, ("Anna", "Boris", "Random"), Rules(players=3)), RoomChanged(room(owner))
    )
    app.show("room", session=session, sent_away=join.sent_away)
    scene = app.stack[-1]
    assert isinstance(scene, RoomScene)
    app.step(0.02)
    return join, scene, session


def test_send_away_asks_first_and_keep_changes_nothing(tmp_path: Path) -> None:
    app = open_app(tmp_path / "settings.json")
    _, scene, session = in_room(app, seat=0)
    chip = next(c for c, seat, choice in scene.chips() if seat == 1 and choice == KICK)
    click(app, chip.center)
    asking = app.stack[-1]
    assert isinstance(asking, ConfirmScene) and "Boris" in asking.question
    key(app, pygame.K_ESCAPE)  # Keep
    assert app.stack[-1] is scene and session.kicked == []
    click(app, chip.center)
    key(app, pygame.K_RETURN)  # Send away
    assert app.stack[-1] is scene and session.kicked == [1]


def test_a_player_sent_away_is_back_at_join_saying_so(tmp_path: Path) -> None:
    app = open_app(tmp_path / "settings.json")
    join, scene, session = in_room(app, seat=1)
    session.inbox.put(Closed("The owner sent you away from the table.", "kicked"))
    app.step(0.02)
    assert app.stack[-1] is join and scene not in app.stack
    assert "sent you away" in join.error and session.closed


def test_sent_away_during_a_game_is_back_at_join_once_the_table_hands_back(
    tmp_path: Path,
) -> None:
    app = open_app(tmp_path / "settings.json")
    join, scene, _ = in_room(app, seat=1)
    scene.handed = True  # the table had the session: it hands back the session's end
    scene._come_back([Closed("The owner sent you away from the table.", "kicked")])
    assert app.stack[-1] is scene  # (the table took itself off after handing back)
    app.step(0.02)
    assert app.stack[-1] is join and "sent you away" in join.error


def test_a_watchers_password_prompt_says_watch(tmp_path: Path) -> None:
    app = open_app(tmp_path / "settings.json")
    join = JoinScene(app, browse=False, watch=True)
    app.push(join)
    join.asking = True  # the table asked for its password
    join.password = "x"
    go = next(b for b in join.buttons() if b.name == "go")
    assert go.label == "Watch"
    said: list[str] = []
    real = join._draw_lines
    join._draw_lines = lambda surface, text, *rest: said.append(text) or real(surface, text, *rest)  # type: ignore[method-assign]
    join.draw(app.screen)
    assert said[0] == "Watch a LAN table"
    join.watch = False
    assert next(b for b in join.buttons() if b.name == "go").label == "Join"


def test_the_table_shows_a_back_soon_seat_and_a_paused_game() -> None:
    from test_table import DEFEND, deal, scene, start

    app, session = start(deal(Rules(), *DEFEND))
    table = scene(app)
    seats = (
        SeatInfo("human", "You", None, True, look=0),
        SeatInfo("human", "Boris", None, True, look=5, back_soon=True),
    )
    playing = Room("T", "playing", 0, seats, Rules(), False, False, Series.new(2), 1)
    session.inbox.put(RoomChanged(playing))
    app.step(0.05)
    assert table.statuses == ("connected", "back_soon")  # "Back in a minute" at the plate

    def band() -> bytes:  # the row above the status line, where "Paused" shows
        layout = table.layout
        assert layout is not None
        y = round(layout.status_y - layout.font_px * 3.5)
        rect = pygame.Rect(0, y, layout.size[0], round(layout.font_px * 2.5))
        return pygame.image.tobytes(app.screen.subsurface(rect), "RGB")

    running = band()
    session.inbox.put(RoomChanged(dataclasses.replace(playing, paused=True)))
    app.step(0.05)
    assert band() == running  # the player who paused has the pause open: no banner
    table.watching = True
    app.step(0.05)
    assert band() != running  # the watcher's line: the game stands still


def test_the_computer_game_pauses_at_its_host_and_goes_on(tmp_path: Path) -> None:
    """Over loopback, as the window plays the computer: Esc's pause reaches the host in
    this process (its table holds still, the room says so) and Resume lets it run."""
    from client.net.remote import NetSession
    from client.net.session import Snapshot
    from host import HostConfig, run_in_thread

    config = HostConfig(seats=3, ai=("random", "random"), announce=False, seed=4)
    with run_in_thread(config) as handle:
        table = handle.host.table if handle.host is not None else None
        assert table is not None
        session = NetSession("127.0.0.1", handle.port, "Anna", start=True, look=3)
        seen: list[Message] = []

        def heard(done: Callable[[], bool]) -> None:
            for _ in range(3000):  # a bound against hanging, not a timing assertion
                with contextlib.suppress(queue.Empty):
                    seen.append(session.inbox.get(timeout=0.01))
                if done():
                    return
            raise AssertionError("never heard it")

        def paused(value: bool) -> bool:
            rooms = [m.room for m in seen if isinstance(m, RoomChanged)]
            return bool(rooms) and rooms[-1].paused is value

        heard(lambda: any(isinstance(m, Snapshot) for m in seen))
        session.pause(True)
        heard(lambda: paused(True))
        assert table.pause.on and table.roster.seats[0].look == 3
        session.pause(False)
        heard(lambda: paused(False))
        assert not table.pause.on
        session.close()
        assert session.join(10)
