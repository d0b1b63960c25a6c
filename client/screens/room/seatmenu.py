"""The owner's choices for one seat, opened from its chip where a row of chips has no room.

Around the oval of a window held upright (720x1280: three boxes across) a seat's box is
too narrow for a row of level chips and a clear chip, which made the owner's room a column
of seats while the guests' was an oval. There the box has one chip ("Hard ▾", or "Fill
with AI ▾" on an open seat, ``menu_label``) and a tap on it opens this overlay beside the
box: the levels, the seat's own marked, and for an AI the way back to an open seat. A
choice, Esc or a tap anywhere else closes it; the choice goes to the room screen, which
sends it to the host as its chips do.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import pygame

from client.i18n import Translator
from client.screens.choices import levels
from client.ui.pointer import Input, Key
from client.ui.render import GOLD, button_w, draw_panel, draw_shade, draw_text, ellipsize
from client.ui.scene import ButtonScene, Director
from client.ui.widgets import Button

__all__ = ["Choice", "SeatMenuScene", "menu_label"]


def menu_label(tr: Translator, level: str | None) -> str:
    """The one chip under a seat: its AI's level, or (None: an open seat) "Fill with AI";
    the mark after it says it opens a list."""
    if level is None:
        words = tr("room.fill")
    else:
        words = tr("level." + level) if level in levels() else tr("room.computer")
    return words + " ▾"


@dataclass(frozen=True)
class Choice:
    """One line of the menu: what it sends back (``name``), says and looks like."""

    name: str
    label: str
    style: str  # "chosen" for the seat's own level, else "secondary"


class SeatMenuScene(ButtonScene):
    opaque = False

    def __init__(
        self,
        app: Director,
        anchor: pygame.Rect,
        title: str,
        choices: list[Choice],
        on_choice: Callable[[str], None],
    ) -> None:
        """``anchor``: the chip it opens from; ``title``: the seat's name; ``on_choice``:
        gets the chosen ``Choice.name`` once the menu is off the stack."""
        self.app = app
        self.assets = app.assets
        self.anchor = pygame.Rect(anchor)
        self.title = title
        self.choices = choices
        self.on_choice = on_choice
        self.size = app.size

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size

    def panel(self) -> tuple[pygame.Rect, int, int]:
        """The panel, the height of a line and the gap around and between them: under the
        chip where it fits, else over it, always inside the window."""
        w, h = self.size
        line = max(self.anchor.h, round(min(w, h) * 0.06))
        gap = max(6, line // 5)
        widest = max(button_w(self.assets, c.label, line) for c in self.choices)
        width = min(w - 2 * gap, max(self.anchor.w, widest + 2 * gap, line * 5))
        height = (len(self.choices) + 1) * (line + gap) + gap
        panel = pygame.Rect(0, 0, width, height)
        panel.centerx = self.anchor.centerx
        panel.top = self.anchor.bottom + gap
        if panel.bottom > h - gap:
            panel.bottom = self.anchor.top - gap
        panel.clamp_ip(pygame.Rect(0, 0, w, h).inflate(-2 * gap, -2 * gap))
        return panel, line, gap

    def buttons(self) -> list[Button]:
        panel, line, gap = self.panel()
        found = []
        for k, choice in enumerate(self.choices):
            top = panel.top + gap + (k + 1) * (line + gap)
            rect = pygame.Rect(panel.left + gap, top, panel.w - 2 * gap, line)
            found.append(Button(rect, choice.name, choice.label, style=choice.style))
        return found

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            if event.key == pygame.K_ESCAPE:
                self.app.pop()
            return
        if not self.press(event) and event.kind == "down":
            self.app.pop()  # a tap beside the menu: nothing chosen

    def activate(self, name: str) -> None:
        self.app.pop()
        self.on_choice(name)

    def next_frame(self) -> float:
        return math.inf

    def draw(self, surface: pygame.Surface) -> None:
        draw_shade(surface, self.assets, 90)
        panel, line, gap = self.panel()
        draw_panel(surface, self.assets, panel, 245, radius=gap * 2)
        px = max(12, round(line * 0.42))
        title = ellipsize(self.assets, self.title, px, panel.w - 2 * gap, True)
        at = (panel.centerx, panel.top + gap + line // 2)
        draw_text(surface, self.assets, title, px, at, colour=GOLD, bold=True)
        self.draw_buttons(surface, self.assets)
