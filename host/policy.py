"""Who runs a table, as one value the table asks at named points: its owner (a table
someone hosts, ``OWNER_RUNS``), or a party (``host.party.tables.party_policy``).

A party's table is an ordinary table with the party's policy, not a table of its own
kind. What a party changes, and where the table asks:

- ``run_by`` (the room's ``run_by``, which every client is shown): "party" refuses the
  owner's commands and the pause (``protocol.room_rules``: the host and the window ask the
  same rule), and the room has no owner.
- ``reserved``: seats held for the round's players by the hash of their table token before
  anyone connects (``Table.__init__``), as a resumed table holds its seats.
- ``keep_lobby_seat``: a player who drops out of the lobby keeps the seat (a party table
  has no lobby to come back to); at a table of its owner, the seat is free again.
- ``gather``: the table deals this many seconds after it opened, whoever is missing (their
  seats held, then stood in for); None: its owner starts, or autostart once every seat is
  taken.
- ``on_result``: told each game's result (``Finished``: what the party's standings and
  figures need), once the table's journal has the end and its players were sent it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine import GameLog, GameResult

__all__ = ["OWNER_RUNS", "Finished", "Reserved", "TablePolicy", "went_out"]


@dataclass(frozen=True, slots=True)
class Reserved:
    """A seat held for a player before they come: their name, and the hash of their
    table token."""

    name: str
    token_hash: str


@dataclass(frozen=True, slots=True)
class Finished:
    """A table's game, as a party scores it: its result, how many actions it took, how
    long it lasted and after how many actions each seat went out (None: the Durak, or a
    seat still holding cards when a draw ended the game)."""

    result: GameResult
    actions: int
    seconds: float
    out_after: tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class TablePolicy:
    """See the module docstring; the default is a table its owner runs."""

    run_by: str = "owner"
    reserved: tuple[Reserved | None, ...] = ()
    keep_lobby_seat: bool = False
    gather: float | None = None
    on_result: Callable[[Finished], None] | None = None


OWNER_RUNS = TablePolicy()  # a table someone hosts


def went_out(log: GameLog) -> tuple[int, tuple[int | None, ...]]:
    """The game's number of actions, and after how many each seat went out (its hand
    empty with its place taken; None for the Durak, and for a seat still holding cards
    when a draw ended the game)."""
    state = log.start()
    out: list[int | None] = [None] * log.rules.players
    for number, (seat, action) in enumerate(log.actions, 1):
        state.apply(seat, action)
        for index in range(log.rules.players):
            if out[index] is None and state.places[index] and not state.hands[index]:
                out[index] = number
    if state.result is not None and state.result.durak is not None:
        out[state.result.durak] = None
    return len(log.actions), tuple(out)
