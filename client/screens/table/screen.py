"""The table scene: shows a game session and turns taps, drags and keys into actions.

Messages from the session are shown one at a time, at the pace ``pacing.Pacer`` keeps:
each event starts its animation (``client.screens.table.board``) and holds the next one
back for a moment: another seat's action long enough to be seen and read, with the seat's
word for it by its plate (``narrate.seat_note``); why the pacing lives in the window and
not at the host is said in ``pacing``. Once the table has caught up, a seat that the view
waits for shows that it is thinking. Only the latest shown snapshot decides what may be
played.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Sequence
from dataclasses import replace

import pygame

from client.i18n import N_
from client.i18n.refusals import TABLE_CLOSED_KEYS, closed_text, refusal_text
from client.net.gamefile import GameFile
from client.net.session import (
    WATCHING,
    Cheered,
    Closed,
    Emoted,
    GameOver,
    Message,
    Reconnecting,
    Rejected,
    RoomChanged,
    Seated,
    Session,
    Snapshot,
    listen,
)
from client.screens.table.board import Board, deck_of
from client.screens.table.draw import SEAT_STATUS_KEYS, draw_board, draw_seat_word, role_of
from client.screens.table.ending import (
    draw_end_table,
    durak_cards,
    end_show,
    log_heading,
)
from client.screens.table.history import History
from client.screens.table.hud import (
    TOAST_SECONDS,
    EndShow,
    closed_buttons,
    draw_banner,
    draw_buttons,
    draw_closed,
    draw_end,
    draw_status,
    draw_toast,
    draw_unsaved,
    end_buttons,
    status_text,
    waiting_for,
)
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
    ClosePicker,
    Focus,
    KeyState,
    Press,
    Scroll,
    Tap,
    ToggleHints,
    command_for,
)
from client.screens.table.layout import MAX_LIFT, Layout, Pose
from client.screens.table.narrate import Note, line_text, note_text, seat_note, toast_for
from client.screens.table.overlays import (
    draw_deal_check,
    draw_log,
    draw_pause,
    log_buttons,
    log_panel,
    pause_buttons,
)
from client.screens.table.pacing import THINK_DELAY, Hold, Paced, Pacer, reading_time
from client.ui.metrics import CARD_RATIO
from client.ui.pointer import Input, Key, Pointer
from client.ui.render import (
    GOLD,
    WHITE,
    button_w,
    draw_bubble,
    draw_text,
    label_px,
    rounded_box,
)
from client.ui.scene import Director, Scene
from client.ui.widgets import Button
from engine import (
    Action,
    Attack,
    Beat,
    Card,
    Dealt,
    Pass,
    SeatView,
    ShowTrump,
    Take,
    Transfer,
)
from protocol import Room

__all__ = ["TableScene"]

DOT_STEP = 1 / 3  # seconds between two steps of the thinking cue's dots

BUBBLE_SECONDS = 2.6
EMOTE_SECONDS = 2.0  # how long a seat's reaction shows by the seat
NOTE_SECONDS = 1.8  # how long a seat's word for its action shows (at the normal pace)
# the quick reactions (``protocol.EMOTES``) and their words
EMOTE_KEYS = {
    "nice": N_("emote.nice"),
    "oops": N_("emote.oops"),
    "hurry": N_("emote.hurry"),
    "well_played": N_("emote.well_played"),
    "ha": N_("emote.ha"),
}
ACTION_BUTTONS = frozenset({"take", "pass", "transfer", "show"})  # they answer the table


class TableScene(Scene):
    def __init__(
        self,
        app: Director,
        session: Session,
        backlog: Sequence[Message] = (),
        back: Callable[[list[Message]], None] | None = None,
        tally: Callable[[GameOver, int], GameOver] | None = None,
        record: Callable[[Message], None] | None = None,
        kept: Callable[[], GameFile | None] | None = None,
    ) -> None:
        """``backlog``: messages the session said before the scene took it over (the room
        screen hands over ``Seated`` and the start of the game). ``back``: at a LAN table,
        the room screen that handed the session over; Rematch returns the session to it
        (with the room as last heard) instead of starting the next game at once.
        ``tally``: counts each game's end for our seat (the statistics) and gives the end
        to show (the series remembered across restarts of the window). ``record``: told
        every message as it is taken (the game files keep the games). ``kept``: the game
        kept last, which the end's Review opens in the coach."""
        self.app = app
        self.assets = app.assets
        self.session = session
        self.back = back
        self.tally = tally
        self.kept = kept
        self.room: Room | None = None  # the room as last heard (during and after the game)
        self.pacer = Pacer(session.inbox, self._show, self._at_once, record)
        self.statuses: tuple[str, ...] = ()  # each seat's status from the room, if known
        self.emotes: dict[int, tuple[str, float]] = {}  # seat -> (emote, seconds left)
        self.picking = False  # the emote picker is open
        self.overlay = ""  # a panel over the table: "pause" (leave?) or "log"
        self.log_scroll = 0  # lines the log is scrolled back from its newest
        self.log_beaten = False  # the log opened from the discard pile: its last bout
        self.scroll_from: tuple[float, int] | None = None  # a drag on the log: (y, scroll)
        self.pacer.take(backlog)
        self.board: Board | None = None
        self.history = History(0)  # this game's bouts and log, as the window saw them
        self.notes: dict[int, tuple[Note, float]] = {}  # seat -> (its word, seconds left)
        self.deciding: tuple[int, ...] = ()  # the other seats the table waits for ...
        self.deciding_for = 0.0  # ... and for how long (seconds)
        self.view: SeatView | None = None
        self.names: tuple[str, ...] = ()
        self.seat = 0
        self.watching = False  # a watcher's table: no hand, no actions, reactions only
        self.pending: Action | None = None
        self.behind = False  # events shown since the latest snapshot: the view is older
        self.selected: Card | None = None
        self.transfer_mode = False
        self.focus: int | None = None
        self.keyed = False  # the player uses the keys: the hand shows each card's digit
        self.press: tuple[Card | None, tuple[float, float]] | None = None
        self.dragging = False
        self.drag_grab = (0.0, 0.0)
        self.hover: tuple[float, float] | None = None
        self.bubble: tuple[str, tuple[float, float], float] | None = None
        self.toasts: list[tuple[str, float]] = []  # (text, seconds left)
        self.warm: list[Card] = []  # card faces to draw ahead of need, one a frame
        self.over: GameOver | None = None
        self.show_end = False
        self.closed: str | None = None
        self.reconnecting = False  # our connection dropped: a banner until the resync
        self.returned = False  # the session went back to the room screen
        self.sounds: list[tuple[float, str]] = []
        self.buttons: list[Button] = []
        self._hand_cursor = False

    # --- scene --------------------------------------------------------------------------

    def enter(self) -> None:
        listen(self.session.inbox, self.app.wake)

    def exit(self) -> None:
        self._set_cursor(leaving=True)
        if not self.returned:  # (a session handed back to the room stays open)
            self.session.close()

    def resize(self, size: tuple[int, int]) -> None:
        if self.board is not None:
            self.board.relayout(Layout(size, self.board.rules.players, self.seat))
            self.warm = deck_of(self.board.rules)

    def _warm_up(self) -> None:
        """Draw one card face a frame ahead of need, so no frame has to draw many."""
        if self.warm and self.board is not None:
            self.assets.card(self.warm.pop(), round(self.board.layout.card_h))

    @property
    def layout(self) -> Layout | None:
        return self.board.layout if self.board is not None else None

    # --- messages -----------------------------------------------------------------------

    def _at_once(self, message: RoomChanged | Emoted | Cheered) -> None:
        """The room and the reactions show as they arrive (a watcher's as a toast)."""
        if isinstance(message, RoomChanged):
            self.statuses = _statuses(message)
            self.room = message.room
        elif isinstance(message, Cheered):
            key = EMOTE_KEYS.get(message.code)
            if key is not None:
                self.toasts.append((f"{message.name}: {self.app.tr(key)}", TOAST_SECONDS))
        elif message.code in EMOTE_KEYS:
            self.emotes[message.seat] = (message.code, EMOTE_SECONDS)

    def _show(self, item: Paced) -> Hold:
        """Show one message or event; how long it holds back the next."""
        if isinstance(item, Seated):
            self.seat, self.names = item.seat, item.names
            self.watching = item.seat == WATCHING
            layout = Layout(self.app.size, item.rules.players, item.seat)
            self.board = Board(layout, item.seat, item.rules, self.app.settings.speed)
            self.history = History(item.rules.players)
            self.warm = deck_of(item.rules)
            return Hold(0.0)
        if isinstance(item, Closed):  # also before we are seated (an unreachable table)
            self.reconnecting = False
            self.closed = closed_text(item.code, item.text, self.app.tr, TABLE_CLOSED_KEYS)
            return Hold(0.0)
        if isinstance(item, Reconnecting):
            self.reconnecting = True
            self.pending = None  # an action sent before the drop gets no answer
            return Hold(0.0)
        board = self.board
        if board is None:
            return Hold(0.0)
        if isinstance(item, Snapshot):
            self.reconnecting = False
            waited = self.view is not None and _awaited(self.view)
            self.view = item.view
            if item.settled and self.pending not in item.view.legal:
                self.pending = None  # done (a view from before our action keeps it pending)
            self.behind = False
            board.resync(item.view)
            if _awaited(item.view) and not waited:
                self.sounds.append((0.0, "turn"))
            self._tidy_selection()
            return Hold(0.0)
        if isinstance(item, Rejected):
            self.pending = None
            board.arrange()
            self._say(refusal_text(item.code, item.text, self.app.tr), None)
            return Hold(0.0)
        if isinstance(item, GameOver):
            self.over = item if self.tally is None else self.tally(item, self.seat)
            self.show_end = True
            return Hold(0.0)
        if isinstance(item, Dealt) and (self.over is not None or board.discard or board.table):
            self._new_board()
            board = self.board
            assert board is not None
        board.speed = speed = self.app.settings.speed
        hold = board.apply(item)  # type: ignore[arg-type]
        self.history.add(item)  # type: ignore[arg-type]
        self.behind = True  # until the snapshot after it
        read = reading_time(item, self.seat) / speed  # type: ignore[arg-type]
        note = seat_note(item, self.seat)  # type: ignore[arg-type]
        if note is not None:
            self.notes[note.seat] = (note, max(NOTE_SECONDS / speed, hold, read))
        text = toast_for(item, self.names, self.seat, self.app.tr)  # type: ignore[arg-type]
        if text:
            self.toasts.append((text, TOAST_SECONDS))
            read = max(read, 0.5 / speed)
        self.sounds.extend(board.cues)
        board.cues.clear()
        return Hold(hold, read)

    def _new_board(self) -> None:
        assert self.board is not None
        self.board = Board(self.board.layout, self.seat, self.board.rules, self.app.settings.speed)
        self.history = History(self.board.rules.players)
        self.notes.clear()
        self.view = None
        self.over = None
        self.show_end = False

    # --- time ---------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        boost = self.pacer.update(dt)
        if self.board is not None:
            self._set_lifts()
            self.board.update(dt * boost)
        self.buttons = self._compute_buttons()
        self._set_cursor()
        if self.bubble is not None:
            text, anchor, ttl = self.bubble
            self.bubble = (text, anchor, ttl - dt) if ttl > dt else None
        self.toasts = [(text, ttl - dt) for text, ttl in self.toasts if ttl > dt][-2:]
        self.emotes = {s: (code, ttl - dt) for s, (code, ttl) in self.emotes.items() if ttl > dt}
        self.notes = {s: (note, ttl - dt) for s, (note, ttl) in self.notes.items() if ttl > dt}
        deciding = self._deciding()
        if deciding != self.deciding:
            self.deciding, self.deciding_for = deciding, 0.0
        else:
            self.deciding_for += dt
        self._warm_up()
        due = [(t - dt, name) for t, name in self.sounds]
        for t, name in due:
            if t <= 0 and not self.app.settings.muted:
                self.assets.play(name, 0.7)
        self.sounds = [(t, n) for t, n in due if t > 0]

    def _set_cursor(self, leaving: bool = False) -> None:
        """A pointing hand over what can be clicked (on a desktop with a mouse)."""
        hover = None if leaving else self.hover
        card = self.card_at(hover)
        wanted = hover is not None and (
            self._button_at(hover) is not None or (card is not None and bool(self.playable(card)))
        )
        if wanted != self._hand_cursor:
            self._hand_cursor = wanted
            cursor = pygame.SYSTEM_CURSOR_HAND if wanted else pygame.SYSTEM_CURSOR_ARROW
            with contextlib.suppress(pygame.error):  # no system cursors (e.g. headless)
                pygame.mouse.set_cursor(cursor)

    def _deciding(self) -> tuple[int, ...]:
        """The other seats the table waits for, once it shows what the latest view says."""
        view = self.view
        if view is None or self.over is not None or not self._caught_up() or not self.idle:
            return ()
        seats = waiting_for(view)
        if len(seats) > 1 and view.legal:
            return ()  # we may add too: no need to point at the others who may
        return tuple(s for s in seats if s != self.seat)

    def _owner(self) -> bool:
        """We own the room of this LAN table, and its game is on: we may end it as a draw."""
        room = self.room
        return (
            self.back is not None
            and room is not None
            and room.owner == self.seat
            and (self._playing())
        )

    def our_turn(self) -> bool:
        """The table waits for us (to lead or to answer), and shows what the view says."""
        view = self._acting_view()
        return view is not None and _awaited(view) and self._caught_up()

    def thinking(self) -> tuple[int, ...]:
        """The seats shown as thinking: the table has waited a moment for them."""
        return self.deciding if self.deciding_for >= THINK_DELAY else ()

    def note_shown(self, seat: int) -> str | None:
        """What ``seat``'s word by its plate says it did ("throws in"...), if one shows."""
        shown = self.notes.get(seat)
        return shown[0].kind if shown is not None else None

    def next_frame(self) -> float:
        """Frames while anything moves, fades, counts down or waits its turn to be shown
        (a seat's word, the thinking cue's dots); none while the table is still (a message
        from the host wakes the window)."""
        board = self.board
        if (
            not self.pacer.idle
            or not self.session.inbox.empty()
            or self.toasts
            or self.emotes
            or self.notes
            or self.bubble is not None
            or self.sounds
            or self.warm
            or (board is not None and (board.busy or board.lifting))
        ):
            return 0.0
        if self.deciding:  # the thinking cue: when it shows, then each step of its dots
            if self.deciding_for < THINK_DELAY:
                return THINK_DELAY - self.deciding_for
            return DOT_STEP - (self.deciding_for - THINK_DELAY) % DOT_STEP
        return math.inf

    @property
    def idle(self) -> bool:
        """Nothing waiting to be shown (tests use it to step until the table is still)."""
        return self.pacer.idle

    # --- what may be played ---------------------------------------------------------------

    def _acting_view(self) -> SeatView | None:
        """The view we may act on: none while an action awaits its answer or the game is
        over."""
        return self.view if self.pending is None and self.over is None else None

    def playable(self, card: Card) -> list[Action]:
        view = self._acting_view()
        return actions_for(view, card) if view is not None else []

    def _legal(self, kind: type) -> list[Action]:
        view = self._acting_view()
        return [a for a in view.legal if isinstance(a, kind)] if view is not None else []

    def _tidy_selection(self) -> None:
        if self.selected is not None and not self.playable(self.selected):
            self.selected = None
        if self.board is not None and self.focus is not None and self.focus >= len(self.board.hand):
            self.focus = len(self.board.hand) - 1 if self.board.hand else None

    def send(self, action: Action) -> None:
        self.session.send(action)
        self.pending = action
        self.selected = None
        self.transfer_mode = False
        self.bubble = None

    def _set_lifts(self) -> None:
        board = self.board
        assert board is not None
        ch = board.layout.card_h
        pending_cards = _cards_of(self.pending)
        hover_card = self.card_at(self.hover) if self.hover and not self.dragging else None
        for i, card in enumerate(board.hand):
            sprite = board.cards.get(card)
            if sprite is None:
                continue
            lift = 0.0
            if self.playable(card):
                lift = 0.04 * ch
            if card == hover_card and self.playable(card):
                lift += 0.04 * ch
            if self.focus == i:
                lift = max(lift, 0.1 * ch)
            if card == self.selected or card in pending_cards:
                lift = MAX_LIFT * ch
            sprite.lift_target = lift
        for card, sprite in board.cards.items():
            if card not in board.hand:
                sprite.lift_target = 0.0

    def looks(self) -> dict[Card, str]:
        """How each card of our hand (and each target of the chosen card) is drawn."""
        board = self.board
        if board is None:
            return {}
        looks: dict[Card, str] = {}
        view = self._acting_view()
        any_play = view is not None and bool(view.legal)
        for card in board.hand:
            acts = self.playable(card)
            if self.transfer_mode:  # the Transfer button asked for a card: those that can
                acts = [a for a in acts if isinstance(a, Transfer | ShowTrump)]
            if card == self.selected:
                looks[card] = "selected"
            elif self.focus is not None and card in board.hand[self.focus : self.focus + 1]:
                looks[card] = "target"  # the keyboard's focus: a blue halo
            elif acts:
                looks[card] = "glow"
            elif any_play:
                looks[card] = "dim"
        chosen = board.dragged if self.dragging else self.selected
        if chosen is not None:
            for action in self.playable(chosen):
                if isinstance(action, Beat):
                    looks[action.target] = "target"
        return looks

    # --- hit tests ----------------------------------------------------------------------

    def _inside(
        self, pose: Pose, lift: float, pos: tuple[float, float], scale: float = 1.0
    ) -> bool:
        layout = self.layout
        assert layout is not None
        dx, dy = pos[0] - pose.x, pos[1] - (pose.y - lift)
        a = math.radians(pose.angle)
        lx = dx * math.cos(a) - dy * math.sin(a)
        ly = dx * math.sin(a) + dy * math.cos(a)
        h = layout.card_h * pose.scale * scale
        return abs(lx) <= h * CARD_RATIO / 2 and abs(ly) <= h / 2

    def card_at(self, pos: tuple[float, float] | None) -> Card | None:
        """The card of our hand under ``pos`` (the topmost)."""
        board = self.board
        if board is None or pos is None:
            return None
        for card in reversed(board.hand):
            sprite = board.cards.get(card)
            if sprite is not None and self._inside(sprite.pose, sprite.lift, pos):
                return card
        return None

    def _on_discard(self, pos: tuple[float, float]) -> bool:
        """Is ``pos`` on the discard pile (generously)?"""
        board = self.board
        if board is None or not board.discard:
            return False
        return self._inside(board.layout.discard_pose(), 0.0, pos, 1.1)

    def target_at(self, pos: tuple[float, float]) -> Card | None:
        """The unbeaten attack card of the bout under ``pos`` (generously)."""
        board = self.board
        if board is None:
            return None
        for i, (attack, defence) in enumerate(board.table):
            if defence is None and attack is not None:
                pose = board.layout.attack_pose(i, len(board.table))
                if self._inside(pose, 0.0, pos, 1.15):
                    return attack
        return None

    # --- input --------------------------------------------------------------------------

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            self._key(event)
            return
        if event.kind == "move":
            self.hover = event.pos if event.pointer < 0 else None
            self._move(event)
        elif event.kind == "down":
            self._down(event)
        else:
            self._up(event)

    def _button_at(self, pos: tuple[float, float]) -> Button | None:
        for button in reversed(self.buttons):  # the topmost: the last drawn
            if button.rect.collidepoint(pos):
                return button
        return None

    def _down(self, event: Pointer) -> None:
        button = self._button_at(event.pos)
        if button is not None:
            self.press = None
            self.press_button(button.name)
            return
        self.picking = False  # a tap elsewhere closes the emote picker
        if self.overlay == "log":
            if log_panel(self.app.size, self.assets).rect.collidepoint(event.pos):
                self.scroll_from = (event.y, self.log_scroll)  # a drag scrolls it
            else:
                self.overlay = ""  # a tap beside the log closes it
            return
        if self.overlay or self.show_end or self.closed:
            return
        if self._on_discard(event.pos) and self.history.last_finished("beaten"):
            self._toggle_log(beaten=True)
            return
        card = self.card_at(event.pos)
        if card is not None:
            self.press = (card, event.pos)
            return
        self.press = None
        target = self.target_at(event.pos)
        if target is not None and self.selected is not None:
            beat = Beat(self.selected, target)
            if beat in self.playable(self.selected):
                self.send(beat)
                return
        self.selected = None
        self.transfer_mode = False
        self.bubble = None

    def _move(self, event: Pointer) -> None:
        if self.scroll_from is not None:
            y, scroll = self.scroll_from
            step = log_panel(self.app.size, self.assets)
            self.log_scroll = scroll
            self._scroll(-round((event.y - y) / (step.lines.h / step.rows)))
            return
        if self.press is None or self.board is None:
            return
        card, start = self.press
        if card is None:
            return
        sprite = self.board.cards.get(card)
        if sprite is None:
            return
        if not self.dragging:
            if math.dist(start, event.pos) < 0.08 * self.board.layout.card_h or not self.playable(
                card
            ):
                return
            self.dragging = True
            self.board.dragged = card
            self.drag_grab = (sprite.pose.x - start[0], sprite.pose.y - sprite.lift - start[1])
            sprite.motion = None
        sprite.pose = Pose(event.x + self.drag_grab[0], event.y + self.drag_grab[1], 0.0, 1.0)
        sprite.lift = sprite.lift_target = 0.0

    def _up(self, event: Pointer) -> None:
        self.scroll_from = None
        press, self.press = self.press, None
        if press is None or press[0] is None or self.board is None:
            return
        card = press[0]
        if self.dragging:
            self.dragging = False
            self.board.dragged = None
            self._drop(card, event.pos)
            self.board.arrange()
        else:
            self.tap(card)

    def _drop(self, card: Card, pos: tuple[float, float]) -> None:
        view, layout = self._acting_view(), self.layout
        if view is None:
            return
        assert layout is not None
        on_table = pos[1] <= layout.hand_y - 0.55 * layout.card_h
        intent = on_drop(view, card, self.target_at(pos), on_table, self.app.tr)
        self._follow(intent, card)

    def tap(self, card: Card) -> None:
        """A tap or click on a card of our hand."""
        view = self._acting_view()
        if view is None:
            return
        transferring, self.transfer_mode = self.transfer_mode, False
        if card == self.selected and not transferring:
            self.selected = None
            return
        hints = self.app.settings.hints
        intent = on_tap(view, card, hints=hints, transferring=transferring, tr=self.app.tr)
        self._follow(intent, card)

    def _follow(self, intent: Intent, card: Card | None) -> None:
        """Do what a gesture means: play, choose (and say why), or explain."""
        if isinstance(intent, Play):
            self.send(intent.action)
        elif isinstance(intent, Choose):
            self.selected = intent.card
            self.transfer_mode = intent.card is None
            self._say(intent.text, intent.card)
        elif intent.text:
            self._say(intent.text, card)

    def press_button(self, name: str) -> None:
        if name in ACTION_BUTTONS and not self._caught_up():
            return  # as its button: not while the table is still changing
        if name == "take":
            self._send_first(Take)
        elif name == "pass":
            self._send_first(Pass)
        elif name == "transfer":
            self._transfer(show=False)
        elif name == "show":
            self._transfer(show=True)
        elif name == "menu":
            if self._playing():
                self.overlay, self.picking = "pause", False  # ask first
            else:
                self.app.pop()
        elif name == "resume":
            self.overlay = ""
        elif name == "draw":  # the owner ends the LAN game as a draw for everyone
            self.overlay = ""
            self.session.draw()
        elif name == "leave":
            if self.back is not None and self._playing():  # a LAN game: the seat to an AI
                self.session.leave()
            self.app.pop()
        elif name == "log":
            self._toggle_log(beaten=False)
        elif name in ("scroll_up", "scroll_down"):
            self._scroll(-3 if name == "scroll_up" else 3)
        elif name == "sound":
            self.app.settings.muted = not self.app.settings.muted
            self.app.save_settings()
        elif name == "rematch":
            self.show_end = False
            if self.back is None:  # against the computer: the next game at once
                self.session.rematch()
            else:
                self._back_to_room()
        elif name == "review":
            game = self._kept_game()
            if game is not None:
                self.app.show("review", game=game)
        elif name == "hide":
            self.show_end = False
        elif name == "result":
            self.show_end = True
        elif name == "emote":
            self.picking = not self.picking
        elif name.startswith("emote:"):
            self.picking = False
            self.session.emote(name.removeprefix("emote:"))

    def _kept_game(self) -> GameFile | None:
        """The game just ended as it was kept (None: not kept, or not yet)."""
        return None if self.kept is None else self.kept()

    def _playing(self) -> bool:
        """A game is on: leaving it now asks first."""
        return self.board is not None and self.over is None and not self.closed

    def _toggle_log(self, beaten: bool) -> None:
        if self.overlay == "log":
            self.overlay = ""
            return
        self.overlay, self.log_scroll, self.log_beaten = "log", 0, beaten
        self.picking = False

    def _scroll(self, lines: int) -> None:
        """Scroll the log (less than 0: back to older lines), within what there is."""
        assert self.board is not None
        rows = log_panel(self.app.size, self.assets).rows
        most = max(0, len(self.history.lines) - rows)
        self.log_scroll = max(0, min(most, self.log_scroll - lines))

    def durak_cards(self) -> tuple[Card | None, ...]:
        """At the end: the Durak's cards (None for one the window cannot name)."""
        if self.over is None or self.board is None:
            return ()
        return durak_cards(self.over, self.board, self.view, self.history)

    def end_show(self) -> EndShow:
        """What the end of the game shows beside the ranking."""
        if self.over is None or self.board is None:
            return EndShow()
        return end_show(
            self.over, self.durak_cards(), self.history, self.names, self.seat, self.app.tr
        )

    def _back_to_room(self) -> None:
        """Hand the session back to the room screen, with the room as last heard and the
        end of the session if it ended meanwhile; everyone readies up there."""
        self.pacer.drain()
        if self.room is not None and self.room.status != "lobby":
            return  # the next game is already under way (an autostart table): it plays here
        back, self.back = self.back, None
        assert back is not None
        told: list[Message] = [RoomChanged(self.room)] if self.room is not None else []
        told += [m for m in self.pacer.waiting if isinstance(m, Closed)]
        self.returned = True
        back(told)
        self.app.pop()

    def _send_first(self, kind: type) -> None:
        found = self._legal(kind)
        if found:
            self.send(found[0])

    def _transfer(self, show: bool) -> None:
        view = self._acting_view()
        if view is not None:
            self._follow(on_transfer_button(view, self.selected, show, self.app.tr), None)

    def _key(self, event: Key) -> None:
        self.keyed = True
        hand = self.board.hand if self.board is not None else []
        state = KeyState(
            overlay=self.overlay,
            ending=self.show_end,
            closed=bool(self.closed),
            picking=self.picking,
            reactions=tuple(EMOTE_KEYS),
            hand=len(hand),
            focus=self.focus,
            choosing=self.selected is not None or self.transfer_mode or self.focus is not None,
        )
        command = command_for(event.key, state)
        if isinstance(command, Press):
            self.press_button(command.name)
        elif isinstance(command, Tap):
            self.tap(hand[command.index])
        elif isinstance(command, Focus):
            self.focus = command.index
        elif isinstance(command, Scroll):
            self._scroll(command.lines)
        elif isinstance(command, ClosePicker):
            self.picking = False
        elif isinstance(command, ClearChoice):
            self.selected, self.transfer_mode, self.focus = None, False, None
        elif isinstance(command, ToggleHints):
            self.app.settings.hints = not self.app.settings.hints
            self.app.save_settings()
            tr = self.app.tr
            self._say(tr("table.hints_on" if self.app.settings.hints else "table.hints_off"), None)

    def _say(self, text: str, card: Card | None) -> None:
        board = self.board
        if board is None:
            return
        sprite = board.cards.get(card) if card is not None else None
        if sprite is not None:
            # above the card, and above the prompt line, so that it hides no button and
            # none of the words that say what to do
            anchor = (sprite.pose.x, self._above_prompt())
        else:
            anchor = (board.layout.size[0] / 2, self._above_prompt())
        self.bubble = (text, anchor, BUBBLE_SECONDS)

    def _above_prompt(self) -> float:
        """Where a hint bubble's tail ends: just above the prompt line."""
        layout = self.layout
        assert layout is not None
        return layout.status_y - layout.font_px * 1.1

    # --- drawing ------------------------------------------------------------------------

    def _caught_up(self) -> bool:
        """The table shows what the latest view says: no event shown since, no card still on
        its way to the bout. Until then the buttons that answer the table stay away (the
        view would offer Beaten while the card that changes it is still in flight)."""
        return not self.behind and self.board is not None and not self.board.landing

    def _action_buttons(self) -> list[tuple[str, str, str]]:
        tr = self.app.tr
        found: list[tuple[str, str, str]] = []
        if not self._caught_up():
            return found
        if self._legal(Take):
            found.append(("take", tr("table.take"), "danger"))
        if self._legal(Transfer):
            found.append(("transfer", tr("table.transfer"), "secondary"))
        if self._legal(ShowTrump):
            found.append(("show", tr("table.show"), "secondary"))
        if self._legal(Pass):
            taking = self.view is not None and self.view.taking
            found.append(("pass", tr("table.pass" if taking else "table.beaten"), "primary"))
        return found

    def _compute_buttons(self) -> list[Button]:
        size, tr = self.app.size, self.app.tr
        if self.closed:
            return closed_buttons(size, tr)
        if self.overlay == "pause":
            return pause_buttons(size, tr, self._owner())
        if self.overlay == "log":
            return log_buttons(log_panel(size, self.assets))
        if self.show_end and self.over is not None:
            review = self._kept_game() is not None
            return end_buttons(size, self.over, tr, self.end_show(), review, self.watching)
        layout = self.layout
        if layout is None:
            return []
        px = label_px(layout.button_h)  # the size their labels are set at, where they fit
        specs = self._action_buttons()
        if self.over is not None:  # the end's panel hidden: the table, and a way back
            specs = [("result", tr("table.result"), "primary")]
        rects = layout.button_rects([label for _, label, _ in specs], px * 0.62)
        buttons = [
            Button(pygame.Rect(rect), name, label, style=style)
            for (name, label, style), rect in zip(specs, rects, strict=True)
        ]
        h = round(layout.button_h * 0.85)
        m = round(layout.margin)
        y = round(layout.buttons_y - h / 2)
        # the corner buttons are as wide as their words need (at least their usual width)
        words = {
            "menu": tr("table.menu"),
            "sound": tr("table.sound_off" if self.app.settings.muted else "table.sound_on"),
            "rematch": tr("table.next_game" if self.watching else "table.rematch"),
            "emote": tr("table.emote"),
        }
        least = dict(zip(words, (2.6, 2.4, 3.6, 2.4), strict=True))
        corners = self._corner_rects(words, least, h, m, y, buttons)
        for name, rect in corners.items():
            style = "primary" if name == "rematch" else "secondary"
            buttons.append(Button(rect, name, words[name], style=style))
        if self.history.lines and not self.picking:  # the log, by the discard pile
            buttons.append(Button(pygame.Rect(layout.log_rect()), "log", tr("table.log")))
        emote = corners["emote"]
        if self.picking:  # the picker: the reactions above the button
            # numbered as their keys are, 1 at the top, the digit shown on each
            picks = picker_rects(emote, len(EMOTE_KEYS), layout.size, m)[::-1]
            for k, ((code, key), pick) in enumerate(zip(EMOTE_KEYS.items(), picks, strict=True)):
                label = f"{k + 1}  {tr(key)}"
                buttons.append(Button(pick, "emote:" + code, label, style="primary"))
        return buttons

    def _corner_rects(
        self,
        words: dict[str, str],
        least: dict[str, float],
        h: int,
        m: int,
        y: int,
        actions: list[Button],
    ) -> dict[str, pygame.Rect]:
        """Menu (and Rematch) on the left, React and Sound on the right of the row, wide
        enough for their words where the row has room; the action buttons between them
        move aside if a corner would cover them."""
        assert self.layout is not None
        w = self.layout.size[0]
        names = [n for n in words if n != "rematch" or self.over is not None]
        middle = actions[0].rect.unionall([b.rect for b in actions[1:]]) if actions else None
        for full in (True, False):  # full words, else the usual widths (smaller words)
            width = {
                n: button_w(self.assets, words[n], h, round(h * least[n]))
                if full
                else round(h * least[n])
                for n in names
            }
            rects = {"menu": pygame.Rect(m, y, width["menu"], h)}
            if "rematch" in width:
                rects["rematch"] = pygame.Rect(rects["menu"].right + m, y, width["rematch"], h)
            rects["sound"] = pygame.Rect(w - m - width["sound"], y, width["sound"], h)
            rects["emote"] = pygame.Rect(
                rects["sound"].left - m - width["emote"], y, width["emote"], h
            )
            left = max(r.right for n, r in rects.items() if n in ("menu", "rematch")) + m
            span = rects["emote"].left - m - left
            if middle is None or middle.w <= span or not full:
                break
        if middle is not None and (middle.left < left or middle.right > left + span):
            shift = left + (span - middle.w) // 2 - middle.left
            actions[:] = [replace(b, rect=b.rect.move(shift, 0)) for b in actions]
        return rects

    def _draw_seat_words(self, surface: pygame.Surface) -> None:
        """By each opponent's plate: its word for what it just did, else that it thinks."""
        layout, tr = self.layout, self.app.tr
        assert layout is not None
        thinking = self.thinking()
        for seat in layout.seats:
            shown = self.notes.get(seat)
            if shown is not None:
                note, ttl = shown
                draw_seat_word(surface, self.assets, layout, seat, note_text(note, tr), ttl / 0.3)
            elif seat in thinking:
                dots = 1 + int((self.deciding_for - THINK_DELAY) / DOT_STEP) % 3
                text = tr("said.thinking") + "." * dots + " " * (3 - dots)
                draw_seat_word(surface, self.assets, layout, seat, text, thinking=True)

    def _draw_digits(self, surface: pygame.Surface) -> None:
        """The key of each of the first ten cards of the hand (1-9, then 0), on the part of
        the card that shows."""
        board = self.board
        assert board is not None
        layout = board.layout
        poses = layout.hand_poses(len(board.hand))
        step = poses[1].x - poses[0].x if len(poses) > 1 else layout.card_w
        px = max(10, round(layout.font_px * 0.95))
        for i, card in enumerate(board.hand[:10]):
            sprite = board.cards.get(card)
            if sprite is None:
                continue
            x = sprite.pose.x - layout.card_w / 2 + min(step, layout.card_w) / 2
            y = sprite.pose.y - sprite.lift + layout.card_h * 0.3
            image = self.assets.text(str((i + 1) % 10), px, WHITE, True, False)
            badge = image.get_rect().inflate(px * 0.7, px * 0.25)
            badge.w = max(badge.w, badge.h)
            badge.center = (round(x), round(y))
            rounded_box(surface, self.assets, badge, (20, 40, 70, 220), badge.h // 2)
            surface.blit(image, image.get_rect(center=badge.center))

    def emote_shown(self, seat: int) -> str | None:
        """The reaction showing by ``seat`` now, if any."""
        shown = self.emotes.get(seat)
        return shown[0] if shown is not None else None

    def _emote_anchor(self, seat: int) -> tuple[float, float]:
        layout = self.layout
        assert layout is not None
        spot = layout.seats.get(seat) if seat != self.seat else None
        if spot is None:  # our own comes from the React button, above the row of buttons
            react = next((b.rect for b in self.buttons if b.name == "emote"), None)
            if react is not None:
                return (react.centerx, react.top - 2)
            return (layout.size[0] - layout.margin * 4, layout.buttons_y - layout.button_h)
        x, y, w, h = spot.plate
        return (x + w / 2, y + h + layout.font_px * 4)

    def seat_status(self, seat: int) -> str | None:
        """What an opponent's seat shows of its connection (``seat_status.*`` key), if any."""
        status = self.statuses[seat] if seat < len(self.statuses) else ""
        return SEAT_STATUS_KEYS.get(status)

    def status(self) -> str:
        tr = self.app.tr
        if self.board is None:
            return tr("table.shuffling")
        if self.view is None:
            return tr("table.dealing")
        if self.over is not None:
            return ""
        if self.watching:
            return self._watch_status()
        if self.pending is not None or not self._caught_up():
            # our action awaits its answer, or the view is older than the table: say only
            # who plays (what we may do comes with the view that catches up)
            board = self.board
            if board.attacker < 0 or board.defender < 0 or board.places[self.seat]:
                return ""
            if board.defender == self.seat:
                return tr("status.attacks_you", name=self.names[board.attacker])
            if board.attacker == self.seat:
                return tr("status.you_attack", name=self.names[board.defender])
            attacker, defender = self.names[board.attacker], self.names[board.defender]
            return tr("status.attacks", attacker=attacker, defender=defender)
        return status_text(self.view, self.names, self.seat, tr)

    def _watch_status(self) -> str:
        """A watcher's line: who attacks whom (as the table shows it now)."""
        board = self.board
        assert board is not None
        if board.attacker < 0 or board.defender < 0:
            return ""
        attacker, defender = self.names[board.attacker], self.names[board.defender]
        return self.app.tr("status.attacks", attacker=attacker, defender=defender)

    def draw(self, surface: pygame.Surface) -> None:
        board, assets = self.board, self.assets
        if board is None:
            surface.blit(assets.felt(surface.get_size()), (0, 0))
            w, h = surface.get_size()
            if self.closed:
                draw_closed(surface, assets, self.closed, self.buttons)
            else:
                draw_text(surface, assets, self.status(), max(14, h // 28), (w / 2, h / 2))
            return
        layout, tr = board.layout, self.app.tr
        turn = self.our_turn()
        draw_board(surface, assets, board, self.names, self.looks(), tr, self.statuses, turn)
        if not self.show_end:
            self._draw_seat_words(surface)
            if self.keyed and not self.overlay:
                self._draw_digits(surface)
        picker = [b for b in self.buttons if b.name.startswith("emote:")]
        if self.over is not None and not self.show_end and not self.closed:
            draw_end_table(surface, assets, board, self.over.result.durak, self.end_show())
        if self.closed:
            draw_closed(surface, assets, self.closed, self.buttons)
        elif self.show_end and self.over is not None:
            show = self.end_show()
            draw_end(surface, assets, self.over, self.names, self.seat, self.buttons, tr, show)
            draw_deal_check(surface, assets, self.over.deal, self.buttons, tr)
        else:
            rest = [b for b in self.buttons if b not in picker]
            draw_buttons(surface, assets, rest, self.hover)
            role = None if self.watching else role_of(board, self.seat)
            draw_status(surface, assets, layout, self.status(), role, tr, turn)
            draw_unsaved(surface, assets, layout, self.room, self.seat, tr)
            if self.watching:  # where a player's hand would be
                at = (layout.size[0] / 2, layout.hand_y)
                px = layout.font_px * 2
                draw_text(surface, assets, tr("table.watching"), px, at, "center", GOLD, True)
            for k, (text, ttl) in enumerate(reversed(self.toasts)):
                draw_toast(surface, assets, layout, text, ttl, k)
            if self.bubble is not None:
                px = round(layout.font_px * 1.05)
                draw_bubble(surface, assets, self.bubble[0], self.bubble[1], px)
        if not self.closed and not self.show_end:
            px = round(layout.font_px * 1.05)
            for seat, (code, _) in sorted(self.emotes.items()):
                key = EMOTE_KEYS[code]
                draw_bubble(surface, assets, tr(key), self._emote_anchor(seat), px)
            draw_buttons(surface, assets, picker, self.hover)  # open over everything
        if self.reconnecting and not self.closed:
            draw_banner(surface, assets, layout, tr("table.reconnecting"))
        if self.overlay == "pause" and not self.closed:
            draw_pause(surface, assets, self.back is not None, tr, self._owner())
            draw_buttons(surface, assets, self.buttons, self.hover)
        elif self.overlay == "log" and not self.closed:
            self._draw_log(surface)
            draw_buttons(surface, assets, self.buttons, self.hover)

    def _draw_log(self, surface: pygame.Surface) -> None:
        tr = self.app.tr
        heading, pairs = log_heading(self.history, self.names, self.log_beaten, tr)
        lines = [
            (line_text(line, self.names, tr), line.kind == "bout") for line in self.history.lines
        ]
        panel = log_panel(surface.get_size(), self.assets)
        draw_log(surface, self.assets, panel, heading, pairs, lines, self.log_scroll, tr)


def picker_rects(
    anchor: pygame.Rect, count: int, size: tuple[int, int], margin: int
) -> list[pygame.Rect]:
    """The emote picker's ``count`` buttons: a column above ``anchor`` (the React button),
    the first nearest it, right-aligned with it; side by side columns when the window is
    too short for one, and always inside the window."""
    w, h = size
    gap = max(2, margin // 2)
    room = anchor.top - gap - margin  # between the window's top margin and the button
    rows = max(1, min(count, (room + gap) // (anchor.h + gap)))
    cols = math.ceil(count / rows)
    rows = math.ceil(count / cols)  # as even as the columns allow
    width = max(1, min(round(anchor.h * 4.2), (w - 2 * margin - (cols - 1) * gap) // cols))
    block = pygame.Rect(0, 0, cols * width + (cols - 1) * gap, rows * anchor.h + (rows - 1) * gap)
    block.bottomright = (anchor.right, anchor.top - gap)
    block.clamp_ip(pygame.Rect(0, 0, w, h).inflate(-2 * margin, -2 * margin))
    rects = []
    for i in range(count):
        col, row = divmod(i, rows)
        x = block.right - (col + 1) * width - col * gap
        y = block.bottom - (row + 1) * anchor.h - row * gap
        rects.append(pygame.Rect(x, y, width, anchor.h))
    return rects


def _statuses(message: RoomChanged) -> tuple[str, ...]:
    return tuple(seat.status for seat in message.room.seats)


def _awaited(view: SeatView) -> bool:
    """Is the game waiting for us: to lead, or to answer an attack?"""
    if view.result is not None or not view.legal:
        return False
    if view.seat == view.defender:
        return not view.taking and any(d is None for _, d in view.table)
    return view.seat == view.attacker and not view.table


def _cards_of(action: Action | None) -> tuple[Card, ...]:
    if action is None:
        return ()
    if isinstance(action, Attack):
        return action.cards
    card = getattr(action, "card", None)
    return (card,) if card is not None else ()
