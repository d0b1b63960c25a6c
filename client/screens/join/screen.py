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
from client.net.lan import LanBrowser, net_join, parse_invite
from client.net.session import Closed, Session, listen
from client.screens.choices import ai_names
from client.screens.join.rows import TableList
from client.ui.pointer import Input, Key
from client.ui.render import (
    GOLD,
    MIN_PX,
    SOFT,
    draw_panel,
    draw_text,
    fit_px,
    line_h,
    wrap,
)
from client.ui.scene import ButtonScene, Director
from client.ui.widgets import Button, draw_field

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
    # The list's rows are ``client.screens.join.rows``'s. A wide window sets the address
    # field's label beside the field; a narrow one (a phone held upright) above it, and the
    # field shares the row's width with the Join button.

    def _px(self) -> int:
        """The rows' text size: by the window's height, larger on a big phone held upright
        and on a tall wide window (at 1920x1080, 30 pixels; 23 at 1280x720)."""
        w, h = self.size
        most = max(24, round(w * 0.04)) if h > w else max(24, round(h * 0.028))
        return max(11, min(most, round(h * 0.032)))

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
        label_band = line_h(self.assets, self._px()) + 4 if self._label_above() else 0
        height = round(h - title_h - bh * 3.9 - label_band)
        width = 900 * max(1.0, self._px() / 24)  # (wider as the words grow)
        panel = pygame.Rect(0, 0, round(min(w - 24, width)), height)
        panel.midtop = (w // 2, round(title_h))
        return panel

    def listing(self) -> TableList:
        """The list of the tables found, laid out in the panel as it is now."""
        asked = self.target if self.asking else None
        ads = tuple(self.tables())
        return TableList(
            self.assets, self.app.tr, self.panel(), self._px(), self.button_h(), ads, asked
        )

    def table_rects(self) -> list[tuple[pygame.Rect, TableAd]]:
        return self.listing().rows()

    def watch_rects(self) -> list[tuple[pygame.Rect, TableAd]]:
        return self.listing().watch_rects()

    def field(self) -> pygame.Rect:
        w = self.size[0]
        bh = self.button_h()
        panel = self.panel()
        top = panel.bottom + round(bh * 0.95)
        if self._label_above():  # the field and Join share the row, centred
            row_w = round(min(w - 24, bh * 8 + 10 + self._go_w()))
            top += line_h(self.assets, self._px()) + 4
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
        listing = self.listing()
        listing.draw(surface, self.hover)
        if not listing.rows() and self.browser is not None:
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
        text = "•" * len(self.password) if self.asking else self.address
        draw_field(surface, self.assets, field, text, True)
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
                tall = len(wrapped) * line_h(self.assets, size, bold)
                fits = len(wrapped) <= lines and (height is None or tall <= height)
                if size <= MIN_PX or fits:
                    break
                size -= 1
        step = line_h(self.assets, size, bold)
        y = round(centre[1] - (len(wrapped) - 1) * step / 2)
        for line in wrapped:
            line_px = fit_px(self.assets, line, size, width, bold)
            at = (centre[0], y)
            draw_text(surface, self.assets, line, line_px, at, colour=colour, bold=bold)
            y += step
