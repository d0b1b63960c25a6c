"""The window sleeps while nothing moves: no frame is drawn until input, a session's
message or an animation needs one. Posted events and a synthetic frame clock; no test
waits on the wall clock (a rest is bounded by a millisecond, to prove nothing is due)."""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from window import open_app

from client.app import App
from client.net.scripted import ScriptedSession
from client.net.session import Inbox, InFlight, RoomChanged, Seated
from client.screens.table.screen import TableScene
from client.settings import Settings
from engine import Attack, Rules, Series, new_game
from protocol import Room, SeatInfo

pytestmark = pytest.mark.usefixtures("headless")

NAP = 0.001  # seconds a rest may last in these tests: long enough to see nothing is due


class FrameClock:
    """``pygame.time.Clock`` as the loop uses it, without waiting: each tick is 16 ms."""

    def tick(self, framerate: int = 0, /) -> int:
        return 16


class RoomSession:
    """A room's session whose messages come from the test, through a real ``Inbox``."""

    def __init__(self) -> None:
        self.inbox = Inbox()
        self.inflight = InFlight()
        self.inbox.put(Seated(0, ("You", "Anna"), Rules()))

    def send(self, action: object) -> None: ...
    def emote(self, code: str) -> None: ...
    def rematch(self) -> None: ...
    def close(self) -> None: ...
    def start(self) -> None: ...
    def ready(self, ready: bool = True) -> None: ...
    def set_seat(self, seat: int, ai: str | None) -> None: ...


def turns(app: App, count: int) -> int:
    """How many of ``count`` passes of the loop drew a frame."""
    clock = FrameClock()
    return sum(app.turn(clock, limit=NAP) for _ in range(count))


def still_table() -> tuple[App, ScriptedSession, TableScene]:
    """A two-seat game at the table, every card of the deal landed: nothing moves."""
    state = new_game(Rules(players=2), seed=5)
    session = ScriptedSession(state, names=["You", "Boris"])
    app = App(Settings(), None, size=(1280, 720), sound=False, session_factory=lambda r, s: session)
    app.start_game(state.rules)
    table = app.stack[-1]
    assert isinstance(table, TableScene)
    for _ in range(2000):  # the deal plays out, one frame at a time, then the loop rests
        if not app.turn(FrameClock(), limit=NAP):
            break
    else:
        raise AssertionError("the table never came to rest")
    return app, session, table


def test_a_still_start_screen_draws_no_frames(tmp_path: Path) -> None:
    app = open_app(tmp_path / "settings.json")
    pygame.event.clear()
    drawn = app.frames
    assert turns(app, 20) == 0
    assert app.frames == drawn


def test_input_on_a_still_screen_is_drawn_on_the_next_pass(tmp_path: Path) -> None:
    app = open_app(tmp_path / "settings.json")
    pygame.event.clear()
    focus = app.stack[-1].focus  # type: ignore[attr-defined]
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_DOWN, mod=0, unicode=""))
    assert turns(app, 1) == 1
    assert app.stack[-1].focus != focus  # type: ignore[attr-defined]
    assert turns(app, 5) == 0  # and then it rests again


def test_a_message_from_another_thread_wakes_the_still_table() -> None:
    app, session, table = still_table()
    assert turns(app, 10) == 0
    state = session.state
    attacker = state.attacker
    action = next(a for a in state.legal_actions(attacker) if isinstance(a, Attack))
    if attacker == 0:  # we lead: our lead comes back from the session as the table's news
        sender = threading.Thread(target=session.send, args=(action,))
    else:
        sender = threading.Thread(target=session.play, args=(attacker, action))
    sender.start()
    sender.join()
    assert app.woken.is_set()  # the put ended the loop's rest (``App.wake``)
    assert turns(app, 1) == 1  # the window was woken and shows the message at once
    assert session.inbox.empty() and table.board is not None
    assert [action.cards[0], None] in table.board.table  # the lead is on its way in


def test_a_room_message_ends_a_rest_that_nothing_else_would(tmp_path: Path) -> None:
    """The room screen waits for the host's news without frames: a message put by the
    network's thread ends the rest (a failure would rest the whole ``limit``: no hang)."""
    app = open_app(tmp_path / "settings.json")
    session = RoomSession()
    app.show("room", session=session)
    assert turns(app, 3) == 1 and app.stack[-1].next_frame() == math.inf
    seats = (SeatInfo("human", "You", None, True), SeatInfo("human", "Anna", None, True))
    room = Room("T", "lobby", 0, seats, Rules(), False, False, Series.new(2), 0)
    putter = threading.Thread(target=session.inbox.put, args=(RoomChanged(room),))
    putter.start()
    putter.join()
    assert app.turn(FrameClock(), limit=30.0)  # woken: the message is drawn at once
    assert app.stack[-1].room == room  # type: ignore[attr-defined]


def test_an_animation_keeps_frames_coming_until_it_ends() -> None:
    app, session, table = still_table()
    state = session.state
    seat = 0 if state.legal_actions(0) else state.attacker
    action = next(a for a in state.legal_actions(seat) if isinstance(a, Attack))
    if seat == 0:
        session.send(action)
    else:
        session.play(seat, action)
    drawn = 0
    while app.turn(FrameClock(), limit=NAP):  # a frame on every pass while the card flies
        drawn += 1
        assert drawn < 2000, "the animation never ended"
    board = table.board
    assert board is not None and not board.busy and not board.lifting
    assert drawn >= 10  # a flight of a quarter second or more at 16 ms a frame
    assert turns(app, 10) == 0


def test_a_resting_window_does_its_chores_and_a_closing_one_finishes_them(
    tmp_path: Path,
) -> None:
    """A game kept between frames is done while the window rests, without a frame drawn
    for it; what is left when the window closes is done before it goes."""
    app, _, _ = still_table()
    done: list[int] = []

    def chore(count: int) -> Iterator[None]:
        for number in range(count):
            done.append(number)
            yield

    app.chores.add(chore(3))
    drawn = app.frames
    assert turns(app, 5) == 0 and app.frames == drawn
    assert done == [0, 1, 2] and not app.chores
    app.chores.add(chore(10**4))
    app.close()
    assert len(done) == 3 + 10**4 and not app.chores
