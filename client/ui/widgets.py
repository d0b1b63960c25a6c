"""The widgets the screens share: a row of a settings-like list and the choice it cycles
through, and a button."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pygame

from client.i18n import Translator

__all__ = ["Button", "Row", "cycle"]


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

    def text(self, tr: Translator) -> str:
        return self.label if self.plain else tr(self.label)
