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

from dataclasses import dataclass
from typing import Any

from engine import Rules

from .codec import Family, Spec
from .endpoint import Endpoint
from .errors import BAD_MESSAGE, ProtocolError
from .fields import (
    check_address,
    check_level,
    check_name,
    check_ref,
    check_token,
    check_version,
    ident,
)
from .framing import MAX_FRAME
from .messages import PROTOCOL_VERSION, Alive, Goodbye, Heartbeat, Ping, Pong, Rejected
from .party_state import (
    MAX_COUNT,
    MAX_MINUTES,
    MAX_ROUNDS,
    MAX_TABLES,
    Party,
    length_of,
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
    check_str,
    one_of,
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
    for an AI seat; ``seat`` is theirs. ``web_port``: the table's WebSocket door on the
    same address (section 19), for a browser; None when the party serves no page."""

    round: int
    table: int
    address: str
    port: int
    token: str
    seat: int
    names: tuple[str | None, ...]
    web_port: int | None = None


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
            ("version", ident, check_version),
            ("name", ident, check_name),
            ("token", ident, optional(check_token)),
            ("role", ident, one_of(JOIN_ROLES, "join role")),
        ),
    ),
    "party_setup": (
        PartySetup,
        (
            ("ref", ident, check_ref),
            ("rules", requested_rules_to_wire, requested_rules_from_wire),
            ("rounds", ident, optional(lambda v: check_int(v, 1, MAX_ROUNDS, "rounds"))),
            ("minutes", ident, optional(lambda v: check_int(v, 1, MAX_MINUTES, "minutes"))),
            ("fill", ident, lambda v: check_bool(v, "fill")),
            ("ai", ident, check_level),
        ),
    ),
    "party_start": (PartyStart, (("ref", ident, check_ref),)),
    "party_leave": (PartyLeave, (("ref", ident, check_ref),)),
    "ping": (Ping, (("ref", ident, check_ref),)),
    "alive": (Alive, (("ref", ident, check_ref),)),
}

PARTY_HOST_MESSAGES: dict[str, Spec] = {
    "joined": (
        Joined,
        (
            ("version", ident, check_version),
            ("player", ident, optional(player_id)),
            ("token", ident, optional(check_token)),
            ("party", party_to_wire, party_from_wire),
        ),
    ),
    "party": (PartyUpdate, (("party", party_to_wire, party_from_wire),)),
    "party_table": (
        PartyTable,
        (
            ("round", ident, lambda v: check_int(v, 1, MAX_COUNT, "round")),
            ("table", ident, lambda v: check_int(v, 0, MAX_TABLES - 1, "table")),
            ("address", ident, check_address),
            ("port", ident, lambda v: check_int(v, 1, 65535, "port")),
            ("token", ident, check_token),
            ("seat", ident, seat_of),
            ("names", list, _names_from_wire),
            ("web_port", ident, optional(lambda v: check_int(v, 1, 65535, "web_port"))),
        ),
    ),
    "ack": (PartyAck, (("ref", ident, check_ref),)),
    "rejected": (
        Rejected,
        (
            ("ref", ident, check_ref),
            ("reason", ident, lambda v: check_code(v, "reason")),
            ("text", ident, lambda v: check_str(v, "text", 200)),
        ),
    ),
    "pong": (Pong, (("ref", ident, check_ref),)),
    "heartbeat": (Heartbeat, (("ref", ident, check_ref),)),
    "goodbye": (
        Goodbye,
        (
            ("code", ident, lambda v: check_code(v, "code")),
            ("text", ident, lambda v: check_str(v, "text", 200)),
        ),
    ),
}

PARTY = Family(
    PARTY_CLIENT_MESSAGES,
    PARTY_HOST_MESSAGES,
    greeting=Join,
    version=PROTOCOL_VERSION,
    speaker="party",
)


def party_message_to_wire(message: PartyMessage) -> dict[str, Any]:
    """The message as a plain map (what msgpack packs)."""
    return PARTY.to_wire(message)


def party_encode(message: PartyMessage) -> bytes:
    """The framed bytes of a party message."""
    return PARTY.encode(message)


def party_message_from_wire(data: Any, table: dict[str, Spec]) -> PartyMessage:
    """Check a decoded map against ``table`` and build the message."""
    message: PartyMessage = PARTY.from_wire(data, table)
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
