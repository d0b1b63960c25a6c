"""The settings screen: name, language, animation speed, hints, sound, full screen.

Each row changes when tapped (or with ←/→) and is remembered at once; a language switch
shows on the next frame. The name row takes typing: tap it (or Enter on it), type,
then Enter or Esc. Esc (or Back) returns to the start screen.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pygame

from client.i18n import N_
from client.settings import ANIMATION_SPEEDS, LANGUAGES, NAME_MAX, clean_name
from client.ui.pointer import Input, Key
from client.ui.render import SOFT, draw_backdrop, draw_button, draw_panel, draw_text, fit_px
from client.ui.scene import ButtonScene, Director
from client.ui.widgets import Button, Row, cycle, draw_stepper, step_at

__all__ = ["SettingsScene"]


class SettingsScene(ButtonScene):
    tallest_button = 60

    def __init__(self, app: Director) -> None:
        self.app = app
        self.assets = app.assets
        self.editing = False  # typing into the name row
        self.focus = 0
        self.hover = None
        self.rows = self._rows()
        self.resize(app.size)

    def _rows(self) -> list[Row]:
        s = self.app.settings

        def tr(key: str, **fmt: object) -> str:
            return self.app.tr(key, **fmt)

        def on_off(value: bool) -> str:
            return tr("on") if value else tr("off")

        def toggle(name: str) -> Callable[[int], None]:
            return lambda step: setattr(s, name, not getattr(s, name))

        def set_language(step: int) -> None:
            s.language = str(cycle(list(LANGUAGES), s.language, step))

        def set_speed(step: int) -> None:
            s.animation = str(cycle(list(ANIMATION_SPEEDS), s.animation, step))

        return [
            Row(N_("settings.name"), self._name_value, self._start_editing),
            Row(N_("settings.language"), lambda: tr("lang." + s.language), set_language),
            Row(N_("settings.animation"), lambda: tr("speed." + s.animation), set_speed),
            Row(N_("settings.hints"), lambda: on_off(s.hints), toggle("hints")),
            Row(N_("settings.sound"), lambda: on_off(not s.muted), toggle("muted")),
            Row(
                N_("settings.fullscreen"),
                lambda: on_off(s.fullscreen),
                lambda step: self.app.toggle_fullscreen(),
            ),
        ]

    def _name_value(self) -> str:
        name = self.app.settings.name or self.app.tr("settings.default_name")
        return name + ("|" if self.editing else "")

    def _start_editing(self, step: int) -> None:
        self.editing = True
        with_keyboard = getattr(pygame.key, "start_text_input", None)
        if with_keyboard is not None:
            with_keyboard()  # the on-screen keyboard on a phone

    def _stop_editing(self) -> None:
        self.editing = False
        self.app.settings.name = clean_name(self.app.settings.name)
        self.app.save_settings()

    # --- geometry -------------------------------------------------------------------------

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size

    def _geometry(self) -> tuple[pygame.Rect, float, int]:
        """The panel, the height of a row and the text size."""
        w, h = self.size
        title_h = min(h * 0.16, 120)
        bh = self.button_h()
        row_h = max(18.0, min(56.0, (h - title_h - bh * 2.6) / (len(self.rows) + 1.4)))
        panel = pygame.Rect(0, 0, round(min(w - 32, 640)), round(row_h * (len(self.rows) + 0.6)))
        panel.midtop = (w // 2, round(title_h))
        return panel, row_h, max(11, round(row_h * 0.42))

    def _value_rect(self, rects: list[pygame.Rect], rect: pygame.Rect) -> pygame.Rect:
        """Where the value of the row at ``rect`` sits, at the right of it."""
        px = self._geometry()[2]
        value = pygame.Rect(0, 0, round(min(rects[0].w * 0.5, px * 12)), round(rect.h * 0.86))
        value.midright = (rect.right - 4, rect.centery)
        return value

    def _row_rects(self) -> list[pygame.Rect]:
        panel, row_h, _ = self._geometry()
        return [
            pygame.Rect(
                panel.left + 12,
                round(panel.top + row_h * (0.3 + i)),
                panel.w - 24,
                round(row_h * 0.9),
            )
            for i in range(len(self.rows))
        ]

    def _back(self) -> pygame.Rect:
        panel, _, _ = self._geometry()
        bh = self.button_h()
        back = pygame.Rect(0, 0, round(min(self.size[0] * 0.6, bh * 6)), bh)
        back.midtop = (self.size[0] // 2, round(panel.bottom + bh * 0.9))
        return back

    def buttons(self) -> list[Button]:
        return [Button(self._back(), "back", self.app.tr("settings.back"), style="primary")]

    # --- input ----------------------------------------------------------------------------

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            self._key(event)
            return
        if event.kind == "down" and self.editing:
            self._stop_editing()
        if event.kind != "step" and self.press(event):
            return
        rects = self._row_rects()
        for i, rect in enumerate(rects):
            change = self.rows[i].change
            if rect.collidepoint(event.pos) and change is not None:
                self.focus = i
                change(event.step or step_at(self._value_rect(rects, rect), event.x))
                self.app.save_settings()
                return

    def activate(self, name: str) -> None:
        if name == "back":
            self.app.pop()

    def _key(self, event: Key) -> None:
        key = event.key
        if self.editing:
            settings = self.app.settings
            if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_ESCAPE, pygame.K_TAB):
                self._stop_editing()
            elif key == pygame.K_BACKSPACE:
                settings.name = settings.name[:-1]
            elif event.unicode and event.unicode.isprintable() and len(settings.name) < NAME_MAX:
                settings.name += event.unicode
            return
        if key == pygame.K_ESCAPE:
            self.app.pop()
        elif key in (pygame.K_DOWN, pygame.K_UP):
            self.focus = (self.focus + (1 if key == pygame.K_DOWN else -1)) % len(self.rows)
        elif key in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_RETURN, pygame.K_KP_ENTER):
            change = self.rows[self.focus].change
            assert change is not None
            change(-1 if key == pygame.K_LEFT else 1)
            self.app.save_settings()

    # --- drawing --------------------------------------------------------------------------

    def next_frame(self) -> float:
        return math.inf  # only input changes it

    def draw(self, surface: pygame.Surface) -> None:
        w = surface.get_width()
        tr = self.app.tr
        panel, _, px = self._geometry()
        title_px = round(min(panel.top * 0.4, w * 0.08))
        draw_backdrop(
            surface, self.assets, tr("settings.title"), title_px, (w / 2, panel.top * 0.5)
        )
        draw_panel(surface, self.assets, panel, 150)
        rects = self._row_rects()
        room = self._value_rect(rects, rects[0]).left - rects[0].left - px * 1.5
        label_px = min(fit_px(self.assets, row.text(tr), px, room) for row in self.rows)
        for i, (row, rect) in enumerate(zip(self.rows, rects, strict=True)):
            value = self._value_rect(rects, rect)
            label = row.text(tr)
            at: tuple[float, float] = (rect.left + px, rect.centery)
            draw_text(surface, self.assets, label, label_px, at, "midleft")
            hover = self.hover is not None and rect.collidepoint(self.hover)
            style = "chosen" if i == self.focus else "secondary"
            if row.label == "settings.name":  # typed in place, not stepped through
                draw_button(surface, self.assets, value, row.value(), style, hover)
            else:
                draw_stepper(surface, self.assets, value, row.value(), style, hover)
        if self.editing:
            help_text = tr("settings.name_help")
            help_px = fit_px(self.assets, help_text, round(px * 0.9), w - 16)
            at = (w / 2, panel.bottom + px * 0.2)
            draw_text(surface, self.assets, help_text, help_px, at, "midtop", SOFT)
        self.draw_buttons(surface, self.assets)
