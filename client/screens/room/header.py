"""The top of the room: its name (a padlock beside it for a password) over its rules.

The rules summary is one line where it reads at a fair size; else it is broken after its
commas (or between words, where that takes fewer lines), two lines, or three in a tall
window. The seats start below it (``Header.bottom``).
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from client.i18n.rulestext import comma_lines
from client.ui.assets import Assets
from client.ui.render import (
    GOLD,
    MIN_PX,
    SOFT,
    draw_backdrop,
    draw_text,
    ellipsize,
    fit_px,
    line_h,
    wrap,
)
from client.ui.widgets import draw_padlock

__all__ = ["Header", "draw_header", "measure_header"]


@dataclass(frozen=True)
class Header:
    """The top of the room: the title's size and centre line, the rules summary's size,
    its lines and its first line's centre, and where the seats may start."""

    title_px: int
    title_y: int
    summary_px: int
    lines: list[str]
    first: int
    bottom: float


def measure_header(
    assets: Assets, size: tuple[int, int], px: int, title: str, summary: str | None
) -> Header:
    """The title and the rules summary (one line, or two, or three in a tall window,
    broken after a comma where one would be set too small to read) in a window of
    ``size``, the summary at ``px`` where it fits (``summary``: None before the room is
    heard of)."""
    w, h = size
    top = min(h * 0.17, 120)
    title_px = round(min(top * 0.4, w * 0.07))
    title_px = max(fit_px(assets, title, title_px, w - 32, True), title_px * 3 // 5)
    title_y = round(top * 0.36)
    if summary is None:
        return Header(title_px, title_y, px, [], 0, top)
    width = w - 32
    size_px = fit_px(assets, summary, px, width)
    lines = [summary]
    if size_px < px * 0.8:
        most = 3 if h > w * 1.2 else 2
        for size_px in range(round(px * 0.8), MIN_PX - 1, -1):
            lines = _summary_lines(assets, summary, size_px, width, most)
            if len(lines) <= most:
                break
    step, title_h = line_h(assets, size_px), line_h(assets, title_px, True)
    title_bottom = title_y - title_h // 2 + title_h  # whole pixels: nothing touches
    first = max(round(top * 0.72 - (len(lines) - 1) * step / 2), title_bottom + step // 2)
    below = first + (len(lines) - 0.5) * step
    return Header(title_px, title_y, size_px, lines, first, max(top, below + px * 0.3))


def _summary_lines(assets: Assets, summary: str, size: int, width: float, most: int) -> list[str]:
    """The summary broken after its commas, or between words where that takes fewer
    lines than ``most`` would allow."""
    font = assets.font(size, False)
    lines = comma_lines(summary, width, lambda text: font.size(text)[0])
    return lines if len(lines) <= most else wrap(font, summary, width)


def draw_header(
    surface: pygame.Surface, assets: Assets, head: Header, title: str, locked: bool
) -> None:
    """The room's name (cut short where long, a padlock beside it where ``locked``) and
    its rules, as ``head`` measured them."""
    w = surface.get_width()
    lock = round(head.title_px * 0.75) if locked else 0  # a padlock: a password
    room_w = w - 32 - 2 * lock
    title = ellipsize(assets, title, head.title_px, room_w, True)  # long name
    draw_backdrop(surface, assets, title, head.title_px, (w / 2, head.title_y))
    if locked:
        title_w = assets.font(head.title_px, True).size(title)[0]
        at_lock = (w / 2 - title_w / 2 - lock * 0.9, head.title_y)
        draw_padlock(surface, at_lock, lock, GOLD)
    for i, line in enumerate(head.lines):  # the rules
        at = (w / 2, head.first + i * line_h(assets, head.summary_px))
        line_px = fit_px(assets, line, head.summary_px, w - 32)
        draw_text(surface, assets, line, line_px, at, colour=SOFT)
