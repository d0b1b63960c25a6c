"""What a client sends a table's host: the requests of docs/protocol.md section 4 (the
greeting, the actions, the room commands, the fair deal's contribution, liveness), as
frozen values. Their wire forms are ``protocol.messages``' tables."""

from __future__ import annotations

from dataclasses import dataclass

from engine import Action, Rules

from .room import SILENCE_MS, WATCHERS
from .wire import UnplayableRules

__all__ = [
    "Act",
    "Alive",
    "BackSoon",
    "ClientMessage",
    "Contribute",
    "Draw",
    "Emote",
    "Hello",
    "Kick",
    "Leave",
    "Pause",
    "Ping",
    "Ready",
    "Replace",
    "SetOptions",
    "SetRules",
    "SetSeat",
    "Sit",
    "Start",
]


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
