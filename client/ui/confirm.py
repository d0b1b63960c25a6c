"""A question over the screen before something that cannot be taken back.

Quitting the window from the start screen and sending a player away from the room were
one key or one tap (issue 24); a ``ConfirmScene`` asks first. It is an overlay on the
app's stack (the screen under it still shows, dimmed): the question, a line on what
follows, and two buttons. Enter (or the first button) goes ahead, Esc (or the second)
takes nothing back because nothing happened. The caller gets the answer through
``on_yes``; the scene takes itself off the stack first, so ``on_yes`` may show the
next screen.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pygame

from client.ui.pointer import Input, Key
from client.ui.render import GOLD, SOFT, draw_panel, draw_shade, draw_text, fit_px, wrap
from client.ui.scene import ButtonScene, Director
from client.ui.widgets import Button

__all__ = ["ConfirmScene"]


class ConfirmScene(ButtonScene):
    opaque = False

    def __init__(
        self,
        app: Director,
        *,
        question: str,
        detail: str,
        yes: str,
        no: str,
        on_yes: Callable[[], None],
        danger: bool = False,
    ) -> None:
        self.app = app
        self.assets = app.assets
        self.question, self.detail = question, detail
        self.yes, self.no = yes, no
        self.on_yes = on_yes
        self.danger = danger  # the yes button is red: it ends something
        self.size = app.size

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size

    def _panel(self) -> tuple[pygame.Rect, int]:
        w, h = self.size
        px = max(12, round(min(w, h) * 0.03))
        panel = pygame.Rect(0, 0, round(min(w - 24, px * 30)), round(px * 10.5))
        panel.center = (w // 2, h // 2)
        return panel, px

    def buttons(self) -> list[Button]:
        panel, px = self._panel()
        bw, bh, gap = min(px * 11, (panel.w - 3 * px) // 2), round(px * 2.3), px
        top = panel.bottom - bh - round(px * 1.2)
        left = panel.centerx - bw - gap // 2
        style = "danger" if self.danger else "primary"
        return [
            Button(pygame.Rect(left, top, bw, bh), "yes", self.yes, style=style),
            Button(pygame.Rect(left + bw + gap, top, bw, bh), "no", self.no),
        ]

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.activate("yes")
            elif event.key == pygame.K_ESCAPE:
                self.activate("no")
            return
        self.press(event)

    def activate(self, name: str) -> None:
        self.app.pop()
        if name == "yes":
            self.on_yes()

    def next_frame(self) -> float:
        return math.inf

    def draw(self, surface: pygame.Surface) -> None:
        draw_shade(surface, self.assets, 140)
        panel, px = self._panel()
        draw_panel(surface, self.assets, panel, 255, radius=px)  # nothing shows through
        width = panel.w - 3 * px
        title_px = fit_px(self.assets, self.question, round(px * 1.4), width, True)
        at = (panel.centerx, panel.top + px * 1.9)
        draw_text(surface, self.assets, self.question, title_px, at, bold=True, colour=GOLD)
        small = round(px * 0.9)
        lines = wrap(self.assets.font(small), self.detail, width)[:2]
        # between the question and the buttons, one line or two alike
        y = panel.top + px * (4.55 - 0.65 * (len(lines) - 1))
        for line in lines:
            draw_text(surface, self.assets, line, small, (panel.centerx, y), colour=SOFT)
            y += px * 1.3
        self.draw_buttons(surface, self.assets)
