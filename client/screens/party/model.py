"""What the party's screens show, as plain values: the night's standings, its figures,
its round and clock, and every table as a watcher sees it.

The party board and each player's between-rounds screen draw only this, so they can be
fed by hand in tests and by the party's feed (``client.net.party``) in play, whatever the
wire says. Names are resolved here (a player's id never reaches a screen), and the
scoring stays in ``host.party``: ``rows`` and ``night`` turn its standings and figures
into what the screens print.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

from client.net.session import Session
from engine import GameResult, PublicView, SeatView

if TYPE_CHECKING:
    from host.party import Figures, Standing

__all__ = [
    "Feed",
    "Figure",
    "LiveTable",
    "Longest",
    "NightFigures",
    "PartyView",
    "Stage",
    "StandingRow",
    "TableCall",
    "clock_text",
    "night",
    "rows",
]


class Stage(StrEnum):
    GATHERING = "gathering"  # players are joining; no round yet
    PLAYING = "playing"  # a round's games are on
    BETWEEN = "between"  # the round is scored, the next is being seated
    OVER = "over"  # the night is over: the standings are final


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings: a player's rank (shared when level), name and figures."""

    rank: int
    name: str
    score: int
    wins: int
    losses: int  # times the Durak
    games: int
    me: bool = False  # this window's player
    left: bool = False  # left the party: keeps the place, sits no more
    look: int | None = None  # the player's badge (``client.ui.looks``), where known


@dataclass(frozen=True, slots=True)
class LiveTable:
    """One table of the round: its number (from 1), who sits in each seat (an AI seat
    named as the table names it), the game as its watchers see it (None before the
    first deal, or while nobody watches it) and, once it is over, its result."""

    number: int
    names: tuple[str, ...]
    ai: tuple[bool, ...] = ()
    view: PublicView | SeatView | None = None
    result: GameResult | None = None
    looks: tuple[int | None, ...] = ()  # each seat's badge, where known

    def __post_init__(self) -> None:
        if self.ai and len(self.ai) != len(self.names):
            raise ValueError("a table's AI marks need one entry a seat")
        if self.view is not None and self.view.players != len(self.names):
            raise ValueError("a table's view and its seats' names must match")
        if self.result is not None and len(self.result.places) != len(self.names):
            raise ValueError("a table's result and its seats' names must match")

    def is_ai(self, seat: int) -> bool:
        return bool(self.ai) and self.ai[seat]

    def look(self, seat: int) -> int | None:
        return self.looks[seat] if seat < len(self.looks) else None

    @property
    def outcome(self) -> GameResult | None:
        """The game's result, from the party or from the last view."""
        return self.result or (None if self.view is None else self.view.result)


@dataclass(frozen=True, slots=True)
class Figure:
    """A figure of the night: who holds it and its number (times, actions)."""

    names: tuple[str, ...]
    count: int


@dataclass(frozen=True, slots=True)
class Longest:
    """The night's longest game: its round, its table (from 1) and its actions."""

    round: int
    table: int
    actions: int


@dataclass(frozen=True, slots=True)
class NightFigures:
    most_durak: Figure | None = None  # most times the Durak
    longest: Longest | None = None
    fastest: Figure | None = None  # the quickest out, after how many actions


@dataclass(frozen=True, slots=True)
class PartyView:
    """The whole party at one moment. ``round_seconds``: how long the round in play has
    run; ``night_left``: the seconds left of a night of fixed time (None: of rounds)."""

    name: str
    stage: Stage
    round: int  # 0 before the first
    rounds: int | None  # None: the night ends at a time
    standings: tuple[StandingRow, ...]
    tables: tuple[LiveTable, ...] = ()
    figures: NightFigures = field(default_factory=NightFigures)
    final: bool = False  # the round in play is the night's final
    round_seconds: float = 0.0
    night_left: float | None = None
    organiser: bool = False  # this window's player sets the night up and starts rounds
    next_in: float | None = None  # seconds until the next round begins by itself (a break)
    unsaved: bool = False  # the organiser's window: the party host cannot save the party now

    def mine(self, name: str) -> LiveTable | None:
        """The table ``name`` sits at this round."""
        return next((t for t in self.tables if name in t.names), None)


@dataclass(frozen=True)
class TableCall:
    """The party calling this window's player to a table: the round, the table's number,
    the others there, and how to join it (the seat kept for us by the party's host)."""

    round: int
    table: int
    others: tuple[str, ...]
    join: Callable[[], Session]


class Feed(Protocol):
    """What the party's screens read the party from (``client.net.party``, or a test's
    hand-fed one): polled once a frame, never blocking."""

    @property
    def problem(self) -> str | None:
        """Why the party is gone (the host closed, the link was lost), or None."""
        ...

    def listen(self, wake: Callable[[], None]) -> None:
        """Call ``wake`` (from any thread) whenever news of the party arrives, so a window
        asleep shows it at once; once now for what has come already."""
        ...

    def poll(self) -> PartyView | None:
        """The party as it is now, if it changed since the last poll."""
        ...

    def call(self) -> TableCall | None:
        """The table this window's player is called to, once per call."""
        ...

    def start(self) -> None:
        """The organiser starts the next round (the first: the night)."""
        ...

    def leave(self) -> None:
        """This window's player leaves the party (off the next round's seating)."""
        ...

    def refusal(self) -> str | None:
        """The code of the party's refusal of our last request, once."""
        ...

    def close(self) -> None: ...


def rows(
    standings: Sequence[Standing],
    names: Mapping[str, str],
    me: str | None = None,
    left: frozenset[str] = frozenset(),
) -> tuple[StandingRow, ...]:
    """The party's standings (``host.party.standings``) as the screens print them, each
    player's id named by ``names`` (an id it lacks is printed as it is)."""
    return tuple(
        StandingRow(
            s.rank,
            names.get(s.player, s.player),
            s.score,
            s.wins,
            s.losses,
            s.games,
            s.player == me,
            s.player in left,
        )
        for s in standings
    )


def night(figures: Figures, names: Mapping[str, str]) -> NightFigures:
    """The night's figures (``host.party.figures``) with names for ids."""

    def named(ids: Sequence[str | None]) -> tuple[str, ...]:
        return tuple(names.get(who, who) for who in ids if who is not None)

    longest = figures.longest
    return NightFigures(
        Figure(named(figures.most_durak), figures.durak_times) if figures.most_durak else None,
        None if longest is None else Longest(longest.round, longest.table + 1, longest.actions),
        None if figures.fastest is None else Figure(named(figures.fastest[:1]), figures.fastest[1]),
    )


def clock_text(seconds: float) -> str:
    """``m:ss``, or ``h:mm:ss`` from an hour on: a clock that reads across a room."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"
