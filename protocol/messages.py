"""The messages, and the one explicit table that maps a type name to a class and fields.

A message on the wire is a msgpack map: ``{"type": NAME, field: value, ...}`` with exactly
the fields of its type. ``encode(message)`` gives the framed bytes; ``decode_payload``
checks every field (type and range) and builds the message, or raises ``ProtocolError``.
Nothing is looked up by reflection: only the names in ``CLIENT_MESSAGES`` and
``HOST_MESSAGES`` exist.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgpack  # type: ignore[import-untyped]

from engine import Action, Event, PublicView, Rules, SeatView, Series

from .errors import BAD_FRAME, VERSION_MISMATCH, ProtocolError
from .framing import MAX_FRAME, frame
from .wire import (
    MAX_SEATS,
    UnplayableRules,
    action_from_wire,
    action_to_wire,
    bad,
    check_bool,
    check_code,
    check_int,
    check_list,
    check_map,
    check_str,
    event_from_wire,
    event_to_wire,
    one_of,
    optional,
    public_view_from_wire,
    public_view_to_wire,
    requested_rules_from_wire,
    requested_rules_to_wire,
    rules_from_wire,
    rules_to_wire,
    seat_of,
    series_from_wire,
    series_to_wire,
    view_from_wire,
    view_to_wire,
)

__all__ = [
    "CLIENT_MESSAGES",
    "EMOTES",
    "HELLO_ROLES",
    "HOST_MESSAGES",
    "LOOKS",
    "MAX_MS",
    "MAX_SILENCE_MS",
    "MAX_WATCHERS",
    "MIN_SILENCE_MS",
    "PROTOCOL_VERSION",
    "SILENCE_MS",
    "WATCHERS",
    "Ack",
    "Act",
    "Alive",
    "BackSoon",
    "ClientMessage",
    "Commit",
    "Contribute",
    "Draw",
    "Emote",
    "Emoted",
    "Goodbye",
    "Heartbeat",
    "Hello",
    "HostMessage",
    "Kick",
    "Leave",
    "Message",
    "Pause",
    "Ping",
    "Pong",
    "Ready",
    "Rejected",
    "Replace",
    "Reveal",
    "Room",
    "RoomUpdate",
    "SeatInfo",
    "SetOptions",
    "SetRules",
    "SetSeat",
    "Sit",
    "Snapshot",
    "Start",
    "Update",
    "WatchSnapshot",
    "WatchUpdate",
    "WatcherEmoted",
    "Watching",
    "Welcome",
    "decode_payload",
    "encode",
]

# 2: the ready mark (``ready``, ``SeatInfo.ready``); 3: stricter maps and versions, the
# heartbeat (``heartbeat``, ``alive``, ``silence_ms``), the owner runs the room (``kick``,
# ``replace``, ``draw``, ``set_options.idle_ms``, ``Room.idle_ms``) and ``leave``; 4: a fair
# deal (``commit``, ``contribute``, ``reveal``: docs/protocol.md section 15) and watchers
# (``hello.role``, ``watching``, ``watch_snapshot``, ``watch_update``, ``watcher_emoted``,
# ``sit``, ``set_options.watchers``, ``Room.watchers``, ``Room.watching``: section 16); 5: a
# party (its own messages on its own port, ``protocol.party``: section 17), and at the
# table a seat's look (``hello.look``, ``SeatInfo.look``), the pause against the computer
# (``pause``, ``Room.paused``) and the "back in a minute" mark (``back_soon``,
# ``SeatInfo.back_soon``): section 18
PROTOCOL_VERSION = 6
MAX_NAME = 24
MAX_PASSWORD = 64
MAX_TEXT = 200
MAX_REF = 2**31 - 1
MAX_EVENTS = 256
TOKEN_LEN = 32  # hex digits
SEAT_KINDS = ("empty", "human", "ai")
SEAT_STATUSES = ("empty", "connected", "away", "stand_in", "ai")
MAX_MS = 24 * 3600 * 1000  # a day, in milliseconds
SILENCE_MS = 12_000  # the default: a peer heard nothing from this long is taken for gone
MIN_SILENCE_MS = 500
MAX_SILENCE_MS = 3600 * 1000
STATUSES = ("lobby", "playing")
RUN_BY = ("owner", "party")  # who runs a room: its owner (a seat), or the party of the night
EMOTES = ("nice", "oops", "hurry", "well_played", "ha")  # the quick reactions, by code
MAX_REVEAL = 512  # actions in one ``reveal`` message (a longer game takes several)
HELLO_ROLES = ("play", "watch")  # a hello asks for a seat, or to watch the table
WATCHERS = 8  # the default: how many watchers a table takes
MAX_WATCHERS = 64  # the most a room may allow (a host's door has 64 slots by default)
LOOKS = 8  # a seat's look is one of this many colour-and-emblem badges (0 .. LOOKS - 1)


# --- values inside messages ------------------------------------------------------------


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


# --- client -> host --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    """``role`` "play" asks for a seat (or, with ``token``, our seat back); "watch" asks to
    watch the table without a seat (``token`` then is None)."""

    version: int
    name: str
    password: str | None = None
    token: str | None = None
    role: str = "play"
    look: int | None = None  # the badge the others see beside our name (section 18)


@dataclass(frozen=True, slots=True)
class Act:
    ref: int
    action: Action


@dataclass(frozen=True, slots=True)
class SetRules:
    """New rules for the room. Rules that cannot be played together arrive as
    ``UnplayableRules`` and are refused by the host (``bad_rules``), not as a protocol error."""

    ref: int
    rules: Rules | UnplayableRules


@dataclass(frozen=True, slots=True)
class SetSeat:
    """Fill a seat with a host AI of ``ai``'s level, or clear it (``ai`` None)."""

    ref: int
    seat: int
    ai: str | None


@dataclass(frozen=True, slots=True)
class SetOptions:
    """The room's options: how long a dropped player's seat is held, the turn timer, and
    how long a connection may stay silent before it counts as dropped (the heartbeat) and
    how long a player may sit in the lobby without being ready (None: as long as they like)."""

    ref: int
    hold_ms: int
    turn_ms: int | None
    silence_ms: int = SILENCE_MS
    idle_ms: int | None = None
    watchers: int = WATCHERS


@dataclass(frozen=True, slots=True)
class Sit:
    """A watcher takes the first open seat of the table in its lobby (answered by ``ack``,
    then a ``welcome`` to the seat)."""

    ref: int


@dataclass(frozen=True, slots=True)
class Kick:
    """The owner sends the player of ``seat`` away (in a game an AI plays the seat to its
    end)."""

    ref: int
    seat: int


@dataclass(frozen=True, slots=True)
class Replace:
    """The owner gives ``seat`` to a host AI of level ``ai``, in the lobby or in a game."""

    ref: int
    seat: int
    ai: str


@dataclass(frozen=True, slots=True)
class Leave:
    """The sender leaves the table for good (in a game an AI plays the seat to its end)."""

    ref: int


@dataclass(frozen=True, slots=True)
class Draw:
    """The owner ends the game being played as a draw."""

    ref: int


@dataclass(frozen=True, slots=True)
class Start:
    ref: int


@dataclass(frozen=True, slots=True)
class Ready:
    """A player's ready mark, set (``ready`` True) or taken back, in the lobby."""

    ref: int
    ready: bool


@dataclass(frozen=True, slots=True)
class Ping:
    ref: int


@dataclass(frozen=True, slots=True)
class Emote:
    """A quick reaction (one of ``EMOTES``) for every seat to see."""

    code: str


@dataclass(frozen=True, slots=True)
class Alive:
    """The answer to the host's ``heartbeat`` of the same ``ref``."""

    ref: int


@dataclass(frozen=True, slots=True)
class Contribute:
    """Our random contribution to the deal of ``game``, sent after its ``commit``.

    ``value`` should be 64 lower-case hex digits (32 bytes); any other string, an integer,
    a boolean or nil is carried as it came, for the host to refuse (``bad_contribution``)."""

    ref: int
    game: int
    value: str | int | bool | None


@dataclass(frozen=True, slots=True)
class Pause:
    """Stop the game's clock (``paused`` True) or let it run again. Only a player alone
    with the host's AIs may (``not_alone``); answered by ``ack``, the room says ``paused``."""

    ref: int
    paused: bool


@dataclass(frozen=True, slots=True)
class BackSoon:
    """Our seat's "back in a minute" mark, set (``on``) or taken back, in a game."""

    ref: int
    on: bool


# --- host -> client --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Welcome:
    version: int
    seat: int
    token: str
    room: Room


@dataclass(frozen=True, slots=True)
class Watching:
    """The host's welcome to a watcher: no seat, no token."""

    version: int
    room: Room


@dataclass(frozen=True, slots=True)
class RoomUpdate:
    room: Room


@dataclass(frozen=True, slots=True)
class Snapshot:
    game: int
    seq: int
    view: SeatView


@dataclass(frozen=True, slots=True)
class Update:
    game: int
    seq: int
    events: tuple[Event, ...]
    view: SeatView


@dataclass(frozen=True, slots=True)
class WatchSnapshot:
    """A watcher's whole view of the game, to resynchronise."""

    game: int
    seq: int
    view: PublicView


@dataclass(frozen=True, slots=True)
class WatchUpdate:
    """What one action did, as a watcher sees it (every drawn card hidden)."""

    game: int
    seq: int
    events: tuple[Event, ...]
    view: PublicView


@dataclass(frozen=True, slots=True)
class Ack:
    ref: int
    seq: int | None


@dataclass(frozen=True, slots=True)
class Rejected:
    ref: int
    reason: str
    text: str


@dataclass(frozen=True, slots=True)
class Pong:
    ref: int


@dataclass(frozen=True, slots=True)
class Emoted:
    """``seat`` reacted with ``code`` (one of ``EMOTES``)."""

    seat: int
    code: str


@dataclass(frozen=True, slots=True)
class WatcherEmoted:
    """The watcher called ``name`` reacted with ``code`` (one of ``EMOTES``)."""

    name: str
    code: str


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """The host has heard nothing from this client for a while: answer ``alive`` at once."""

    ref: int


@dataclass(frozen=True, slots=True)
class Commit:
    """The host's commitment to the deal of ``game`` (64 hex digits); it waits up to
    ``wait_ms`` for each seated player's ``contribute``, then deals."""

    game: int
    commitment: str
    wait_ms: int


@dataclass(frozen=True, slots=True)
class Reveal:
    """At the end of ``game``: the host's secret, the contributions it used, the seed, and
    the actions from number ``start`` on (``done``: the last part). ``drawn``: the owner
    ended the game as a draw after the last action."""

    game: int
    secret: str
    contributions: tuple[tuple[int, str], ...]
    seed: int
    start: int
    actions: tuple[tuple[int, Action], ...]
    drawn: bool
    done: bool


@dataclass(frozen=True, slots=True)
class Goodbye:
    code: str
    text: str


ClientMessage = (
    Hello
    | Act
    | SetRules
    | SetSeat
    | SetOptions
    | Start
    | Ready
    | Ping
    | Emote
    | Alive
    | Kick
    | Replace
    | Leave
    | Draw
    | Contribute
    | Sit
    | Pause
    | BackSoon
)
HostMessage = (
    Welcome
    | RoomUpdate
    | Snapshot
    | Update
    | Ack
    | Rejected
    | Pong
    | Emoted
    | Heartbeat
    | Commit
    | Reveal
    | Goodbye
    | Watching
    | WatchSnapshot
    | WatchUpdate
    | WatcherEmoted
)
Message = ClientMessage | HostMessage


# --- field codecs ----------------------------------------------------------------------

Enc = Callable[[Any], Any]
Dec = Callable[[Any], Any]


def _ident(value: Any) -> Any:
    return value


def _name(value: Any) -> str:
    name = check_str(value, "name", MAX_NAME, 1)
    if not name.isprintable() or name != name.strip():
        raise bad("name must be printable without leading or trailing spaces")
    return name


def _token(value: Any) -> str:
    token = check_str(value, "token", TOKEN_LEN, TOKEN_LEN)
    if any(c not in "0123456789abcdef" for c in token):
        raise bad("token must be 32 lower-case hex digits")
    return token


def _level(value: Any) -> str:
    level = check_str(value, "ai", MAX_NAME, 1)
    if not all(c.isalnum() or c in ":._-" for c in level):
        raise bad("ai must be a level name such as 'normal'")
    return level


def _ref(value: Any) -> int:
    return check_int(value, 0, MAX_REF, "ref")


def _seq(value: Any) -> int:
    return check_int(value, 0, MAX_REF, "seq")


def _version(value: Any) -> int:
    return check_int(value, 0, MAX_REF, "version")


def _hold_ms(value: Any) -> int:
    return check_int(value, 0, MAX_MS, "hold_ms")


def _turn_ms(value: Any) -> int:
    return check_int(value, 1, MAX_MS, "turn_ms")


def _silence_ms(value: Any) -> int:
    return check_int(value, MIN_SILENCE_MS, MAX_SILENCE_MS, "silence_ms")


def _idle_ms(value: Any) -> int:
    return check_int(value, 1, MAX_MS, "idle_ms")


def _watchers(value: Any) -> int:
    return check_int(value, 0, MAX_WATCHERS, "watchers")


def _role(value: Any) -> str:
    if type(value) is not str or value not in HELLO_ROLES:
        raise bad("hello role must be play or watch")
    return value


def _look(value: Any) -> int:
    return check_int(value, 0, LOOKS - 1, "look")


def _watching(value: Any) -> tuple[str, ...]:
    return tuple(_name(name) for name in check_list(value, "watching", MAX_WATCHERS))


def _events_to_wire(events: tuple[Event, ...]) -> list[dict[str, Any]]:
    return [event_to_wire(e) for e in events]


def _events_from_wire(value: Any) -> tuple[Event, ...]:
    return tuple(event_from_wire(e) for e in check_list(value, "events", MAX_EVENTS))


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
    name = "" if data["name"] == "" else _name(data["name"])
    ready = check_bool(data["ready"], "ready")
    if data["kind"] != "human" and ready != (data["kind"] == "ai"):
        raise bad("an AI seat is always ready, an empty seat never")
    return SeatInfo(
        data["kind"],
        name,
        optional(_level)(data["level"]),
        check_bool(data["connected"], "connected"),
        data["status"],
        ready,
        optional(_look)(data["look"]),
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
        hold_ms=_hold_ms(data["hold_ms"]),
        turn_ms=optional(_turn_ms)(data["turn_ms"]),
        silence_ms=_silence_ms(data["silence_ms"]),
        idle_ms=optional(_idle_ms)(data["idle_ms"]),
        watchers=_watchers(data["watchers"]),
        watching=_watching(data["watching"]),
        unsaved=check_bool(data["unsaved"], "unsaved"),
        paused=check_bool(data["paused"], "paused"),
        run_by=one_of(RUN_BY, "run_by")(data["run_by"]),
    )


def _emote(value: Any) -> str:
    if type(value) is not str or value not in EMOTES:
        raise bad(f"emote code must be one of {', '.join(EMOTES)}")
    return value


def _text(value: Any) -> str:
    return check_str(value, "text", MAX_TEXT)


def _hex64(value: Any, what: str) -> str:
    text = check_str(value, what, 64, 64)
    if any(c not in "0123456789abcdef" for c in text):
        raise bad(f"{what} must be 64 lower-case hex digits")
    return text


def _contribution(value: Any) -> str | int | bool | None:
    """A contribution's value as it came: a string (of up to 200 characters), an integer, a
    boolean or nil; what it must be is the host's to check (``bad_contribution``)."""
    if type(value) is str:
        return check_str(value, "value", MAX_TEXT)
    if value is None or type(value) in (int, bool):
        return value  # type: ignore[no-any-return]
    raise bad("a contribution's value must be a string")


def _contributions_to_wire(values: tuple[tuple[int, str], ...]) -> list[list[Any]]:
    return [[seat, value] for seat, value in values]


def _contributions_from_wire(value: Any) -> tuple[tuple[int, str], ...]:
    pairs = []
    for pair in check_list(value, "contributions", MAX_SEATS):
        if type(pair) is not list or len(pair) != 2:
            raise bad("a contribution must be a [seat, value] pair")
        pairs.append((seat_of(pair[0]), _hex64(pair[1], "contribution")))
    if len({seat for seat, _ in pairs}) != len(pairs):
        raise bad("contributions list a seat twice")
    return tuple(pairs)


def _log_to_wire(actions: tuple[tuple[int, Action], ...]) -> list[list[Any]]:
    return [[seat, action_to_wire(action)] for seat, action in actions]


def _log_from_wire(value: Any) -> tuple[tuple[int, Action], ...]:
    actions = []
    for pair in check_list(value, "actions", MAX_REVEAL):
        if type(pair) is not list or len(pair) != 2:
            raise bad("a revealed action must be a [seat, action] pair")
        actions.append((seat_of(pair[0]), action_from_wire(pair[1])))
    return tuple(actions)


# The explicit tables: type name -> (class, ((field, encode, decode), ...)).
Spec = tuple[type[Any], tuple[tuple[str, Enc, Dec], ...]]

CLIENT_MESSAGES: dict[str, Spec] = {
    "hello": (
        Hello,
        (
            ("version", _ident, _version),
            ("name", _ident, _name),
            ("password", _ident, optional(lambda v: check_str(v, "password", MAX_PASSWORD))),
            ("token", _ident, optional(_token)),
            ("role", _ident, _role),
            ("look", _ident, optional(_look)),
        ),
    ),
    "act": (Act, (("ref", _ident, _ref), ("action", action_to_wire, action_from_wire))),
    "set_rules": (
        SetRules,
        (
            ("ref", _ident, _ref),
            ("rules", requested_rules_to_wire, requested_rules_from_wire),
        ),
    ),
    "set_seat": (
        SetSeat,
        (("ref", _ident, _ref), ("seat", _ident, seat_of), ("ai", _ident, optional(_level))),
    ),
    "set_options": (
        SetOptions,
        (
            ("ref", _ident, _ref),
            ("hold_ms", _ident, _hold_ms),
            ("turn_ms", _ident, optional(_turn_ms)),
            ("silence_ms", _ident, _silence_ms),
            ("idle_ms", _ident, optional(_idle_ms)),
            ("watchers", _ident, _watchers),
        ),
    ),
    "start": (Start, (("ref", _ident, _ref),)),
    "ready": (
        Ready,
        (("ref", _ident, _ref), ("ready", _ident, lambda v: check_bool(v, "ready"))),
    ),
    "ping": (Ping, (("ref", _ident, _ref),)),
    "emote": (Emote, (("code", _ident, _emote),)),
    "alive": (Alive, (("ref", _ident, _ref),)),
    "kick": (Kick, (("ref", _ident, _ref), ("seat", _ident, seat_of))),
    "replace": (
        Replace,
        (("ref", _ident, _ref), ("seat", _ident, seat_of), ("ai", _ident, _level)),
    ),
    "leave": (Leave, (("ref", _ident, _ref),)),
    "draw": (Draw, (("ref", _ident, _ref),)),
    "contribute": (
        Contribute,
        (("ref", _ident, _ref), ("game", _ident, _seq), ("value", _ident, _contribution)),
    ),
    "sit": (Sit, (("ref", _ident, _ref),)),
    "pause": (
        Pause,
        (("ref", _ident, _ref), ("paused", _ident, lambda v: check_bool(v, "paused"))),
    ),
    "back_soon": (BackSoon, (("ref", _ident, _ref), ("on", _ident, lambda v: check_bool(v, "on")))),
}

HOST_MESSAGES: dict[str, Spec] = {
    "welcome": (
        Welcome,
        (
            ("version", _ident, _version),
            ("seat", _ident, seat_of),
            ("token", _ident, _token),
            ("room", room_to_wire, room_from_wire),
        ),
    ),
    "watching": (
        Watching,
        (("version", _ident, _version), ("room", room_to_wire, room_from_wire)),
    ),
    "room": (RoomUpdate, (("room", room_to_wire, room_from_wire),)),
    "snapshot": (
        Snapshot,
        (
            ("game", _ident, _seq),
            ("seq", _ident, _seq),
            ("view", view_to_wire, view_from_wire),
        ),
    ),
    "update": (
        Update,
        (
            ("game", _ident, _seq),
            ("seq", _ident, _seq),
            ("events", _events_to_wire, _events_from_wire),
            ("view", view_to_wire, view_from_wire),
        ),
    ),
    "watch_snapshot": (
        WatchSnapshot,
        (
            ("game", _ident, _seq),
            ("seq", _ident, _seq),
            ("view", public_view_to_wire, public_view_from_wire),
        ),
    ),
    "watch_update": (
        WatchUpdate,
        (
            ("game", _ident, _seq),
            ("seq", _ident, _seq),
            ("events", _events_to_wire, _events_from_wire),
            ("view", public_view_to_wire, public_view_from_wire),
        ),
    ),
    "ack": (Ack, (("ref", _ident, _ref), ("seq", _ident, optional(_seq)))),
    "rejected": (
        Rejected,
        (
            ("ref", _ident, _ref),
            ("reason", _ident, lambda v: check_code(v, "reason")),
            ("text", _ident, _text),
        ),
    ),
    "pong": (Pong, (("ref", _ident, _ref),)),
    "emoted": (Emoted, (("seat", _ident, seat_of), ("code", _ident, _emote))),
    "watcher_emoted": (WatcherEmoted, (("name", _ident, _name), ("code", _ident, _emote))),
    "heartbeat": (Heartbeat, (("ref", _ident, _ref),)),
    "commit": (
        Commit,
        (
            ("game", _ident, _seq),
            ("commitment", _ident, lambda v: _hex64(v, "commitment")),
            ("wait_ms", _ident, lambda v: check_int(v, 0, MAX_MS, "wait_ms")),
        ),
    ),
    "reveal": (
        Reveal,
        (
            ("game", _ident, _seq),
            ("secret", _ident, lambda v: _hex64(v, "secret")),
            ("contributions", _contributions_to_wire, _contributions_from_wire),
            ("seed", _ident, lambda v: check_int(v, 0, 2**63 - 1, "seed")),
            ("start", _ident, lambda v: check_int(v, 0, MAX_REF, "start")),
            ("actions", _log_to_wire, _log_from_wire),
            ("drawn", _ident, lambda v: check_bool(v, "drawn")),
            ("done", _ident, lambda v: check_bool(v, "done")),
        ),
    ),
    "goodbye": (
        Goodbye,
        (("code", _ident, lambda v: check_code(v, "code")), ("text", _ident, _text)),
    ),
}

_NAMES: dict[type[Any], tuple[str, Spec]] = {
    spec[0]: (name, spec)
    for table in (CLIENT_MESSAGES, HOST_MESSAGES)
    for name, spec in table.items()
}
_KEYS: dict[str, tuple[str, ...]] = {
    name: ("type", *(f[0] for f in spec[1]))
    for table in (CLIENT_MESSAGES, HOST_MESSAGES)
    for name, spec in table.items()
}


def to_wire(message: Message) -> dict[str, Any]:
    """The message as a plain map (what msgpack packs)."""
    name, (_, fields) = _NAMES[type(message)]
    data: dict[str, Any] = {"type": name}
    for field, enc, _ in fields:
        data[field] = enc(getattr(message, field))
    return data


def encode(message: Message) -> bytes:
    """The framed bytes of a message (length prefix included)."""
    return frame(msgpack.packb(to_wire(message), use_bin_type=True))


def _string_keyed(pairs: list[tuple[Any, Any]]) -> dict[str, Any]:
    """A decoded map's pairs as a dict: every key a string, none twice (``bad_message``)."""
    for key, _ in pairs:
        if type(key) is not str:
            raise bad("map keys must be strings")
    data = dict(pairs)
    if len(data) != len(pairs):
        raise bad("a map has the same key twice")
    return data


def unpack(payload: bytes, max_frame: int = MAX_FRAME) -> Any:
    """msgpack-decode one payload with every size limit set.

    ``ProtocolError(bad_frame)`` if it is not exactly one msgpack object; a map whose keys
    are not all strings, a key twice, or nesting deeper than msgpack decodes is well-formed
    msgpack but no message (``bad_message``). Floats, binary and extension values decode
    here and are refused as mistyped by the field that holds them (``bad_message`` too).
    """
    try:
        return msgpack.unpackb(
            payload,
            raw=False,
            strict_map_key=False,
            object_pairs_hook=_string_keyed,
            use_list=True,
            max_str_len=max_frame,
            max_bin_len=max_frame,
            max_array_len=max_frame,
            max_map_len=max_frame,
            max_ext_len=max_frame,
        )
    except msgpack.StackError:
        raise bad("the message is nested too deeply") from None
    except (msgpack.UnpackException, ValueError, TypeError):  # UnicodeDecodeError is a ValueError
        raise ProtocolError(BAD_FRAME, "the frame is not valid msgpack") from None


def from_wire(data: Any, table: dict[str, Spec]) -> Message:
    """Check a decoded map against ``table`` and build the message."""
    if type(data) is not dict or type(data.get("type")) is not str:
        raise bad("a message must be a map with a string 'type'")
    name = data["type"]
    spec = table.get(name)
    if spec is None:
        raise bad(f"unknown message type {name[:40]!r}")
    cls, fields = spec
    if cls is Hello:
        # A well-typed version is checked before the fields: another version may have others.
        version = _version(data.get("version"))
        if version != PROTOCOL_VERSION:
            raise ProtocolError(
                VERSION_MISMATCH,
                f"this host speaks protocol version {PROTOCOL_VERSION}, "
                f"the client speaks version {version}",
            )
    check_map(data, name, _KEYS[name])
    message: Message = cls(**{field: dec(data[field]) for field, _, dec in fields})
    return message


def decode_payload(payload: bytes, table: dict[str, Spec], max_frame: int = MAX_FRAME) -> Message:
    return from_wire(unpack(payload, max_frame), table)
