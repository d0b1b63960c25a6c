"""Statistics: the player's games in this window — in all, against each AI level and at
LAN tables — as games played, not lost (somebody else the Durak, with its share: at six
seats the one number that says how the evening went), won (first out), lost as the Durak,
drawn, and the average place. The numbers are ``client.stats``; this screen only shows
them."""

from __future__ import annotations

import pygame

from client.i18n import N_
from client.screens.choices import levels
from client.stats import Tally
from client.ui.assets import Assets
from client.ui.pointer import Input, Key
from client.ui.render import (
    GOLD,
    draw_backdrop,
    draw_panel,
    draw_text,
    ellipsize,
    fit_px,
    wrap,
)
from client.ui.scene import ButtonScene, Director
from client.ui.widgets import Button

__all__ = ["COLUMNS", "StatsScene", "cells"]

COLUMNS = (
    N_("stats.games"),
    N_("stats.safe"),
    N_("stats.won"),
    N_("stats.durak"),
    N_("stats.drawn"),
    N_("stats.place"),
)
MUTED = (140, 160, 148)


class StatsScene(ButtonScene):
    def __init__(self, app: Director) -> None:
        self.app = app
        self.assets: Assets = app.assets
        self.hover = None
        self.size = app.size

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size

    def rows(self) -> list[tuple[str, Tally]]:
        """(label, tally) for every line of the table: all games, each AI level, LAN."""
        tr = self.app.tr
        stats = self.app.stats
        found = [(tr("stats.all"), stats.total)]
        for level in levels():
            tally = stats.levels.get(level, Tally())
            found.append((tr("stats.level", level=tr("level." + level)), tally))
        found.append((tr("stats.lan"), stats.lan))
        return found

    # --- geometry -------------------------------------------------------------------------

    @property
    def stacked(self) -> bool:
        """A narrow window: each row's label on a line of its own, over its numbers."""
        return self.size[0] < 800

    @property
    def scale(self) -> float:
        """How much larger than at 720 pixels the table is set on a taller wide window (at
        1920x1080 it filled the top third at 720p's size); 1 on a narrow one."""
        w, h = self.size
        return max(1.0, h / 720) if w > h else 1.0

    @property
    def title_h(self) -> float:
        return min(self.size[1] * 0.16, 120)

    def panel(self) -> pygame.Rect:
        """The table's panel, under the title; the two and Back stand together, set down
        by 0.35 of the height they leave free, so that they are near the window's middle."""
        w, h = self.size
        bh = self.button_h()
        lines = len(self.rows()) * (2 if self.stacked else 1) + 1.6
        height = min(h - self.title_h - bh * 2.2, bh * self.scale * lines)
        width = min(w - 24, max(860 * self.scale, w * 0.55))
        panel = pygame.Rect(0, 0, round(width), round(height))
        lowered = (h - self.title_h - height - bh * 1.5) * 0.35
        panel.midtop = (w // 2, round(self.title_h + max(0.0, lowered)))
        return panel

    def buttons(self) -> list[Button]:
        bh = self.button_h()
        back = pygame.Rect(0, 0, round(min(self.size[0] - 48, bh * 5)), bh)
        back.midtop = (self.size[0] // 2, round(self.panel().bottom + bh * 0.5))
        return [Button(back, "back", self.app.tr("stats.back"), style="primary")]

    # --- input ----------------------------------------------------------------------------

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            if event.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER):
                self.app.pop()
            return
        self.press(event)

    def activate(self, name: str) -> None:
        self.app.pop()

    # --- drawing --------------------------------------------------------------------------

    def _widths(self, rows: list[tuple[str, Tally]], head_px: int, px: int) -> list[int]:
        """Each column's natural width: its heading (on two lines if it has two words) or
        its widest number, whichever is wider, and a margin."""
        tr, font = self.app.tr, self.assets.font
        widths = []
        for k, key in enumerate(COLUMNS):
            words = tr(key).split(" ")
            half = max(1, len(words) // 2)
            parts = [" ".join(words[:half]), " ".join(words[half:])] if len(words) > 1 else words
            head = max(font(head_px, True).size(part)[0] for part in parts)
            numbers = max(font(px).size(cells(tally)[k])[0] for _, tally in rows)
            widths.append(max(head, numbers) + px)
        return widths

    def _heading_lines(self, text: str, px: int, room: float) -> tuple[list[str], int]:
        """A column's heading: on one line if it fits at a readable size, else on two; and
        the size it fits at."""
        size = fit_px(self.assets, text, px, room, True)
        if size >= px * 0.8 or " " not in text:
            return [text], size
        first = wrap(self.assets.font(px, True), text, room)[0]
        lines = [first, text[len(first) :].strip()]
        return lines, min(fit_px(self.assets, part, px, room, True) for part in lines)

    def draw(self, surface: pygame.Surface) -> None:
        w = surface.get_width()
        tr = self.app.tr
        panel = self.panel()
        title = tr("stats.title")
        title_h = self.title_h
        title_px = fit_px(self.assets, title, round(min(title_h * 0.45, w * 0.08)), w - 32, True)
        at = (w / 2, panel.top - title_h * 0.5)
        draw_backdrop(surface, self.assets, title, title_px, at)
        draw_panel(surface, self.assets, panel, 150)
        rows = self.rows()
        per_row = 2 if self.stacked else 1
        line = panel.h / (len(rows) * per_row + 1.6)
        px = max(10, round(min(line * 0.42, 26 * self.scale)))
        label_w = panel.w - 32 if self.stacked else panel.w * 0.34
        left = panel.left + 16 + (0 if self.stacked else label_w)
        weights = self._widths(rows, round(px * 0.9), px)
        unit = (panel.right - 12 - left) / sum(weights)
        starts = [left + unit * sum(weights[:k]) for k in range(len(weights))]
        middles = [x + unit * weight / 2 for x, weight in zip(starts, weights, strict=True)]
        rooms = [unit * weight - 8 for weight in weights]
        head_y = panel.top + line * 0.8
        headings = [
            self._heading_lines(tr(k), round(px * 0.9), r)
            for k, r in zip(COLUMNS, rooms, strict=True)
        ]
        size = min(fitted for _, fitted in headings)  # one size for every heading
        for (lines, _), at_x in zip(headings, middles, strict=True):
            top = head_y - size * 1.1 * (len(lines) - 1) / 2
            for k, part in enumerate(lines):
                at = (at_x, top + size * 1.1 * k)
                draw_text(surface, self.assets, part, size, at, colour=GOLD, bold=True)
        for i, (label, tally) in enumerate(rows):
            y = panel.top + line * (i * per_row + 1.8)
            colour = (255, 255, 255) if tally.games else MUTED
            text = ellipsize(self.assets, label, px, label_w - 8)
            draw_text(surface, self.assets, text, px, (panel.left + 24, y), "midleft", colour)
            y += line * (per_row - 1)
            for value, at_x, room in zip(cells(tally), middles, rooms, strict=True):
                size = fit_px(self.assets, value, px, room)
                draw_text(surface, self.assets, value, size, (at_x, y), colour=colour)
        self.draw_buttons(surface, self.assets)


def cells(tally: Tally) -> tuple[str, ...]:
    """Games, not the Durak (with the share of the games), won, lost as the Durak, drawn,
    the average place (one decimal)."""
    if not tally.games:
        return ("0", "—", "—", "—", "—", "—")
    share = round(100 * tally.safe / tally.games)
    place = tally.average_place
    return (
        str(tally.games),
        f"{tally.safe} ({share}%)",
        str(tally.wins),
        str(tally.durak),
        str(tally.draws),
        "—" if place is None else f"{place:.1f}",
    )
