"""A party's own messages (docs/protocol.md section 17), sans-I/O like ``messages``.

A party host listens on a port of its own; its players, its boards and bots speak these
messages there, and play each round at a table of the ordinary protocol (sections 1-16)
that the party tells them of (``party_table``). Keeping the party on its own port keeps
every table exactly today's table: a bot that plays a table plays a party's.

The same framing and the same strict decoding as the tables' (``framing``, ``unpack``):
every message a map with exactly its fields, every field checked for type and range, an
explicit table of names; anything else is ``ProtocolError`` (``bad_message``). The party's
state (``Party``) is sent whole whenever it changes: 60 players and 30 tables fit well
inside a frame (about 7 KiB, measured by tests/protocol/test_party_messages.py), and a client then
never has to merge deltas.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgpack  # type: ignore[import-untyped]

from engine import Rules

from .endpoint import Endpoint
from .errors import BAD_MESSAGE, VERSION_MISMATCH, ProtocolError
from .framing import MAX_FRAME, frame
from .messages import PROTOCOL_VERSION, Alive, Goodbye, Heartbeat, Ping, Pong, Rejected
from .party_state import (
    MAX_COUNT,
    MAX_MINUTES,
    MAX_ROUNDS,
    MAX_TABLES,
    Party,
    check_level,
    check_name,
    check_token,
    length_of,
    one_of,
    party_from_wire,
    party_to_wire,
    player_id,
)
from .wire import (
    MAX_SEATS,
    UnplayableRules,
    bad,
    check_bool,
    check_code,
    check_int,
    check_list,
    check_map,
    check_str,
    optional,
    requested_rules_from_wire,
    requested_rules_to_wire,
    seat_of,
)

__all__ = [
    "JOIN_ROLES",
    "PARTY_CLIENT_MESSAGES",
    "PARTY_HOST_MESSAGES",
    "Join",
    "Joined",
    "PartyAck",
    "PartyConnection",
    "PartyLeave",
    "PartyMessage",
    "PartySetup",
    "PartyStart",
    "PartyTable",
    "PartyUpdate",
    "party_encode",
    "party_message_from_wire",
    "party_message_to_wire",
]

JOIN_ROLES = ("play", "board")  # join to play, or to watch the party (a board)


# --- client -> party host -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Join:
    """The first message: ``role`` "play" joins the party as ``name`` (``token``: a
    previous ``joined`` gave it, to come back as that player), "board" watches it."""

    version: int
    name: str
    token: str | None = None
    role: str = "play"


@dataclass(frozen=True, slots=True)
class PartySetup:
    """The organiser sets the night up (while the party gathers)."""

    ref: int
    rules: Rules | UnplayableRules
    rounds: int | None
    minutes: int | None
    fill: bool
    ai: str


@dataclass(frozen=True, slots=True)
class PartyStart:
    """The organiser starts the first round, or the next one before its break is over."""

    ref: int


@dataclass(frozen=True, slots=True)
class PartyLeave:
    """The player leaves the party: off the next round's seating, standing kept."""

    ref: int


# --- party host -> client -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Joined:
    """The answer to ``join``: the player's id and token (None for a board)."""

    version: int
    player: int | None
    token: str | None
    party: Party


@dataclass(frozen=True, slots=True)
class PartyUpdate:
    party: Party


@dataclass(frozen=True, slots=True)
class PartyTable:
    """The player's table of this round: connect to ``address``:``port`` and say
    ``hello`` with ``token`` (a seat held for them). ``names``: every seat's player, None
    for an AI seat; ``seat`` is theirs."""

    round: int
    table: int
    address: str
    port: int
    token: str
    seat: int
    names: tuple[str | None, ...]


@dataclass(frozen=True, slots=True)
class PartyAck:
    ref: int


PartyMessage = (
    Join
    | PartySetup
    | PartyStart
    | PartyLeave
    | Ping
    | Alive
    | Joined
    | PartyUpdate
    | PartyTable
    | PartyAck
    | Rejected
    | Pong
    | Heartbeat
    | Goodbye
)


# --- fields ---------------------------------------------------------------------------

Enc = Callable[[Any], Any]
Dec = Callable[[Any], Any]
Spec = tuple[type[Any], tuple[tuple[str, Enc, Dec], ...]]


def _ident(value: Any) -> Any:
    return value


def _ref(value: Any) -> int:
    return check_int(value, 0, MAX_COUNT, "ref")


def _count(what: str) -> Dec:
    return lambda value: check_int(value, 0, MAX_COUNT, what)


def _address(value: Any) -> str:
    address = check_str(value, "address", 253, 1)
    if not all(c.isalnum() or c in ".:-_%" for c in address):
        raise bad("address must be a host name or an IP address")
    return address


def _names_from_wire(value: Any) -> tuple[str | None, ...]:
    names = tuple(optional(check_name)(n) for n in check_list(value, "names", MAX_SEATS))
    if len(names) < 2:
        raise bad("a table has 2 to 6 seats")
    return names


# The explicit tables: type name -> (class, ((field, encode, decode), ...)).
PARTY_CLIENT_MESSAGES: dict[str, Spec] = {
    "join": (
        Join,
        (
            ("version", _ident, _count("version")),
            ("name", _ident, check_name),
            ("token", _ident, optional(check_token)),
            ("role", _ident, one_of(JOIN_ROLES, "join role")),
        ),
    ),
    "party_setup": (
        PartySetup,
        (
            ("ref", _ident, _ref),
            ("rules", requested_rules_to_wire, requested_rules_from_wire),
            ("rounds", _ident, optional(lambda v: check_int(v, 1, MAX_ROUNDS, "rounds"))),
            ("minutes", _ident, optional(lambda v: check_int(v, 1, MAX_MINUTES, "minutes"))),
            ("fill", _ident, lambda v: check_bool(v, "fill")),
            ("ai", _ident, check_level),
        ),
    ),
    "party_start": (PartyStart, (("ref", _ident, _ref),)),
    "party_leave": (PartyLeave, (("ref", _ident, _ref),)),
    "ping": (Ping, (("ref", _ident, _ref),)),
    "alive": (Alive, (("ref", _ident, _ref),)),
}

PARTY_HOST_MESSAGES: dict[str, Spec] = {
    "joined": (
        Joined,
        (
            ("version", _ident, _count("version")),
            ("player", _ident, optional(player_id)),
            ("token", _ident, optional(check_token)),
            ("party", party_to_wire, party_from_wire),
        ),
    ),
    "party": (PartyUpdate, (("party", party_to_wire, party_from_wire),)),
    "party_table": (
        PartyTable,
        (
            ("round", _ident, lambda v: check_int(v, 1, MAX_COUNT, "round")),
            ("table", _ident, lambda v: check_int(v, 0, MAX_TABLES - 1, "table")),
            ("address", _ident, _address),
            ("port", _ident, lambda v: check_int(v, 1, 65535, "port")),
            ("token", _ident, check_token),
            ("seat", _ident, seat_of),
            ("names", list, _names_from_wire),
        ),
    ),
    "ack": (PartyAck, (("ref", _ident, _ref),)),
    "rejected": (
        Rejected,
        (
            ("ref", _ident, _ref),
            ("reason", _ident, lambda v: check_code(v, "reason")),
            ("text", _ident, lambda v: check_str(v, "text", 200)),
        ),
    ),
    "pong": (Pong, (("ref", _ident, _ref),)),
    "heartbeat": (Heartbeat, (("ref", _ident, _ref),)),
    "goodbye": (
        Goodbye,
        (
            ("code", _ident, lambda v: check_code(v, "code")),
            ("text", _ident, lambda v: check_str(v, "text", 200)),
        ),
    ),
}

_NAMES: dict[str, dict[type[Any], tuple[str, Spec]]] = {
    side: {spec[0]: (name, spec) for name, spec in table.items()}
    for side, table in (("client", PARTY_CLIENT_MESSAGES), ("host", PARTY_HOST_MESSAGES))
}


def _spec_of(message: PartyMessage) -> tuple[str, Spec]:
    for side in ("client", "host"):
        found = _NAMES[side].get(type(message))
        if found is not None:
            return found
    raise TypeError(f"{type(message).__name__} is no party message")


def party_message_to_wire(message: PartyMessage) -> dict[str, Any]:
    """The message as a plain map (what msgpack packs)."""
    name, (_, fields) = _spec_of(message)
    data: dict[str, Any] = {"type": name}
    for field, enc, _ in fields:
        data[field] = enc(getattr(message, field))
    return data


def party_encode(message: PartyMessage) -> bytes:
    """The framed bytes of a party message."""
    return frame(msgpack.packb(party_message_to_wire(message), use_bin_type=True))


def party_message_from_wire(data: Any, table: dict[str, Spec]) -> PartyMessage:
    """Check a decoded map against ``table`` and build the message."""
    if type(data) is not dict or type(data.get("type")) is not str:
        raise bad("a message must be a map with a string 'type'")
    name = data["type"]
    spec = table.get(name)
    if spec is None:
        raise bad(f"unknown message type {name[:40]!r}")
    cls, fields = spec
    if cls is Join:  # a well-typed version first: another version may have other fields
        version = check_int(data.get("version"), 0, MAX_COUNT, "version")
        if version != PROTOCOL_VERSION:
            raise ProtocolError(
                VERSION_MISMATCH,
                f"this party speaks protocol version {PROTOCOL_VERSION}, "
                f"the client speaks version {version}",
            )
    check_map(data, name, ("type", *(f[0] for f in fields)))
    message: PartyMessage = cls(**{field: dec(data[field]) for field, _, dec in fields})
    if isinstance(message, PartySetup):
        length_of((message.rounds, message.minutes))
    return message


class PartyConnection(Endpoint[PartyMessage]):
    """One end of a party connection, as ``protocol.Connection`` is of a table's: the
    party host reads client messages (``join`` first, and once), a client reads host
    messages (``joined`` or ``goodbye`` first). Errors stick."""

    def __init__(self, host: bool, max_frame: int = MAX_FRAME) -> None:
        super().__init__(max_frame)
        self.host = host
        self._incoming = PARTY_CLIENT_MESSAGES if host else PARTY_HOST_MESSAGES
        outgoing = PARTY_HOST_MESSAGES if host else PARTY_CLIENT_MESSAGES
        self._sends = frozenset(cls for cls, _ in outgoing.values())
        self._greeted = False

    def _decode(self, data: Any) -> PartyMessage:
        return party_message_from_wire(data, self._incoming)

    def _check_order(self, message: PartyMessage) -> None:
        first = (Join,) if self.host else (Joined, Goodbye)
        if not self._greeted and not isinstance(message, first):
            expected = "join" if self.host else "joined or goodbye"
            raise ProtocolError(BAD_MESSAGE, f"the first message must be {expected}")
        if self._greeted and isinstance(message, Join | Joined):
            raise ProtocolError(BAD_MESSAGE, f"a second {'join' if self.host else 'joined'}")
        self._greeted = True

    def send(self, message: PartyMessage) -> bytes:
        """The framed bytes of ``message`` (which must be one this side may send)."""
        if type(message) not in self._sends:
            side = "party host" if self.host else "party client"
            raise TypeError(f"a {side} does not send {type(message).__name__}")
        return party_encode(message)
