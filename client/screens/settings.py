"""The settings screen: name and badge, language, animation speed, hints, sound, volume,
music, full screen.

Each row changes when tapped (or with ←/→) and is remembered at once; a language switch
shows on the next frame. The name row takes typing: tap it (or Enter on it), type,
then Enter or Esc. The volume and the music are sliders: tap or drag along them, or
←/→ by tens. Esc (or Done) returns to the start screen.

The panel grows with the window (as the start screen does: up to 1.5 times its 1280x720
size on a 1920x1080 screen) and stands in the middle of a tall one; at a fixed 640 pixels
it filled a third of a 1080p window (issue 24).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pygame

from client.i18n import N_
from client.settings import ANIMATION_SPEEDS, LANGUAGES, NAME_MAX, clean_name
from client.ui.looks import LOOK_NAMES, draw_look
from client.ui.pointer import Input, Key
from client.ui.render import SOFT, draw_backdrop, draw_button, draw_panel, draw_text, fit_px
from client.ui.scene import ButtonScene, Director
from client.ui.widgets import Button, Row, cycle, draw_slider, draw_stepper, slider_at, step_at
from protocol import LOOKS

__all__ = ["SettingsScene"]

STEP = 10  # how far ←/→ (or the wheel) move a slider, of 100


class SettingsScene(ButtonScene):
    tallest_button = 60

    def __init__(self, app: Director) -> None:
        self.app = app
        self.assets = app.assets
        self.editing = False  # typing into the name row
        self.sliding: int | None = None  # the slider row being dragged
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

        def set_look(step: int) -> None:
            s.look = (s.look + step) % LOOKS

        def slider(key: str, name: str, off: bool) -> Row:
            def value() -> str:
                level = int(getattr(s, name))
                return tr("off") if off and level == 0 else f"{level} %"

            def change(step: int) -> None:
                setattr(s, name, min(100, max(0, int(getattr(s, name)) + step * STEP)))

            def level(fraction: float) -> None:
                setattr(s, name, round(fraction * 100 / 5) * 5)  # in fives: easy to hit

            return Row(key, value, change, level=level)

        return [
            Row(N_("settings.name"), self._name_value, self._start_editing),
            Row(N_("settings.look"), lambda: tr("look." + LOOK_NAMES[s.look]), set_look),
            Row(N_("settings.language"), lambda: tr("lang." + s.language), set_language),
            Row(N_("settings.animation"), lambda: tr("speed." + s.animation), set_speed),
            Row(N_("settings.hints"), lambda: on_off(s.hints), toggle("hints")),
            Row(N_("settings.sound"), lambda: on_off(not s.muted), toggle("muted")),
            slider(N_("settings.volume"), "volume", off=False),
            slider(N_("settings.music"), "music", off=True),
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

    @property
    def scale(self) -> float:
        """How much larger than 1280x720 the window is (1 at most that size)."""
        w, h = self.size
        return max(1.0, min(w / 1280, h / 720))

    def button_h(self) -> int:
        return round(max(26, min(self.tallest_button * self.scale, self.size[1] * 0.075)))

    def _geometry(self) -> tuple[pygame.Rect, float, int]:
        """The panel, the height of a row and the text size."""
        w, h = self.size
        k = self.scale
        title_h = min(h * 0.16, 120 * k)
        bh = self.button_h()
        rows = len(self.rows)
        tallest = 56.0 * k * (1.3 if h > w else 1.0)  # upright (a touch screen): taller rows
        row_h = max(18.0, min(tallest, (h - title_h - bh * 2.6) / (rows + 1.4)))
        panel = pygame.Rect(0, 0, round(min(w - 32, 720 * k)), round(row_h * (rows + 0.6)))
        spare = h - (title_h + panel.h + bh * 2.6)  # a tall window: the whole screen lower
        panel.midtop = (w // 2, round(title_h + max(0.0, spare) * 0.35))
        return panel, row_h, max(11, round(row_h * 0.42))

    def _value_rect(self, rects: list[pygame.Rect], rect: pygame.Rect) -> pygame.Rect:
        """Where the value of the row at ``rect`` sits, at the right of it."""
        px = self._geometry()[2]
        value = pygame.Rect(0, 0, round(min(rects[0].w * 0.5, px * 14)), round(rect.h * 0.86))
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
        if self.sliding is not None and event.kind in ("move", "up"):
            self._slide(self.sliding, event.x)
            if event.kind == "up":
                self.sliding = None
                self.app.save_settings()
            return
        if event.kind == "down" and self.editing:
            self._stop_editing()
        if event.kind != "step" and self.press(event):
            return
        rects = self._row_rects()
        for i, rect in enumerate(rects):
            row = self.rows[i]
            if not rect.collidepoint(event.pos) or row.change is None:
                continue
            self.focus = i
            value = self._value_rect(rects, rect)
            if row.level is not None and event.kind == "down" and value.collidepoint(event.pos):
                self.sliding = i  # along the slider: it follows the pointer until let go
                self._slide(i, event.x)
            else:
                row.change(event.step or step_at(value, event.x))
            self.app.save_settings()
            return

    def _slide(self, index: int, x: float) -> None:
        rects = self._row_rects()
        level = self.rows[index].level
        assert level is not None
        level(slider_at(self._value_rect(rects, rects[index]), x))
        self.app.save_settings()  # heard at once: the music's volume follows the knob

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
        title_px = round(min(panel.top * 0.4, w * 0.08, 64 * self.scale))
        at_title = (w / 2, panel.top * 0.5)
        draw_backdrop(surface, self.assets, tr("settings.title"), title_px, at_title)
        draw_panel(surface, self.assets, panel, 150)
        rects = self._row_rects()
        room = self._value_rect(rects, rects[0]).left - rects[0].left - px * 1.5
        label_px = min(fit_px(self.assets, row.text(tr), px, room) for row in self.rows)
        for i, (row, rect) in enumerate(zip(self.rows, rects, strict=True)):
            value = self._value_rect(rects, rect)
            at: tuple[float, float] = (rect.left + px, rect.centery)
            draw_text(surface, self.assets, row.text(tr), label_px, at, "midleft")
            hover = self.hover is not None and rect.collidepoint(self.hover)
            focus = i == self.focus
            style = "chosen" if focus else "secondary"
            if row.label == "settings.name":  # typed in place, not stepped through
                draw_button(surface, self.assets, value, row.value(), style, hover)
            elif row.level is not None:
                level = int(getattr(self.app.settings, row.label.removeprefix("settings."))) / 100
                draw_slider(surface, self.assets, value, level, row.value(), focus, hover)
            else:
                draw_stepper(surface, self.assets, value, row.value(), style, hover)
            if row.label == "settings.look":  # the badge itself, left of the pill
                badge = round(value.h * 0.9)
                where = (value.left - badge * 0.7, value.centery)
                draw_look(surface, self.assets, self.app.settings.look, where, badge)
        if self.editing:
            help_text = tr("settings.name_help")
            help_px = fit_px(self.assets, help_text, round(px * 0.9), w - 16)
            at = (w / 2, panel.bottom + px * 0.2)
            draw_text(surface, self.assets, help_text, help_px, at, "midtop", SOFT)
        self.draw_buttons(surface, self.assets)
