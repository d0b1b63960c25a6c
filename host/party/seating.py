"""Who sits with whom in a party's next round: Swiss-style, so similar scores meet and
players meet new opponents.

The tables: as few as hold everyone at the chosen size (2-6), humans spread as evenly as
possible (no two tables differ by more than one human); with AI fill every table has the
full size and AI players take its empty seats, without it a table seats only its humans
(never fewer than two: a lone player has nobody to play).

The first round is drawn (the party's seed shuffles the players). After it, the tables are
filled in the order of the standings: each table takes the best-placed player still
unseated, then, one seat at a time, the player among the next few in standing (a window of
twice the table's size) who has shared the fewest tables with those already seated,
nearest in standing on a tie. A final round puts the top players at the first table
(``final``) and seats the others as usual.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from .standings import Game

__all__ = ["Seating", "seat_round", "table_sizes"]

MIN_SIZE, MAX_SIZE = 2, 6


@dataclass(frozen=True, slots=True)
class Seating:
    """One round's tables: each a tuple of seats, a player's id or None for an AI seat."""

    round: int
    tables: tuple[tuple[str | None, ...], ...]

    def table_of(self, player: str) -> int | None:
        for index, seats in enumerate(self.tables):
            if player in seats:
                return index
        return None


def table_sizes(players: int, size: int, fill: bool) -> tuple[tuple[int, int], ...]:
    """(humans, seats) of each table for ``players`` humans at tables of ``size``."""
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"a table has {MIN_SIZE} to {MAX_SIZE} seats, not {size}")
    if players < 1 or (players < MIN_SIZE and not fill):
        raise ValueError(f"{players} players cannot fill a table")
    count = -(-players // size)
    humans = [players // count + (index < players % count) for index in range(count)]
    if not fill and min(humans) < MIN_SIZE:
        raise ValueError(f"{players} players do not make tables of {MIN_SIZE} or more")
    return tuple((n, size if fill else n) for n in humans)


def seat_round(
    ranked: Sequence[str],
    games: Sequence[Game],
    round_number: int,
    size: int,
    *,
    fill: bool,
    seed: int,
    final: bool = False,
) -> Seating:
    """The seating of round ``round_number`` for the players of ``ranked`` (best first:
    the standings, without those who left the party)."""
    shapes = table_sizes(len(ranked), size, fill)
    order = list(ranked)
    if round_number == 1 and not final:
        random.Random(f"party-draw:{seed}").shuffle(order)
    met = Counter(
        frozenset(pair)
        for game in games
        for pair in combinations([who for who in game.seats if who is not None], 2)
    )
    unseated = order
    tables: list[tuple[str | None, ...]] = []
    for index, (humans, seats) in enumerate(shapes):
        if final and index == 0:
            chosen, unseated = unseated[:humans], unseated[humans:]
        else:
            chosen, unseated = _fill(unseated, humans, met)
        tables.append((*chosen, *[None] * (seats - humans)))
    return Seating(round_number, tuple(tables))


def _fill(
    unseated: list[str], humans: int, met: Counter[frozenset[str]]
) -> tuple[list[str], list[str]]:
    """The ``humans`` players of one table, and the players still unseated after it."""
    left = list(unseated)
    chosen = [left.pop(0)]
    while len(chosen) < humans:
        window = left[: 2 * humans]
        best = min(
            range(len(window)),
            key=lambda i: (sum(met[frozenset((window[i], who))] for who in chosen), i),
        )
        chosen.append(left.pop(best))
    return chosen, left
