"""The room's rules, asked by the host and by every client of the same room.

Like the engine's ``check`` for actions, ``room_refusal(room, seat, message, known_level)``
returns the code the host refuses a room command with, or None when the host carries it
out; ``start_refusal`` and ``sit_refusal`` answer the two questions a room screen asks
of its buttons (may our owner start? may we, watching, take a seat?), and ``all_seated``
and ``waiting_for`` say what a start still waits for. They read only the ``Room`` every
seat is shown and the asking seat, so the host (``host.lobby``) and the window
(``client.screens.room``) ask the very same questions and can never disagree.

- ``set_rules``, ``set_seat``, ``set_options``, ``start``: the owner, in the lobby (and a
  start once every seat is taken and every other player is ready).
- ``ready``: anyone seated, in the lobby.
- ``kick``: the owner, any seat, at any time: whoever sits there goes (in a game only a
  player can go: an AI seat is not emptied mid-game). The owner's own seat: the owner leaves.
- ``replace``: the owner gives any seat to an AI of a level the host has, at any time
  (the owner's own too: the owner leaves and an AI plays on).
- ``leave``: anyone seated, at any time.
- ``draw``: the owner, while a game is played.
- ``sit``: a watcher, in the lobby, while a seat is open.
- At a party's table (``room.run_by`` "party") the party runs the room: nobody's
  ``set_rules``, ``set_seat``, ``set_options``, ``start``, ``kick``, ``replace`` or
  ``draw`` (``party_table``), as a party's clock is everyone's: no ``pause`` either.
- ``pause`` (``pause_refusal``): a seated player alone with the AIs, in a game.

``Refusal`` is every code the host refuses a request with of its own (docs/protocol.md
section 6 lists the same; a test holds them together), the engine's ``Reason`` the rest.
Which AI levels a host has is the host's to say (``known_level``).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any

from .messages import (
    Draw,
    Kick,
    Leave,
    Ready,
    Replace,
    Room,
    SetOptions,
    SetRules,
    SetSeat,
    Start,
)
from .wire import UnplayableRules

__all__ = [
    "ROOM_COMMANDS",
    "Refusal",
    "RoomCommand",
    "all_seated",
    "pause_refusal",
    "room_refusal",
    "sit_refusal",
    "start_refusal",
    "waiting_for",
]

RoomCommand = SetRules | SetSeat | SetOptions | Start | Ready | Kick | Replace | Leave | Draw
ROOM_COMMANDS = (SetRules, SetSeat, SetOptions, Start, Ready, Kick, Replace, Leave, Draw)
Levels = Callable[[str], bool]  # whether the host has an AI of a level


class Refusal(StrEnum):
    """A refusal of the host's own (not a game action's). ``refusal.value`` is the stable
    code sent as ``rejected.reason``; ``refusal.text`` the English text sent with it."""

    NOT_OWNER = "not_owner"
    GAME_RUNNING = "game_running"
    NO_GAME = "no_game"
    SEATS_EMPTY = "seats_empty"
    SEAT_TAKEN = "seat_taken"
    NO_SUCH_SEAT = "no_such_seat"
    UNKNOWN_LEVEL = "unknown_level"
    NOT_READY = "not_ready"
    BAD_RULES = "bad_rules"
    BAD_CONTRIBUTION = "bad_contribution"
    CONTRIBUTED = "contributed"
    NO_COMMITMENT = "no_commitment"
    WATCHING = "watching"
    NO_OPEN_SEAT = "no_open_seat"
    SEATED = "seated"
    NOT_ALONE = "not_alone"
    PAUSED = "paused"
    PARTY_TABLE = "party_table"

    @property
    def text(self) -> str:
        return _TEXTS[self]


_TEXTS = {
    Refusal.NOT_OWNER: "Only the owner of the room can do that.",
    Refusal.GAME_RUNNING: "Not while a game is being played.",
    Refusal.NO_GAME: "No game is being played.",
    Refusal.SEATS_EMPTY: "Every seat must be taken first.",
    Refusal.SEAT_TAKEN: "A player sits there.",
    Refusal.NO_SUCH_SEAT: "There is no such seat.",
    Refusal.UNKNOWN_LEVEL: "There is no such AI level.",
    Refusal.NOT_READY: "Every other player must be ready first.",
    Refusal.BAD_RULES: "Those rules cannot be played.",
    Refusal.BAD_CONTRIBUTION: "A contribution must be 64 lower-case hex digits (32 bytes).",
    Refusal.CONTRIBUTED: "You already contributed to this deal.",
    Refusal.NO_COMMITMENT: "No deal is waiting for your contribution.",
    Refusal.WATCHING: "A watcher cannot do that: take a seat that is open in the lobby first.",
    Refusal.NO_OPEN_SEAT: "No seat is open.",
    Refusal.SEATED: "You have a seat at this table already.",
    Refusal.NOT_ALONE: "Another player sits at this table: the game cannot wait for you.",
    Refusal.PAUSED: "The game is paused: resume it first.",
    Refusal.PARTY_TABLE: "At a party's table the party runs the room.",
}

# what the party does for the owner at its tables
PARTY_RUNS = (SetRules, SetSeat, SetOptions, Start, Kick, Replace, Draw)


def all_seated(room: Room) -> bool:
    """Every seat is taken (by a player or a host AI)."""
    return all(s.kind != "empty" for s in room.seats)


def waiting_for(room: Room) -> list[int]:
    """The seats the owner's start waits for: every other human not marked ready."""
    return [
        i for i, s in enumerate(room.seats) if s.kind == "human" and i != room.owner and not s.ready
    ]


def start_refusal(room: Room, seat: int) -> Refusal | None:
    """Why ``seat``'s start is refused, or None: the game starts."""
    if room.run_by == "party":
        return Refusal.PARTY_TABLE
    refused = _owner_in_lobby(room, seat)
    if refused is not None:
        return refused
    if not all_seated(room):
        return Refusal.SEATS_EMPTY
    if waiting_for(room):  # the owner's start is the owner's own readiness
        return Refusal.NOT_READY
    return None


def sit_refusal(room: Room) -> Refusal | None:
    """Why a watcher's ``sit`` is refused, or None: the watcher takes the first open seat."""
    if room.status == "playing":
        return Refusal.GAME_RUNNING
    if all_seated(room):
        return Refusal.NO_OPEN_SEAT
    return None


def room_refusal(
    room: Room, seat: int, message: RoomCommand, known_level: Levels
) -> Refusal | None:
    """Why ``seat`` may not send ``message`` to a host showing ``room``, or None;
    ``known_level`` says whether the host has an AI of a level."""
    if room.run_by == "party" and isinstance(message, PARTY_RUNS):
        return Refusal.PARTY_TABLE
    return _CHECKS[type(message)](room, seat, message, known_level)


def pause_refusal(room: Room, seat: int) -> Refusal | None:
    """Why ``seat``'s pause is refused, or None: the game's clock stops. Only in a game,
    never at a party's table (its clock is everyone's), and only by the table's one human
    (every other seat an AI's or empty)."""
    if room.status != "playing":
        return Refusal.NO_GAME
    if room.run_by == "party":
        return Refusal.PARTY_TABLE
    others = (s for i, s in enumerate(room.seats) if i != seat)
    return None if all(s.kind != "human" for s in others) else Refusal.NOT_ALONE


def _owner_in_lobby(room: Room, seat: int) -> Refusal | None:
    if seat != room.owner:
        return Refusal.NOT_OWNER
    if room.status == "playing":
        return Refusal.GAME_RUNNING
    return None


def _set_rules(room: Room, seat: int, message: SetRules, known: Levels) -> Refusal | None:
    refused = _owner_in_lobby(room, seat)
    if refused is not None:
        return refused
    if isinstance(message.rules, UnplayableRules):  # the room keeps playable rules only
        return Refusal.BAD_RULES
    if any(s.kind == "human" for s in room.seats[message.rules.players :]):
        return Refusal.SEAT_TAKEN
    return None


def _set_seat(room: Room, seat: int, message: SetSeat, known: Levels) -> Refusal | None:
    refused = _owner_in_lobby(room, seat)
    if refused is not None:
        return refused
    if message.seat >= len(room.seats):
        return Refusal.NO_SUCH_SEAT
    if room.seats[message.seat].kind == "human":
        return Refusal.SEAT_TAKEN  # (a player's seat goes to an AI by ``replace``)
    if message.ai is not None and not known(message.ai):
        return Refusal.UNKNOWN_LEVEL
    return None


def _set_options(room: Room, seat: int, message: SetOptions, known: Levels) -> Refusal | None:
    return _owner_in_lobby(room, seat)


def _start(room: Room, seat: int, message: Start, known: Levels) -> Refusal | None:
    return start_refusal(room, seat)


def _ready(room: Room, seat: int, message: Ready, known: Levels) -> Refusal | None:
    return Refusal.GAME_RUNNING if room.status == "playing" else None


def _kick(room: Room, seat: int, message: Kick, known: Levels) -> Refusal | None:
    if seat != room.owner:
        return Refusal.NOT_OWNER
    if message.seat >= len(room.seats):
        return Refusal.NO_SUCH_SEAT
    if room.status == "playing" and room.seats[message.seat].kind != "human":
        return Refusal.GAME_RUNNING  # an AI seat cannot be emptied during a game
    return None


def _replace(room: Room, seat: int, message: Replace, known: Levels) -> Refusal | None:
    if seat != room.owner:
        return Refusal.NOT_OWNER
    if message.seat >= len(room.seats):
        return Refusal.NO_SUCH_SEAT
    return None if known(message.ai) else Refusal.UNKNOWN_LEVEL


def _leave(room: Room, seat: int, message: Leave, known: Levels) -> Refusal | None:
    return None  # anyone may leave, at any time


def _draw(room: Room, seat: int, message: Draw, known: Levels) -> Refusal | None:
    if seat != room.owner:
        return Refusal.NOT_OWNER
    return None if room.status == "playing" else Refusal.NO_GAME


_CHECKS: dict[type[Any], Callable[[Room, int, Any, Levels], Refusal | None]] = {
    SetRules: _set_rules,
    SetSeat: _set_seat,
    SetOptions: _set_options,
    Start: _start,
    Ready: _ready,
    Kick: _kick,
    Replace: _replace,
    Leave: _leave,
    Draw: _draw,
}
