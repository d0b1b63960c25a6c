"""Statistics: the player's games in this window — in all, against each AI level and at
LAN tables — as games played, won (first out), lost as the Durak and drawn, with the share
won. The numbers are ``client.stats``; this screen only shows them."""

from __future__ import annotations

import pygame

from client.i18n import N_
from client.screens.choices import levels
from client.stats import Tally
from client.ui.assets import Assets
from client.ui.pointer import Input, Key
from client.ui.render import GOLD, draw_backdrop, draw_panel, draw_text, ellipsize, fit_px
from client.ui.scene import ButtonScene, Director
from client.ui.widgets import Button

__all__ = ["COLUMNS", "StatsScene"]

COLUMNS = (N_("stats.games"), N_("stats.won"), N_("stats.durak"), N_("stats.drawn"))
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

    def panel(self) -> pygame.Rect:
        w, h = self.size
        title_h = min(h * 0.16, 120)
        bh = self.button_h()
        height = min(h - title_h - bh * 2.2, self.button_h() * (len(self.rows()) + 1.6))
        panel = pygame.Rect(0, 0, round(min(w - 24, 860)), round(height))
        panel.midtop = (w // 2, round(title_h))
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

    def draw(self, surface: pygame.Surface) -> None:
        w = surface.get_width()
        tr = self.app.tr
        panel = self.panel()
        title = tr("stats.title")
        title_px = fit_px(self.assets, title, round(min(panel.top * 0.45, w * 0.08)), w - 32, True)
        draw_backdrop(surface, self.assets, title, title_px, (w / 2, panel.top * 0.5))
        draw_panel(surface, self.assets, panel, 150)
        rows = self.rows()
        line = panel.h / (len(rows) + 1.6)
        px = max(10, round(min(line * 0.42, 26)))
        label_w = panel.w * 0.4
        column_w = (panel.w - label_w - 24) / len(COLUMNS)
        x0 = panel.left + 16 + label_w
        head_y = panel.top + line * 0.8
        for k, key in enumerate(COLUMNS):
            text = tr(key)
            size = fit_px(self.assets, text, round(px * 0.9), column_w - 6, True)
            at = (x0 + column_w * (k + 0.5), head_y)
            draw_text(surface, self.assets, text, size, at, colour=GOLD, bold=True)
        for i, (label, tally) in enumerate(rows):
            y = panel.top + line * (i + 1.8)
            colour = (255, 255, 255) if tally.games else MUTED
            text = ellipsize(self.assets, label, px, label_w - 8)
            draw_text(surface, self.assets, text, px, (panel.left + 24, y), "midleft", colour)
            for k, value in enumerate(_cells(tally)):
                at = (x0 + column_w * (k + 0.5), y)
                draw_text(surface, self.assets, value, px, at, colour=colour)
        self.draw_buttons(surface, self.assets)


def _cells(tally: Tally) -> tuple[str, str, str, str]:
    """Games, won (with the share of the games), lost as the Durak, drawn."""
    if not tally.games:
        return ("0", "—", "—", "—")
    share = round(100 * tally.wins / tally.games)
    return (str(tally.games), f"{tally.wins} ({share}%)", str(tally.durak), str(tally.draws))
