"""The card we chose, and what a tap, a drop or a key on our hand goes on to do.

``intent`` says what one gesture means from the view alone; what follows from it lasts
until the next one, and lives here: the chosen card (its targets light up), the transfer
that waits for its card, the keyboard's focus (and that the player uses the keys, so the
hand shows each card's digit), and the hint bubble that says why nothing was played. The
table hands over the board and the view we may act on as they are now, how to send an
action and how to press one of its buttons; it draws the hand as ``looks`` says.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from client.screens.table.board import Board
from client.screens.table.hand import cards_of, looks, set_lifts, target_at
from client.screens.table.intent import (
    Choose,
    Intent,
    Play,
    actions_for,
    on_drop,
    on_tap,
    on_transfer_button,
)
from client.screens.table.keymap import (
    ClearChoice,
    Digit,
    Focus,
    KeyState,
    Press,
    Tap,
    ToggleHints,
    command_for,
)
from client.screens.table.panels import EMOTE_KEYS
from client.ui.pointer import Key
from client.ui.render import draw_bubble
from client.ui.scene import Director
from engine import Action, Beat, Card, SeatView

__all__ = ["BUBBLE_SECONDS", "Choice"]

BUBBLE_SECONDS = 2.6


class Choice:
    def __init__(
        self,
        app: Director,
        board: Callable[[], Board | None],
        view: Callable[[], SeatView | None],
        send: Callable[[Action], None],
        press: Callable[[str], None],
    ) -> None:
        """``board``: the table's board now; ``view``: the view we may act on now (none
        while an action awaits its answer); ``send``: the session's; ``press``: one of
        the table's buttons, by name."""
        self.app = app
        self._board, self._view, self._send, self._press = board, view, send, press
        self.selected: Card | None = None
        self.transfer_mode = False
        self.focus: int | None = None
        self.keyed = False  # the player uses the keys: the hand shows each card's digit
        # each card's key (0-9: the keys 1 to 9, then 0), fixed while a bout is on, so that
        # 1 then 3 beat the cards that had those numbers when the bout was shown
        self.numbers: dict[Card, int] = {}
        self._numbered: frozenset[Card] = frozenset()  # the hand when they were given
        self.bubble: tuple[str, tuple[float, float], float] | None = None

    def playable(self, card: Card) -> list[Action]:
        """The actions ``card`` may make now."""
        view = self._view()
        return actions_for(view, card) if view is not None else []

    def play(self, action: Action) -> None:
        self._send(action)
        self.selected = None
        self.transfer_mode = False
        self.bubble = None

    def tidy(self) -> None:
        """A new view: forget a choice it no longer allows, keep the focus in the hand, and
        number the hand again if the bout is new or a card joined it."""
        board = self._board()
        if self.selected is not None and not self.playable(self.selected):
            self.selected = None
        if board is not None and self.focus is not None and self.focus >= len(board.hand):
            self.focus = len(board.hand) - 1 if board.hand else None
        if board is not None:
            self.number(board)

    def number(self, board: Board) -> None:
        """The keys of the cards of our hand: given again in hand order between bouts (an
        empty table) or when a card came into the hand; else the cards keep theirs, and
        the key of a card played names nothing until then."""
        hand = frozenset(board.hand)
        if not board.table or not hand <= self._numbered:
            self.numbers = {card: i for i, card in enumerate(board.hand[:10])}
            self._numbered = hand
        else:
            self.numbers = {c: i for c, i in self.numbers.items() if c in hand}

    def update(self, dt: float) -> None:
        """Let ``dt`` pass; the hand is numbered again as soon as the board shows the bout
        swept (or a card come into the hand), not once the next view is shown: the cards
        drawn after a bout can take seconds, and the keys showed the bout's gaps meanwhile."""
        board = self._board()
        if board is not None:
            self.number(board)
        if self.bubble is not None:
            text, anchor, ttl = self.bubble
            self.bubble = (text, anchor, ttl - dt) if ttl > dt else None

    # --- gestures -----------------------------------------------------------------------

    def tap(self, card: Card) -> None:
        """A tap or click on a card of our hand."""
        view = self._view()
        if view is None:
            return
        transferring, self.transfer_mode = self.transfer_mode, False
        if card == self.selected and not transferring:
            self.selected = None
            return
        hints = self.app.settings.hints
        intent = on_tap(view, card, hints=hints, transferring=transferring, tr=self.app.tr)
        self._follow(intent, card)

    def drop(self, card: Card, pos: tuple[float, float]) -> None:
        """``card`` dragged from our hand and let go at ``pos``."""
        view, board = self._view(), self._board()
        if view is None or board is None:
            return
        layout = board.layout
        on_table = pos[1] <= layout.hand_y - 0.55 * layout.card_h
        intent = on_drop(view, card, target_at(board, pos), on_table, self.app.tr)
        self._follow(intent, card)

    def press_beside(self, pos: tuple[float, float]) -> None:
        """A press beside our hand: on a card the chosen one beats, it beats it; anywhere
        else the choice is forgotten."""
        target = target_at(self._board(), pos)
        if target is not None and self.selected is not None:
            beat = Beat(self.selected, target)
            if beat in self.playable(self.selected):
                self.play(beat)
                return
        self.selected = None
        self.transfer_mode = False
        self.bubble = None

    def transfer(self, show: bool) -> None:
        """The Transfer (or Show trump) button."""
        view = self._view()
        if view is not None:
            self._follow(on_transfer_button(view, self.selected, show, self.app.tr), None)

    def key(self, event: Key) -> None:
        self.keyed = True
        board = self._board()
        hand = board.hand if board is not None else []
        named = {i: c for c, i in self.numbers.items() if c in hand}
        state = KeyState(
            reactions=tuple(EMOTE_KEYS),
            hand=len(hand),
            digits=frozenset(named),
            focus=self.focus,
            choosing=self.selected is not None or self.transfer_mode or self.focus is not None,
        )
        command = command_for(event.key, state)
        if isinstance(command, Press):
            self._press(command.name)
        elif isinstance(command, Tap):
            self.tap(hand[command.index])
        elif isinstance(command, Digit):
            self.tap(named[command.index])
        elif isinstance(command, Focus):
            self.focus = command.index
        elif isinstance(command, ClearChoice):
            self.selected, self.transfer_mode, self.focus = None, False, None
        elif isinstance(command, ToggleHints):
            self.app.settings.hints = not self.app.settings.hints
            self.app.save_settings()
            tr = self.app.tr
            self.say(tr("table.hints_on" if self.app.settings.hints else "table.hints_off"), None)

    def _follow(self, intent: Intent, card: Card | None) -> None:
        """Do what a gesture means: play, choose (and say why), or explain."""
        if isinstance(intent, Play):
            self.play(intent.action)
        elif isinstance(intent, Choose):
            self.selected = intent.card
            self.transfer_mode = intent.card is None
            self.say(intent.text, intent.card)
        elif intent.text:
            self.say(intent.text, card)

    def say(self, text: str, card: Card | None) -> None:
        """The hint bubble, over ``card`` of our hand (None: mid-table)."""
        board = self._board()
        if board is None:
            return
        sprite = board.cards.get(card) if card is not None else None
        # above the card, and above the prompt line, so that it hides no button and none
        # of the words that say what to do
        layout = board.layout
        above = layout.status_y - layout.font_px * 1.1
        x = sprite.pose.x if sprite is not None else layout.size[0] / 2
        self.bubble = (text, (x, above), BUBBLE_SECONDS)

    # --- the hand as drawn --------------------------------------------------------------

    def lift(self, hover: Card | None, pending: Action | None) -> None:
        """Lift the cards of our hand (``pending``: our action that awaits its answer)."""
        board = self._board()
        assert board is not None
        chosen = (self.selected, *cards_of(pending))
        set_lifts(board, self.playable, chosen, self.focus, hover)

    def looks(self, dragging: bool) -> dict[Card, str]:
        """How each card of our hand (and each target of the chosen card) is drawn."""
        board = self._board()
        if board is None:
            return {}
        view = self._view()
        any_play = view is not None and bool(view.legal)
        chosen = board.dragged if dragging else self.selected
        return looks(
            board, self.playable, any_play, self.selected, self.focus, self.transfer_mode, chosen
        )

    def draw_bubble(self, surface: pygame.Surface, board: Board) -> None:
        if self.bubble is not None:
            px = round(board.layout.font_px * 1.05)
            draw_bubble(surface, self.app.assets, self.bubble[0], self.bubble[1], px)
