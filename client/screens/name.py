"""Who you are at the table: asked the first time you host or join.

Nobody was ever asked for a name, so a LAN room read "Player (you) / Игрок / Player 2"
(issue 24). Before the first table this screen asks once: a name, prefilled with the one
the system knows the player by (``client.settings.system_name``; the language's word for
"Player" where it knows none), and a badge (``client.ui.looks``) the others see beside
it. Both are remembered (``Settings.named``) and can be changed in Settings; Continue
opens the screen that asked (``then``, with its ``options``), Esc goes back. A party asks
it every time, under its own title (``title``): who you are tonight.

Typing goes straight into the name; ←/→ choose the badge; Enter continues.
"""

from __future__ import annotations

import math
from typing import Any

import pygame

from client.settings import NAME_MAX, clean_name, system_name
from client.ui.looks import LOOK_NAMES, draw_look
from client.ui.pointer import Input, Key
from client.ui.render import GOLD, SOFT, draw_backdrop, draw_panel, draw_text, fit_px
from client.ui.scene import ButtonScene, Director
from client.ui.widgets import Button, draw_field
from protocol import LOOKS

__all__ = ["NameScene"]


class NameScene(ButtonScene):
    tallest_button = 60

    def __init__(
        self, app: Director, then: str = "start", *, title: str = "name.title", **options: Any
    ) -> None:
        self.app = app
        self.assets = app.assets
        self.then, self.options, self.title = then, options, title
        settings = app.settings
        self.name = settings.name or system_name()
        self.look = settings.look
        self.hover = None
        self.size = app.size

    def enter(self) -> None:
        with_keyboard = getattr(pygame.key, "start_text_input", None)
        if with_keyboard is not None:
            with_keyboard()  # the on-screen keyboard on a phone

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size

    # --- geometry -------------------------------------------------------------------------

    @property
    def scale(self) -> float:
        w, h = self.size
        return max(1.0, min(w / 1280, h / 720))

    def button_h(self) -> int:
        return round(max(26, min(self.tallest_button * self.scale, self.size[1] * 0.075)))

    def _panel(self) -> tuple[pygame.Rect, int]:
        """The panel and its text size (taller where the badges take two rows)."""
        w, h = self.size
        px = max(12, round(min(22 * self.scale, h * 0.032, w * 0.04)))
        width = round(min(w - 32, px * 34))
        rows = 1 if width >= px * 30 else 2
        panel = pygame.Rect(0, 0, width, round(px * (14.2 + 3.4 * (rows - 1))))
        panel.center = (w // 2, round(h * 0.47))
        return panel, px

    def field(self) -> pygame.Rect:
        panel, px = self._panel()
        field = pygame.Rect(0, 0, panel.w - 4 * px, round(px * 2.6))
        field.midtop = (panel.centerx, panel.top + round(px * 3.6))
        return field

    def badges(self) -> list[pygame.Rect]:
        """Where each badge is (a row of eight, or two rows of four in a narrow window)."""
        panel, px = self._panel()
        per_row = LOOKS if panel.w >= px * 30 else LOOKS // 2
        size = round(min(px * 3.0, (panel.w - 4 * px) / per_row * 0.84))
        step = (panel.w - 4 * px) / per_row
        top = panel.top + px * 8.7 + size / 2
        rects = []
        for look in range(LOOKS):
            row, col = divmod(look, per_row)
            rect = pygame.Rect(0, 0, size, size)
            rect.center = (
                round(panel.left + 2 * px + step * (col + 0.5)),
                round(top + row * size * 1.15),
            )
            rects.append(rect)
        return rects

    def buttons(self) -> list[Button]:
        panel, _ = self._panel()
        bh = self.button_h()
        w = round(min(self.size[0] * 0.4, bh * 5))
        ok = pygame.Rect(0, 0, w, bh)
        back = ok.copy()  # (Back on the left and going on at the right, as on every screen)
        back.topright = (self.size[0] // 2 - 8, panel.bottom + round(bh * 0.6))
        ok.topleft = (self.size[0] // 2 + 8, back.top)
        tr = self.app.tr
        return [
            Button(ok, "continue", tr("name.continue"), style="primary"),
            Button(back, "back", tr("name.back")),
        ]

    # --- input ----------------------------------------------------------------------------

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            self._key(event)
            return
        if self.press(event):
            return
        for look, rect in enumerate(self.badges()):
            if rect.inflate(8, 8).collidepoint(event.pos):
                self.look = look

    def _key(self, event: Key) -> None:
        key = event.key
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.activate("continue")
        elif key == pygame.K_ESCAPE:
            self.activate("back")
        elif key == pygame.K_BACKSPACE:
            self.name = self.name[:-1]
        elif key in (pygame.K_LEFT, pygame.K_RIGHT):
            self.look = (self.look + (1 if key == pygame.K_RIGHT else -1)) % LOOKS
        elif event.unicode and event.unicode.isprintable() and len(self.name) < NAME_MAX:
            self.name += event.unicode

    def activate(self, name: str) -> None:
        if name == "back":
            self.app.pop()
            return
        settings = self.app.settings
        settings.name, settings.look, settings.named = clean_name(self.name), self.look, True
        self.app.save_settings()
        self.app.pop()
        self.app.show(self.then, **self.options)

    # --- drawing --------------------------------------------------------------------------

    def next_frame(self) -> float:
        return math.inf

    def draw(self, surface: pygame.Surface) -> None:
        tr = self.app.tr
        w = surface.get_width()
        panel, px = self._panel()
        title = tr(self.title)
        title_px = fit_px(
            self.assets, title, round(min(panel.top * 0.45, 64 * self.scale)), w - 32, True
        )
        title_y = max(panel.top * 0.5, panel.top - title_px * 1.3)  # (close over the panel)
        draw_backdrop(surface, self.assets, title, title_px, (w / 2, title_y))
        draw_panel(surface, self.assets, panel, 170, radius=px)
        label = tr("name.prompt")
        at = (panel.left + 2 * px, panel.top + px * 2.2)
        draw_text(surface, self.assets, label, px, at, "midleft", GOLD, True)
        field = self.field()
        draw_field(surface, self.assets, field, self.name or tr("settings.default_name"), True)
        at = (panel.left + 2 * px, panel.top + px * 7.6)
        draw_text(surface, self.assets, tr("name.badge"), px, at, "midleft", GOLD, True)
        for look, rect in enumerate(self.badges()):
            if look == self.look:
                ring = rect.inflate(round(px * 0.7), round(px * 0.7))
                pygame.draw.circle(surface, GOLD, ring.center, ring.w / 2, max(2, px // 5))
            draw_look(surface, self.assets, look, rect.center, rect.w)
        chosen = tr("look." + LOOK_NAMES[self.look])
        hint = tr("name.hint", badge=chosen)
        at = (panel.centerx, panel.bottom - px * 1.3)
        draw_text(
            surface,
            self.assets,
            hint,
            fit_px(self.assets, hint, round(px * 0.85), panel.w - 2 * px),
            at,
            colour=SOFT,
        )
        self.draw_buttons(surface, self.assets)
