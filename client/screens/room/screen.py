"""The room of a LAN table before the game: the seats around the table, who sits where.

Players who joined (each with a ready mark), AI seats with their level and open seats sit
around an oval table, ours at the bottom; in a window too narrow for that (a phone held
upright) they sit in a column above a smaller table, ours below it (``seating``).
The owner (the first human) fills an open seat with an AI level or clears it with the
chips beneath it, and starts the game once every seat is taken and every other player is
ready (the Start is the owner's own readiness); the others say they are ready (the Ready
button, ``R`` or ``Space``) and wait for the owner. When the game starts, the table
scene takes the same session over (with what the session has said so far). Leaving the
table leaves this screen too; its Rematch comes back here with the room as it is now (a
player's Rematch also marks them ready).

A watcher (``Seated(WATCHING, ...)``) sees the same room from outside, seat 0 at the
bottom: no chips, no Ready, and a "Take seat" button while a seat is open in the lobby
(it then sits there and the screen is a player's). The room lists who is watching.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Protocol

import pygame

from client.i18n.refusals import closed_text, refusal_text
from client.i18n.rulestext import rules_summary
from client.net.remote import seat_names
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
    drain,
    listen,
)
from client.screens.choices import ai_names, chosen_levels, levels
from client.screens.room.chips import (
    CLEAR,
    KICK,
    MENU,
    Chip,
    chip_label,
    chip_px,
    chips_w,
    seat_chips,
)
from client.screens.room.header import Header, draw_header, measure_header
from client.screens.room.middle import Line, draw_lines, line_step, status_line, wrap_lines
from client.screens.room.phones import PhonesScene
from client.screens.room.plates import draw_seat, pill_h, seat_words, second_line
from client.screens.room.seating import Measure, Seating, Space, arrange, chip_h
from client.screens.room.seatmenu import Choice, SeatMenuScene
from client.screens.room.share import FIREWALL_MIN_PX, share_lines
from client.ui.confirm import ConfirmScene
from client.ui.pointer import Input, Key
from client.ui.render import SOFT, draw_button, line_h
from client.ui.scene import ButtonScene, Director
from client.ui.widgets import Button
from protocol import (
    Room,
    SetSeat,
    all_seated,
    room_refusal,
    sit_refusal,
    start_refusal,
    waiting_for,
)

__all__ = ["RoomScene", "RoomSession"]

SENT_AWAY = ("kicked", "idle")  # a session closed so: we no longer have a seat
NAME_KEPT = 12  # a longer name is cut short ("…") rather than widen every seat's box


class RoomSession(Session, Protocol):
    """A session whose owner can set the room up (``client.net.remote.NetSession``)."""

    def start(self) -> None: ...

    def ready(self, ready: bool = True) -> None: ...

    def set_seat(self, seat: int, ai: str | None) -> None: ...

    def kick(self, seat: int) -> None: ...

    def sit(self) -> None: ...


class RoomScene(ButtonScene):
    def __init__(
        self,
        app: Director,
        session: RoomSession,
        invite: str = "",
        note: str = "",
        backlog: Sequence[Message] = (),
        sent_away: Callable[[str], None] | None = None,
        page: str = "",
    ) -> None:
        """``backlog``: what the session said before this screen took it over (the Join
        screen's first message); ``sent_away``: where we go back to, with why, if the
        table sends us away (the Join screen's); ``page``: the phones' page of a table we
        host (its Phones button shows the address and its QR code)."""
        self.app = app
        self.assets = app.assets
        self.session = session
        self.invite = invite  # the link to share ("" when we joined someone's table)
        self.note = note  # e.g. "copied to the clipboard"
        self.page = page  # the phones' page ("" when none, or not ours)
        self.backlog = list(backlog)
        self.sent_away = sent_away
        self.sent_off = False  # the table sent us away: we leave for Join
        self.seat = 0
        self.room: Room | None = None
        self.seated: Seated | None = None
        self.message = ""
        self.closed = False
        self.handed = False  # the table scene has the session now
        self.hover = None
        self.size = app.size
        self._seating: tuple[object, Seating] | None = None  # the last one, and what for

    # --- life -----------------------------------------------------------------------------

    def enter(self) -> None:
        listen(self.session.inbox, self.app.wake)

    def next_frame(self) -> float:
        return 0.0 if self.handed else math.inf  # (the host's messages wake the window)

    def exit(self) -> None:
        if not self.handed:
            self.session.close()

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size

    @property
    def owner(self) -> bool:
        return self.room is not None and self.room.owner == self.seat

    @property
    def watching(self) -> bool:
        return self.seat == WATCHING

    @property
    def me_ready(self) -> bool:
        """Our own ready mark, as the host last said."""
        room = self.room
        return room is not None and 0 <= self.seat < len(room.seats) and room.seats[self.seat].ready

    def can_sit(self) -> bool:
        """A watcher may take a seat: the host would seat us (``protocol.sit_refusal``)."""
        return self.watching and self.room is not None and sit_refusal(self.room) is None

    def full(self) -> bool:
        """Every seat is taken."""
        return self.room is not None and all_seated(self.room)

    def waiting(self) -> list[int]:
        """The players the owner's start waits for: every other human not ready."""
        return [] if self.room is None else waiting_for(self.room)

    def can_start(self) -> bool:
        """The host would start the game at our word (``protocol.start_refusal``): we own
        the room, every seat is taken and every other player is ready."""
        return self.room is not None and start_refusal(self.room, self.seat) is None

    def update(self, dt: float) -> None:
        if self.handed:  # back from the game: the table is left too
            self.app.pop()
            return
        backlog, self.backlog = self.backlog, []
        for message in itertools.chain(backlog, drain(self.session.inbox)):
            if self.sent_off:
                break
            self._receive(message)
            if self.handed:  # the rest is the table scene's
                return
        if self.sent_off and self.sent_away is not None:  # (here, or as the table handed back)
            back, self.sent_away = self.sent_away, None
            self.app.pop()  # back at Join, which says why
            back(self.message)

    def _receive(self, message: Message) -> None:
        tr = self.app.tr
        if isinstance(message, Seated):
            self.seated, self.seat = message, message.seat
        elif isinstance(message, RoomChanged):
            self.room = message.room
            if self.message == tr("table.reconnecting"):  # back: the host sent the room
                self.message = ""
        elif isinstance(message, Emoted | Cheered):
            pass  # reactions show at the table
        elif isinstance(message, Reconnecting):
            self.message = tr("table.reconnecting")
        elif isinstance(message, Rejected):
            self.message = refusal_text(message.code, message.text, tr)
        elif isinstance(message, Closed):
            self.message = closed_text(message.code, message.text, tr)
            self.closed = True
            if message.code in SENT_AWAY and self.sent_away is not None:
                self.sent_off = True  # no longer seated: back to Join (``update``)
        else:  # the game has started: the table scene takes over
            self._hand_over(message)

    def _hand_over(self, first: Message) -> None:
        room, seated = self.room, self.seated
        backlog: list[Message] = []
        if room is not None:
            backlog.append(Seated(self.seat, seat_names(room, ai_names(self.app.tr)), room.rules))
            backlog.append(RoomChanged(room))
        elif seated is not None:
            backlog.append(seated)
        backlog.append(first)
        self.handed = True
        tally = None if self.watching else self._tally  # (a watched game is not ours)
        self.app.show(
            "lan_table", session=self.session, backlog=backlog, back=self._come_back, tally=tally
        )

    def _tally(self, over: GameOver, seat: int) -> GameOver:
        """A LAN game counts in the statistics; its series is the host's."""
        return self.app.record_game(over, seat, None)

    def _come_back(self, messages: list[Message]) -> None:
        """The table's Rematch brings the session back here, with what it last heard of the
        room (and the end of the session, if it ended). A player's Rematch is their ready
        mark; the owner starts again from here."""
        self.handed = False
        self.message = ""
        for message in messages:
            self._receive(message)
        if not self.owner and not self.watching and not self.closed and not self.me_ready:
            self.session.ready(True)

    # --- geometry -------------------------------------------------------------------------

    def _px(self) -> int:
        w, h = self.size
        most = max(22, round(w * 0.04)) if h > w else 22  # a big phone held upright: larger
        return max(11, min(most, round(h * 0.03)))

    def header(self) -> Header:
        """The title and the rules summary, measured for this window and room."""
        room = self.room
        summary = rules_summary(room.rules, self.app.tr) if room is not None else None
        return measure_header(self.assets, self.size, self._px(), self._title(), summary)

    def _title(self) -> str:
        return self.room.name if self.room is not None else self.app.tr("join.connecting")

    def _line_h(self, px: int, bold: bool = False) -> int:
        return line_h(self.assets, px, bold)

    def seating(self) -> Seating:
        """Where the table and the seats go (``seating``), worked out once for each
        window size, room and language."""
        room = self.room
        seats = room.seats if room is not None else ()
        words = (self.app.settings.language, self.message, self.invite, self.note)
        key = (self.size, seats, self.owner, self.seat, words)
        if self._seating is None or self._seating[0] != key:
            chips = tuple(self.owner and i != self.seat for i in range(len(seats)))
            measure = Measure(self._box_w, self._box_h, self._middle_h, self._share_h, self._wide)
            top, button_h = self.header().bottom, self.button_h()
            ours = max(self.seat, 0)  # a watcher sees the table from seat 0's side
            space = Space(self.size, top, button_h, ours, chips, measure)
            seating = arrange(space, self._px())
            self._seating = (key, seating)
        return self._seating[1]

    def _box_w(self, px: int, menus: bool) -> int:
        """The narrowest a seat's box may be with its words set at ``px``: its name a little
        smaller at most (a long one cut short), and, for the owner, a row of chips with
        every label readable (or, with ``menus``, the one chip that opens them)."""
        if self.room is None:
            return 0
        bold = self.assets.font(round(px * 0.9), True)
        names = [
            seat_words(self.room, i, self.seat, self.app.tr).name
            for i in range(len(self.room.seats))
        ]
        kept = [name if len(name) <= NAME_KEPT else name[:NAME_KEPT] + "…" for name in names]
        need = max((bold.size(name)[0] + 20 for name in kept), default=0)
        if not self.owner:
            return need
        return max(need, chips_w(self.assets, self.app.tr, self.room, self.seat, px, menus))

    def _box_h(self, px: int, chips: bool, column: bool) -> int:
        """A seat's box: in a column, a line of words over its chips; around the table,
        the name over a second line (a level, a mark) over its chips."""
        height = chip_h(px)
        if column:
            return round(px * 2.1) + height + 8 if chips else round(px * 2.4)
        below = second_line(self.assets, px) + (self._line_h(round(px * 0.85)) if chips else 0)
        if chips:
            return max(round(px * 5.4), below + 2 + height + 8)
        return max(round(px * 3.6), below + pill_h(self.assets, round(px * 0.8)) + round(px * 0.4))

    def _middle_h(self, px: int, width: int) -> int:
        return len(self._middle_lines(px, width)) * line_step(self.assets, px)

    def _share_h(self, px: int, width: int) -> int:
        return len(self._share_lines(px, width)) * line_step(self.assets, px)

    def _wide(self, px: int, width: int, share: bool) -> bool:
        """A word of the table's (with ``share``, of the host's lines too) is wider than
        ``width`` at ``px``: the invite link, which no line break shortens."""
        lines = self._middle_lines(px, width) + (self._share_lines(px, width) if share else [])
        font = self.assets.font(px, False)
        return any(font.size(text)[0] > width for text, _ in lines)

    def table(self) -> pygame.Rect:
        return self.seating().table

    def seat_rects(self) -> list[pygame.Rect]:
        """One box a seat: around the oval or in a column (``seating``), ours nearest
        the player."""
        if self.room is None:
            return []
        return list(self.seating().boxes)

    def chips(self) -> list[Chip]:
        """The owner's chips under every other seat: a level, or clear, where no player
        sits (or one chip that opens those, ``Seating.menus``); "send away" under another
        player's seat (a squatter cannot hold a table)."""
        if self.room is None or not self.owner:
            return []
        seating = self.seating()
        return seat_chips(self.room, self.seat, seating.boxes, seating.chip_h(), seating.menus)

    def fill_level(self) -> str:
        """The level an open seat is filled with: the first opponent's of the start screen."""
        return chosen_levels(self.app.settings, 2)[0]

    def open_seats(self) -> list[int]:
        """The empty seats the room's rules let us fill with an AI now (``room_rules``)."""
        room = self.room
        if room is None or self.closed:
            return []
        level = self.fill_level()
        return [
            i
            for i, seat in enumerate(room.seats)
            if seat.kind == "empty"
            and room_refusal(room, self.seat, SetSeat(0, i, level), lambda lv: lv in levels())
            is None
        ]

    def buttons(self) -> list[Button]:
        w, h = self.size
        tr = self.app.tr
        bh = self.button_h()
        phones = bool(self.page) and not self.closed and self.room is not None
        bw = round(min((w - 48) / (3 if phones else 2), bh * 5))
        leave = pygame.Rect(0, h - round(bh * 1.35), bw, bh)
        if self.closed or self.room is None:
            leave.centerx = w // 2
            return [Button(leave, "leave", tr("room.leave"))]
        right = leave.copy()  # Start (the owner's) or Ready, beside Leave
        extra: list[Button] = []
        if phones:  # Phones | Leave | Start: the page's code, for the guests with a phone
            leave.centerx = w // 2
            right.left = leave.right + 16
            shown = leave.move(-(bw + 16), 0)
            extra = [Button(shown, "phones", tr("room.phones"), style="secondary")]
        else:
            right.left = w // 2 + 8
            leave.right = w // 2 - 8
        if self.owner and not self.can_start() and self.open_seats():
            found = [Button(right, "fill", tr("room.fill"), style="primary")]  # (not yet Start)
        elif self.owner:
            found = [Button(right, "start", tr("room.start"), self.can_start(), "primary")]
        elif self.watching:
            found = [Button(right, "sit", tr("room.take_seat"), self.can_sit(), "primary")]
        else:
            label = tr("room.not_ready_button" if self.me_ready else "room.ready_button")
            style = "secondary" if self.me_ready else "primary"
            found = [Button(right, "ready", label, style=style)]
        return [*found, Button(leave, "leave", tr("room.leave")), *extra]

    # --- input ----------------------------------------------------------------------------

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            if event.key == pygame.K_ESCAPE:
                self.app.pop()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.activate("start" if self.owner else "sit" if self.watching else "ready")
            elif event.key in (pygame.K_r, pygame.K_SPACE):
                self.activate("ready")
            return
        if self.press(event):
            return
        for chip, seat, choice in self.chips():
            if chip.collidepoint(event.pos) and not self.closed:
                self.message = ""
                if choice == KICK:
                    self.app.push(self._send_away_question(seat))
                elif choice == MENU:
                    self.app.push(self._seat_menu(chip, seat))
                else:
                    self.session.set_seat(seat, None if choice == CLEAR else choice)
                return

    def _send_away_question(self, seat: int) -> ConfirmScene:
        """Send the player of ``seat`` away? (one tap beside their mark did it at once)"""
        tr = self.app.tr
        assert self.room is not None
        name = self.room.seats[seat].name
        return ConfirmScene(
            self.app,
            question=tr("room.kick_question", name=name),
            detail=tr("room.kick_detail", name=name),
            yes=tr("room.kick"),
            no=tr("room.kick_no"),
            on_yes=lambda: self.session.kick(seat),
            danger=True,
        )

    def _seat_menu(self, chip: pygame.Rect, seat: int) -> SeatMenuScene:
        """The row of chips seat ``seat`` has no room for, opened from its one chip: the
        levels (its own marked) and, under an AI, back to an open seat."""
        tr = self.app.tr
        assert self.room is not None
        info = self.room.seats[seat]
        choices = [
            Choice(level, tr("level." + level), "chosen" if info.level == level else "secondary")
            for level in levels()
        ]
        if info.kind == "ai":
            choices.append(Choice(CLEAR, "✕ " + tr("room.open"), "secondary"))

        def choose(choice: str) -> None:
            if self.room is not None and self.room.seats[seat].kind != "human" and not self.closed:
                self.message = ""
                self.session.set_seat(seat, None if choice == CLEAR else choice)

        title = seat_words(self.room, seat, self.seat, tr).name
        return SeatMenuScene(self.app, chip, title, choices, choose)

    def activate(self, name: str) -> None:
        if name == "leave":
            self.app.pop()
        elif name == "phones" and self.page:
            self.app.push(PhonesScene(self.app, self.page))
        elif name == "fill" and self.owner:  # an AI in every open seat, in one tap
            level = self.fill_level()
            for seat in self.open_seats():
                self.session.set_seat(seat, level)
        elif name == "start" and self.owner and self.can_start() and not self.closed:
            self.message = ""
            self.session.start()
        elif name == "sit" and self.can_sit() and not self.closed:
            self.message = ""
            self.session.sit()
        elif name == "ready" and not self.owner and self.room is not None and not self.closed:
            self.message = ""
            self.session.ready(not self.me_ready)

    # --- drawing --------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        room = self.room
        locked = room is not None and room.password
        draw_header(surface, self.assets, self.header(), self._title(), locked)
        seating = self.seating()
        px, table = seating.px, seating.table
        if seating.column:  # a table seen from the side of its long edge
            radius = min(table.h // 2, round(px * 2.5))
            pygame.draw.rect(surface, (22, 60, 40), table.move(0, 6), border_radius=radius)
            pygame.draw.rect(surface, (30, 96, 60), table, border_radius=radius)
            rim = max(4, px // 4)
            pygame.draw.rect(surface, (120, 90, 50), table, rim, border_radius=radius)
            self._draw_middle(surface, table, px, 0.85, False)
        else:
            pygame.draw.ellipse(surface, (22, 60, 40), table.move(0, 6))
            pygame.draw.ellipse(surface, (30, 96, 60), table)
            pygame.draw.ellipse(surface, (120, 90, 50), table, max(4, table.h // 24))
            self._draw_middle(surface, table, seating.words_px, 0.78, seating.strip is not None)
        if seating.strip is not None:  # the host's lines, under the seats
            strip, strip_px = seating.strip, seating.strip_px
            wrapped = self._share_lines(strip_px, strip.w)
            draw_lines(surface, self.assets, wrapped, strip.center, strip_px, strip.w)
        if room is not None:
            chipped = {seat_index for _, seat_index, _ in self.chips()}
            for i, (rect, seat) in enumerate(zip(self.seat_rects(), room.seats, strict=True)):
                words = seat_words(room, i, self.seat, self.app.tr)
                empty = seat.kind == "empty"
                draw_seat(
                    surface, self.assets, rect, words, px, seating.column, empty, i in chipped
                )
        chips = self.chips()
        sizes = chip_px(self.assets, self.app.tr, room, chips) if room is not None else {}
        for chip, seat_index, choice in chips:
            hover = self.hover is not None and chip.collidepoint(self.hover)
            assert room is not None
            chosen = room.seats[seat_index].level == choice
            style = "danger" if choice == KICK else "chosen" if chosen else "secondary"
            label = chip_label(self.app.tr, room, choice, seat_index)
            draw_button(surface, self.assets, chip, label, style, hover, px=sizes[seat_index])
        self.draw_buttons(surface, self.assets)

    def _middle_lines(self, px: int, width: float) -> list[Line]:
        """What the room waits for (or what went wrong) and who watches, wrapped to
        ``width``: the words in the table."""
        tr = self.app.tr
        lines = []
        if self.room is not None and self.room.unsaved and self.owner:
            lines.append((tr("room.unsaved"), (255, 170, 150)))
        if self.message:
            lines.append((self.message, (255, 170, 150)))
        elif self.room is not None and not (self.watching and self.room.watching):
            lines.append((self._status_line(), SOFT))  # (a watcher's: the names below)
        if self.room is not None and self.room.watching:
            lines.append((tr("room.watchers", names=", ".join(self.room.watching)), SOFT))
        return wrap_lines(self.assets, lines, px, width)

    def _status_line(self) -> str:
        """What the room waits for, from our seat (``middle.status_line``)."""
        assert self.room is not None
        ready, full, waiting = self.me_ready, self.full(), self.waiting()
        return status_line(
            self.room, self.seat, self.app.tr, ready=ready, full=full, waiting=waiting
        )

    def _share_lines(self, px: int, width: float) -> list[Line]:
        """Where others reach a table we host, the invite and its note, wrapped to
        ``width`` (none in a guest's room): in the table, or in the strip under it."""
        roomy = min(self.app.size) >= FIREWALL_MIN_PX
        lines = share_lines(self.invite, self.note, self.app.tr, firewall=roomy)
        return wrap_lines(self.assets, lines, px, width)

    def _draw_middle(
        self, surface: pygame.Surface, table: pygame.Rect, px: int, share: float, strip: bool
    ) -> None:
        """The words in the table, ``share`` of it wide (``strip``: without the host's
        lines, which go under the seats)."""
        width = table.w * share
        wrapped = self._middle_lines(px, width)
        if not strip:
            wrapped += self._share_lines(px, width)
        draw_lines(surface, self.assets, wrapped, table.center, px, table.w * (share + 0.07))
