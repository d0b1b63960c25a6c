"""The room of a LAN table before the game: the seats around the table, who sits where.

Players who joined, AI seats with their level and open seats sit around an oval table,
ours at the bottom. The owner (the first human) fills an open seat with an AI level or
clears it with the chips beneath it, and starts the game once every seat is taken; the
others wait for the owner. When the game starts, the table scene takes the same session
over (with what the session has said so far) and this screen leaves with it.
"""

from __future__ import annotations

import math
import queue
from typing import Protocol

import pygame

from protocol import Room

from .howto import wrap
from .i18n import N_
from .join import ERROR_KEYS
from .menu import GOLD, levels
from .netsession import seat_names
from .pointer import Input, Key
from .render import SOFT, draw_button, draw_panel, draw_text, fit_px
from .scene import ButtonScene, Director
from .session import Closed, Emoted, Message, Reconnecting, Rejected, RoomChanged, Seated, Session

__all__ = ["RoomScene", "RoomSession"]

REJECT_KEYS = {"seats_empty": N_("room.seats_empty"), "seat_taken": N_("room.seat_taken")}
CLEAR = "clear"


class RoomSession(Session, Protocol):
    """A session whose owner can set the room up (``client.netsession.NetSession``)."""

    def start(self) -> None: ...

    def set_seat(self, seat: int, ai: str | None) -> None: ...


class RoomScene(ButtonScene):
    def __init__(self, app: Director, session: RoomSession, invite: str = "") -> None:
        self.app = app
        self.assets = app.assets
        self.session = session
        self.invite = invite  # the link to share ("" when we joined someone's table)
        self.note = ""  # e.g. "copied to the clipboard"
        self.seat = 0
        self.room: Room | None = None
        self.seated: Seated | None = None
        self.message = ""
        self.closed = False
        self.handed = False  # the table scene has the session now
        self.hover = None
        self.size = app.size

    # --- life -----------------------------------------------------------------------------

    def exit(self) -> None:
        if not self.handed:
            self.session.close()

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size

    @property
    def owner(self) -> bool:
        return self.room is not None and self.room.owner == self.seat

    def ready(self) -> bool:
        """Every seat is taken: the game can start."""
        return self.room is not None and all(s.kind != "empty" for s in self.room.seats)

    def update(self, dt: float) -> None:
        if self.handed:  # back from the game: the table is left too
            self.app.pop()
            return
        while not self.handed:
            try:
                message = self.session.inbox.get_nowait()
            except queue.Empty:
                return
            self._receive(message)

    def _receive(self, message: Message) -> None:
        tr = self.app.tr
        if isinstance(message, Seated):
            self.seated, self.seat = message, message.seat
        elif isinstance(message, RoomChanged):
            self.room = message.room
            if self.message == tr("table.reconnecting"):  # back: the host sent the room
                self.message = ""
        elif isinstance(message, Emoted):
            pass  # reactions show at the table
        elif isinstance(message, Reconnecting):
            self.message = tr("table.reconnecting")
        elif isinstance(message, Rejected):
            key = REJECT_KEYS.get(message.code)
            self.message = tr(key) if key is not None else message.text
        elif isinstance(message, Closed):
            key = ERROR_KEYS.get(message.code)
            self.message = tr(key) if key is not None else message.text
            self.closed = True
        else:  # the game has started: the table scene takes over
            self._hand_over(message)

    def _hand_over(self, first: Message) -> None:
        from .table import TableScene

        room, seated = self.room, self.seated
        backlog: list[Message] = []
        if room is not None:
            backlog.append(Seated(self.seat, seat_names(room), room.rules))
            backlog.append(RoomChanged(room))
        elif seated is not None:
            backlog.append(seated)
        backlog.append(first)
        self.handed = True
        self.app.push(TableScene(self.app, self.session, backlog))

    # --- geometry -------------------------------------------------------------------------

    def _px(self) -> int:
        return max(11, min(22, round(self.size[1] * 0.03)))

    def _button_h(self) -> int:
        return round(max(26, min(56, self.size[1] * 0.075)))

    def table(self) -> pygame.Rect:
        w, h = self.size
        top = min(h * 0.17, 120)
        bottom = h - self._button_h() * 2.6
        portrait = h > w
        oval = pygame.Rect(
            0, 0, round(min(w * (0.34 if portrait else 0.5), (bottom - top) * 1.8)), 0
        )
        oval.h = round(min((bottom - top) * 0.46, oval.w * 1.2))
        oval.center = (w // 2, round((top + bottom) / 2))
        return oval

    def seat_rects(self) -> list[pygame.Rect]:
        """One box a seat, just outside the oval, ours at the bottom."""
        if self.room is None:
            return []
        seats = self.room.seats
        n = len(seats)
        oval = self.table()
        w, h = self.size
        px = self._px()
        box_w = round(min(w * (0.31 if h > w else 0.24), 300))
        rects = []
        for i, seat in enumerate(seats):
            chips = self.owner and seat.kind != "human"
            box_h = round(px * (5.4 if chips else 3.6))
            angle = math.pi / 2 + 2 * math.pi * ((i - self.seat) % n) / n
            cos, sin = math.cos(angle), math.sin(angle)
            x = oval.centerx + oval.w / 2 * cos + (box_w / 2 + 8) * cos
            y = oval.centery + oval.h / 2 * sin + (box_h / 2 + 8) * sin
            rect = pygame.Rect(0, 0, box_w, box_h)
            rect.center = (round(x), round(y))
            top = round(min(h * 0.17, 120))
            rect.clamp_ip(pygame.Rect(8, top, w - 16, h - top - round(self._button_h() * 1.5)))
            rects.append(rect)
        return rects

    def chips(self) -> list[tuple[pygame.Rect, int, str]]:
        """The owner's chips under every seat a human does not sit in: a level, or clear."""
        if self.room is None or not self.owner:
            return []
        found = []
        offered = levels()
        gap = 4
        chip_h = round(self._px() * 1.6)
        for i, (rect, seat) in enumerate(zip(self.seat_rects(), self.room.seats, strict=True)):
            if seat.kind == "human":
                continue
            clear = chip_h * 1.3 + gap if seat.kind == "ai" else 0
            chip_w = (rect.w - 16 - clear - gap * (len(offered) - 1)) / len(offered)
            y = rect.bottom - chip_h - 8
            for k, level in enumerate(offered):
                x = rect.left + 8 + k * (chip_w + gap)
                found.append((pygame.Rect(round(x), y, round(chip_w), chip_h), i, level))
            if clear:
                chip = pygame.Rect(0, y, round(chip_h * 1.3), chip_h)
                chip.right = rect.right - 8
                found.append((chip, i, CLEAR))
        return found

    def buttons(self) -> list[tuple[pygame.Rect, str, str, bool]]:
        w, h = self.size
        tr = self.app.tr
        bh = self._button_h()
        bw = round(min((w - 48) / 2, bh * 5))
        leave = pygame.Rect(0, h - round(bh * 1.35), bw, bh)
        found = []
        if self.owner and not self.closed:
            start = leave.copy()
            start.left = w // 2 + 8
            leave.right = w // 2 - 8
            found.append((start, "start", tr("room.start"), self.ready()))
        else:
            leave.centerx = w // 2
        found.append((leave, "leave", tr("room.leave"), True))
        return found

    # --- input ----------------------------------------------------------------------------

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            if event.key == pygame.K_ESCAPE:
                self.app.pop()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.activate("start")
            return
        if self.press(event):
            return
        for chip, seat, choice in self.chips():
            if chip.collidepoint(event.pos) and not self.closed:
                self.message = ""
                self.session.set_seat(seat, None if choice == CLEAR else choice)
                return

    def activate(self, name: str) -> None:
        if name == "leave":
            self.app.pop()
        elif name == "start" and self.owner and self.ready() and not self.closed:
            self.message = ""
            self.session.start()

    # --- drawing --------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        tr = self.app.tr
        px = self._px()
        surface.blit(self.assets.felt((w, h)), (0, 0))
        top = min(h * 0.17, 120)
        room = self.room
        title = room.name if room is not None else tr("join.connecting")
        title_px = fit_px(self.assets, title, round(min(top * 0.4, w * 0.07)), w - 32, True)
        at = (w / 2, top * 0.36)
        draw_text(surface, self.assets, title, title_px, at, bold=True, colour=GOLD)
        if room is not None:
            summary = room.rules.summary
            draw_text(
                surface,
                self.assets,
                summary,
                fit_px(self.assets, summary, px, w - 32),
                (w / 2, top * 0.72),
                colour=SOFT,
            )
        oval = self.table()
        pygame.draw.ellipse(surface, (22, 60, 40), oval.move(0, 6))
        pygame.draw.ellipse(surface, (30, 96, 60), oval)
        pygame.draw.ellipse(surface, (120, 90, 50), oval, max(4, oval.h // 24))
        self._draw_middle(surface, oval, px)
        if room is not None:
            for i, (rect, seat) in enumerate(zip(self.seat_rects(), room.seats, strict=True)):
                self._draw_seat(surface, rect, i, seat, px)
        for chip, _seat, choice in self.chips():
            label = "✕" if choice == CLEAR else tr("level." + choice)
            hover = self.hover is not None and chip.collidepoint(self.hover)
            assert room is not None
            chosen = room.seats[_seat].level == choice
            draw_button(
                surface,
                self.assets,
                chip,
                label,
                "chosen" if chosen else "secondary",
                hover,
                True,
            )
        for rect, name, label, enabled in self.buttons():
            hover = self.hover is not None and rect.collidepoint(self.hover)
            style = "primary" if name == "start" else "secondary"
            draw_button(surface, self.assets, rect, label, style, hover, enabled)

    def _draw_middle(self, surface: pygame.Surface, oval: pygame.Rect, px: int) -> None:
        tr = self.app.tr
        lines = []
        if self.message:
            lines.append((self.message, (255, 170, 150)))
        elif self.room is not None:
            if not self.owner:
                lines.append((tr("room.waiting_owner"), SOFT))
            elif self.ready():
                lines.append((tr("room.ready"), SOFT))
            else:
                lines.append((tr("room.fill_seats"), SOFT))
        if self.invite:
            lines.append((tr("room.invite", link=self.invite), GOLD))
            if self.note:
                lines.append((self.note, SOFT))
        font = self.assets.font(px, False)
        wrapped = [
            (part, colour) for text, colour in lines for part in wrap(font, text, oval.w * 0.78)
        ]
        y = oval.centery - (len(wrapped) - 1) * px * 0.7
        for text, colour in wrapped:
            size = fit_px(self.assets, text, px, oval.w * 0.85)
            draw_text(surface, self.assets, text, size, (oval.centerx, y), colour=colour)
            y += px * 1.4

    def _draw_seat(self, surface: pygame.Surface, rect: pygame.Rect, i: int, seat, px: int) -> None:  # type: ignore[no-untyped-def]
        tr = self.app.tr
        draw_panel(surface, self.assets, rect, 210 if seat.kind != "empty" else 120)
        if seat.kind == "human":
            name = seat.name + (f" ({tr('room.you')})" if i == self.seat else "")
            status = {
                "connected": tr("room.player"),
                "away": tr("room.away"),
                "stand_in": tr("room.away"),
            }.get(seat.status, tr("room.player"))
            colour = GOLD if i == self.seat else (255, 255, 255)
        elif seat.kind == "ai":
            name = tr("room.computer")
            status = tr("level." + seat.level) if seat.level in levels() else seat.level or ""
            colour = (255, 255, 255)
        else:
            name, status, colour = tr("room.open"), "", SOFT
        if self.room is not None and self.room.owner == i:
            status = (status + " · " if status else "") + tr("room.owner")
        name_px = fit_px(self.assets, name, round(px * 1.05), rect.w - 20, True)
        draw_text(
            surface,
            self.assets,
            name,
            name_px,
            (rect.centerx, rect.top + px * 1.2),
            colour=colour,
            bold=True,
        )
        if status:
            small = fit_px(self.assets, status, round(px * 0.85), rect.w - 20)
            at = (rect.centerx, rect.top + px * 2.4)
            draw_text(surface, self.assets, status, small, at, colour=SOFT)
