"""The room of a LAN table before the game: the seats around the table, who sits where.

Players who joined (each with a ready mark), AI seats with their level and open seats sit
around an oval table, ours at the bottom. The owner (the first human) fills an open seat
with an AI level or clears it with the chips beneath it, and starts the game once every
seat is taken and every other player is ready (the Start is the owner's own readiness);
the others say they are ready (the Ready button, ``R`` or ``Space``) and wait for the
owner. When the game starts, the table scene takes the same session over (with what the
session has said so far). Leaving the table leaves this screen too; its Rematch comes back
here with the room as it is now (a player's Rematch also marks them ready).
"""

from __future__ import annotations

import math
import queue
from typing import Protocol

import pygame

from protocol import Room

from .howto import wrap
from .join import ERROR_KEYS
from .menu import GOLD, levels
from .netsession import seat_names
from .pointer import Input, Key
from .refusals import refusal_text
from .render import SOFT, button_px, draw_button, draw_panel, draw_text, fit_px
from .rulestext import rules_summary
from .scene import ButtonScene, Director
from .session import Closed, Emoted, Message, Reconnecting, Rejected, RoomChanged, Seated, Session

__all__ = ["RoomScene", "RoomSession"]

CLEAR = "clear"
READY_FILL = (56, 150, 84)  # the ready mark's pill
WAITING_FILL = (16, 40, 28)  # "not ready": dark glass, muted words
WAITING_INK = (150, 170, 156)
OWNER_FILL = (236, 190, 84)
OWNER_INK = (44, 30, 8)


class RoomSession(Session, Protocol):
    """A session whose owner can set the room up (``client.netsession.NetSession``)."""

    def start(self) -> None: ...

    def ready(self, ready: bool = True) -> None: ...

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

    @property
    def me_ready(self) -> bool:
        """Our own ready mark, as the host last said."""
        room = self.room
        return room is not None and self.seat < len(room.seats) and room.seats[self.seat].ready

    def full(self) -> bool:
        """Every seat is taken."""
        return self.room is not None and all(s.kind != "empty" for s in self.room.seats)

    def waiting(self) -> list[int]:
        """The players the owner's start waits for: every other human not ready."""
        room = self.room
        if room is None:
            return []
        return [
            i
            for i, s in enumerate(room.seats)
            if s.kind == "human" and i != room.owner and not s.ready
        ]

    def can_start(self) -> bool:
        """Every seat is taken and every other player is ready: the game can start."""
        return self.full() and not self.waiting()

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
            self.message = refusal_text(message.code, message.text, tr)
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
        self.app.push(TableScene(self.app, self.session, backlog, back=self._come_back))

    def _come_back(self, messages: list[Message]) -> None:
        """The table's Rematch brings the session back here, with what it last heard of the
        room (and the end of the session, if it ended). A player's Rematch is their ready
        mark; the owner starts again from here."""
        self.handed = False
        self.message = ""
        for message in messages:
            self._receive(message)
        if not self.owner and not self.closed and not self.me_ready:
            self.session.ready(True)

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

    def chip_label(self, choice: str) -> str:
        return "✕" if choice == CLEAR else self.app.tr("level." + choice)

    def chip_px(self) -> dict[int, int]:
        """One label size for each seat's row of chips: the largest at which every label of
        the row fits its chip (so "Schwer" is not set smaller than "Normal")."""
        sizes: dict[int, int] = {}
        for chip, seat, choice in self.chips():
            px = button_px(self.assets, chip, self.chip_label(choice))
            sizes[seat] = min(px, sizes.get(seat, px))
        return sizes

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
            found.append((start, "start", tr("room.start"), self.can_start()))
        elif self.room is not None and not self.closed:
            toggle = leave.copy()
            toggle.left = w // 2 + 8
            leave.right = w // 2 - 8
            label = tr("room.not_ready_button" if self.me_ready else "room.ready_button")
            found.append((toggle, "ready", label, True))
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
                self.activate("start" if self.owner else "ready")
            elif event.key in (pygame.K_r, pygame.K_SPACE):
                self.activate("ready")
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
        elif name == "start" and self.owner and self.can_start() and not self.closed:
            self.message = ""
            self.session.start()
        elif name == "ready" and not self.owner and self.room is not None and not self.closed:
            self.message = ""
            self.session.ready(not self.me_ready)

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
            self._draw_summary(surface, rules_summary(room.rules, tr), px, top * 0.72)
        oval = self.table()
        pygame.draw.ellipse(surface, (22, 60, 40), oval.move(0, 6))
        pygame.draw.ellipse(surface, (30, 96, 60), oval)
        pygame.draw.ellipse(surface, (120, 90, 50), oval, max(4, oval.h // 24))
        self._draw_middle(surface, oval, px)
        if room is not None:
            for i, (rect, seat) in enumerate(zip(self.seat_rects(), room.seats, strict=True)):
                self._draw_seat(surface, rect, i, seat, px)
        sizes = self.chip_px()
        for chip, seat_index, choice in self.chips():
            hover = self.hover is not None and chip.collidepoint(self.hover)
            assert room is not None
            chosen = room.seats[seat_index].level == choice
            style = "chosen" if chosen else "secondary"
            label = self.chip_label(choice)
            draw_button(surface, self.assets, chip, label, style, hover, px=sizes[seat_index])
        for rect, name, label, enabled in self.buttons():
            hover = self.hover is not None and rect.collidepoint(self.hover)
            primary = name == "start" or (name == "ready" and not self.me_ready)
            style = "primary" if primary else "secondary"
            draw_button(surface, self.assets, rect, label, style, hover, enabled)

    def _draw_summary(self, surface: pygame.Surface, summary: str, px: int, y: float) -> None:
        """The rules under the title: one line, or two (broken after a comma) where one
        would be set too small to read."""
        width = surface.get_width() - 32
        size = fit_px(self.assets, summary, px, width)
        lines = [summary]
        if size < px * 0.8:
            size = round(px * 0.8)
            lines = _comma_lines(self.assets.font(size, False), summary, width)
            while len(lines) > 2 and size > 8:
                size -= 1
                lines = _comma_lines(self.assets.font(size, False), summary, width)
        for i, line in enumerate(lines):
            at = (surface.get_width() / 2, y + (i - (len(lines) - 1) / 2) * size * 1.25)
            line_px = fit_px(self.assets, line, size, width)
            draw_text(surface, self.assets, line, line_px, at, colour=SOFT)

    def _draw_middle(self, surface: pygame.Surface, oval: pygame.Rect, px: int) -> None:
        tr = self.app.tr
        lines = []
        if self.message:
            lines.append((self.message, (255, 170, 150)))
        elif self.room is not None:
            lines.append((self._status_line(), SOFT))
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

    def _status_line(self) -> str:
        """What the room waits for, from our seat."""
        tr = self.app.tr
        room = self.room
        assert room is not None
        waiting = [room.seats[i].name for i in self.waiting() if i != self.seat]
        if self.owner:
            if not self.full():
                return tr("room.fill_seats")
            if waiting:
                return tr("room.waiting_ready", names=", ".join(waiting))
            return tr("room.ready")
        if not self.me_ready:
            return tr("room.press_ready")
        if waiting:
            return tr("room.waiting_ready", names=", ".join(waiting))
        return tr("room.waiting_owner")

    def _draw_seat(self, surface: pygame.Surface, rect: pygame.Rect, i: int, seat, px: int) -> None:  # type: ignore[no-untyped-def]
        tr = self.app.tr
        draw_panel(surface, self.assets, rect, 210 if seat.kind != "empty" else 120)
        owner = self.room is not None and self.room.owner == i
        badge: tuple[str, tuple[int, int, int], tuple[int, int, int]] | None = None
        if seat.kind == "human":
            name = seat.name + (f" ({tr('room.you')})" if i == self.seat else "")
            # a player away (only while a game is on) says so instead of a mark
            status = tr("room.away") if seat.status in ("away", "stand_in") else ""
            colour = GOLD if i == self.seat else (255, 255, 255)
            if status:
                badge = None
            elif owner:  # the owner's Start is the owner's readiness
                text = tr("room.owner")
                badge = (text[:1].upper() + text[1:], OWNER_FILL, OWNER_INK)
            elif seat.ready:
                badge = ("✓ " + tr("room.ready_mark"), READY_FILL, (255, 255, 255))
            else:
                badge = (tr("room.not_ready_mark"), WAITING_FILL, WAITING_INK)
        elif seat.kind == "ai":
            name = tr("room.computer")
            status = tr("level." + seat.level) if seat.level in levels() else seat.level or ""
            colour = (255, 255, 255)
        else:
            name, status, colour = tr("room.open"), "", SOFT
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
        if badge is not None:
            self._draw_badge(surface, rect, px, *badge)

    def _draw_badge(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        px: int,
        text: str,
        fill: tuple[int, int, int],
        ink: tuple[int, int, int],
    ) -> None:
        """A pill under the name: the ready mark, "not ready", or the owner."""
        small = fit_px(self.assets, text, round(px * 0.8), rect.w - 20 - px, bold=True)
        image = self.assets.text(text, small, ink, True)
        pill = image.get_rect().inflate(round(small * 1.2), round(small * 0.45))
        pill.center = (rect.centerx, round(rect.top + px * 2.45))
        border = (255, 255, 255, 60) if fill == WAITING_FILL else None
        surface.blit(self.assets.box(pill.size, (*fill, 235), pill.h // 2, border), pill)
        surface.blit(image, image.get_rect(center=pill.center))


def _comma_lines(font: pygame.font.Font, text: str, width: float) -> list[str]:
    """``text``, a list of ", "-separated parts, broken into lines no wider than ``width``
    between its parts (where one part is wider, its line is too)."""
    lines: list[str] = []
    for part in text.split(", "):
        if lines and font.size(f"{lines[-1]}, {part},")[0] <= width:
            lines[-1] += ", " + part
        else:
            if lines:
                lines[-1] += ","
            lines.append(part)
    return lines
