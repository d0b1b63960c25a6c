"""Join a LAN table: the tables zeroconf finds, an "address:port" field, a password prompt.

The list comes from ``client.net.lan.LanBrowser``, drained once per frame. Joining opens a
``client.net.remote.NetSession``; the scene watches the first thing it says: seated (the
room screen, ``screens.room``, takes the session over) or closed (a clear message, or the
password prompt when the host wants one).

A table is listed once one of its announced addresses has answered (``host.routes``),
at that address; one that answered nowhere is listed as not reachable, and choosing
it tries every address again. While nothing is found the list says it is searching, and
after ``HINT_AFTER`` seconds what may be wrong (a firewall, guest Wi-Fi that keeps
devices apart) and that the address field below takes the host's ``address:port``.

Every table of the list has a Watch button (full tables and tables in a game too, whose
rows are dimmed: a seat there is refused): it joins as a watcher, with the password first
where the table needs one. ``watch=True`` (``durak durak://HOST:PORT --watch``) watches
the typed or invited table.
"""

from __future__ import annotations

import math
import queue
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import pygame

from client.i18n.refusals import closed_text
from client.i18n.rulestext import comma_lines, rules_summary
from client.net.lan import LanBrowser, net_join, parse_invite
from client.net.session import Closed, Session, listen
from client.screens.choices import ai_names
from client.ui.pointer import Input, Key
from client.ui.render import (
    GOLD,
    MIN_PX,
    SOFT,
    draw_button,
    draw_panel,
    draw_text,
    ellipsize,
    fit_px,
    label_px,
    line_h,
    wrap,
)
from client.ui.scene import ButtonScene, Director
from client.ui.widgets import Button

if TYPE_CHECKING:
    from host import TableAd

__all__ = ["HINT_AFTER", "JoinScene"]

HINT_AFTER = 5.0  # seconds of finding nothing before the screen says what may be wrong


class Joiner(Protocol):
    def __call__(
        self,
        address: str | Sequence[str],
        port: int,
        name: str,
        password: str | None,
        ai_names: Sequence[str],
        watch: bool = False,
        look: int | None = None,
    ) -> Session: ...


class JoinScene(ButtonScene):
    def __init__(
        self,
        app: Director,
        *,
        bind: str | None = None,
        invite: str | None = None,
        joiner: Joiner = net_join,
        browse: bool = True,
        watch: bool = False,
    ) -> None:
        self.app = app
        self.assets = app.assets
        self.joiner = joiner
        self.bind = app.settings.lan_bind if bind is None else bind
        self.browse = browse
        self.browser: LanBrowser | None = None
        self.address = ""  # the manual field
        self.password = ""
        self.asking = False  # the password prompt is shown
        self.target: tuple[tuple[str, ...], int] | None = None
        self.watch = watch  # join the target as a watcher
        self.session: Session | None = None
        self.error = ""
        self.hover = None
        self.size = app.size
        self.searched = 0.0  # seconds the browser has looked without finding a table
        if invite is not None:
            self.address = invite
            self.join_typed()

    # --- life -----------------------------------------------------------------------------

    def enter(self) -> None:
        if self.browse and self.browser is None:
            self.browser = LanBrowser(self.bind)
            listen(self.browser.changes, self.app.wake)

    def exit(self) -> None:
        if self.browser is not None:
            self.browser.close()
            self.browser = None
        if self.session is not None:
            self.session.close()
            self.session = None

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size

    def tables(self) -> list[TableAd]:
        if self.browser is None:
            return []
        return sorted(self.browser.tables.values(), key=lambda ad: (ad.name, ad.port))

    # --- joining --------------------------------------------------------------------------

    def choose(self, ad: TableAd, watch: bool = False) -> None:
        """A table from the list (``watch``: to watch it): joined at once, or after its
        password is typed."""
        self.watch = watch
        if ad.password:
            if self.session is not None:
                self.session.close()
                self.session = None
            self.target = (ad.candidates, ad.port)
            self.asking, self.password = True, ""
            self.error = self.app.tr("join.password_needed")
        else:
            self.join(ad.candidates, ad.port)

    def join_typed(self) -> None:
        try:
            where = parse_invite(self.address)
        except ValueError:
            self.error = self.app.tr("join.bad_address")
            return
        self.join(where.hosts, where.port)

    def join(self, hosts: tuple[str, ...], port: int, password: str | None = None) -> None:
        """Join at the first of ``hosts`` that answers (a table's addresses: all tried)."""
        if self.session is not None:
            self.session.close()
        self.error = ""
        self.target = (hosts, port)
        name = self.app.settings.name or self.app.tr("settings.default_name")
        names = ai_names(self.app.tr)
        address = hosts[0] if len(hosts) == 1 else hosts
        look = self.app.settings.look
        self.session = self.joiner(address, port, name, password, names, self.watch, look)
        listen(self.session.inbox, self.app.wake)

    def sent_away(self, text: str) -> None:
        """The room we joined sent us away (the owner, or the idle time): back here, with
        why."""
        self.error = text

    def next_frame(self) -> float:
        if self._still_searching():  # the hint replaces "searching" when its time comes
            return HINT_AFTER - self.searched
        return math.inf  # what the LAN browser finds and the table we join wake the window

    def _still_searching(self) -> bool:
        return (
            self.browser is not None
            and not self.browser.failed
            and not self.browser.tables
            and self.searched < HINT_AFTER
        )

    def update(self, dt: float) -> None:
        if self.browser is not None:
            self.browser.poll()
            self.searched = 0.0 if self.browser.tables else self.searched + dt
        session = self.session
        if session is None:
            return
        try:
            first = session.inbox.get_nowait()
        except queue.Empty:
            return
        if not isinstance(first, Closed):  # seated: the room screen owns the session now
            self.session = None
            self.asking = False
            self.app.show("room", session=session, backlog=(first,), sent_away=self.sent_away)
        else:
            session.close()
            self.session = None
            if first.code == "bad_password":
                if self.asking:
                    self.error = self.app.tr("join.bad_password")
                else:
                    self.error = self.app.tr("join.password_needed")
                self.asking = True
                self.password = ""
            else:
                self.error = closed_text(first.code, first.text, self.app.tr)

    # --- geometry -------------------------------------------------------------------------
    #
    # A wide window sets a table's row on two lines (name and seats, then its rules beside
    # its address) and the address field's label beside the field. A narrow one (a phone
    # held upright) stacks the row: the name (cut short with "…" where it is long), then
    # the seats and the address, then the rules on up to three lines; and the label goes
    # above the field, which shares the row's width with the Join button.

    def _px(self) -> int:
        """The rows' text size: by the window's height, larger on a big phone held upright
        and on a tall wide window (at 1920x1080, 30 pixels; 23 at 1280x720)."""
        w, h = self.size
        most = max(24, round(w * 0.04)) if h > w else max(24, round(h * 0.028))
        return max(11, min(most, round(h * 0.032)))

    def _small(self) -> int:
        return round(self._px() * 0.8)

    def _line_h(self, px: int, bold: bool = False) -> int:
        return line_h(self.assets, px, bold)

    def _go_w(self) -> int:
        return round(self.button_h() * 2.6)

    def _label_above(self) -> bool:
        """The field's label goes above it: beside it, the label, the field and the Join
        button would not fit the window's width."""
        w, px, tr = self.size[0], self._px(), self.app.tr
        field_w = round(min(w * 0.5, self.button_h() * 8))
        font = self.assets.font(px)
        label_w = max(font.size(tr(key))[0] for key in ("join.address", "join.password"))
        return w / 2 - field_w / 2 - 24 < label_w or (w + field_w) / 2 + 10 + self._go_w() > w - 12

    def panel(self) -> pygame.Rect:
        w, h = self.size
        title_h = min(h * 0.13, 96)
        bh = self.button_h()
        label_band = self._line_h(self._px()) + 4 if self._label_above() else 0
        height = round(h - title_h - bh * 3.9 - label_band)
        width = 900 * max(1.0, self._px() / 24)  # (wider as the words grow)
        panel = pygame.Rect(0, 0, round(min(w - 24, width)), height)
        panel.midtop = (w // 2, round(title_h))
        return panel

    def _inner(self) -> int:
        """The width of a row's text (beside its Watch button)."""
        return self.panel().w - 48 - self._watch_w() - 8

    def _watch_w(self) -> int:
        font = self.assets.font(label_px(self._watch_h()), True)
        return max(round(self._watch_h() * 2.6), font.size(self.app.tr("join.watch"))[0] + 16)

    def _watch_h(self) -> int:
        return round(min(self.button_h() * 0.8, self._px() * 2))

    def watch_rects(self) -> list[tuple[pygame.Rect, TableAd]]:
        """Each listed table's Watch button: at the right end of its row, or of a stacked
        row's first line (beside the name)."""
        found = []
        stacked = self._stacked()
        for rect, ad in self.table_rects():
            button = pygame.Rect(0, 0, self._watch_w(), min(self._watch_h(), rect.h - 8))
            if stacked:
                button.h = min(button.h, self._line_h(self._px(), True) + 2)
                button.topright = (rect.right - 8, rect.top + 3)
            else:
                button.midright = (rect.right - 8, rect.centery)
            found.append((button, ad))
        return found

    def _text_rect(self, rect: pygame.Rect) -> pygame.Rect:
        """The part of a row its words use: all but its Watch button."""
        if self._stacked():  # (the name leaves room for it: see ``_draw_stacked``)
            return rect
        return pygame.Rect(rect.left, rect.top, rect.w - self._watch_w() - 8, rect.h)

    def _stacked(self) -> int:
        """0 where every row fits on two lines (its rules readable beside its address), else
        how many lines the rules take in a stacked row (1 to 3, the same for every row)."""
        inner = self._inner()
        px, small = self._px(), self._small()
        font = self.assets.font(small)
        readable = max(MIN_PX, round(small * 0.6))
        stacked = 0
        ads = self.tables()
        for ad in ads:
            seats, where = self._meta(ad)
            rules = self.rules_text(ad)
            name_w = self.assets.font(px, True).size(ad.name)[0] + (px * 2 if ad.password else 0)
            seats_w = self.assets.font(px).size(seats)[0]
            beside = fit_px(self.assets, rules, small, inner - font.size(where)[0] - 2 - px)
            if beside < readable or name_w + seats_w + px > inner:
                full = self.panel().w - 48  # a stacked row's words: its whole width
                lines = comma_lines(rules, full, lambda text: font.size(text)[0])
                stacked = max(stacked, len(lines))
        if stacked > 2:  # a third line where every row still fits the panel
            room = self.panel().h - round(px * 2.6) - 6
            return 3 if len(ads) * self._stacked_h(3) <= room else 2
        return stacked

    def _meta(self, ad: TableAd, short: bool = False) -> tuple[str, str]:
        """A table's seats taken (``short``: as "1/4", beside a figure) and whether it is
        in a game, and its address, as its row shows them."""
        tr = self.app.tr
        seats = (
            f"{ad.taken}/{ad.seats}" if short else tr("join.seats", taken=ad.taken, seats=ad.seats)
        )
        if ad.status == "playing":
            seats = tr("join.in_game", seats=seats)
        if ad.reachable is False:  # (chosen, it is tried at every address again)
            return seats, tr("join.not_reachable")
        return seats, f"{ad.address}:{ad.port}"

    def _short_seats(self) -> bool:
        """A stacked row shows its seats as a figure and "1/4": with their words the seats
        and the address would not fit one line (in some row; then in every row)."""
        font, inner = self.assets.font(self._small()), self.panel().w - 48
        return any(
            font.size(f"{seats}   {where}")[0] > inner
            for seats, where in (self._meta(ad) for ad in self.tables())
        )

    def _stacked_h(self, rules_lines: int) -> int:
        """The height of a stacked row (its gap to the next included)."""
        px, small = self._px(), self._small()
        return (
            self._line_h(px, True) + (1 + rules_lines) * self._line_h(small) + round(px * 0.6) + 6
        )

    def _row_h(self) -> int:
        """A row's height (its gap to the next included)."""
        px, small = self._px(), self._small()
        stacked = self._stacked()
        if stacked:
            return self._stacked_h(stacked)
        return max(round(px * 2.6), self._line_h(px, True) + self._line_h(small) + 8)

    def table_rects(self) -> list[tuple[pygame.Rect, TableAd]]:
        panel = self.panel()
        row_h = self._row_h()
        top = panel.top + round(self._px() * 2.6)
        found = []
        for ad in self.tables():
            rect = pygame.Rect(panel.left + 12, top, panel.w - 24, row_h - 6)
            if rect.bottom > panel.bottom - 6:
                break
            found.append((rect, ad))
            top += row_h
        return found

    def field(self) -> pygame.Rect:
        w = self.size[0]
        bh = self.button_h()
        panel = self.panel()
        top = panel.bottom + round(bh * 0.95)
        if self._label_above():  # the field and Join share the row, centred
            row_w = round(min(w - 24, bh * 8 + 10 + self._go_w()))
            top += self._line_h(self._px()) + 4
            return pygame.Rect((w - row_w) // 2, top, row_w - self._go_w() - 10, round(bh * 0.85))
        field_w = round(min(w * 0.5, bh * 8))
        rect = pygame.Rect(0, 0, field_w, round(bh * 0.85))
        rect.topright = (w // 2 + field_w // 2, top)
        return rect

    def buttons(self) -> list[Button]:
        tr = self.app.tr
        bh = self.button_h()
        field = self.field()
        go = pygame.Rect(field.right + 10, field.top, self._go_w(), field.h)
        back = pygame.Rect(0, 0, round(bh * 4), bh)
        back.midtop = (self.size[0] // 2, field.bottom + round(bh * 0.35))
        # a watcher's password opens the table to watch it: its button says so
        go_label = tr("join.watch" if self.watch and self.asking else "join.go")
        return [
            Button(go, "go", go_label, bool(self.current_text()), "primary"),
            Button(back, "back", tr("join.back")),
        ]

    def rules_text(self, ad: TableAd) -> str:
        """A table's rules in our language, or its English summary when its announcement
        does not say them in a form we can read (an older host, a malformed record)."""
        if ad.game_rules is None:
            return ad.rules
        return rules_summary(ad.game_rules, self.app.tr)

    def current_text(self) -> str:
        return self.password if self.asking else self.address

    # --- input ----------------------------------------------------------------------------

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            self._key(event)
            return
        if self.press(event):
            return
        if not self.asking:
            for rect, ad in self.watch_rects():
                if rect.collidepoint(event.pos):
                    self.choose(ad, watch=True)
                    return
            for rect, ad in self.table_rects():
                if rect.collidepoint(event.pos):
                    self.choose(ad)
                    return

    def _key(self, event: Key) -> None:
        if event.key == pygame.K_ESCAPE:
            self.activate("back")
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.activate("go")
        elif event.key == pygame.K_BACKSPACE:
            self._set_text(self.current_text()[:-1])
        elif event.unicode and event.unicode.isprintable() and len(self.current_text()) < 64:
            self._set_text(self.current_text() + event.unicode)

    def _set_text(self, text: str) -> None:
        if self.asking:
            self.password = text
        else:
            self.address = text

    def activate(self, name: str) -> None:
        if name == "back":
            if self.asking:
                self.asking = False
                self.error = ""
            else:
                self.app.pop()
        elif name == "go" and self.current_text():
            if self.asking and self.target is not None:
                self.join(*self.target, self.password)
            else:
                self.watch = False  # (a typed address is joined; --watch watches the invite)
                self.join_typed()

    # --- drawing --------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        tr = self.app.tr
        px = self._px()
        surface.blit(self.assets.felt((w, h)), (0, 0))
        panel = self.panel()
        title_px = round(min(panel.top * 0.45, w * 0.08))
        at = (w / 2, panel.top * 0.5)
        title = tr("join.watch_title" if self.watch and self.asking else "join.title")
        self._draw_lines(surface, title, title_px, at, w - 32, GOLD, panel.top * 0.75, True)
        draw_panel(surface, self.assets, panel, 190, max(6, min(panel.h // 18, px)))
        heading = tr("join.found")
        draw_text(
            surface,
            self.assets,
            heading,
            fit_px(self.assets, heading, px, panel.w - 32, True),
            (panel.left + 18, panel.top + px * 1.3),
            "midleft",
            GOLD,
            True,
        )
        rows = self.table_rects()
        stacked = self._stacked()
        for rect, ad in rows:
            self._draw_row(surface, rect, ad)
            if stacked:
                self._draw_stacked(surface, self._text_rect(rect), ad, stacked)
            else:
                self._draw_table(surface, self._text_rect(rect), ad, px)
        for button, _ in self.watch_rects():
            hover = self.hover is not None and button.collidepoint(self.hover)
            draw_button(surface, self.assets, button, tr("join.watch"), "secondary", hover)
        if not rows and self.browser is not None:
            if self.browser.failed:
                text = tr("join.no_network")
            elif self._still_searching():
                text = tr("join.searching")
            else:
                text = tr("join.hint")
            height = panel.h - px * 3
            self._draw_lines(surface, text, px, panel.center, panel.w - 48, SOFT, height, lines=5)
        field = self.field()
        label = tr("join.password" if self.asking else "join.address")
        if self._label_above():
            label_px = fit_px(self.assets, label, px, field.w)
            at = (field.left + 4, field.top - 2)
            draw_text(surface, self.assets, label, label_px, at, "bottomleft")
        else:
            label_px = fit_px(self.assets, label, px, field.left - 16)
            at = (field.left - 12, field.centery)
            draw_text(surface, self.assets, label, label_px, at, "midright")
        pygame.draw.rect(surface, (250, 250, 244), field, border_radius=6)
        pygame.draw.rect(surface, GOLD, field, 2, border_radius=6)
        text = "•" * len(self.password) if self.asking else self.address
        shown = text + "|"
        text_px = fit_px(self.assets, shown, px, field.w - 20)
        draw_text(
            surface,
            self.assets,
            shown,
            text_px,
            (field.left + 10, field.centery),
            "midleft",
            (30, 40, 34),
        )
        self.draw_buttons(surface, self.assets)
        bh = self.button_h()
        message = self.error or (tr("join.connecting") if self.session is not None else "")
        if message:
            colour = (255, 170, 150) if self.error else SOFT
            at = (w / 2, panel.bottom + bh * 0.5)
            self._draw_lines(surface, message, px, at, w - 24, colour, bh * 0.85)

    def _draw_lines(
        self,
        surface: pygame.Surface,
        text: str,
        px: int,
        centre: tuple[float, float],
        width: float,
        colour: tuple[int, int, int],
        height: float | None = None,
        bold: bool = False,
        lines: int = 2,
    ) -> None:
        """``text`` wrapped to ``width`` and centred on ``centre``: on up to ``lines`` lines
        where one would be set small, smaller where they do not fit ``height``."""
        size = fit_px(self.assets, text, px, width, bold)
        wrapped = [text]
        if size < px * 0.8:
            size = px
            while True:
                wrapped = wrap(self.assets.font(size, bold), text, width)
                tall = len(wrapped) * self._line_h(size, bold)
                fits = len(wrapped) <= lines and (height is None or tall <= height)
                if size <= MIN_PX or fits:
                    break
                size -= 1
        step = self._line_h(size, bold)
        y = round(centre[1] - (len(wrapped) - 1) * step / 2)
        for line in wrapped:
            line_px = fit_px(self.assets, line, size, width, bold)
            at = (centre[0], y)
            draw_text(surface, self.assets, line, line_px, at, colour=colour, bold=bold)
            y += step

    def asked_for(self, ad: TableAd) -> bool:
        """Whether the password asked for now is ``ad``'s (its row is edged in gold)."""
        return self.asking and self.target == (ad.candidates, ad.port)

    def _draw_row(self, surface: pygame.Surface, rect: pygame.Rect, ad: TableAd) -> None:
        """A row's box: dimmer for a table in a game or full (joining it is refused) or
        that answered at none of its addresses; edged in gold while its password is asked
        (the prompt under the list says only "this table")."""
        hover = self.hover is not None and rect.collidepoint(self.hover)
        open_ = ad.status != "playing" and ad.taken < ad.seats and ad.reachable is not False
        fill = (40, 96, 64) if hover else (28, 74, 50) if open_ else (22, 52, 38)
        pygame.draw.rect(surface, fill, rect, border_radius=8)
        if self.asked_for(ad):
            pygame.draw.rect(surface, GOLD, rect, 2, border_radius=8)
            return
        edge = (90, 150, 110) if open_ else (60, 100, 76)
        pygame.draw.rect(surface, edge, rect, 1, border_radius=8)

    def _draw_table(self, surface: pygame.Surface, rect: pygame.Rect, ad: TableAd, px: int) -> None:
        """A row on two lines: the name and the seats, then the rules and the address."""
        seats, where = self._meta(ad)
        small = self._small()
        name_h, low_h = self._line_h(px, True), self._line_h(small)
        pad = max(1, (rect.h - name_h - low_h) // 2)  # whole pixels: the lines never touch
        top = rect.top + pad + name_h // 2
        low = rect.top + pad + name_h + low_h // 2
        name_px = fit_px(self.assets, ad.name, px, rect.w * 0.55, True)
        at = (rect.left + 12, top)
        drawn = draw_text(surface, self.assets, ad.name, name_px, at, "midleft", GOLD, True)
        if ad.password:
            _padlock(surface, (drawn.right + px * 0.8, top), px)
        draw_text(surface, self.assets, seats, px, (rect.right - 12, top), "midright")
        at = (rect.right - 12, low)
        address = draw_text(surface, self.assets, where, small, at, "midright", SOFT)
        rules = self.rules_text(ad)  # as wide as the row leaves beside the address
        rules_px = fit_px(self.assets, rules, small, address.left - rect.left - 12 - px)
        draw_text(surface, self.assets, rules, rules_px, (rect.left + 12, low), "midleft", SOFT)

    def _draw_stacked(
        self, surface: pygame.Surface, rect: pygame.Rect, ad: TableAd, rules_lines: int
    ) -> None:
        """A row of a narrow window: the name (cut short with "…" where it is long), the
        seats and the address, then the rules on ``rules_lines`` lines."""
        px, small = self._px(), self._small()
        inner = rect.w - 24
        left, right = rect.left + 12, rect.right - 12
        y = rect.top + round(px * 0.3)
        lock = round(px * 1.6) if ad.password else 0
        watch = self._watch_w() + 8  # the Watch button beside the name
        name = ellipsize(self.assets, ad.name, px, inner - lock - watch, True)
        drawn = draw_text(surface, self.assets, name, px, (left, y), "topleft", GOLD, True)
        if ad.password:
            _padlock(surface, (drawn.right + px * 0.8, drawn.centery), px)
        y = drawn.bottom
        short = self._short_seats()
        seats, where = self._meta(ad, short)
        if short:
            figure = _figure(surface, (left, y + self._line_h(small) / 2), small)
            at = (figure.right + small * 0.3, y)
        else:
            at = (left, y)
        taken = draw_text(surface, self.assets, seats, small, at, "topleft")
        room = right - taken.right - small
        draw_text(
            surface,
            self.assets,
            where,
            fit_px(self.assets, where, small, room),
            (right, y),
            "topright",
            SOFT,
        )
        y += self._line_h(small)
        font = self.assets.font(small)
        lines = comma_lines(self.rules_text(ad), inner, lambda text: font.size(text)[0])
        if len(lines) > rules_lines:  # the rest of the rules on the last line, cut short
            lines = [*lines[: rules_lines - 1], " ".join(lines[rules_lines - 1 :])]
        for line in lines:
            line = ellipsize(self.assets, line, small, inner)
            line_px = fit_px(self.assets, line, small, inner)
            draw_text(surface, self.assets, line, line_px, (left, y), "topleft", SOFT)
            y += self._line_h(small)


def _figure(surface: pygame.Surface, midleft: tuple[float, float], px: int) -> pygame.Rect:
    """A small figure of a person (a head over shoulders), for "seats taken"; where it is."""
    head = max(2, round(px * 0.22))
    shoulders = pygame.Rect(0, 0, round(px * 0.8), round(px * 0.46))
    figure = pygame.Rect(0, 0, shoulders.w, 2 * head + 1 + shoulders.h)
    figure.midleft = (round(midleft[0]), round(midleft[1]))
    pygame.draw.circle(surface, SOFT, (figure.centerx, figure.top + head), head)
    shoulders.midbottom = figure.midbottom
    clip = surface.get_clip()
    surface.set_clip(shoulders.clip(clip))
    pygame.draw.ellipse(surface, SOFT, shoulders.inflate(0, shoulders.h).move(0, shoulders.h // 2))
    surface.set_clip(clip)
    return figure


def _padlock(surface: pygame.Surface, centre: tuple[float, float], px: int) -> pygame.Rect:
    """A small padlock, the mark of a table that needs a password; where it is drawn."""
    x, y = centre
    body = pygame.Rect(0, 0, round(px * 0.8), round(px * 0.6))
    body.midtop = (round(x), round(y - px * 0.1))
    shackle = pygame.Rect(0, 0, round(px * 0.56), round(px * 0.7))
    shackle.midbottom = (body.centerx, body.top + round(px * 0.3))
    pygame.draw.ellipse(surface, GOLD, shackle, max(2, px // 8))
    pygame.draw.rect(surface, GOLD, body, border_radius=2)
    return body.union(shackle)
