"""Phones at the table: the address of the page this table serves, as a QR code a guest's
camera reads, over the room of a table we host.

An overlay like ``ConfirmScene``: the screen under it still shows, dimmed. The code is as
large as the window allows (a phone held a metre away reads it), the address under it for
typing, and a line on what the guest needs: the same network, nothing to install. Esc,
Enter or the button close it.
"""

from __future__ import annotations

import math

import pygame

from client.ui.pointer import Input, Key
from client.ui.qrcode import qr_image
from client.ui.render import GOLD, SOFT, draw_panel, draw_shade, draw_text, fit_px, wrap
from client.ui.scene import ButtonScene, Director
from client.ui.widgets import Button

__all__ = ["PhonesScene"]


class PhonesScene(ButtonScene):
    opaque = False

    def __init__(self, app: Director, page: str) -> None:
        self.app = app
        self.assets = app.assets
        self.page = page  # the page's address, http://IP:PORT/
        self.size = app.size

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size

    def _panel(self) -> tuple[pygame.Rect, int, int, list[str]]:
        """The panel, the text size, the code's side and the hint's lines."""
        w, h = self.size
        px = max(12, round(min(w, h) * 0.028))
        width = min(w - 24, px * 34) - 3 * px
        hint = wrap(self.assets.font(round(px * 0.85)), self.app.tr("room.phones_hint"), width)
        words = px * (3.4 + 1.5 + 1.0 + 1.2 * len(hint) + 1.0 + 2.3 + 1.2)
        side = max(px * 6, min(w - 8 * px, round(h - 2 * px - words), px * 22))
        panel = pygame.Rect(0, 0, width + 3 * px, round(side + words))
        panel.center = (w // 2, h // 2)
        return panel, px, side, hint

    def buttons(self) -> list[Button]:
        panel, px, _, _ = self._panel()
        bw, bh = min(px * 11, panel.w - 4 * px), round(px * 2.3)
        rect = pygame.Rect(0, panel.bottom - bh - round(px * 1.2), bw, bh)
        rect.centerx = panel.centerx
        return [Button(rect, "close", self.app.tr("room.phones_close"), style="primary")]

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            if event.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER):
                self.app.pop()
            return
        self.press(event)

    def activate(self, name: str) -> None:
        self.app.pop()

    def next_frame(self) -> float:
        return math.inf

    def draw(self, surface: pygame.Surface) -> None:
        draw_shade(surface, self.assets, 160)
        panel, px, side, hint = self._panel()
        draw_panel(surface, self.assets, panel, 255, radius=px)
        tr = self.app.tr
        width = panel.w - 3 * px
        title = tr("room.phones_title")
        title_px = fit_px(self.assets, title, round(px * 1.4), width, True)
        draw_text(
            surface, self.assets, title, title_px, (panel.centerx, panel.top + px * 1.9),
            bold=True, colour=GOLD,
        )  # fmt: skip
        code = qr_image(self.page, side)
        surface.blit(code, code.get_rect(midtop=(panel.centerx, panel.top + px * 3.4)))
        y = panel.top + px * 3.4 + code.get_height() + px * 1.5
        address_px = fit_px(self.assets, self.page, round(px * 1.2), width, True)
        draw_text(surface, self.assets, self.page, address_px, (panel.centerx, y), bold=True)
        small = round(px * 0.85)
        y += px * 1.6
        for line in hint:
            draw_text(surface, self.assets, line, small, (panel.centerx, y), colour=SOFT)
            y += px * 1.2
        self.draw_buttons(surface, self.assets)
