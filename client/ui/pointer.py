"""One input model for the mouse, touch and the keyboard.

``InputMapper.map(event)`` turns a pygame event into the game's own input events:
``Pointer`` (down / move / up for the left mouse button or one finger, in window pixels;
"step" with ``step`` -1 or +1 for a right-click or a turn of the wheel at a place, which
steps a choice back or on) and ``Key``. Mouse positions arrive in the system's points,
which are pixels except on a high-DPI Mac (``client.ui.window``), and are scaled to
pixels. A real touch also produces mouse events with ``touch=True``: those are dropped,
so a tap is seen once. Finger positions arrive normalised (0..1) and are scaled by the
window size. Only one pointer is followed at a
time (the first one down).

A mouse wheel's notch is one step. A trackpad (or a wheel that scrolls smoothly) sends a
stream of fractions of a notch for one swipe, momentum included, each rounded to a whole
``y`` by SDL: stepped per event, one swipe moved a choice several values at once. Such a
stream (events with a fractional ``precise_y``, at most ``GESTURE_GAP`` seconds apart) is
one gesture, which steps once, when a whole notch has added up.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import pygame

__all__ = ["MOUSE", "HandCursor", "InputMapper", "Key", "Pointer"]

MOUSE = -1  # the pointer id of the mouse; fingers use their finger_id
GESTURE_GAP = 0.3  # seconds without a smooth scroll event that end a swipe


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

    def __init__(
        self,
        size: tuple[int, int],
        clock: Callable[[], float] = time.monotonic,
        platform: str = sys.platform,
        scale: float = 1.0,
    ) -> None:
        """``size``: the window's surface in pixels; ``scale``: its pixels to a point of
        the system's, which mouse positions come in (``client.ui.window``)."""
        self.size = size
        self.scale = scale
        self.clock = clock
        self.platform = platform
        self.active: int | None = None  # the pointer currently held down
        self.mouse: tuple[float, float] = (0.0, 0.0)  # where the mouse was last seen
        self.swipe = 0.0  # notches a smooth scroll gesture has added up (0 once it stepped)
        self.swiped = False  # the gesture under way has stepped
        self.swipe_at = -GESTURE_GAP  # when its last event came

    def map(self, event: pygame.event.Event) -> Input | None:
        etype = event.type
        if etype in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION):
            if getattr(event, "touch", False):
                return None  # the duplicate of a finger event
            self.mouse = (event.pos[0] * self.scale, event.pos[1] * self.scale)
            if etype == pygame.MOUSEBUTTONDOWN and event.button == 3:
                return Pointer("step", self.mouse, MOUSE, -1)
            if etype != pygame.MOUSEMOTION and event.button != 1:
                return None
            return self._pointer(etype, MOUSE, self.mouse)
        if etype == pygame.MOUSEWHEEL:
            if getattr(event, "touch", False):
                return None
            turn = self._turn(event)
            return None if not turn else Pointer("step", self.mouse, MOUSE, turn)
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

    def is_fullscreen_key(self, event: pygame.event.Event) -> bool:
        """F11, and on macOS (where F11 shows the desktop) its convention, Cmd+Ctrl+F."""
        if event.type != pygame.KEYDOWN:
            return False
        if event.key == pygame.K_F11:
            return True
        mod = int(getattr(event, "mod", 0))
        chord = bool(mod & pygame.KMOD_META) and bool(mod & pygame.KMOD_CTRL)
        return self.platform == "darwin" and event.key == pygame.K_f and chord

    def _turn(self, event: pygame.event.Event) -> int:
        """The step (-1, 0 or +1) a wheel event makes: a notch's at once, a smooth
        gesture's once per gesture."""
        amount = float(getattr(event, "precise_y", event.y))
        if getattr(event, "flipped", False):
            amount = -amount
        if amount.is_integer():  # a notch (or none)
            return (amount > 0) - (amount < 0)
        now = self.clock()
        if now - self.swipe_at > GESTURE_GAP:
            self.swipe, self.swiped = 0.0, False
        self.swipe_at = now
        if self.swiped:
            return 0
        self.swipe += amount
        if abs(self.swipe) < 1.0:
            return 0
        self.swiped = True
        return 1 if self.swipe > 0 else -1

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


class HandCursor:
    """The system's cursor: a pointing hand over what can be clicked, else the arrow (set
    only when that changes; a system without cursors, e.g. headless, keeps its own)."""

    def __init__(self) -> None:
        self.hand = False

    def point(self, hand: bool) -> None:
        if hand != self.hand:
            self.hand = hand
            cursor = pygame.SYSTEM_CURSOR_HAND if hand else pygame.SYSTEM_CURSOR_ARROW
            with contextlib.suppress(pygame.error):
                pygame.mouse.set_cursor(cursor)
