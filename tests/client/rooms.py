"""A room screen in tests: what its chips say, and spies on what it draws."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from client.screens.room import chips, header, middle, plates
from client.screens.room import screen as room_screen
from client.screens.room.screen import RoomScene
from client.ui import scene as scene_module


def chip_label(room: RoomScene, choice: str, seat: int) -> str:
    """What the chip ``choice`` under ``seat`` says in ``room``."""
    assert room.room is not None
    return chips.chip_label(room.app.tr, room.room, choice, seat)


def spy_on_drawing(
    monkeypatch: pytest.MonkeyPatch, text: Callable[..., Any], button: Callable[..., Any]
) -> None:
    """``text`` draws every word of the room (the rules, the words in the table, the
    seats' words) and ``button`` every button and chip (Start, Ready and Leave among them)."""
    for module in (header, middle, plates):
        monkeypatch.setattr(module, "draw_text", text)
    for module in (room_screen, scene_module):
        monkeypatch.setattr(module, "draw_button", button)
