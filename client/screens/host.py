"""Host a LAN table: its name, seats (2-6), rules (the start screen's rows) and password.

"Host" starts ``host.run_in_thread`` in a helper thread (announcing the table with
zeroconf takes a moment, which the window must not wait for), then joins the table as
its owner and opens the room screen with the invite link ``durak://IP:PORT``, which is
also put on the clipboard when the platform has one.
"""

from __future__ import annotations

import math
import queue
import threading
from typing import TYPE_CHECKING

import pygame

from client.i18n import N_
from client.net.lan import invite_link, page_address
from client.screens.choices import ai_names, chosen_rules, rule_rows
from client.ui.pointer import Input, Key
from client.ui.render import GOLD, SOFT, draw_backdrop, draw_text, fit_px
from client.ui.scene import ButtonScene, Director
from client.ui.widgets import (
    Button,
    Row,
    cycle,
    draw_field,
    draw_form_panels,
    draw_stepper,
    form_rects,
    step_at,
)
from engine import Rules

if TYPE_CHECKING:
    from host import HostHandle

__all__ = ["HostScene", "copy_to_clipboard"]

NAME_MAX = 32


def copy_to_clipboard(text: str) -> bool:
    """Put ``text`` on the clipboard; False where there is none (e.g. SDL's dummy driver)."""
    try:
        import pygame.scrap as scrap  # pygame-ce 2.2+: SDL's clipboard, no init needed

        scrap.put_text(text)
    except (pygame.error, AttributeError, NotImplementedError, OSError):
        return False
    return True


class HostScene(ButtonScene):
    def __init__(self, app: Director) -> None:
        self.app = app
        self.assets = app.assets
        s = app.settings
        player = s.name or app.tr("settings.default_name")
        self.name = app.tr("host.default_name", name=player)[:NAME_MAX]
        self.password = ""
        self.seats = min(6, max(2, s.opponents + 1))
        self.editing: str | None = None  # the text field being typed in
        self.rows = self._rows()
        self.message = ""
        self.starting: queue.Queue[HostHandle | OSError | RuntimeError] | None = None
        self.host: object | None = None  # the host we started (``host.HostHandle``)
        self.hover = None
        self.size = app.size

    def _rows(self) -> list[Row]:
        def edit(field: str) -> None:
            self.editing = field

        def seats(step: int) -> None:
            self.seats = int(cycle([2, 3, 4, 5, 6], self.seats, step))

        return [
            Row(N_("host.table"), str),
            Row(N_("host.name"), lambda: self.name, lambda step: edit("name")),
            Row(N_("host.seats"), lambda: str(self.seats), seats),
            Row(N_("host.password"), lambda: "•" * len(self.password), lambda s: edit("password")),
            *rule_rows(self.app),
        ]

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size

    def rules(self) -> Rules | str:
        """The rules for this many seats, or why they cannot be played."""
        return chosen_rules(self.app, self.seats)

    # --- hosting --------------------------------------------------------------------------

    def start(self) -> None:
        from host import HostConfig, run_in_thread
        from host.config import LAN_HOLD
        from host.web import WEB_PORT

        rules = self.rules()
        if isinstance(rules, str) or self.starting is not None:
            return
        self.app.save_settings()
        config = HostConfig(
            name=self.name.strip() or self.app.tr("host.default_name", name="Durak"),
            bind=self.app.settings.lan_bind,
            seats=self.seats,
            rules=rules,
            password=self.password or None,
            announce=True,
            web_port=WEB_PORT,
            hold=LAN_HOLD,  # (a phone asleep a minute keeps its seat)
        )
        found: queue.Queue[HostHandle | OSError | RuntimeError] = queue.Queue()

        def serve() -> None:
            try:
                found.put(run_in_thread(config))
            except (OSError, RuntimeError) as exc:
                found.put(exc)

        self.starting = found
        self.message = ""
        threading.Thread(target=serve, name="durak-host-start", daemon=True).start()

    def next_frame(self) -> float:
        return 0.0 if self.starting is not None else math.inf  # (the host starts in a moment)

    def update(self, dt: float) -> None:
        if self.starting is None:
            return
        try:
            result = self.starting.get_nowait()
        except queue.Empty:
            return
        self.starting = None
        if isinstance(result, BaseException):
            self.message = self.app.tr("host.failed", error=str(result))
            return
        self._join(result)

    def _join(self, handle: HostHandle) -> None:
        from client.net.remote import NetSession

        self.host = handle
        bind = self.app.settings.lan_bind
        address = bind if bind and bind not in ("0.0.0.0", "::") else "127.0.0.1"
        player = self.app.settings.name or self.app.tr("settings.default_name")
        session = NetSession(
            address,
            handle.port,
            player,
            password=self.password or None,
            rooms=True,
            on_close=handle.stop,
            ai_names=ai_names(self.app.tr),
            look=self.app.settings.look,
        )
        link = invite_link(bind, handle.port)
        note = self.app.tr("room.copied") if copy_to_clipboard(link) else ""
        web = None if handle.host is None else handle.host.web_port
        page = "" if web is None else page_address(bind, web)
        self.app.show("room", session=session, invite=link, note=note, page=page)

    # --- geometry -------------------------------------------------------------------------

    def row_rects(self) -> list[pygame.Rect]:
        return form_rects(self.size, self.rows, self.button_h())

    def buttons(self) -> list[Button]:
        w, h = self.size
        tr = self.app.tr
        bh = self.button_h()
        bw = round(min((w - 48) / 2, bh * 5))
        back = pygame.Rect(0, h - round(bh * 1.3), bw, bh)
        go = back.copy()
        back.right = w // 2 - 8
        go.left = w // 2 + 8
        ok = not isinstance(self.rules(), str) and self.starting is None
        return [
            Button(back, "back", tr("join.back")),
            Button(go, "host", tr("host.start"), ok, "primary"),
        ]

    # --- input ----------------------------------------------------------------------------

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            self._key(event)
            return
        if event.kind != "step" and self.press(event):
            return
        self.editing = None
        rects = self.row_rects()
        px = self._px(rects)
        for row, rect in zip(self.rows, rects, strict=True):
            if rect.collidepoint(event.pos) and row.change is not None and row.enabled():
                step = event.step or step_at(self._value_rect(row, rect, px), event.x)
                row.change(step)
                self.app.save_settings()
                return

    def _key(self, event: Key) -> None:
        if event.key == pygame.K_ESCAPE:
            if self.editing:
                self.editing = None
            else:
                self.app.pop()
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_TAB):
            if self.editing and event.key == pygame.K_TAB:
                self.editing = "password" if self.editing == "name" else "name"
            elif self.editing:
                self.editing = None
            else:
                self.activate("host")
        elif self.editing is not None:
            text = self.name if self.editing == "name" else self.password
            if event.key == pygame.K_BACKSPACE:
                text = text[:-1]
            elif event.unicode and event.unicode.isprintable() and len(text) < NAME_MAX:
                text += event.unicode
            if self.editing == "name":
                self.name = text
            else:
                self.password = text

    def activate(self, name: str) -> None:
        if name == "back":
            self.app.pop()
        elif name == "host":
            self.start()

    # --- drawing --------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        tr = self.app.tr
        rects = self.row_rects()
        title_h = min(h * 0.15, 110)
        title = tr("host.title")
        title_px = fit_px(self.assets, title, round(min(title_h * 0.45, w * 0.08)), w - 32, True)
        draw_backdrop(surface, self.assets, title, title_px, (w / 2, title_h * 0.45))
        draw_form_panels(surface, self.assets, rects, self.rows)
        px = self._px(rects)
        for row, rect in zip(self.rows, rects, strict=True):
            self._draw_row(surface, row, rect, px)
        self.draw_buttons(surface, self.assets)
        rules = self.rules()
        message = rules if isinstance(rules, str) else self.message
        if self.starting is not None:
            message = tr("host.starting")
        if message:
            top = self.buttons()[0].rect.top
            colour = SOFT if self.starting is not None else (255, 170, 150)
            at = (w / 2, top - px)
            draw_text(
                surface,
                self.assets,
                message,
                fit_px(self.assets, message, px, w - 16),
                at,
                colour=colour,
            )

    def _draw_row(self, surface: pygame.Surface, row: Row, rect: pygame.Rect, px: int) -> None:
        tr = self.app.tr
        if row.change is None:
            text = row.text(tr)
            size = fit_px(self.assets, text, round(px * 1.05), rect.w - px, bold=True)
            at = (rect.left + px * 0.5, rect.centery)
            draw_text(surface, self.assets, text, size, at, "midleft", GOLD, True)
            return
        enabled = row.enabled()
        field = row.label in ("host.name", "host.password")
        value = self._value_rect(row, rect, px)
        label = row.text(tr)
        changed = enabled and row.changed()
        colour = GOLD if changed else (255, 255, 255) if enabled else (120, 140, 128)
        size = fit_px(self.assets, label, px, value.left - rect.left - px * 1.5)
        draw_text(
            surface, self.assets, label, size, (rect.left + px, rect.centery), "midleft", colour
        )
        if changed:  # set away from the usual rules: a gold dot before the label
            dot = (rect.left + px * 0.45, rect.centery)
            draw_text(surface, self.assets, "•", size, dot, colour=GOLD)
        if field:
            editing = self.editing == ("name" if row.label == "host.name" else "password")
            none = tr("host.no_password")
            draw_field(surface, self.assets, value, row.value(), editing, none)
            return
        hover = self.hover is not None and rect.collidepoint(self.hover)
        text = row.value() if enabled else "—"
        draw_stepper(surface, self.assets, value, text, "secondary", hover, enabled)

    def _px(self, rects: list[pygame.Rect]) -> int:
        """The rows' text size."""
        return max(11, round((rects[1].h / 0.9) * 0.42))

    def _value_rect(self, row: Row, rect: pygame.Rect, px: int) -> pygame.Rect:
        """Where a row's value sits: a wide field for the name and password, a pill else."""
        field = row.label in ("host.name", "host.password")
        width = rect.w * (0.55 if field else 0.38)
        value = pygame.Rect(
            0, 0, round(min(width, px * (14 if field else 9))), round(rect.h * 0.86)
        )
        value.midright = (rect.right - 4, rect.centery)
        return value
