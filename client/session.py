"""The game session: what the window knows of a game and how it acts in it.

The window never sees a game state. It drains ``session.inbox`` (a ``queue.Queue``) once
per frame and reads these messages, in the order the host sent them:

- ``Seated(seat, names, rules)``: who we are at this table, everybody's name, the rules;
- ``Snapshot(view)``: the seat's whole view (``engine.SeatView``), to resynchronise;
- ``Happened(events)``: what one action (or the deal) did, trimmed for our seat;
- ``Rejected(code, text)``: the host refused our last action, and why;
- ``GameOver(result, series)``: the end, with the table's series score;
- ``Closed(text)``: the session ended (host gone, connection lost);
- ``RoomChanged(room)``: the room (seats, owner, rules) as the lobby shows it; only a
  session opened for the room screen sends these (``NetSession(..., rooms=True)``).

It acts through ``send(action)``, ``rematch()`` and ``close()``; none of them block. The
network runs in its own thread and only puts messages in the queue
(``client.netsession``); ``client.scripted`` is a step-by-step table for tests.
"""

from __future__ import annotations

import queue
from dataclasses import dataclass
from typing import Protocol

from engine import Action, Event, GameResult, Rules, SeatView, Series
from protocol import Room

__all__ = [
    "AI_NAMES",
    "Closed",
    "GameOver",
    "Happened",
    "Message",
    "Rejected",
    "RoomChanged",
    "Seated",
    "Session",
    "Snapshot",
]


AI_NAMES = ("Boris", "Vera", "Oleg", "Nina", "Igor")  # what the window calls AI players


@dataclass(frozen=True, slots=True)
class Seated:
    seat: int
    names: tuple[str, ...]
    rules: Rules


@dataclass(frozen=True, slots=True)
class Snapshot:
    view: SeatView


@dataclass(frozen=True, slots=True)
class Happened:
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class Rejected:
    """``code`` is a ``engine.Reason`` value for a refused game action, or a lobby code."""

    code: str
    text: str


@dataclass(frozen=True, slots=True)
class GameOver:
    result: GameResult
    series: Series


@dataclass(frozen=True, slots=True)
class Closed:
    """``code``: "unreachable", "closed" (the link was lost) or the host's error code."""

    text: str
    code: str = ""


@dataclass(frozen=True, slots=True)
class RoomChanged:
    room: Room


Message = Seated | Snapshot | Happened | Rejected | GameOver | Closed | RoomChanged


class Session(Protocol):
    """A seat at a table, as the window uses it."""

    inbox: queue.Queue[Message]

    def send(self, action: Action) -> None: ...

    def rematch(self) -> None: ...

    def close(self) -> None: ...
