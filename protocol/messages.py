"""A table's messages, and the one explicit table that maps a type name to a class and
fields (``CLIENT_MESSAGES``, ``HOST_MESSAGES``: the family ``TABLE`` of ``protocol.codec``).

A message on the wire is a msgpack map: ``{"type": NAME, field: value, ...}`` with exactly
the fields of its type. ``encode(message)`` gives the framed bytes; ``decode_payload``
checks every field (type and range) and builds the message, or raises ``ProtocolError``.
The room they carry is ``protocol.room``'s; the fields a party's messages share,
``protocol.fields``'.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import Action, Event, PublicView, SeatView

from .codec import Family, Spec, unpack
from .fields import (
    MAX_PASSWORD,
    MAX_REF,
    MAX_TEXT,
    check_hex64,
    check_level,
    check_name,
    check_reason,
    check_ref,
    check_seq,
    check_text,
    check_token,
    check_version,
    ident,
)
from .framing import MAX_FRAME
from .requests import (
    Act,
    Alive,
    BackSoon,
    ClientMessage,
    Contribute,
    Draw,
    Emote,
    Hello,
    Kick,
    Leave,
    Pause,
    Ping,
    Ready,
    Replace,
    SetOptions,
    SetRules,
    SetSeat,
    Sit,
    Start,
)
from .room import (
    LOOKS,
    MAX_MS,
    MAX_SILENCE_MS,
    MAX_WATCHERS,
    MIN_SILENCE_MS,
    SILENCE_MS,
    WATCHERS,
    Room,
    SeatInfo,
    check_hold_ms,
    check_idle_ms,
    check_look,
    check_silence_ms,
    check_turn_ms,
    check_watchers,
    room_from_wire,
    room_to_wire,
)
from .wire import (
    MAX_SEATS,
    action_from_wire,
    action_to_wire,
    bad,
    check_bool,
    check_code,
    check_int,
    check_list,
    check_str,
    event_from_wire,
    event_to_wire,
    optional,
    public_view_from_wire,
    public_view_to_wire,
    requested_rules_from_wire,
    requested_rules_to_wire,
    seat_of,
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
# ``SeatInfo.back_soon``): section 18; 6: who runs the room (``Room.run_by``), the party's
# door and heartbeat, the web door (section 19)
PROTOCOL_VERSION = 6
MAX_EVENTS = 256
EMOTES = ("nice", "oops", "hurry", "well_played", "ha")  # the quick reactions, by code
MAX_REVEAL = 512  # actions in one ``reveal`` message (a longer game takes several)
HELLO_ROLES = ("play", "watch")  # a hello asks for a seat, or to watch the table


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


def _role(value: Any) -> str:
    if type(value) is not str or value not in HELLO_ROLES:
        raise bad("hello role must be play or watch")
    return value


def _events_to_wire(events: tuple[Event, ...]) -> list[dict[str, Any]]:
    return [event_to_wire(e) for e in events]


def _events_from_wire(value: Any) -> tuple[Event, ...]:
    return tuple(event_from_wire(e) for e in check_list(value, "events", MAX_EVENTS))


def _emote(value: Any) -> str:
    if type(value) is not str or value not in EMOTES:
        raise bad(f"emote code must be one of {', '.join(EMOTES)}")
    return value


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
        pairs.append((seat_of(pair[0]), check_hex64(pair[1], "contribution")))
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

CLIENT_MESSAGES: dict[str, Spec] = {
    "hello": (
        Hello,
        (
            ("version", ident, check_version),
            ("name", ident, check_name),
            ("password", ident, optional(lambda v: check_str(v, "password", MAX_PASSWORD))),
            ("token", ident, optional(check_token)),
            ("role", ident, _role),
            ("look", ident, optional(check_look)),
        ),
    ),
    "act": (Act, (("ref", ident, check_ref), ("action", action_to_wire, action_from_wire))),
    "set_rules": (
        SetRules,
        (
            ("ref", ident, check_ref),
            ("rules", requested_rules_to_wire, requested_rules_from_wire),
        ),
    ),
    "set_seat": (
        SetSeat,
        (("ref", ident, check_ref), ("seat", ident, seat_of), ("ai", ident, optional(check_level))),
    ),
    "set_options": (
        SetOptions,
        (
            ("ref", ident, check_ref),
            ("hold_ms", ident, check_hold_ms),
            ("turn_ms", ident, optional(check_turn_ms)),
            ("silence_ms", ident, check_silence_ms),
            ("idle_ms", ident, optional(check_idle_ms)),
            ("watchers", ident, check_watchers),
        ),
    ),
    "start": (Start, (("ref", ident, check_ref),)),
    "ready": (
        Ready,
        (("ref", ident, check_ref), ("ready", ident, lambda v: check_bool(v, "ready"))),
    ),
    "ping": (Ping, (("ref", ident, check_ref),)),
    "emote": (Emote, (("code", ident, _emote),)),
    "alive": (Alive, (("ref", ident, check_ref),)),
    "kick": (Kick, (("ref", ident, check_ref), ("seat", ident, seat_of))),
    "replace": (
        Replace,
        (("ref", ident, check_ref), ("seat", ident, seat_of), ("ai", ident, check_level)),
    ),
    "leave": (Leave, (("ref", ident, check_ref),)),
    "draw": (Draw, (("ref", ident, check_ref),)),
    "contribute": (
        Contribute,
        (("ref", ident, check_ref), ("game", ident, check_seq), ("value", ident, _contribution)),
    ),
    "sit": (Sit, (("ref", ident, check_ref),)),
    "pause": (
        Pause,
        (("ref", ident, check_ref), ("paused", ident, lambda v: check_bool(v, "paused"))),
    ),
    "back_soon": (
        BackSoon,
        (("ref", ident, check_ref), ("on", ident, lambda v: check_bool(v, "on"))),
    ),
}

HOST_MESSAGES: dict[str, Spec] = {
    "welcome": (
        Welcome,
        (
            ("version", ident, check_version),
            ("seat", ident, seat_of),
            ("token", ident, check_token),
            ("room", room_to_wire, room_from_wire),
        ),
    ),
    "watching": (
        Watching,
        (("version", ident, check_version), ("room", room_to_wire, room_from_wire)),
    ),
    "room": (RoomUpdate, (("room", room_to_wire, room_from_wire),)),
    "snapshot": (
        Snapshot,
        (
            ("game", ident, check_seq),
            ("seq", ident, check_seq),
            ("view", view_to_wire, view_from_wire),
        ),
    ),
    "update": (
        Update,
        (
            ("game", ident, check_seq),
            ("seq", ident, check_seq),
            ("events", _events_to_wire, _events_from_wire),
            ("view", view_to_wire, view_from_wire),
        ),
    ),
    "watch_snapshot": (
        WatchSnapshot,
        (
            ("game", ident, check_seq),
            ("seq", ident, check_seq),
            ("view", public_view_to_wire, public_view_from_wire),
        ),
    ),
    "watch_update": (
        WatchUpdate,
        (
            ("game", ident, check_seq),
            ("seq", ident, check_seq),
            ("events", _events_to_wire, _events_from_wire),
            ("view", public_view_to_wire, public_view_from_wire),
        ),
    ),
    "ack": (Ack, (("ref", ident, check_ref), ("seq", ident, optional(check_seq)))),
    "rejected": (
        Rejected,
        (
            ("ref", ident, check_ref),
            ("reason", ident, check_reason),
            ("text", ident, check_text),
        ),
    ),
    "pong": (Pong, (("ref", ident, check_ref),)),
    "emoted": (Emoted, (("seat", ident, seat_of), ("code", ident, _emote))),
    "watcher_emoted": (WatcherEmoted, (("name", ident, check_name), ("code", ident, _emote))),
    "heartbeat": (Heartbeat, (("ref", ident, check_ref),)),
    "commit": (
        Commit,
        (
            ("game", ident, check_seq),
            ("commitment", ident, lambda v: check_hex64(v, "commitment")),
            ("wait_ms", ident, lambda v: check_int(v, 0, MAX_MS, "wait_ms")),
        ),
    ),
    "reveal": (
        Reveal,
        (
            ("game", ident, check_seq),
            ("secret", ident, lambda v: check_hex64(v, "secret")),
            ("contributions", _contributions_to_wire, _contributions_from_wire),
            ("seed", ident, lambda v: check_int(v, 0, 2**63 - 1, "seed")),
            ("start", ident, lambda v: check_int(v, 0, MAX_REF, "start")),
            ("actions", _log_to_wire, _log_from_wire),
            ("drawn", ident, lambda v: check_bool(v, "drawn")),
            ("done", ident, lambda v: check_bool(v, "done")),
        ),
    ),
    "goodbye": (
        Goodbye,
        (("code", ident, lambda v: check_code(v, "code")), ("text", ident, check_text)),
    ),
}

TABLE = Family(
    CLIENT_MESSAGES, HOST_MESSAGES, greeting=Hello, version=PROTOCOL_VERSION, speaker="host"
)


def to_wire(message: Message) -> dict[str, Any]:
    """The message as a plain map (what msgpack packs)."""
    return TABLE.to_wire(message)


def encode(message: Message) -> bytes:
    """The framed bytes of a message (length prefix included)."""
    return TABLE.encode(message)


def from_wire(data: Any, table: dict[str, Spec]) -> Message:
    """Check a decoded map against ``table`` (``CLIENT_MESSAGES`` or ``HOST_MESSAGES``)
    and build the message."""
    message: Message = TABLE.from_wire(data, table)
    return message


def decode_payload(payload: bytes, table: dict[str, Spec], max_frame: int = MAX_FRAME) -> Message:
    return from_wire(unpack(payload, max_frame), table)
