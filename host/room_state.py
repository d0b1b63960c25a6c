"""The seats of a table as the room shows them, and the room's names.

A seat is empty, a human's (with the hash of their token, never the token, and their
connection while they are connected) or a host AI's. Names at a table are unique (two
``durak bot`` clients both called "Normal bot" must not read as one player), and the room
every client is shown says of each seat whether it is connected, away, played by a
stand-in or by an AI, and whether it is ready.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from protocol import SeatInfo

from .items import Link

__all__ = ["Seat", "ai_name", "first_empty", "human_names", "seat_infos"]


@dataclass(slots=True)
class Seat:
    kind: str = "empty"  # empty | human | ai
    name: str = ""
    level: str | None = None
    token_hash: str | None = None  # the player's token is never kept (host.credentials)
    link: Link | None = None
    away: int = 0  # how many times the player dropped out (tells old holds from new ones)
    ready: bool = False  # the player's ready mark (lobby only; cleared as a game starts)
    for_game: bool = False  # an AI playing a player's seat to the game's end (then empty)
    idle_mark: int = 0  # the idle watch running for the seat (0: none)
    since: int = 0  # when the player sat down, in the room's order (0: before a resume)
    look: int | None = None  # the player's badge, as their hello chose it
    back_soon: bool = False  # the player's "back in a minute" mark (cleared as they act)

    @classmethod
    def ai(cls, level: str, for_game: bool = False) -> Seat:
        """An AI of ``level`` (``for_game``: it plays a player's seat to the game's end)."""
        return cls("ai", ai_name(level), level, for_game=for_game)


def ai_name(level: str) -> str:
    return level.partition(":")[0].capitalize()


def human_names(seats: Sequence[Seat]) -> set[str]:
    return {s.name for s in seats if s.kind == "human"}


def first_empty(seats: Sequence[Seat]) -> int | None:
    return next((i for i, s in enumerate(seats) if s.kind == "empty"), None)


def _status(index: int, seat: Seat, stand_ins: Collection[int]) -> str:
    if seat.kind != "human":
        return seat.kind
    if seat.link is not None:
        return "connected"
    return "stand_in" if index in stand_ins else "away"


def seat_infos(seats: Sequence[Seat], stand_ins: Collection[int]) -> tuple[SeatInfo, ...]:
    """The seats as the room shows them (``stand_ins``: the seats an AI plays for now)."""
    return tuple(
        SeatInfo(
            s.kind,
            s.name,
            s.level,
            s.kind == "ai" or (s.kind == "human" and s.link is not None),
            _status(i, s, stand_ins),
            s.kind == "ai" or (s.kind == "human" and s.ready),
            s.look if s.kind == "human" else None,
            s.kind == "human" and s.back_soon,
        )
        for i, s in enumerate(seats)
    )
