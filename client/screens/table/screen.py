"""The table scene: shows a game session and turns taps, drags and keys into actions.

Messages from the session are shown one at a time, at the pace ``pacing.Pacer`` keeps: each
event starts its animation (``client.screens.table.board``) and holds the next one back for
a moment: another seat's action long enough to be seen and read, with the seat's word for it
by its plate (``narrate.seat_note``); why the pacing lives in the window and not at the host
is said in ``pacing``. Once the table has caught up, a seat that the view waits for shows
that it is thinking. Only the latest shown snapshot decides what may be played.

The overlays are scenes over the table (``panels``, ``notices``): the pause, the log, the
reactions picker, the end panel and the notice that the table closed. The table pushes them
on its ``overlays`` stack (the app's, or the replay's), hands each what it needs (those that
open during play through ``dialogs``), and leaves out of its own picture what the ones open
cover (``Overlay.hides``). The end of a game (its moment, then its panel) is ``finale``'s.
Its buttons map to their handlers through one table (``actions``). The action in flight is
the session's (``session.inflight``): the table asks it. What a gesture on our hand leaves
until the next one (the chosen card, the keys' focus, the hint bubble) is ``choice``'s;
where a press, a move and a release go (and the cursor), ``gestures``'.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame

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
from client.screens.table.board import Board
from client.screens.table.choice import Choice
from client.screens.table.cues import Cues
from client.screens.table.dialogs import Dialogs
from client.screens.table.draw import (
    SEAT_STATUS_KEYS,
    draw_board,
    draw_digits,
    role_of,
    seat_statuses,
)
from client.screens.table.ending import durak_cards, end_show
from client.screens.table.finale import Finale, Seating
from client.screens.table.gestures import Gestures
from client.screens.table.guard import Guard
from client.screens.table.history import Bout, History
from client.screens.table.hud import (
    EndShow,
    awaited,
    draw_banner,
    draw_buttons,
    draw_paused,
    draw_recap,
    draw_status,
    draw_unsaved,
    draw_watching,
    prompt,
    waiting_for,
)
from client.screens.table.layout import Layout
from client.screens.table.narrate import owner_toast, recap_text
from client.screens.table.notices import ClosedScene
from client.screens.table.pacing import Hold, Paced, Pacer
from client.screens.table.panels import Covers
from client.screens.table.row import table_buttons
from client.screens.table.tags import draw_tags
from client.screens.table.warm import Warmer
from client.screens.table.where import Where, may_draw
from client.ui.pointer import Input
from client.ui.render import draw_text
from client.ui.scene import Director, Scene, Stack
from client.ui.widgets import Button
from engine import Action, Card, Dealt, Pass, SeatView, Take
from protocol import Room

__all__ = ["TableScene"]


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
        overlays: Stack | None = None,
        where: Where = Where.COMPUTER,
        party: str = "",
    ) -> None:
        """``backlog``: messages the session said before the scene took it over (the room
        screen hands over ``Seated`` and the start of the game). ``back``: at a LAN table,
        the room screen that handed the session over; Rematch returns the session to it
        (with the room as last heard) instead of starting the next game at once.
        ``tally``: counts each game's end for our seat (the statistics) and gives the end
        to show (the series remembered across restarts of the window). ``record``: told
        every message as it is taken (the game files keep the games). ``kept``: the game
        kept last, which the end's Review opens in the coach. ``overlays``: where the
        table's overlays go (by default the app's stack). ``where``: against the computer,
        at a LAN table, at a party's or in a replay, whence what the table offers
        (``client.screens.table.where``). ``party``: at a party's table, its round and
        table, which its end names in place of the series."""
        self.app = app
        self.where, self.party = where, party
        self.covers = Covers(overlays if overlays is not None else app, self)
        self.assets = app.assets
        self.session = session
        self.back = back
        self.room: Room | None = None  # the room as last heard (during and after the game)
        self.warmer = Warmer(app.assets, board=lambda: self.board)  # images made ahead of need
        self.pacer = Pacer(
            session.inbox, self._show, self._at_once, record, lambda: self.warmer.ready
        )
        self.statuses: tuple[str, ...] = ()  # each seat's status from the room, if known
        self.board: Board | None = None
        self.history = History(0)  # this game's bouts and log, as the window saw them
        self.cues = Cues()  # toasts, the seats' words and reactions, the sounds due
        self.view: SeatView | None = None
        self.names: tuple[str, ...] = ()
        self.seat = 0
        self.watching = False  # a watcher's table: no hand, no actions, reactions only
        self.behind = False  # events shown since the latest snapshot: the view is older
        # the chosen card, the keys' focus, the hint bubble
        self.guard = Guard()  # input aimed at a bout or role just ended is held off
        self.choice = Choice(
            app, lambda: self.board, self._input_view, self._decide, self.press_button
        )
        # the bout that ended last, said in a line until our next decision (6 seats can
        # play a whole bout between two of ours); and the one said before
        self.recap: Bout | None = None
        self._recapped: Bout | None = None
        self.reconnecting = False  # our connection dropped: a banner until the resync
        self.returned = False  # the session went back to the room screen
        self.buttons: list[Button] = []
        self.dialogs = Dialogs(  # the pause, the log, the reactions picker
            app,
            self.covers,
            self.handle,
            session,
            seating=lambda: Seating(self.seat, self.names, self.watching),
            where=lambda: self.where,
            room=lambda: self.room,
            history=lambda: self.history,
            buttons=lambda: self.buttons,
            layout=lambda: self.layout,
            owner=self._owner,
            leave=self._leave,
        )
        self.actions: dict[str, Callable[[], None]] = {  # what each button does
            "take": lambda: self._send_first(Take),
            "pass": lambda: self._send_first(Pass),
            "transfer": lambda: self.choice.transfer(show=False),
            "show": lambda: self.choice.transfer(show=True),
            "menu": self._menu,
            "log": lambda: self.dialogs.open_log(beaten=False),
            "sound": self._toggle_sound,
            "rematch": self._rematch,
            "review": lambda: self.finale.review(),
            "result": lambda: self.finale.panel(),
            "emote": self.dialogs.toggle_picker,
        }
        if not where.live:
            del self.actions["emote"]
        if not where.rematch:
            del self.actions["rematch"]
        self.gestures = Gestures(  # where a press, a move and a release go; the cursor
            self.choice,
            self.covers,
            board=lambda: self.board,
            buttons=lambda: self.buttons,
            press=self.press_button,
            history=lambda: self.history,
            beaten=lambda: self.dialogs.open_log(beaten=True),
        )
        self.finale = Finale(  # the end: its moment, its panel
            app,
            self.covers,
            self.handle,
            seating=lambda: Seating(self.seat, self.names, self.watching),
            show=self.end_show,
            coming=lambda: self.pacer.upcoming(GameOver),
            buttons=lambda: self._compute_buttons(at_end=True),
            actions=self.actions,
            tally=tally,
            kept=kept,
        )
        self.pacer.take(backlog)  # (the room and reactions in it are shown at once)

    # --- scene --------------------------------------------------------------------------

    def enter(self) -> None:
        listen(self.session.inbox, self.app.wake)

    def exit(self) -> None:
        self.gestures.set_cursor(leaving=True)
        if not self.returned:  # (a session handed back to the room stays open)
            self.session.close()

    def resize(self, size: tuple[int, int]) -> None:
        if self.board is not None:
            self.board.relayout(Layout(size, self.board.rules.players, self.seat))
            self.warmer.prepare(self.board.layout, self.board.rules)

    @property
    def layout(self) -> Layout | None:
        return self.board.layout if self.board is not None else None

    @property
    def over(self) -> GameOver | None:
        """The game's end, once the table has shown it (``finale``'s)."""
        return self.finale.over

    @over.setter
    def over(self, over: GameOver | None) -> None:
        self.finale.over = over

    # --- messages -----------------------------------------------------------------------

    def _at_once(self, message: RoomChanged | Emoted | Cheered) -> None:
        """The room and the reactions show as they arrive (a watcher's as a toast)."""
        if isinstance(message, RoomChanged):
            self.statuses = seat_statuses(message.room)
            me = None if self.watching else self.seat
            passed = owner_toast(self.room, message.room, me, self.app.tr)
            if passed is not None and self.where is not Where.PARTY:  # (nobody runs it)
                self.cues.toast(passed)
            self.room = message.room
        else:
            self.cues.react(message, self.app.tr)

    def _show(self, item: Paced) -> Hold:
        """Show one message or event; how long it holds back the next."""
        if isinstance(item, Seated):
            self.seat, self.names = item.seat, item.names
            self.watching = item.seat == WATCHING
            layout = Layout(self.app.size, item.rules.players, item.seat)
            self.board = Board(layout, item.seat, item.rules, self.app.settings.speed)
            self.history = History(item.rules.players)
            self.warmer.prepare(layout, item.rules)
            return Hold(0.0)
        if isinstance(item, Closed):  # also before we are seated (an unreachable table)
            self.reconnecting = False
            party = self.where is Where.PARTY
            if party and self.over is not None:
                return Hold(0.0)  # the party closes its played tables: the standings come next
            why = closed_text(item.code, item.text, self.app.tr, TABLE_CLOSED_KEYS)
            label = self.app.tr("party.standings") if party else ""  # (where Menu leads)
            ClosedScene.cover(
                self.covers, self.app, self.handle, text=why, leave=self._quit, label=label
            )
            return Hold(0.0)
        if isinstance(item, Reconnecting):
            self.reconnecting = True
            self.session.inflight.shown(item)  # an action sent before the drop gets no answer
            return Hold(0.0)
        board = self.board
        if board is None:
            return Hold(0.0)
        if isinstance(item, Snapshot):
            self.reconnecting = False
            waited = self.view is not None and awaited(self.view)
            self.view = item.view
            self.session.inflight.shown(item)
            self.behind = False
            board.resync(item.view)
            if awaited(item.view) and not waited:
                self.cues.sounds.append((0.0, "turn"))
            self.choice.tidy()
            return Hold(0.0)
        if isinstance(item, Rejected):
            self.session.inflight.shown(item)
            board.arrange()
            self.choice.say(refusal_text(item.code, item.text, self.app.tr), None)
            return Hold(0.0)
        if isinstance(item, GameOver):
            moment = self.finale.begin(item)
            if moment is None:
                return Hold(0.0)
            self.cues.sounds.append((0.0, moment.sound))
            return Hold(moment.length)
        if isinstance(item, Dealt) and (self.over is not None or board.discard or board.table):
            self._new_board()
            board = self.board
            assert board is not None
        board.speed = speed = self.app.settings.speed
        hold = board.apply(item)  # type: ignore[arg-type]
        self.history.add(item)  # type: ignore[arg-type]
        self.behind = True  # until the snapshot after it
        read = self.cues.told(item, self.seat, self.names, hold, speed, self.app.tr)  # type: ignore[arg-type]
        self.cues.sounds.extend(board.cues)
        board.cues.clear()
        return Hold(hold, read)

    def _new_board(self) -> None:
        assert self.board is not None
        self.board = Board(self.board.layout, self.seat, self.board.rules, self.app.settings.speed)
        self.history = History(self.board.rules.players)
        self.cues.notes.clear()
        self.view = None
        self.finale.clear()

    # --- time ---------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        self.warmer.run()
        boost = self.pacer.update(dt)
        if self.board is not None:
            self.choice.lift(self.gestures.hovered(), self.pending)
            self.board.update(dt * boost)
            self.guard.update(dt)
            ended = self.history.last_finished()
            if ended is not self._recapped:
                self.recap = self._recapped = ended
            if self.history.bouts and not self.watching:  # the bout, its first card, our role
                board = self.board
                self.guard.see(
                    (len(self.history.bouts), bool(board.table), role_of(board, self.seat))
                )
        self.buttons = [] if "buttons" in self.covers.hidden() else self._compute_buttons()
        self.gestures.set_cursor()
        self.choice.update(dt)
        self.finale.update(dt, self.board)
        due = self.cues.update(dt, self._deciding())
        for name in due:
            if not self.app.settings.muted:
                self.assets.play(name, 0.7)

    def _deciding(self) -> tuple[int, ...]:
        """The other seats the table waits for, once it shows what the latest view says."""
        view = self.view
        if view is None or self.over is not None or not self._caught_up() or not self.idle:
            return ()
        if not self.where.live:
            return ()  # a replay: the moves are all known, nobody is thinking
        seats = waiting_for(view)
        if len(seats) > 1 and view.legal:
            return ()  # we may add too: no need to point at the others who may
        return tuple(s for s in seats if s != self.seat)

    def _owner(self) -> bool:
        """We own the room of this table, and its game is on: we may end it as a draw."""
        return may_draw(self.where, self.room, self.seat) and self._playing()

    def our_turn(self) -> bool:
        """The table waits for us (to lead or to answer), and shows what the view says."""
        view = self._acting_view()
        return view is not None and awaited(view) and self._caught_up()

    def thinking(self) -> tuple[int, ...]:
        """The seats shown as thinking: the table has waited a moment for them."""
        return self.cues.thinking()

    def note_shown(self, seat: int) -> str | None:
        """What ``seat``'s word by its plate says it did ("throws in"...), if one shows."""
        return self.cues.note_shown(seat)

    def emote_shown(self, seat: int) -> str | None:
        """The reaction showing by ``seat`` now, if any."""
        return self.cues.emote_shown(seat)

    def next_frame(self) -> float:
        """Frames while anything moves, fades, counts down or waits its turn to be shown
        (a seat's word, the thinking cue's dots); none while the table is still (a message
        from the host wakes the window)."""
        board = self.board
        if (
            not self.pacer.idle
            or not self.session.inbox.empty()
            or self.cues.busy
            or self.choice.bubble is not None
            or self.warmer.jobs
            or self.finale.moment is not None
            or (board is not None and (board.busy or board.lifting))
        ):
            return 0.0
        return min(
            self.guard.next_frame(), self.cues.next_step()
        )  # the thinking cue: when it shows, each step of its dots

    @property
    def idle(self) -> bool:
        """Nothing waiting to be shown (tests use it to step until the table is still)."""
        return self.pacer.idle and self.finale.moment is None

    # --- what may be played ---------------------------------------------------------------

    @property
    def pending(self) -> Action | None:
        """Our action that awaits its answer (the session keeps it)."""
        return self.session.inflight.action

    def _acting_view(self) -> SeatView | None:
        """The view we may act on: none while an action awaits its answer or the game is
        over."""
        return self.view if self.pending is None and self.over is None else None

    def _input_view(self) -> SeatView | None:
        """The view a card or key of ours acts on: none for a moment after the bout or our
        role in it changed (``guard``), as none while an action awaits its answer."""
        return None if self.guard.holding else self._acting_view()

    def _legal(self, kind: type) -> list[Action]:
        view = self._acting_view()
        return [a for a in view.legal if isinstance(a, kind)] if view is not None else []

    def send(self, action: Action) -> None:
        self.choice.play(action)

    def _decide(self, action: Action) -> None:
        """Send our action: the last bout's line has served."""
        self.recap = None
        self.session.send(action)

    def looks(self) -> dict[Card, str]:
        """How each card of our hand (and each target of the chosen card) is drawn."""
        return self.choice.looks(self.gestures.drag.dragging)

    # --- input --------------------------------------------------------------------------

    def handle(self, event: Input) -> None:
        self.gestures.handle(event)

    def press_button(self, name: str) -> None:
        if name in ACTION_BUTTONS and (not self._caught_up() or self.guard.holding):
            return  # as its button: not while the table is still changing
        action = self.actions.get(name)
        if action is not None:
            action()

    def _menu(self) -> None:
        if self._playing():
            self.covers.push(self.dialogs.pause())  # ask first
        else:
            self._quit()

    def _leave(self) -> None:
        """Leave the game (a LAN game's seat goes to an AI) and the table."""
        if self.where.hands_over and self._playing():
            self.session.leave()
        self._quit()

    def _quit(self) -> None:
        """Off the table, its overlays first."""
        self.covers.restack(drop=Scene)
        self.app.pop()

    def _toggle_sound(self) -> None:
        self.app.settings.muted = not self.app.settings.muted
        self.app.save_settings()

    def _rematch(self) -> None:
        if self.where is Where.LAN:  # everyone readies up in the room
            self._back_to_room()
        else:  # against the computer: the next game at once
            self.session.rematch()

    def _playing(self) -> bool:
        """A game is on: leaving it now asks first."""
        return self.board is not None and self.over is None

    def end_show(self, over: GameOver | None = None) -> EndShow:
        """What the end (``over``, by default the one shown) shows beside the ranking: among
        it the Durak's cards (None for one the window cannot name)."""
        over, board = over or self.over, self.board
        if over is None or board is None:
            return EndShow()
        view = None if self.behind else self.view
        cards = durak_cards(over, board, view, self.history)
        return end_show(over, cards, self.history, self.names, self.seat, self.app.tr, self.party)

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
        self._quit()

    def _send_first(self, kind: type) -> None:
        found = self._legal(kind)
        if found:
            self.send(found[0])

    # --- drawing ------------------------------------------------------------------------

    def _caught_up(self) -> bool:
        """The table shows what the latest view says: no event shown since, no card still on
        its way to the bout. Until then the buttons that answer the table stay away (the
        view would offer Beaten while the card that changes it is still in flight)."""
        return not self.behind and self.board is not None and not self.board.landing

    def _compute_buttons(self, at_end: bool = False) -> list[Button]:
        layout = self.layout
        if layout is None:
            return []
        view = self._acting_view() if self._caught_up() and not at_end else None
        log = bool(self.history.lines) and "log" not in self.covers.hidden()  # by the discard
        over, muted = at_end or self.over is not None, self.app.settings.muted
        return table_buttons(
            layout,
            self.assets,
            view,
            over=over,
            muted=muted,
            watching=self.watching,
            log=log,
            tr=self.app.tr,
            react=self.where.live,
            rematch="rematch" in self.actions,
        )

    def seat_status(self, seat: int) -> str | None:
        """What an opponent's seat shows of its connection (``seat_status.*`` key), if any."""
        status = self.statuses[seat] if seat < len(self.statuses) else ""
        return SEAT_STATUS_KEYS.get(status)

    def status(self) -> str:
        """The prompt line (``hud.prompt``): what we may do comes with the view that
        catches up with the table, once our action has its answer."""
        if self.over is not None and self.view is not None:
            return ""
        me = None if self.watching else self.seat
        settled = self.pending is None and self._caught_up()
        return prompt(self.board, self.view, self.names, me, settled, self.app.tr)

    def draw(self, surface: pygame.Surface) -> None:
        board, assets = self.board, self.assets
        hidden = self.covers.hidden()  # what the overlays over the table cover
        if board is None or not self.warmer.ready:  # (for a few frames: see ``warm``)
            surface.blit(assets.felt(surface.get_size()), (0, 0))
            w, h = surface.get_size()
            if "hud" not in hidden:
                draw_text(surface, assets, self.status(), max(14, h // 28), (w / 2, h / 2))
            return
        layout, tr = board.layout, self.app.tr
        turn = self.our_turn()
        badges = () if self.room is None else tuple(s.look for s in self.room.seats)
        face_up = self.finale.face_up(board, hidden)  # the Durak's cards, at the end
        stamped = self.finale.stamped(board, hidden)
        looks, names, statuses = self.looks(), self.names, self.statuses
        draw_board(
            surface, assets, board, names, looks, tr, statuses, turn, badges, face_up, stamped
        )
        if "words" not in hidden:
            draw_tags(surface, assets, board, self.names, tr)
            self.cues.draw_words(surface, assets, layout, tr)
            self.cues.draw_cheers(surface, assets, layout, tr)
        if self.choice.keyed and "digits" not in hidden:
            draw_digits(surface, assets, board, self.choice.numbers)
        self.finale.draw(surface, board, hidden)
        if "hud" not in hidden:
            lent = self.covers.lent()  # an overlay's, where ours would be (see ``panels``)
            hover = self.gestures.hover
            draw_buttons(surface, assets, self.buttons if lent is None else lent, hover)
            role = None if self.watching else role_of(board, self.seat)
            flash = self.guard.flash()
            draw_status(surface, assets, layout, self.status(), role, tr, turn, flash)
            if self.recap is not None and self.over is None:
                me = -1 if self.watching else self.seat
                draw_recap(surface, assets, layout, recap_text(self.recap, names, tr, me))
            draw_unsaved(surface, assets, layout, self.room, self.seat, tr)
            if self.watching:  # (the player who paused has the pause open)
                draw_paused(surface, assets, layout, self.room, tr)
                draw_watching(surface, assets, layout, tr)
            self.cues.draw_toasts(surface, assets, layout)
            self.choice.draw_bubble(surface, board)
        if "reactions" not in hidden:
            self.cues.draw_emotes(surface, assets, layout, self.seat, self.dialogs.react(), tr)
        if self.reconnecting and "banner" not in hidden:
            draw_banner(surface, assets, layout, tr("table.reconnecting"))
