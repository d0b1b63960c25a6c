"""A room screen in tests: what its chips say."""

from __future__ import annotations

from client.screens.room import chips
from client.screens.room.screen import RoomScene


def chip_label(room: RoomScene, choice: str, seat: int) -> str:
    """What the chip ``choice`` under ``seat`` says in ``room``."""
    assert room.room is not None
    return chips.chip_label(room.app.tr, room.room, choice, seat)
