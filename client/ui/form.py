"""The form both host screens are: the LAN table's (``client.screens.host``) and the
party's (``client.screens.party.menu``), and the party's join screen (a screen imports
no other: the form they share is the window's, as the widgets are).

A ``FormScene`` is a title, rows (``client.ui.widgets.Row``: a heading, a stepped value
or a text field) laid out by ``form_rects`` (two columns on a wide window) and two buttons
at the bottom, Back and the screen's own. A tap on a value steps it (the pill's left half
back, its right half on) and saves the settings; a tap on a text field types into it;
Tab goes to the next field, Enter ends the typing (or presses the screen's own button),
Esc ends it (or goes back). A row set away from the usual rules has a gold dot before its
label. The line above the buttons (``notice``) says why the form cannot go on, or what it
is doing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

import pygame

from client.ui.pointer import Input, Key
from client.ui.render import GOLD, draw_backdrop, draw_text, fit_px
from client.ui.scene import ButtonScene, Director
from client.ui.widgets import (
    Button,
    Row,
    draw_field,
    draw_form_panels,
    draw_stepper,
    form_rects,
    step_at,
)

__all__ = ["WARN", "FormScene", "draw_title"]

WARN = (255, 170, 150)  # a refusal's words above the buttons
DIM = (120, 140, 128)  # a row that cannot be changed now


def draw_title(surface: pygame.Surface, app: Director, key: str, top: float = 0.0) -> float:
    """The screen's felt and title (its band ``top`` pixels down); the band's height."""
    w, h = surface.get_size()
    title_h = min(h * 0.15, 110.0)
    title = app.tr(key)
    px = fit_px(app.assets, title, round(min(title_h * 0.45, w * 0.08)), w - 32, True)
    draw_backdrop(surface, app.assets, title, px, (w / 2, top + title_h * 0.45))
    return title_h


class FormScene(ButtonScene):
    """A form of rows over two buttons. ``fields``: each text field's row label -> its
    text (typed up to ``field_max`` characters; a row's ``value`` is what it shows, dots
    for a password); ``placeholders``: a field's label -> the key of what an empty field
    says; ``back_key``: the Back button's words."""

    rows: list[Row]
    fields: dict[str, str]
    editing: str | None = None  # the label of the field being typed in
    message = ""
    field_max = 64
    placeholders: Mapping[str, str] = {}
    back_key = "party.back"

    def __init__(self, app: Director) -> None:
        self.app = app
        self.size = app.size

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size

    def row_rects(self) -> list[pygame.Rect]:
        return form_rects(self.size, self.rows, self.button_h())

    def value_rect(self, row: Row, rect: pygame.Rect) -> pygame.Rect:
        """Where a row's value sits: a wide field for a text, a pill else."""
        field = row.label in self.fields
        px = self.text_px(rect)
        width = rect.w * (0.55 if field else 0.4)
        value = pygame.Rect(
            0, 0, round(min(width, px * (14 if field else 9))), round(rect.h * 0.86)
        )
        value.midright = (rect.right - 4, rect.centery)
        return value

    def text_px(self, rect: pygame.Rect) -> int:
        """The text size of a row of ``rect``."""
        return max(11, round((rect.h / 0.9) * 0.42))

    def pair(self, go: str, label: str, ok: bool) -> list[Button]:
        """Back and a go button (``go``, its ``label``) side by side at the bottom."""
        w, h = self.size
        bh = self.button_h()
        bw = round(min((w - 48) / 2, bh * 5))
        a = pygame.Rect(0, h - round(bh * 1.3), bw, bh)
        b = a.copy()
        a.right, b.left = w // 2 - 8, w // 2 + 8
        back = Button(a, "back", self.app.tr(self.back_key))
        return [back, Button(b, go, label, ok, "primary")]

    def notice(self) -> tuple[str, tuple[int, int, int]]:
        """The line above the buttons and its colour (``message``, as a refusal)."""
        return self.message, WARN

    # --- input ----------------------------------------------------------------------------

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            self._key(event)
            return
        if event.kind != "step" and self.press(event):
            return
        self.editing = None
        for row, rect in zip(self.rows, self.row_rects(), strict=True):
            if rect.collidepoint(event.pos) and row.change is not None and row.enabled():
                row.change(event.step or step_at(self.value_rect(row, rect), event.x))
                self.app.save_settings()
                return

    def _key(self, event: Key) -> None:
        if event.key == pygame.K_ESCAPE:
            if self.editing:
                self.editing = None
            else:
                self.app.pop()
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_TAB):
            names = list(self.fields)
            if self.editing and event.key == pygame.K_TAB:
                self.editing = names[(names.index(self.editing) + 1) % len(names)]
            elif self.editing:
                self.editing = None
            else:
                self.activate(self.buttons()[-1].name)
        elif self.editing is not None:
            text = self.fields[self.editing]
            if event.key == pygame.K_BACKSPACE:
                text = text[:-1]
            elif event.unicode and event.unicode.isprintable() and len(text) < self.field_max:
                text += event.unicode
            self.fields[self.editing] = text

    def edit(self, field: str) -> Callable[[int], None]:
        """A text row's ``change``: type into ``field``."""

        def start(step: int) -> None:
            self.editing = field

        return start

    def next_frame(self) -> float:
        return math.inf

    # --- drawing --------------------------------------------------------------------------

    def draw_form(self, surface: pygame.Surface, title: str) -> None:
        """The title (``title``: its key), the rows, the buttons and the notice."""
        draw_title(surface, self.app, title)
        rects = self.row_rects()
        draw_form_panels(surface, self.app.assets, rects, self.rows)
        for row, rect in zip(self.rows, rects, strict=True):
            self._draw_row(surface, row, rect)
        self.draw_buttons(surface, self.app.assets)
        text, colour = self.notice()
        if text:
            w = surface.get_width()
            px = self.text_px(rects[-1])
            top = self.buttons()[0].rect.top
            size = fit_px(self.app.assets, text, px, w - 16)
            draw_text(surface, self.app.assets, text, size, (w / 2, top - px), colour=colour)

    def _draw_row(self, surface: pygame.Surface, row: Row, rect: pygame.Rect) -> None:
        assets, tr = self.app.assets, self.app.tr
        px = self.text_px(rect)
        text = row.text(tr)
        if row.change is None:
            size = fit_px(assets, text, round(px * 1.05), rect.w - px, bold=True)
            at = (rect.left + px * 0.5, rect.centery)
            draw_text(surface, assets, text, size, at, "midleft", GOLD, True)
            return
        value = self.value_rect(row, rect)
        enabled = row.enabled()
        changed = enabled and row.changed()
        colour = GOLD if changed else (255, 255, 255) if enabled else DIM
        size = fit_px(assets, text, px, value.left - rect.left - px * 1.5)
        draw_text(surface, assets, text, size, (rect.left + px, rect.centery), "midleft", colour)
        if changed:  # set away from the usual rules: a gold dot before the label
            dot = (rect.left + px * 0.45, rect.centery)
            draw_text(surface, assets, "•", size, dot, colour=GOLD)
        if row.label in self.fields:
            blank = self.placeholders.get(row.label)
            shown = "" if blank is None else tr(blank)
            draw_field(surface, assets, value, row.value(), self.editing == row.label, shown)
            return
        hover = self.hover is not None and rect.collidepoint(self.hover)
        shown = row.value() if enabled else "—"
        draw_stepper(surface, assets, value, shown, "secondary", hover, enabled)
