"""The widgets the screens share: a row of a settings-like list and the choice it cycles
through (or the level a slider sets), and a button."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import pygame

from client.i18n import Translator
from client.ui.assets import Assets
from client.ui.render import (
    GOLD,
    SOFT,
    button_px,
    draw_button,
    draw_panel,
    draw_text,
    fit_px,
    rounded_box,
)

__all__ = [
    "Button",
    "Row",
    "cycle",
    "draw_field",
    "draw_form_panels",
    "draw_padlock",
    "draw_slider",
    "draw_stepper",
    "form_rects",
    "slider_at",
    "step_at",
]

SECTION_GAP = 0.6  # rows between a one-column form's sections (their panels' rims clear)


def draw_field(
    surface: pygame.Surface,
    assets: Assets,
    rect: pygame.Rect,
    text: str,
    editing: bool,
    placeholder: str = "",
) -> None:
    """A text box, the same on every screen (the name screen's look): a pill, lit while
    typed into (a caret after the text), dark glass otherwise; ``placeholder``: shown
    while there is no text and it is not being typed into."""
    shown = text + ("|" if editing else "") or placeholder
    px = fit_px(assets, shown, button_px(assets, rect, "Mg"), rect.w - rect.h, True)
    draw_button(surface, assets, rect, shown, "chosen" if editing else "secondary", px=px)


def cycle(options: list[Any], value: object, step: int = 1) -> Any:
    """The choice ``step`` places after ``value`` in ``options``, round and round (the
    first when ``value`` is not among them)."""
    index = options.index(value) if value in options else -1
    return options[(index + step) % len(options)]


@dataclass(frozen=True)
class Button:
    """Where a button is, the name its press reports, its words, whether it can be
    pressed, and its look ("primary" gold, "secondary" dark glass, "danger" red)."""

    rect: pygame.Rect
    name: str
    label: str
    enabled: bool = True
    style: str = "secondary"


@dataclass
class Row:
    label: str
    value: Callable[[], str]
    change: Callable[[int], None] | None = None  # None: a heading
    column: int = 0
    enabled: Callable[[], bool] = lambda: True
    plain: bool = False  # the label is shown as it is (a name), not looked up
    changed: Callable[[], bool] = lambda: False  # a rule set away from its usual value
    level: Callable[[float], None] | None = None  # a slider: set to a fraction 0-1

    def text(self, tr: Translator) -> str:
        return self.label if self.plain else tr(self.label)


def form_rects(size: tuple[int, int], rows: Sequence[Row], button_h: float) -> list[pygame.Rect]:
    """Where a form's rows go (the table's and the party's settings): in two columns on a
    wide window when some row asks for the second (``Row.column``), else in one, where a
    gap of ``SECTION_GAP`` rows parts the second column's rows from the first's (each
    column's rows sit on a panel of their own); under a title, above two rows of buttons
    of height ``button_h``."""
    w, h = size
    columns = 2 if w > h * 1.15 and any(r.column for r in rows) else 1
    left = [r for r in rows if r.column == 0 or columns == 1]
    per_column = max(len(left), len(rows) - len(left))
    gaps = 0 if columns == 2 else sum(a.column != b.column for a, b in pairwise(rows))
    title_h = min(h * 0.15, 110)
    room = per_column + 0.5 + gaps * SECTION_GAP
    # 50 pixels, or on a wide window taller than 750 pixels its 15th; on an upright one
    # (a touch screen held so) 65, for the fingers and to fill the height: its width takes
    # larger words where a narrow landscape one would not
    tallest = max(50.0, h / 15) if w > h else 65.0 if h > w * 1.3 else 50.0
    row_h = max(15.0, min(tallest, (h - title_h - button_h * 2.4) / room))
    col_w = min((w - 48) / columns - 16, 520 * max(1.0, row_h / 50))
    x0 = (w - (col_w * columns + 32 * (columns - 1))) / 2
    counts = [0.0, 0.0]
    rects = []
    for index, row in enumerate(rows):
        col = row.column if columns == 2 else 0
        if columns == 1 and index and row.column != rows[index - 1].column:
            counts[0] += SECTION_GAP
        y = title_h + counts[col] * row_h
        counts[col] += 1
        x = x0 + col * (col_w + 32)
        rects.append(pygame.Rect(round(x), round(y), round(col_w), round(row_h * 0.9)))
    return rects


def draw_form_panels(
    surface: pygame.Surface, assets: Assets, rects: Sequence[pygame.Rect], rows: Sequence[Row]
) -> None:
    """The panels under a form's rows (``form_rects``): one a column, or in one column one
    a section, all with the rim of the shortest."""
    panels = []
    for col in (0, 1):
        box = [r for r, row in zip(rects, rows, strict=True) if row.column == col]
        if box:
            panels.append(box[0].unionall(box).inflate(24, 16))
    radius = max(6, min(p.h for p in panels) // 18)
    for panel in panels:
        draw_panel(surface, assets, panel, 150, radius)


def step_at(value: pygame.Rect, x: float) -> int:
    """Which way a tap at ``x`` steps a row's value: back on the left third of its pill
    (where its back arrow is), on anywhere else."""
    return -1 if value.left <= x < value.left + value.w / 3 else 1


def draw_stepper(
    surface: pygame.Surface,
    assets: Assets,
    rect: pygame.Rect,
    text: str,
    style: str,
    hover: bool,
    enabled: bool = True,
) -> None:
    """A row's value pill with a small arrow at each end: a choice that steps both ways
    (its words keep clear of the arrows)."""
    marks = enabled and rect.w >= rect.h * 3
    inset = rect.h * 0.45
    inner = rect.inflate(-round(inset * 3), 0) if marks else rect
    draw_button(surface, assets, rect, text, style, hover, enabled, button_px(assets, inner, text))
    if not marks:
        return
    ink = (236, 240, 232) if style != "primary" else (44, 30, 8)
    half, depth, y = rect.h * 0.16, rect.h * 0.14, rect.centery
    for tip, back in (
        (rect.left + inset - depth, rect.left + inset + depth),
        (rect.right - inset + depth, rect.right - inset - depth),
    ):
        pygame.draw.polygon(surface, ink, [(tip, y), (back, y - half), (back, y + half)])


SLIDER_TEXT = 0.3  # the share of a slider's rect that its number takes, at the right


def slider_at(rect: pygame.Rect, x: float) -> float:
    """The level (0-1) a press at ``x`` on the slider drawn in ``rect`` sets."""
    track = _track(rect)
    return min(1.0, max(0.0, (x - track.left) / max(1, track.w)))


def _track(rect: pygame.Rect) -> pygame.Rect:
    knob = rect.h * 0.36
    track = pygame.Rect(0, 0, round(rect.w * (1 - SLIDER_TEXT) - 2 * knob), max(4, rect.h // 6))
    track.midleft = (round(rect.left + knob), rect.centery)
    return track


def draw_slider(
    surface: pygame.Surface,
    assets: Assets,
    rect: pygame.Rect,
    level: float,
    text: str,
    focus: bool,
    hover: bool,
) -> None:
    """A level (0-1) as a track filled to it with a knob, its words (``text``) at the
    right; ``focus``: the row the arrow keys move (a light ring round the knob)."""
    track = _track(rect)
    radius = track.h // 2
    rounded_box(surface, assets, track, (8, 24, 16, 230), radius, (255, 255, 255, 60))
    filled = track.copy()
    filled.w = max(track.h, round(track.w * level))
    if level > 0:
        rounded_box(surface, assets, filled, (*GOLD, 255), radius)
    knob = (track.left + track.w * level, track.centery)
    size = rect.h * (0.32 if hover or focus else 0.28)
    pygame.draw.circle(surface, (0, 0, 0), (knob[0], knob[1] + 2), size)
    pygame.draw.circle(surface, (246, 240, 224), knob, size)
    if focus:
        pygame.draw.circle(surface, (60, 120, 84), knob, size, max(2, round(size * 0.22)))
    room = rect.w * SLIDER_TEXT
    px = fit_px(assets, text, round(rect.h * 0.42), room - 4)
    at = (rect.right - room / 2, rect.centery)
    draw_text(surface, assets, text, px, at, colour=GOLD if focus else SOFT, bold=True)


def draw_padlock(
    surface: pygame.Surface, centre: tuple[float, float], height: float, colour: tuple[int, ...]
) -> pygame.Rect:
    """A padlock ``height`` pixels tall (a table with a password): its body and shackle."""
    body = pygame.Rect(0, 0, round(height * 0.78), round(height * 0.56))
    body.midbottom = (round(centre[0]), round(centre[1] + height / 2))
    shackle = pygame.Rect(0, 0, round(height * 0.52), round(height * 0.7))
    shackle.midtop = (body.centerx, round(centre[1] - height / 2))
    width = max(2, round(height * 0.12))
    pygame.draw.ellipse(surface, colour, shackle, width)
    pygame.draw.rect(surface, colour, body, border_radius=max(1, round(height * 0.1)))
    hole = (body.centerx, body.centery)
    pygame.draw.circle(surface, (30, 30, 24), hole, max(1, height * 0.07))
    return body.union(shackle)
