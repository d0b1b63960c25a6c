"""What happened, as the engine tells it, and the per-seat trimming of it.

``GameState.apply`` returns the full events; ``trim(event, seat)`` is what one seat may
learn: draws and deals of other seats lose their cards and keep their count.

The events every bout builds anew (``Discarded`` or ``PickedUp``, then a ``Drew`` per seat
that draws) write their own ``__init__``, which the dataclass decorator keeps. Compiled by
mypyc, the decorator's ``__init__`` stays interpreted code that sets each field through
``object.__setattr__``: 390 ns an event, and a random two-player game builds some 43 of
them in the 140 µs the compiled engine spent on it. mypyc compiles the same
``object.__setattr__(self, "name", value)`` written in the class into plain stores: 85 ns,
and 115 µs a game. Interpreted, both cost the same. The others are built a few times a
game, or once and then shared (``engine.state``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import get_args

from .cards import Card
from .pickling import pickle_by_fields

__all__ = [
    "Attacked",
    "BoutStarted",
    "Covered",
    "Dealt",
    "Discarded",
    "Drew",
    "Event",
    "FirstAttacker",
    "GameEnded",
    "GameResult",
    "Passed",
    "PickedUp",
    "Taking",
    "ThrewIn",
    "Transferred",
    "TrumpTurned",
    "WentOut",
    "trim",
]


@dataclass(frozen=True, slots=True)
class GameResult:
    """The end of a game: each seat's place (1 = first out) and the Durak, if any."""

    places: tuple[int, ...]
    durak: int | None

    @property
    def draw(self) -> bool:
        return self.durak is None


@dataclass(frozen=True, slots=True)
class Dealt:
    seat: int
    count: int
    cards: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True)
class TrumpTurned:
    """The trump card, face up under the stock (``holder`` is None) or in a hand."""

    card: Card
    holder: int | None


@dataclass(frozen=True, slots=True)
class FirstAttacker:
    """Who attacks first, and the lowest trump they showed (None: fallback rule)."""

    seat: int
    shown: Card | None


@dataclass(frozen=True, slots=True)
class BoutStarted:
    attacker: int
    defender: int
    limit: int


@dataclass(frozen=True, slots=True)
class Attacked:
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ThrewIn:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Covered:
    """The defender beat ``target`` with ``card``."""

    seat: int
    card: Card
    target: Card


@dataclass(frozen=True, slots=True)
class Transferred:
    """The attack passed from ``seat`` to ``to``; ``shown`` if by showing a trump."""

    seat: int
    card: Card
    to: int
    shown: bool


@dataclass(frozen=True, slots=True)
class Taking:
    seat: int


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int


@dataclass(frozen=True, slots=True)
class Discarded:
    """The bout was beaten: these cards went to the discard pile."""

    cards: tuple[Card, ...]

    def __init__(self, cards: tuple[Card, ...]) -> None:
        object.__setattr__(self, "cards", cards)


@dataclass(frozen=True, slots=True)
class PickedUp:
    """The defender took these cards (public: everyone saw them on the table)."""

    seat: int
    cards: tuple[Card, ...]

    def __init__(self, seat: int, cards: tuple[Card, ...]) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "cards", cards)


@dataclass(frozen=True, slots=True)
class Drew:
    """A seat drew ``count`` cards from the stock; ``cards`` only for that seat."""

    seat: int
    count: int
    cards: tuple[Card, ...] | None

    def __init__(self, seat: int, count: int, cards: tuple[Card, ...] | None) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "cards", cards)


@dataclass(frozen=True, slots=True)
class WentOut:
    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class GameEnded:
    result: GameResult


Event = (
    Dealt
    | TrumpTurned
    | FirstAttacker
    | BoutStarted
    | Attacked
    | ThrewIn
    | Covered
    | Transferred
    | Taking
    | Passed
    | Discarded
    | PickedUp
    | Drew
    | WentOut
    | GameEnded
)


def trim(event: Event, seat: int | None) -> Event:
    """The event as ``seat`` may see it (None: as a watcher, outside every seat, does)."""
    if isinstance(event, Dealt | Drew) and event.seat != seat:
        return replace(event, cards=None)
    return event


pickle_by_fields(GameResult, *get_args(Event))
