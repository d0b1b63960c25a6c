"""The pointer on the table: where a press, a move and a release go, and the cursor.

A press on one of the table's buttons presses it; on the discard pile, once a bout has been
beaten off, it opens the log at that bout; on a card of our hand it may become a drag
(``drag``); anywhere else it is ``choice``'s (``press_beside``). A release drops a dragged
card where it is (``choice.drop``) or taps the card pressed (``choice.tap``). Keys are
``choice``'s. Over what can be clicked the cursor is a pointing hand (on a desktop with a
mouse). The table's scene hands every input here (``handle``).
"""

from __future__ import annotations

from collections.abc import Callable

from client.screens.table.board import Board
from client.screens.table.choice import Choice
from client.screens.table.drag import Drag
from client.screens.table.hand import card_at, on_discard
from client.screens.table.history import History
from client.screens.table.panels import Covers
from client.screens.table.row import button_at
from client.ui.pointer import HandCursor, Input, Key, Pointer
from client.ui.widgets import Button
from engine import Card

__all__ = ["Gestures"]


class Gestures:
    def __init__(
        self,
        choice: Choice,
        covers: Covers,
        *,
        board: Callable[[], Board | None],
        buttons: Callable[[], list[Button]],
        press: Callable[[str], None],
        history: Callable[[], History],
        beaten: Callable[[], None],
    ) -> None:
        """``choice``: what a gesture on our hand goes on to do; ``covers``: the table's
        overlays (their buttons get the pointing hand too); ``board``: the table's board,
        if any; ``buttons``: the table's own; ``press``: presses one by name;
        ``history``: this game's bouts; ``beaten``: opens the log at the last bout beaten
        off."""
        self.choice, self.covers = choice, covers
        self.board, self.buttons, self.press = board, buttons, press
        self.history, self.beaten = history, beaten
        self.drag = Drag()  # a press on a card of our hand, and the drag it may become
        self.hover: tuple[float, float] | None = None
        self.cursor = HandCursor()  # a pointing hand over what can be clicked

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            self.choice.key(event)
            return
        if event.kind == "move":
            self.hover = event.pos if event.pointer < 0 else None
            self._move(event)
        elif event.kind == "down":
            self._down(event)
        else:
            self._up(event)

    def _down(self, event: Pointer) -> None:
        button = button_at(self.buttons(), event.pos)
        if button is not None:
            self.drag.start(None, event.pos)
            self.press(button.name)
            return
        if on_discard(self.board(), event.pos) and self.history().last_finished("beaten"):
            self.beaten()
            return
        card = card_at(self.board(), event.pos)
        self.drag.start(card, event.pos)
        if card is not None:
            return
        self.choice.press_beside(event.pos)

    def _move(self, event: Pointer) -> None:
        board = self.board()
        if board is not None:
            self.drag.move(board, event.pos, lambda card: bool(self.choice.playable(card)))

    def _up(self, event: Pointer) -> None:
        board = self.board()
        released = self.drag.release(board) if board is not None else None
        if released is None:
            return
        card, dragged = released
        if dragged:
            self.choice.drop(card, event.pos)
            dropped = self.board()
            assert dropped is not None
            dropped.arrange()
        else:
            self.choice.tap(card)

    def hovered(self) -> Card | None:
        """The card of our hand under the mouse, while no card is dragged."""
        if self.hover and not self.drag.dragging:
            return card_at(self.board(), self.hover)
        return None

    def set_cursor(self, leaving: bool = False) -> None:
        """The cursor over what can be clicked (on a desktop with a mouse)."""
        hover = None if leaving else self.hover
        card = card_at(self.board(), hover)
        over = [b for scene in self.covers.open() for b in scene.buttons]
        wanted = hover is not None and (
            button_at(self.buttons(), hover) is not None
            or any(b.rect.collidepoint(hover) for b in over)
            or (card is not None and bool(self.choice.playable(card)))
        )
        self.cursor.point(wanted)
