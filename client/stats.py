"""What the window remembers of the games played in it: the series against each line-up of
computer opponents (so a rematch after a restart goes on with the score), and the
player's statistics (games, wins, times the Durak, draws, the places) in all, per AI level
and at LAN tables.

A win is going out first (the series rule of RULES.md), but at six seats five players are
not the Durak and only one is first, so the statistics say both: games not lost (someone
else the Durak), and the average place over the games that had places (not the draws).
Files written before the places were counted still load: their games count as not placed,
and the average is over the games since. A game counts under every AI level that sat at
the table. Stored as JSON beside the settings (``stats.json``), with the
settings' care: a file that is not valid is moved aside (``stats.json.broken``) and the
counting starts again, values of the wrong type are dropped, and every save replaces the
file in one step. Nothing here imports pygame.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from client.settings import read_json, write_json
from engine import GameResult, Series

__all__ = ["LAN", "Stats", "Tally", "lineup_key"]

LAN = "lan"  # the line-up of every LAN table: its series is the host's, not ours
MAX_SERIES = 64  # line-ups remembered; the one played longest ago goes first


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    durak: int = 0
    draws: int = 0
    placed: int = 0  # games that gave us a place (no draw), since places were counted
    places: int = 0  # the sum of those places

    def add(self, result: GameResult, seat: int) -> None:
        self.games += 1
        self.wins += result.places[seat] == 1 and not all(p == 1 for p in result.places)
        self.durak += result.durak == seat
        self.draws += result.draw
        if not result.draw:
            self.placed += 1
            self.places += result.places[seat]

    @property
    def safe(self) -> int:
        """Games somebody else was the Durak in."""
        return max(0, self.games - self.durak - self.draws)

    @property
    def average_place(self) -> float | None:
        """The average place over the games that gave one (None: none yet)."""
        return self.places / self.placed if self.placed else None


def lineup_key(levels: Sequence[str]) -> str:
    """The line-up of computer opponents a series is kept for, e.g. ``"easy,hard"``."""
    return ",".join(levels)


@dataclass
class Stats:
    total: Tally = field(default_factory=Tally)
    lan: Tally = field(default_factory=Tally)
    levels: dict[str, Tally] = field(default_factory=dict)
    series: dict[str, Series] = field(default_factory=dict)  # line-up -> its series

    def record(self, result: GameResult, seat: int, levels: Sequence[str] | None) -> Series | None:
        """Count a finished game of ``seat``'s: at a LAN table (``levels`` None) or against
        computer opponents of ``levels``, whose series it returns with this game in it."""
        self.total.add(result, seat)
        if levels is None:
            self.lan.add(result, seat)
            return None
        for level in dict.fromkeys(levels):
            self.levels.setdefault(level, Tally()).add(result, seat)
        key = lineup_key(levels)
        before = self.series.pop(key, None)  # re-inserted last: the most recent
        if before is None or len(before.wins) != len(result.places):
            before = Series.new(len(result.places))
        self.series[key] = before.record(result)
        while len(self.series) > MAX_SERIES:
            del self.series[next(iter(self.series))]
        return self.series[key]

    # --- the file -------------------------------------------------------------------------

    @classmethod
    def load(cls, path: Path) -> Stats:
        data = read_json(path)
        if data is None:
            return cls()
        levels = data.get("levels")
        series = data.get("series")
        return cls(
            _tally(data.get("total")),
            _tally(data.get("lan")),
            {k: _tally(v) for k, v in levels.items()} if isinstance(levels, dict) else {},
            _all_series(series) if isinstance(series, dict) else {},
        )

    def save(self, path: Path) -> None:
        data = {
            "total": asdict(self.total),
            "lan": asdict(self.lan),
            "levels": {k: asdict(v) for k, v in self.levels.items()},
            "series": {k: _series_dict(s) for k, s in self.series.items()},
        }
        write_json(path, data)


def _count(value: object) -> int:
    return value if type(value) is int and value >= 0 else 0


def _tally(data: object) -> Tally:
    if not isinstance(data, dict):
        return Tally()
    names = ("games", "wins", "durak", "draws", "placed", "places")
    return Tally(*(_count(data.get(name)) for name in names))


def _series_dict(series: Series) -> dict[str, Any]:
    last = series.last
    return {
        "wins": list(series.wins),
        "losses": list(series.losses),
        "games": series.games,
        "draws": series.draws,
        "last": None if last is None else {"places": list(last.places), "durak": last.durak},
    }


def _all_series(data: Mapping[str, object]) -> dict[str, Series]:
    found = {}
    for key, value in data.items():
        series = _series(value)
        if series is not None:
            found[key] = series
    return found


def _series(data: object) -> Series | None:
    """A series as saved, or None when any part of it is not what a series holds."""
    if not isinstance(data, dict):
        return None
    wins, losses, last = data.get("wins"), data.get("losses"), data.get("last")
    if not (isinstance(wins, list) and isinstance(losses, list) and 2 <= len(wins) <= 6):
        return None
    if len(losses) != len(wins) or any(type(n) is not int or n < 0 for n in wins + losses):
        return None
    result = None
    if isinstance(last, dict):
        places, durak = last.get("places"), last.get("durak")
        if not (isinstance(places, list) and len(places) == len(wins)):
            return None
        if not all(type(p) is int and 1 <= p <= len(wins) for p in places):
            return None
        if durak is not None and not (type(durak) is int and 0 <= durak < len(wins)):
            return None
        result = GameResult(tuple(places), durak)
    elif last is not None:
        return None
    return Series(
        tuple(wins), tuple(losses), _count(data.get("games")), _count(data.get("draws")), result
    )
