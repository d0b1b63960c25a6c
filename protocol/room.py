"""The room: the table as every seat and watcher is shown it (``room`` in ``welcome``,
``watching`` and ``room`` messages), its seats, and the options the owner sets, with their
wire forms (docs/protocol.md section 4). Values, not messages: ``protocol.messages`` carries
them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import Rules, Series

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
    series_from_wire,
    series_to_wire,
)

__all__ = [
    "LOOKS",
    "MAX_MS",
    "MAX_SILENCE_MS",
    "MAX_WATCHERS",
    "MIN_SILENCE_MS",
    "RUN_BY",
    "SILENCE_MS",
    "WATCHERS",
    "Room",
    "SeatInfo",
    "check_hold_ms",
    "check_idle_ms",
    "check_look",
    "check_silence_ms",
    "check_turn_ms",
    "check_watchers",
    "room_from_wire",
    "room_to_wire",
]

SEAT_KINDS = ("empty", "human", "ai")
SEAT_STATUSES = ("empty", "connected", "away", "stand_in", "ai")
MAX_MS = 24 * 3600 * 1000  # a day, in milliseconds
SILENCE_MS = 12_000  # the default: a peer heard nothing from this long is taken for gone
MIN_SILENCE_MS = 500
MAX_SILENCE_MS = 3600 * 1000
STATUSES = ("lobby", "playing")
RUN_BY = ("owner", "party")  # who runs a room: its owner (a seat), or the party of the night
WATCHERS = 8  # the default: how many watchers a table takes
MAX_WATCHERS = 64  # the most a room may allow (a host's door has 64 slots by default)
LOOKS = 8  # a seat's look is one of this many colour-and-emblem badges (0 .. LOOKS - 1)


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat of the room: empty, a human (``connected`` or away) or a host AI.

    ``status`` says who plays the seat now: ``empty``, ``connected`` (its player),
    ``away`` (the player dropped; the seat is held for them), ``stand_in`` (a host AI plays
    it until the player returns) or ``ai`` (a host AI seat). Left out, it follows from
    ``kind`` and ``connected`` (a human not connected is ``away``). ``ready``: the player
    said they are ready to play (an AI seat always is, an empty seat never).
    """

    kind: str
    name: str = ""
    level: str | None = None
    connected: bool = False
    status: str = ""
    ready: bool = False
    look: int | None = None  # the player's badge (0 .. LOOKS - 1; None: none chosen)
    back_soon: bool = False  # the player said "back in a minute" (cleared as they act)

    def __post_init__(self) -> None:
        if not self.status:
            derived = {"empty": "empty", "ai": "ai"}.get(self.kind)
            if derived is None:
                derived = "connected" if self.connected else "away"
            object.__setattr__(self, "status", derived)


@dataclass(frozen=True, slots=True)
class Room:
    """The table as the lobby shows it."""

    name: str
    status: str
    owner: int | None
    seats: tuple[SeatInfo, ...]
    rules: Rules
    password: bool
    autostart: bool
    series: Series
    game: int
    hold_ms: int = 0  # how long a dropped player's seat waits before a stand-in plays it
    turn_ms: int | None = None  # the turn timer (None: no timer)
    silence_ms: int = SILENCE_MS  # a connection silent this long counts as dropped
    idle_ms: int | None = None  # how long a player may sit unready in the lobby (None: ever)
    watchers: int = WATCHERS  # how many may watch the table at once (0: nobody)
    watching: tuple[str, ...] = ()  # the names of those watching now
    unsaved: bool = False  # the host cannot save the table now (a full disk): section 12
    paused: bool = False  # the game stands still: its one player paused it (section 18)
    run_by: str = "owner"  # who runs the room: its owner, or a party (section 17)


# --- the options, checked as the room and ``set_options`` carry them ---------------


def check_hold_ms(value: Any) -> int:
    return check_int(value, 0, MAX_MS, "hold_ms")


def check_turn_ms(value: Any) -> int:
    return check_int(value, 1, MAX_MS, "turn_ms")


def check_silence_ms(value: Any) -> int:
    return check_int(value, MIN_SILENCE_MS, MAX_SILENCE_MS, "silence_ms")


def check_idle_ms(value: Any) -> int:
    return check_int(value, 1, MAX_MS, "idle_ms")


def check_watchers(value: Any) -> int:
    return check_int(value, 0, MAX_WATCHERS, "watchers")


def check_look(value: Any) -> int:
    return check_int(value, 0, LOOKS - 1, "look")


def _watching(value: Any) -> tuple[str, ...]:
    return tuple(check_name(name) for name in check_list(value, "watching", MAX_WATCHERS))


def seat_info_to_wire(info: SeatInfo) -> dict[str, Any]:
    return {
        "kind": info.kind,
        "name": info.name,
        "level": info.level,
        "connected": info.connected,
        "status": info.status,
        "ready": info.ready,
        "look": info.look,
        "back_soon": info.back_soon,
    }


def seat_info_from_wire(value: Any) -> SeatInfo:
    keys = ("kind", "name", "level", "connected", "status", "ready", "look", "back_soon")
    data = check_map(value, "seat", keys)
    if data["kind"] not in SEAT_KINDS:
        raise bad("seat kind must be empty, human or ai")
    if data["status"] not in SEAT_STATUSES:
        raise bad("seat status must be empty, connected, away, stand_in or ai")
    name = "" if data["name"] == "" else check_name(data["name"])
    ready = check_bool(data["ready"], "ready")
    if data["kind"] != "human" and ready != (data["kind"] == "ai"):
        raise bad("an AI seat is always ready, an empty seat never")
    return SeatInfo(
        data["kind"],
        name,
        optional(check_level)(data["level"]),
        check_bool(data["connected"], "connected"),
        data["status"],
        ready,
        optional(check_look)(data["look"]),
        check_bool(data["back_soon"], "back_soon"),
    )


_ROOM_KEYS = (
    "name",
    "status",
    "owner",
    "seats",
    "rules",
    "password",
    "autostart",
    "series",
    "game",
    "hold_ms",
    "turn_ms",
    "silence_ms",
    "idle_ms",
    "watchers",
    "watching",
    "unsaved",
    "paused",
    "run_by",
)


def room_to_wire(room: Room) -> dict[str, Any]:
    return {
        "name": room.name,
        "status": room.status,
        "owner": room.owner,
        "seats": [seat_info_to_wire(s) for s in room.seats],
        "rules": rules_to_wire(room.rules),
        "password": room.password,
        "autostart": room.autostart,
        "series": series_to_wire(room.series),
        "game": room.game,
        "hold_ms": room.hold_ms,
        "turn_ms": room.turn_ms,
        "silence_ms": room.silence_ms,
        "idle_ms": room.idle_ms,
        "watchers": room.watchers,
        "watching": list(room.watching),
        "unsaved": room.unsaved,
        "paused": room.paused,
        "run_by": room.run_by,
    }


def room_from_wire(value: Any) -> Room:
    data = check_map(value, "room", _ROOM_KEYS)
    rules = rules_from_wire(data["rules"])
    n = rules.players
    seats = check_list(data["seats"], "seats", MAX_SEATS)
    if len(seats) != n:
        raise bad("room seats must list every seat of the rules")
    if data["status"] not in STATUSES:
        raise bad("room status must be lobby or playing")
    name = check_str(data["name"], "room name", 63, 1)
    if not name.isprintable():
        raise bad("room name must be printable")
    return Room(
        name=name,
        status=data["status"],
        owner=optional(lambda v: seat_of(v, "owner", n))(data["owner"]),
        seats=tuple(seat_info_from_wire(s) for s in seats),
        rules=rules,
        password=check_bool(data["password"], "password"),
        autostart=check_bool(data["autostart"], "autostart"),
        series=series_from_wire(data["series"], n),
        game=check_int(data["game"], 0, MAX_REF, "game"),
        hold_ms=check_hold_ms(data["hold_ms"]),
        turn_ms=optional(check_turn_ms)(data["turn_ms"]),
        silence_ms=check_silence_ms(data["silence_ms"]),
        idle_ms=optional(check_idle_ms)(data["idle_ms"]),
        watchers=check_watchers(data["watchers"]),
        watching=_watching(data["watching"]),
        unsaved=check_bool(data["unsaved"], "unsaved"),
        paused=check_bool(data["paused"], "paused"),
        run_by=one_of(RUN_BY, "run_by")(data["run_by"]),
    )
