"""What the table's task takes from its queue, and a client connection as it sees one.

Every change of the table arrives as one of these items (a client's message or departure,
an AI's answer, a timer running out) and is handled one at a time: no locks. Each phase of
the table (``host.deal``, ``host.game``) and the table itself import them from here, so no
module imports the table back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from engine import Action
from protocol import Message

__all__ = [
    "Begin",
    "DealDue",
    "Gone",
    "Held",
    "Idle",
    "Incoming",
    "Item",
    "Link",
    "Show",
    "Stop",
    "Thought",
    "TurnUp",
]


class Link(Protocol):
    """A client connection as the table sees it."""

    seat: int | None
    watching: bool  # a watcher's connection (seat None)
    address: str  # the peer's address (the password throttle counts per address)

    def send(self, message: Message) -> None: ...
    def close(self, code: str, text: str) -> None: ...
    def release(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Incoming:
    link: Link
    message: Message
    password_ok: bool | None = None  # a hello's password, checked off the loop (see below)


@dataclass(frozen=True, slots=True)
class Gone:
    link: Link


@dataclass(frozen=True, slots=True)
class Thought:
    seat: int
    game: int
    job: int
    action: Action | None


@dataclass(frozen=True, slots=True)
class Held:
    """A dropped player's hold ran out (if they are still away, a stand-in takes over)."""

    seat: int
    game: int
    away: int  # the seat's ``away`` count when the hold began


@dataclass(frozen=True, slots=True)
class TurnUp:
    """The turn timer ran out (if nothing happened since ``seq``)."""

    game: int
    seq: int


@dataclass(frozen=True, slots=True)
class Idle:
    """A player's idle time in the lobby ran out (if the watch ``mark`` still runs)."""

    seat: int
    mark: int


@dataclass(frozen=True, slots=True)
class DealDue:
    """The wait for the contributions to the deal of ``game`` is over: deal."""

    game: int


@dataclass(frozen=True, slots=True)
class Show:
    """Show the room again: the disk began or stopped failing (the room says whether the
    table is saved), or, not ``save``, watchers came or went (``host.audience``)."""

    save: bool = True


@dataclass(frozen=True, slots=True)
class Stop:
    pass


@dataclass(frozen=True, slots=True)
class Begin:
    """The gathering time of a table its policy deals after is up (``host.policy``)."""


Item = Incoming | Gone | Thought | Held | TurnUp | Idle | DealDue | Show | Begin | Stop
