"""The room's rules as pure checks: who may ask the table for what, and why not.

Like the engine's ``check`` for actions, ``check(room, seat, message)`` returns the code
the table refuses a room command with, or None when the table carries it out.

- ``set_rules``, ``set_seat``, ``set_options``, ``start``: the owner, in the lobby (and a
  start once every seat is taken and every other player is ready).
- ``ready``: anyone seated, in the lobby.
- ``kick``: the owner, any seat, at any time: whoever sits there goes (in a game only a
  player can go: an AI seat is not emptied mid-game). The owner's own seat: the owner leaves.
- ``replace``: the owner gives any seat to an AI of a level this host has, at any time
  (the owner's own too: the owner leaves and an AI plays on).
- ``leave``: anyone seated, at any time.
- ``draw``: the owner, while a game is played. The checks
read only the room every seat is shown (``protocol.Room``) and the asking seat, so a
client can ask the same questions of its own room (to dim the owner's buttons, say) and
can never disagree with the host. ``refusal_text`` is the English text sent with a code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import Rules
from engine.ai import LEVELS, make_bot
from protocol import (
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
    UnplayableRules,
)

__all__ = ["COMMANDS", "REFUSALS", "check", "known_level", "refusal_text", "waiting"]

Command = SetRules | SetSeat | SetOptions | Start | Ready | Kick | Replace | Leave | Draw
COMMANDS = (SetRules, SetSeat, SetOptions, Start, Ready, Kick, Replace, Leave, Draw)

REFUSALS = {
    "not_owner": "Only the owner of the room can do that.",
    "game_running": "Not while a game is being played.",
    "no_game": "No game is being played.",
    "seats_empty": "Every seat must be taken first.",
    "seat_taken": "A player sits there.",
    "no_such_seat": "There is no such seat.",
    "unknown_level": "There is no such AI level.",
    "not_ready": "Every other player must be ready first.",
    "bad_rules": "Those rules cannot be played.",
    "bad_contribution": "A contribution must be 64 lower-case hex digits (32 bytes).",
    "contributed": "You already contributed to this deal.",
    "no_commitment": "No deal is waiting for your contribution.",
    "watching": "A watcher cannot do that: take a seat that is open in the lobby first.",
    "no_open_seat": "No seat is open.",
}


def known_level(level: str) -> bool:
    """Whether this host has an AI of ``level``."""
    try:
        make_bot(level, 0, Rules(), 0)
    except ValueError:
        return False
    return True


def waiting(room: Room) -> list[int]:
    """The seats the owner's start waits for: every other human not marked ready."""
    return [
        i for i, s in enumerate(room.seats) if s.kind == "human" and i != room.owner and not s.ready
    ]


def _owner_in_lobby(room: Room, seat: int) -> str | None:
    if seat != room.owner:
        return "not_owner"
    if room.status == "playing":
        return "game_running"
    return None


def _set_rules(room: Room, seat: int, message: SetRules) -> str | None:
    refused = _owner_in_lobby(room, seat)
    if refused is not None:
        return refused
    if isinstance(message.rules, UnplayableRules):  # the room keeps playable rules only
        return "bad_rules"
    if any(s.kind == "human" for s in room.seats[message.rules.players :]):
        return "seat_taken"
    return None


def _set_seat(room: Room, seat: int, message: SetSeat) -> str | None:
    refused = _owner_in_lobby(room, seat)
    if refused is not None:
        return refused
    if message.seat >= len(room.seats):
        return "no_such_seat"
    if room.seats[message.seat].kind == "human":
        return "seat_taken"  # (a player's seat goes to an AI by ``replace``)
    if message.ai is not None and not known_level(message.ai):
        return "unknown_level"
    return None


def _set_options(room: Room, seat: int, message: SetOptions) -> str | None:
    return _owner_in_lobby(room, seat)


def _start(room: Room, seat: int, message: Start) -> str | None:
    refused = _owner_in_lobby(room, seat)
    if refused is not None:
        return refused
    if any(s.kind == "empty" for s in room.seats):
        return "seats_empty"
    if waiting(room):  # the owner's start is the owner's own readiness
        return "not_ready"
    return None


def _ready(room: Room, seat: int, message: Ready) -> str | None:
    return "game_running" if room.status == "playing" else None


def _kick(room: Room, seat: int, message: Kick) -> str | None:
    if seat != room.owner:
        return "not_owner"
    if message.seat >= len(room.seats):
        return "no_such_seat"
    if room.status == "playing" and room.seats[message.seat].kind != "human":
        return "game_running"  # an AI seat cannot be emptied during a game
    return None


def _replace(room: Room, seat: int, message: Replace) -> str | None:
    if seat != room.owner:
        return "not_owner"
    if message.seat >= len(room.seats):
        return "no_such_seat"
    return None if known_level(message.ai) else "unknown_level"


def _leave(room: Room, seat: int, message: Leave) -> str | None:
    return None  # anyone may leave, at any time


def _draw(room: Room, seat: int, message: Draw) -> str | None:
    if seat != room.owner:
        return "not_owner"
    return None if room.status == "playing" else "no_game"


_CHECKS: dict[type[Any], Callable[[Room, int, Any], str | None]] = {
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


def check(room: Room, seat: int, message: Command) -> str | None:
    """Why ``seat`` may not send ``message`` to a table showing ``room``, or None."""
    return _CHECKS[type(message)](room, seat, message)


def refusal_text(code: str, message: Command) -> str:
    """The English text of a refusal of ``message`` with ``code``."""
    rules = message.rules if isinstance(message, SetRules) else None
    if code == "bad_rules" and isinstance(rules, UnplayableRules):
        return f"Those rules cannot be played: {rules.reason}."
    if code == "seat_taken" and isinstance(message, SetRules):
        return "A player sits in a seat to remove."
    if code == "unknown_level":
        return f"There is no such AI level ({', '.join(LEVELS)})."
    return REFUSALS[code]
