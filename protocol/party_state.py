"""The state of a party as every client is shown it (docs/protocol.md section 17): the
night's setup, the players and their standings, the round's tables, the night's figures.

``protocol.party`` sends it whole in ``joined`` and ``party``; this module checks it on
the way in as strictly as every other message (``ProtocolError``, ``bad_message``): every
field's type and range, and that the tables and figures name only the party's players, each
at most once a round. Floats are not msgpack types we use, so the average place is sent in
thousandths.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import Rules

from .fields import MAX_REF, check_level, check_name
from .wire import (
    MAX_SEATS,
    bad,
    check_bool,
    check_int,
    check_list,
    check_map,
    check_str,
    one_of,
    optional,
    rules_from_wire,
    rules_to_wire,
    seat_of,
)

__all__ = [
    "MAX_COUNT",
    "MAX_MINUTES",
    "MAX_MS",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MAX_TABLES",
    "PARTY_STATUSES",
    "PLAYER_STATUSES",
    "TABLE_STATUSES",
    "LongestGame",
    "Night",
    "Party",
    "PartyFigures",
    "PartyPlayer",
    "RoundTable",
    "length_of",
    "night_from_wire",
    "night_to_wire",
    "party_from_wire",
    "party_to_wire",
    "player_id",
]

MAX_PLAYERS = 60  # players a party takes (ten full tables of six)
MAX_TABLES = 30  # tables of one round (60 players at tables of two)
MAX_ROUNDS = 50
MAX_MINUTES = 24 * 60
MAX_MS = 7 * 24 * 3600 * 1000  # a week, in milliseconds: the longest clock a party shows
MAX_COUNT = MAX_REF  # a count of rounds, games or actions
PARTY_STATUSES = ("gathering", "playing", "break", "over")
PLAYER_STATUSES = ("here", "away", "left")
TABLE_STATUSES = ("playing", "done")


# --- the party as everyone sees it ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Night:
    """The night as the organiser set it: the table size is ``rules.players``; exactly one
    of ``rounds`` and ``minutes`` is set; ``fill``: AI players (of level ``ai``) take the
    empty seats of short tables."""

    rules: Rules
    rounds: int | None = 3
    minutes: int | None = None
    fill: bool = True
    ai: str = "normal"

    def __post_init__(self) -> None:
        if (self.rounds is None) == (self.minutes is None):
            raise ValueError("a night has a number of rounds or a time, and not both")


@dataclass(frozen=True, slots=True)
class PartyPlayer:
    """One player of the party and their standing (docs/party.md). ``place`` is the
    average scaled place in thousandths (0 first out, 1000 the Durak's last place);
    ``table`` the index of their table in the round in play (None: not seated)."""

    id: int
    name: str
    status: str  # here | away (not connected to the party) | left (off the seating)
    rank: int
    games: int
    wins: int
    losses: int
    place: int
    opponents: int
    table: int | None

    @property
    def score(self) -> int:
        return self.wins - self.losses


@dataclass(frozen=True, slots=True)
class RoundTable:
    """One table of the round: its port (on the party's address), who sits in each seat
    (a player's id, None for an AI seat), and once it is ``done`` its result."""

    table: int
    port: int
    seats: tuple[int | None, ...]
    status: str  # playing | done
    places: tuple[int, ...] | None  # the result's places, once done
    durak: int | None  # the Durak's seat (None: none yet, or a draw)


@dataclass(frozen=True, slots=True)
class LongestGame:
    round: int
    table: int
    actions: int


@dataclass(frozen=True, slots=True)
class PartyFigures:
    """The night's figures: who was the Durak most often (every player level on the most,
    none before the first Durak), the longest game, who went out fastest."""

    most_durak: tuple[int, ...] = ()
    durak_times: int = 0
    longest: LongestGame | None = None
    fastest: tuple[int, int] | None = None  # (player, actions played when they went out)


@dataclass(frozen=True, slots=True)
class Party:
    """The whole party. ``round`` is the round in play or the last one played (0 before
    the first); ``final``: that round is the night's final. The clocks are milliseconds
    as the party host sends them: since the round began, left of a timed night, until
    the next round begins by itself (each None where it does not apply). ``unsaved``: the
    party host cannot save the party now (a full disk; it tries again every second)."""

    name: str
    status: str  # gathering | playing | break | over
    organiser: int | None
    setup: Night
    round: int
    final: bool
    round_ms: int | None
    left_ms: int | None
    next_ms: int | None
    players: tuple[PartyPlayer, ...]
    tables: tuple[RoundTable, ...]
    figures: PartyFigures
    unsaved: bool = False


# --- fields ---------------------------------------------------------------------------

Dec = Callable[[Any], Any]


def player_id(value: Any) -> int:
    return check_int(value, 0, MAX_PLAYERS - 1, "player")


def _ms(value: Any) -> int:
    return check_int(value, 0, MAX_MS, "ms")


def length_of(value: Any) -> tuple[int | None, int | None]:
    """(rounds, minutes) of a setup: exactly one of them set."""
    rounds = optional(lambda v: check_int(v, 1, MAX_ROUNDS, "rounds"))(value[0])
    minutes = optional(lambda v: check_int(v, 1, MAX_MINUTES, "minutes"))(value[1])
    if (rounds is None) == (minutes is None):
        raise bad("exactly one of rounds and minutes must be set")
    return rounds, minutes


_SETUP_KEYS = ("rules", "rounds", "minutes", "fill", "ai")


def night_to_wire(setup: Night) -> dict[str, Any]:
    return {
        "rules": rules_to_wire(setup.rules),
        "rounds": setup.rounds,
        "minutes": setup.minutes,
        "fill": setup.fill,
        "ai": setup.ai,
    }


def night_from_wire(value: Any) -> Night:
    data = check_map(value, "setup", _SETUP_KEYS)
    rounds, minutes = length_of((data["rounds"], data["minutes"]))
    return Night(
        rules_from_wire(data["rules"]),
        rounds,
        minutes,
        check_bool(data["fill"], "fill"),
        check_level(data["ai"]),
    )


_PLAYER_KEYS = (
    "id", "name", "status", "rank", "games", "wins", "losses", "place", "opponents", "table",
)  # fmt: skip


def _player_to_wire(player: PartyPlayer) -> dict[str, Any]:
    return {key: getattr(player, key) for key in _PLAYER_KEYS}


def _player_from_wire(value: Any) -> PartyPlayer:
    data = check_map(value, "player", _PLAYER_KEYS)
    games = check_int(data["games"], 0, MAX_COUNT, "games")
    wins = check_int(data["wins"], 0, games, "wins")
    return PartyPlayer(
        id=player_id(data["id"]),
        name=check_name(data["name"]),
        status=one_of(PLAYER_STATUSES, "player status")(data["status"]),
        rank=check_int(data["rank"], 1, MAX_PLAYERS, "rank"),
        games=games,
        wins=wins,
        losses=check_int(data["losses"], 0, games, "losses"),
        place=check_int(data["place"], 0, 1000, "place"),
        opponents=check_int(data["opponents"], -MAX_COUNT, MAX_COUNT, "opponents"),
        table=optional(lambda v: check_int(v, 0, MAX_TABLES - 1, "table"))(data["table"]),
    )


_TABLE_KEYS = ("table", "port", "seats", "status", "places", "durak")


def _table_to_wire(table: RoundTable) -> dict[str, Any]:
    places = None if table.places is None else list(table.places)
    return {
        "table": table.table,
        "port": table.port,
        "seats": list(table.seats),
        "status": table.status,
        "places": places,
        "durak": table.durak,
    }


def _table_from_wire(value: Any) -> RoundTable:
    data = check_map(value, "table", _TABLE_KEYS)
    seats = tuple(
        optional(player_id)(s) for s in check_list(data["seats"], "table seats", MAX_SEATS)
    )
    if len(seats) < 2:
        raise bad("a table has 2 to 6 seats")
    n = len(seats)
    status = one_of(TABLE_STATUSES, "table status")(data["status"])
    places = None
    if data["places"] is not None:
        listed = check_list(data["places"], "table places", MAX_SEATS)
        if len(listed) != n:
            raise bad("a table's places must name a place for every seat")
        places = tuple(check_int(p, 1, n, "place") for p in listed)
    if (places is None) != (status == "playing"):
        raise bad("a table has places once it is done, and only then")
    durak = optional(lambda v: seat_of(v, "durak", n))(data["durak"])
    if durak is not None and places is None:
        raise bad("a table names its Durak only once it is done")
    return RoundTable(
        table=check_int(data["table"], 0, MAX_TABLES - 1, "table"),
        port=check_int(data["port"], 1, 65535, "port"),
        seats=seats,
        status=status,
        places=places,
        durak=durak,
    )


def _figures_to_wire(figures: PartyFigures) -> dict[str, Any]:
    longest = figures.longest
    return {
        "most_durak": list(figures.most_durak),
        "durak_times": figures.durak_times,
        "longest": None
        if longest is None
        else {"round": longest.round, "table": longest.table, "actions": longest.actions},
        "fastest": None if figures.fastest is None else list(figures.fastest),
    }


def _figures_from_wire(value: Any) -> PartyFigures:
    data = check_map(value, "figures", ("most_durak", "durak_times", "longest", "fastest"))
    most = tuple(player_id(p) for p in check_list(data["most_durak"], "most_durak", MAX_PLAYERS))
    longest = None
    if data["longest"] is not None:
        item = check_map(data["longest"], "longest", ("round", "table", "actions"))
        longest = LongestGame(
            check_int(item["round"], 1, MAX_COUNT, "round"),
            check_int(item["table"], 0, MAX_TABLES - 1, "table"),
            check_int(item["actions"], 0, MAX_COUNT, "actions"),
        )
    fastest = None
    if data["fastest"] is not None:
        pair = check_list(data["fastest"], "fastest", 2)
        if len(pair) != 2:
            raise bad("fastest must be a [player, actions] pair")
        fastest = (player_id(pair[0]), check_int(pair[1], 0, MAX_COUNT, "actions"))
    times = check_int(data["durak_times"], 0, MAX_COUNT, "durak_times")
    return PartyFigures(most, times, longest, fastest)


_PARTY_KEYS = (
    "name", "status", "organiser", "setup", "round", "final", "round_ms", "left_ms", "next_ms",
    "players", "tables", "figures", "unsaved",
)  # fmt: skip


def party_to_wire(party: Party) -> dict[str, Any]:
    return {
        "name": party.name,
        "status": party.status,
        "organiser": party.organiser,
        "setup": night_to_wire(party.setup),
        "round": party.round,
        "final": party.final,
        "round_ms": party.round_ms,
        "left_ms": party.left_ms,
        "next_ms": party.next_ms,
        "players": [_player_to_wire(p) for p in party.players],
        "tables": [_table_to_wire(t) for t in party.tables],
        "figures": _figures_to_wire(party.figures),
        "unsaved": party.unsaved,
    }


def party_from_wire(value: Any) -> Party:
    data = check_map(value, "party", _PARTY_KEYS)
    name = check_str(data["name"], "party name", 63, 1)
    if not name.isprintable():
        raise bad("party name must be printable")
    players = tuple(
        _player_from_wire(p) for p in check_list(data["players"], "players", MAX_PLAYERS)
    )
    ids = {p.id for p in players}
    if len(ids) != len(players):
        raise bad("players list an id twice")
    tables = tuple(_table_from_wire(t) for t in check_list(data["tables"], "tables", MAX_TABLES))
    seated = [who for table in tables for who in table.seats if who is not None]
    if any(who not in ids for who in seated) or len(set(seated)) != len(seated):
        raise bad("a table seat must name a player of the party, each at most once")
    organiser = optional(player_id)(data["organiser"])
    if organiser is not None and organiser not in ids:
        raise bad("the organiser must be a player of the party")
    figures = _figures_from_wire(data["figures"])
    if any(who not in ids for who in figures.most_durak) or (
        figures.fastest is not None and figures.fastest[0] not in ids
    ):
        raise bad("the figures must name players of the party")
    return Party(
        name=name,
        status=one_of(PARTY_STATUSES, "party status")(data["status"]),
        organiser=organiser,
        setup=night_from_wire(data["setup"]),
        round=check_int(data["round"], 0, MAX_COUNT, "round"),
        final=check_bool(data["final"], "final"),
        round_ms=optional(_ms)(data["round_ms"]),
        left_ms=optional(_ms)(data["left_ms"]),
        next_ms=optional(_ms)(data["next_ms"]),
        players=players,
        tables=tables,
        figures=figures,
        unsaved=check_bool(data["unsaved"], "unsaved"),
    )
