"""The room's rules as the host asks them: who may ask the table for what, and why not.

The rules themselves live in ``protocol.room_rules`` (pure, on the ``Room`` every seat is
shown), where the room screen asks the same questions of its own room, so the window and
the host can never disagree. What this module adds is the host's own: which AI levels it
has (``known_level``) and the English text sent with each refusal (``refusal_text``).
``check(room, seat, message)`` returns the code the table refuses a room command with, or
None when the table carries it out.
"""

from __future__ import annotations

from engine import Rules
from engine.ai import LEVELS, make_bot
from protocol import (
    ROOM_COMMANDS,
    Refusal,
    Room,
    RoomCommand,
    SetRules,
    UnplayableRules,
    room_refusal,
    waiting_for,
)

__all__ = ["COMMANDS", "REFUSALS", "check", "known_level", "refusal_text", "waiting"]

Command = RoomCommand
COMMANDS = ROOM_COMMANDS
REFUSALS: dict[str, str] = {refusal: refusal.text for refusal in Refusal}  # code: English


def known_level(level: str) -> bool:
    """Whether this host has an AI of ``level``."""
    try:
        make_bot(level, 0, Rules(), 0)
    except ValueError:
        return False
    return True


def waiting(room: Room) -> list[int]:
    """The seats the owner's start waits for: every other human not marked ready."""
    return waiting_for(room)


def check(room: Room, seat: int, message: Command) -> Refusal | None:
    """Why ``seat`` may not send ``message`` to a table showing ``room``, or None."""
    return room_refusal(room, seat, message, known_level)


def refusal_text(code: str, message: Command) -> str:
    """The English text of a refusal of ``message`` with ``code``."""
    rules = message.rules if isinstance(message, SetRules) else None
    if code == Refusal.BAD_RULES and isinstance(rules, UnplayableRules):
        return f"Those rules cannot be played: {rules.reason}."
    if code == Refusal.SEAT_TAKEN and isinstance(message, SetRules):
        return "A player sits in a seat to remove."
    if code == Refusal.UNKNOWN_LEVEL:
        return f"There is no such AI level ({', '.join(LEVELS)})."
    return REFUSALS[code]
