"""Party views fed by hand, for the party's screens: a night of 12 players at 3 tables of
5 (an AI player fills each), each table a real game some moves in, and a feed that hands
them out."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace

from client.screens.party.model import (
    LiveTable,
    PartyView,
    Stage,
    TableCall,
    night,
    rows,
)
from engine import PublicView, Rules, new_game, observe_public
from engine.ai import next_actor
from host.party import Game, figures, standings

LONG = "Maximilian-Alexander von Hohenzollern-Sigmaringen"
PLAYERS = (
    *("Anna", "Oleg", "Vera", "Boris", "Dmitri", LONG),
    *("Katya", "Lena", "Misha", "Nadia", "Yevgeniya", "Stanislav"),
)
AI = ("Sasha (AI)", "Pasha (AI)", "Grisha (AI)")


def midgame(players: int, seed: int, moves: int) -> PublicView:
    """A watcher's view of a game of ``players`` after ``moves`` random legal moves."""
    state = new_game(Rules(players=players), seed)
    rng = random.Random(seed)
    for _ in range(moves):
        actor = next_actor(state)
        if actor is None:
            break
        seat, legal = actor
        state.apply(seat, legal[rng.randrange(len(legal))])
    return observe_public(state)


def finished(players: int, seed: int) -> PublicView:
    return midgame(players, seed, 10_000)


def tables() -> tuple[LiveTable, ...]:
    """Round 2's three tables: one with cards on the table, one just dealt, one over."""
    seats = (
        ("Anna", "Oleg", "Vera", "Boris", AI[0]),
        ("Dmitri", LONG, "Katya", AI[1], "Lena"),
        ("Misha", AI[2], "Nadia", "Yevgeniya", "Stanislav"),
    )
    views = (midgame(5, 4, 8), midgame(5, 8, 0), finished(5, 5))
    return tuple(
        LiveTable(i + 1, names, tuple(n in AI for n in names), view)
        for i, (names, view) in enumerate(zip(seats, views, strict=True))
    )


def games() -> list[Game]:
    """Round 1's results: each table's game as it ended, with its length."""
    found = []
    rng = random.Random(1)
    order = list(PLAYERS)
    for table in range(3):
        sitting: list[str | None] = [*order[table * 4 : table * 4 + 4], None]
        view = finished(5, 11 + table)
        assert view.result is not None
        out = tuple(rng.randrange(10, 60) for _ in sitting)
        found.append(Game(1, table, tuple(sitting), view.result, 80 + 30 * table, 300.0, out))
    return found


def with_badges(view: PartyView) -> PartyView:
    """``view`` with a badge for every player, in turn (an AI seat has none)."""
    looks = {name: i % 8 for i, name in enumerate(PLAYERS)}
    return replace(
        view,
        standings=tuple(replace(row, look=looks[row.name]) for row in view.standings),
        tables=tuple(
            replace(table, looks=tuple(looks.get(name) for name in table.names))
            for table in view.tables
        ),
    )


def party_view(stage: Stage = Stage.PLAYING, me: str | None = None, **changes: object) -> PartyView:
    """Round 2 of 3 of a party of 12 players at tables of 5 (an AI player at each)."""
    played = games()
    names = {who: who for who in PLAYERS}
    view = PartyView(
        "Friday night at Anna's",
        stage,
        2,
        3,
        rows(standings(PLAYERS, played), names, me),
        tables() if stage is Stage.PLAYING else (),
        night(figures(played), names),
        round_seconds=754.0,
    )
    return replace(view, **changes)  # type: ignore[arg-type]


class FedFeed:
    """A party feed that hands out what the test gives it (``client.screens.party.model.Feed``)."""

    def __init__(self, views: Sequence[PartyView] = ()) -> None:
        self.views = list(views)
        self.calls: list[TableCall] = []
        self.problem: str | None = None
        self.closed = False
        self.starts = 0
        self.left = False
        self.refused: str | None = None
        self.wake: Callable[[], None] | None = None

    def listen(self, wake: Callable[[], None]) -> None:
        self.wake = wake

    def poll(self) -> PartyView | None:
        return self.views.pop(0) if self.views else None

    def call(self) -> TableCall | None:
        return self.calls.pop(0) if self.calls else None

    def start(self) -> None:
        self.starts += 1

    def leave(self) -> None:
        self.left = True

    def refusal(self) -> str | None:
        refused, self.refused = self.refused, None
        return refused

    def close(self) -> None:
        self.closed = True
