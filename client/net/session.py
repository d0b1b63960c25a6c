"""The game session: what the window knows of a game and how it acts in it.

The window never sees a game state. It drains ``session.inbox`` (a ``queue.Queue``) once
per frame and reads these messages, in the order the host sent them:

- ``Seated(seat, names, rules)``: who we are at this table, everybody's name, the rules
  (``seat`` is ``WATCHING`` for a watcher: no seat, no hand; a later ``Seated`` with a
  seat means the watcher sat down);
- ``Snapshot(view)``: the seat's whole view (``engine.SeatView``), to resynchronise;
- ``Happened(events)``: what one action (or the deal) did, trimmed for our seat;
- ``Rejected(code, text)``: the host refused our last action, and why;
- ``GameOver(result, series, deal)``: the end, with the table's series score and the
  verdict on the game's deal (``protocol.DealCheck``: docs/protocol.md section 15);
- ``Closed(text)``: the session ended (host gone, connection lost);
- ``Emoted(seat, code)``: a seat reacted (``code`` one of ``protocol.EMOTES``);
- ``Cheered(name, code)``: a watcher called ``name`` reacted;
- ``Reconnecting()``: our connection dropped and is being retried; the next ``Snapshot``
  means it is back (if it never comes back, ``Closed`` follows);
- ``RoomChanged(room)``: the room (seats, owner, rules, each seat's status); during a
  game every network session sends these, in the lobby only one opened for the room
  screen (``NetSession(..., rooms=True)``).

A session's ``inbox`` is an ``Inbox``: the window gives it a hook (``listen``) that is
called on every put, from the network's thread, so a window asleep wakes for the message.

It acts through ``send(action)``, ``emote(code)``, ``rematch()`` and ``close()``; none of
them block. The action it sent and that is not answered yet is the session's own fact
(``session.inflight``, an ``InFlight``), as the window shows the game: from ``send`` until
the window has shown the answer (``InFlight.shown``: a settled view without it, a refusal,
a dropped connection); the window asks it, and acts on no view while it waits. The
network runs in its own thread and only puts messages in the queue (``client.net.remote``);
``client.net.scripted`` is a step-by-step table for tests.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol, TypeVar

from engine import Action, Event, GameResult, Rules, SeatView, Series
from protocol import DealCheck, Room

__all__ = [
    "AI_NAMES",
    "WATCHING",
    "Cheered",
    "Closed",
    "Emoted",
    "GameOver",
    "Happened",
    "InFlight",
    "Inbox",
    "Message",
    "Reconnecting",
    "Rejected",
    "RoomChanged",
    "Seated",
    "Session",
    "Snapshot",
    "drain",
    "listen",
]


AI_NAMES = ("Boris", "Vera", "Oleg", "Nina", "Igor")  # what the window calls AI players
WATCHING = -1  # a watcher's ``Seated.seat``: no seat (its views have no hand, no actions)
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Seated:
    seat: int
    names: tuple[str, ...]
    rules: Rules


@dataclass(frozen=True, slots=True)
class Snapshot:
    view: SeatView
    settled: bool = True  # False: an action of ours is still to show (do not act on it)


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
    """The end of a game. ``deal``: whether its deal was verified (None: not checked, as in
    a replay); once it is, ``deal.log`` is the whole game (seed and every action)."""

    result: GameResult
    series: Series
    deal: DealCheck | None = None


@dataclass(frozen=True, slots=True)
class Closed:
    """``code``: "unreachable", "closed" (the link was lost) or the host's error code."""

    text: str
    code: str = ""


@dataclass(frozen=True, slots=True)
class Emoted:
    """``seat`` reacted with the quick emote ``code`` (one of ``protocol.EMOTES``)."""

    seat: int
    code: str


@dataclass(frozen=True, slots=True)
class Cheered:
    """The watcher called ``name`` reacted with ``code`` (one of ``protocol.EMOTES``)."""

    name: str
    code: str


@dataclass(frozen=True, slots=True)
class Reconnecting:
    """Our connection was lost; the session is trying to get it back."""


@dataclass(frozen=True, slots=True)
class RoomChanged:
    room: Room


Message = (
    Seated
    | Snapshot
    | Happened
    | Rejected
    | GameOver
    | Closed
    | RoomChanged
    | Reconnecting
    | Emoted
    | Cheered
)


class InFlight:
    """Our action in flight. ``action``: what the window sent, until the window has shown
    its answer (set and read by the window's thread only). ``ref``: the number the network
    gave it, until the host acknowledged or refused it (the network's thread only: a
    network session's views are settled by it, see ``Snapshot.settled``)."""

    def __init__(self) -> None:
        self.action: Action | None = None
        self.ref: int | None = None

    def sent(self, action: Action) -> None:
        self.action = action

    def shown(self, message: Message) -> None:
        """The window has shown ``message``: the answer if it is a refusal, a dropped
        connection (the action gets no answer) or a settled view that no longer offers the
        action (a view from before it keeps it in flight)."""
        if isinstance(message, Rejected | Reconnecting) or (
            isinstance(message, Snapshot)
            and message.settled
            and self.action not in message.view.legal
        ):
            self.action = None


class Session(Protocol):
    """A seat at a table, as the window uses it."""

    inbox: queue.Queue[Message]
    inflight: InFlight  # our action sent and not yet answered

    def send(self, action: Action) -> None: ...

    def emote(self, code: str) -> None: ...

    def rematch(self) -> None: ...

    def leave(self) -> None:
        """Leave the table for good: at a LAN table an AI plays the seat for the rest of
        the game (the session then ends)."""

    def draw(self) -> None:
        """The room's owner ends the game as a draw (at a LAN table)."""

    def pause(self, paused: bool) -> None:
        """Stop the game's clock while the pause is open, or let it run again (a host
        refuses at a table with another human: docs/protocol.md section 18)."""

    def back_soon(self, on: bool) -> None:
        """Set (or take back) our seat's "back in a minute" mark (at a LAN table)."""

    def close(self) -> None: ...


class Inbox(queue.Queue[T]):
    """A queue filled by another thread (a session's messages, the LAN browser's finds);
    ``on_put``, if set, is called after each put (from the thread that put it)."""

    def __init__(self) -> None:
        super().__init__()
        self.on_put: Callable[[], None] | None = None

    def put(self, item: T, block: bool = True, timeout: float | None = None) -> None:
        super().put(item, block, timeout)
        hook = self.on_put
        if hook is not None:
            hook()


def listen(inbox: queue.Queue[T], wake: Callable[[], None]) -> None:
    """Call ``wake`` whenever something is put in ``inbox`` (if it is an ``Inbox``; a
    test's plain queue is drained on the frames its test steps), and once now for what
    is already there."""
    if isinstance(inbox, Inbox):
        inbox.on_put = wake
    wake()


def drain(inbox: queue.Queue[T]) -> Iterator[T]:
    """What ``inbox`` holds now, taken one at a time without waiting (stop early to leave
    the rest in it)."""
    while True:
        try:
            yield inbox.get_nowait()
        except queue.Empty:
            return
