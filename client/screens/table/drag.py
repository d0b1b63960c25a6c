"""A press on a card of our hand, and the drag it becomes: the card follows the pointer
once it has moved far enough, if it may be played (a card that may not stays put, and a
release is a tap)."""

from __future__ import annotations

import math
from collections.abc import Callable

from client.screens.table.board import Board
from client.screens.table.layout import Pose
from engine import Card

__all__ = ["Drag"]

START = 0.08  # card heights the pointer moves before a press becomes a drag


class Drag:
    def __init__(self) -> None:
        self.press: tuple[Card, tuple[float, float]] | None = None  # the card, where pressed
        self.dragging = False
        self.grab = (0.0, 0.0)  # from the pointer to the card's centre

    def start(self, card: Card | None, pos: tuple[float, float]) -> None:
        """A press on ``card`` (None: beside the hand, which forgets an earlier press)."""
        self.press = (card, pos) if card is not None else None

    def move(
        self, board: Board, pos: tuple[float, float], playable: Callable[[Card], bool]
    ) -> None:
        """The pointer moved to ``pos``: the pressed card follows once it is a drag."""
        if self.press is None:
            return
        card, start = self.press
        sprite = board.cards.get(card)
        if sprite is None:
            return
        if not self.dragging:
            if math.dist(start, pos) < START * board.layout.card_h or not playable(card):
                return
            self.dragging = True
            board.dragged = card
            self.grab = (sprite.pose.x - start[0], sprite.pose.y - sprite.lift - start[1])
            sprite.motion = None
        sprite.pose = Pose(pos[0] + self.grab[0], pos[1] + self.grab[1], 0.0, 1.0)
        sprite.lift = sprite.lift_target = 0.0

    def release(self, board: Board) -> tuple[Card, bool] | None:
        """The press ends: its card and whether it was dragged (None: no card pressed)."""
        press, self.press = self.press, None
        if press is None:
            return None
        dragged, self.dragging = self.dragging, False
        if dragged:
            board.dragged = None
        return press[0], dragged
