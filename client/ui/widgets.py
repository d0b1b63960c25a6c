"""The widgets the screens share: a row of a settings-like list and the choice it cycles
through, and a button."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pygame

from client.i18n import Translator
from client.ui.assets import Assets
from client.ui.render import button_px, draw_button

__all__ = ["Button", "Row", "cycle", "draw_stepper", "step_at"]


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

    def text(self, tr: Translator) -> str:
        return self.label if self.plain else tr(self.label)


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
