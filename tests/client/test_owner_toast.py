"""When the room passes to another player (its owner left or stayed away past the hold),
everyone at the table is told who runs it now."""

from __future__ import annotations

import dataclasses

from tables import deal, scene, start

from client.i18n import translator
from client.net.session import RoomChanged
from client.screens.table.narrate import owner_toast
from engine import Rules, Series
from protocol import Room, SeatInfo

SEATS = (
    SeatInfo("human", "Anna", None, True),
    SeatInfo("human", "Boris", None, False, "away"),
    SeatInfo("human", "Vera", None, True),
)
ATTACK = ("6s 7h 8h 9d Tc Jc", "7s 8c 9h Td Qd Kh")


def room(owner: int | None, seats: tuple[SeatInfo, ...] = SEATS) -> Room:
    rules = Rules(players=len(seats))
    return Room("Kitchen", "playing", owner, seats, rules, False, False, Series.new(3), 1)


def test_a_room_that_passes_on_names_its_new_owner_to_the_others() -> None:
    en, ru = translator("en"), translator("ru")
    assert owner_toast(room(1), room(2), 0, en) == "Vera runs the room now"
    assert owner_toast(room(1), room(2), 0, ru) == "Теперь стол ведёт Vera"
    assert owner_toast(room(1), room(2), None, en) == "Vera runs the room now"  # a watcher


def test_the_new_owner_is_told_it_is_them() -> None:
    assert owner_toast(room(1), room(0), 0, translator("en")) == "You run the room now"
    assert owner_toast(room(1), room(0), 0, translator("ru")) == "Теперь стол ведёшь ты"


def test_nothing_is_said_when_the_owner_stays_or_nobody_has_the_room() -> None:
    en = translator("en")
    assert owner_toast(None, room(1), 0, en) is None  # the first room: nothing passed on
    assert owner_toast(room(1), room(1), 0, en) is None
    assert owner_toast(room(1), room(None), 0, en) is None


def test_the_table_shows_the_hand_over_as_a_toast() -> None:
    app, session = start(deal(Rules(), *ATTACK))
    table = scene(app)
    seats = (SeatInfo("human", "You", None, True), SeatInfo("human", "Boris", None, True))
    first = room(1, seats)
    session.inbox.put(RoomChanged(first))
    app.step(0.05)
    assert not any(
        "runs the room" in text or "run the room" in text for text, *_ in table.cues.toasts
    )
    session.inbox.put(RoomChanged(dataclasses.replace(first, owner=0)))
    app.step(0.05)
    assert [text for text, *_ in table.cues.toasts if "room" in text] == ["You run the room now"]
