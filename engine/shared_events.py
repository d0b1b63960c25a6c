"""The events every game repeats, built once and shared by all games.

Events are immutable values, so, like the interned actions, the ones that recur are
shared: looking one up costs a fraction of building it, and ``GameState.apply`` runs in
every playout of the AI and the coach. Each table is bounded by the seats, cards and
limits there are. ``engine.state`` looks up the tables filled as it goes (``ATTACKED``,
``COVERED``) itself, on its hot path; the bout's end events come from the functions here.
"""

from __future__ import annotations

from typing import Final

from .cards import CARDS, cards_of
from .events import (
    Attacked,
    BoutStarted,
    Covered,
    Discarded,
    Drew,
    Passed,
    PickedUp,
    Taking,
    ThrewIn,
)
from .rules import MAX_ATTACKS, MAX_PLAYERS

__all__ = [
    "ATTACKED",
    "BOUT_STARTED",
    "COVERED",
    "PASSED",
    "TAKING",
    "THREW_IN",
    "discarded",
    "drew",
    "picked_up",
]

PASSED: Final = tuple(Passed(seat) for seat in range(MAX_PLAYERS))
TAKING: Final = tuple(Taking(seat) for seat in range(MAX_PLAYERS))
THREW_IN: Final = tuple(tuple(ThrewIn(seat, card) for card in CARDS) for seat in range(MAX_PLAYERS))
ATTACKED: Final[dict[int, Attacked]] = {}  # by the cards' mask | seat << 52
COVERED: Final[dict[int, Covered]] = {}  # by seat << 12 | card << 6 | target
BOUT_STARTED: Final = tuple(  # by attacker, defender and limit
    tuple(
        tuple(BoutStarted(attacker, defender, limit) for limit in range(MAX_ATTACKS + 1))
        for defender in range(MAX_PLAYERS)
    )
    for attacker in range(MAX_PLAYERS)
)

# A bout's end events that hold at most two cards are shared too, as most do (in random
# two-player games nine draws in ten, seven discards in ten, three pick-ups in five):
# building one (``cards_of``, then the frozen dataclass's ``__init__``) costs several
# times looking it up, and the tables stay bounded, at most 52 + 1326 masks per seat.
_SHARED_CARDS: Final = 2
_DREW: Final[dict[int, Drew]] = {}  # by the cards' mask | seat << 52
_PICKED_UP: Final[dict[int, PickedUp]] = {}  # by the cards' mask | seat << 52
_DISCARDED: Final[dict[int, Discarded]] = {}  # by the cards' mask


def drew(seat: int, count: int, drawn: int) -> Drew:
    """``Drew(seat, count, cards)`` of the cards in ``drawn``."""
    if count > _SHARED_CARDS:
        return Drew(seat, count, cards_of(drawn))
    key = drawn | seat << 52
    event = _DREW.get(key)
    if event is None:
        event = _DREW[key] = Drew(seat, count, cards_of(drawn))
    return event


def picked_up(seat: int, table: int) -> PickedUp:
    """``PickedUp(seat, cards)`` of the cards in ``table``."""
    if table.bit_count() > _SHARED_CARDS:
        return PickedUp(seat, cards_of(table))
    key = table | seat << 52
    event = _PICKED_UP.get(key)
    if event is None:
        event = _PICKED_UP[key] = PickedUp(seat, cards_of(table))
    return event


def discarded(table: int) -> Discarded:
    """``Discarded(cards)`` of the cards in ``table``."""
    if table.bit_count() > _SHARED_CARDS:
        return Discarded(cards_of(table))
    event = _DISCARDED.get(table)
    if event is None:
        event = _DISCARDED[table] = Discarded(cards_of(table))
    return event
