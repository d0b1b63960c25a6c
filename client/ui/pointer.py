"""One input model for the mouse, touch and the keyboard.

``InputMapper.map(event)`` turns a pygame event into the game's own input events:
``Pointer`` (down / move / up for the left mouse button or one finger, in window pixels;
"step" with ``step`` -1 or +1 for a right-click or a turn of the wheel at a place, which
steps a choice back or on) and ``Key``. A real touch also produces mouse events with
``touch=True``: those are dropped, so a tap is seen once. Finger positions arrive
normalised (0..1) and are scaled by the window size. Only one pointer is followed at a
time (the first one down).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import pygame

__all__ = ["MOUSE", "InputMapper", "Key", "Pointer"]

MOUSE = -1  # the pointer id of the mouse; fingers use their finger_id


@dataclass(frozen=True, slots=True)
class Pointer:
    kind: Literal["down", "move", "up", "step"]
    pos: tuple[float, float]
    pointer: int = MOUSE
    step: int = 0  # a "step": -1 back (right-click, wheel down), +1 on (wheel up)

    @property
    def x(self) -> float:
        return self.pos[0]

    @property
    def y(self) -> float:
        return self.pos[1]


@dataclass(frozen=True, slots=True)
class Key:
    key: int
    mod: int = 0
    unicode: str = ""


Input = Pointer | Key


class InputMapper:
    """Maps pygame events to ``Pointer`` and ``Key`` events for one window."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.size = size
        self.active: int | None = None  # the pointer currently held down
        self.mouse: tuple[float, float] = (0.0, 0.0)  # where the mouse was last seen

    def map(self, event: pygame.event.Event) -> Input | None:
        etype = event.type
        if etype in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION):
            if getattr(event, "touch", False):
                return None  # the duplicate of a finger event
            self.mouse = (float(event.pos[0]), float(event.pos[1]))
            if etype == pygame.MOUSEBUTTONDOWN and event.button == 3:
                return Pointer("step", self.mouse, MOUSE, -1)
            if etype != pygame.MOUSEMOTION and event.button != 1:
                return None
            return self._pointer(etype, MOUSE, event.pos)
        if etype == pygame.MOUSEWHEEL:
            if getattr(event, "touch", False) or not event.y:
                return None
            turn = -event.y if getattr(event, "flipped", False) else event.y
            return Pointer("step", self.mouse, MOUSE, 1 if turn > 0 else -1)
        if etype in (pygame.FINGERDOWN, pygame.FINGERUP, pygame.FINGERMOTION):
            w, h = self.size
            pos = (event.x * w, event.y * h)
            kind = {
                pygame.FINGERDOWN: pygame.MOUSEBUTTONDOWN,
                pygame.FINGERUP: pygame.MOUSEBUTTONUP,
                pygame.FINGERMOTION: pygame.MOUSEMOTION,
            }[etype]
            return self._pointer(kind, event.finger_id, pos)
        if etype == pygame.KEYDOWN:
            return Key(event.key, event.mod, getattr(event, "unicode", ""))
        return None

    def _pointer(self, kind: int, pointer: int, pos: tuple[float, float]) -> Pointer | None:
        pos = (float(pos[0]), float(pos[1]))
        if kind == pygame.MOUSEBUTTONDOWN:
            if self.active is not None and self.active != pointer:
                return None  # a second finger while one is held: ignored
            self.active = pointer
            return Pointer("down", pos, pointer)
        if kind == pygame.MOUSEBUTTONUP:
            if self.active != pointer:
                return None
            self.active = None
            return Pointer("up", pos, pointer)
        if self.active is not None and self.active != pointer:
            return None
        return Pointer("move", pos, pointer)
