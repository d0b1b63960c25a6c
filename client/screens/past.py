"""Past games: the games kept in the user's data folder, newest first, a page at a time;
each can be watched again ("replay") or reviewed by the coach ("review"). Files that
cannot be read are counted under the list, never in the way of it.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pygame

from client.i18n import Translator
from client.net.gamefile import GameStore, Listing, Summary
from client.ui.pointer import Input, Key
from client.ui.render import (
    GOLD,
    SOFT,
    draw_backdrop,
    draw_panel,
    draw_text,
    ellipsize,
    fit_px,
    rounded_box,
)
from client.ui.scene import ButtonScene, Director
from client.ui.widgets import Button

__all__ = ["PastScene", "summary_lines"]


def summary_lines(game: Summary, tr: Translator) -> tuple[str, str]:
    """A kept game's two lines: how it ended for the player; when, where and against whom."""
    result = game.result
    if result is None or result.draw:
        first = tr("past.draw")
    elif result.durak == game.seat:
        first = tr("past.durak")
    else:
        first = tr("past.place", place=tr.ordinal(result.places[game.seat]))
    try:
        when = datetime.fromisoformat(game.ended.replace("Z", "+00:00")).astimezone()
        stamp = when.strftime("%Y-%m-%d %H:%M")
    except ValueError:
        stamp = game.ended
    where = tr("past.computer" if game.where == "computer" else "past.lan")
    deck = tr.plural("menu.deck_value", game.rules.deck_size)
    return first, " · ".join((stamp, where, ", ".join(game.opponents), deck))


class PastScene(ButtonScene):
    def __init__(self, app: Director, store: GameStore | None = None) -> None:
        self.app = app
        self.assets = app.assets
        self.size = app.size
        self.hover = None
        self.store = store if store is not None else app.games
        self.listing: Listing = self.store.listing()
        self.page = 0

    def enter(self) -> None:
        self.listing = self.store.listing()  # back from a replay: anything new is there
        self.page = min(self.page, self.pages() - 1)

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size

    # --- geometry -------------------------------------------------------------------------

    def panel(self) -> pygame.Rect:
        w, h = self.size
        top = round(min(h * 0.14, 100))
        width = min(w - 24, max(1000, w * 0.62))  # (at 1920x1080 its rows' words need more)
        panel = pygame.Rect(0, 0, round(width), round(h - top - self.button_h() * 2.4))
        panel.midtop = (w // 2, top)
        return panel

    def stacked(self) -> bool:
        """A narrow window (a phone held upright) sets a game's details on a line of their
        own under its verdict and buttons: beside them they were cut to "2026-12-01 10:00
        · Against th…"."""
        w, h = self.size
        return w < h

    def unit(self) -> float:
        """The height of a row's verdict-and-buttons line (the whole row unless stacked)."""
        return max(44, min(84, self.size[1] * 0.1))

    def row_h(self) -> int:
        return round(self.unit() * (1.45 if self.stacked() else 1))

    def per_page(self) -> int:
        return max(1, (self.panel().h - 16) // self.row_h())

    def pages(self) -> int:
        games = len(self.listing.games)
        return max(1, -(-games // self.per_page()))

    def rows(self) -> list[tuple[pygame.Rect, Path, Summary]]:
        panel, rh, n = self.panel(), self.row_h(), self.per_page()
        shown = self.listing.games[self.page * n : (self.page + 1) * n]
        return [
            (pygame.Rect(panel.x + 12, panel.y + 8 + k * rh, panel.w - 24, rh - 6), path, game)
            for k, (path, game) in enumerate(shown)
        ]

    def buttons(self) -> list[Button]:
        tr = self.app.tr
        w, h = self.size
        bh = self.button_h()
        found = []
        unit = self.unit()
        for k, (row, _, _) in enumerate(self.rows()):
            b = round((row.h if not self.stacked() else unit - 6) * 0.62)
            middle = row.centery if not self.stacked() else round(row.top + (unit - 6) / 2)
            review = pygame.Rect(0, 0, round(b * 3.4), b)
            review.midright = (row.right - 10, middle)
            watch = review.copy()
            watch.midright = (review.left - 8, middle)
            found.append(Button(watch, f"watch:{k}", tr("past.watch"), style="primary"))
            found.append(Button(review, f"review:{k}", tr("past.review")))
        back = pygame.Rect(0, 0, round(bh * 3.2), bh)
        back.midbottom = (w // 2, h - round(bh * 0.4))
        found.append(Button(back, "back", tr("past.back")))
        if self.pages() > 1:
            newer, older = back.move(-round(bh * 3.6), 0), back.move(round(bh * 3.6), 0)
            found.append(Button(newer, "newer", tr("past.newer"), enabled=self.page > 0))
            older_ok = self.page < self.pages() - 1
            found.append(Button(older, "older", tr("past.older"), enabled=older_ok))
        return found

    # --- input ----------------------------------------------------------------------------

    def activate(self, name: str) -> None:
        if name == "back":
            self.app.pop()
        elif name == "newer":
            self.page = max(0, self.page - 1)
        elif name == "older":
            self.page = min(self.pages() - 1, self.page + 1)
        elif ":" in name:
            what, _, k = name.partition(":")
            path = self.rows()[int(k)][1]
            self.app.show("replay" if what == "watch" else "review", path=path)

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            if event.key == pygame.K_ESCAPE:
                self.app.pop()
            elif event.key in (pygame.K_RIGHT, pygame.K_PAGEDOWN):
                self.activate("older")
            elif event.key in (pygame.K_LEFT, pygame.K_PAGEUP):
                self.activate("newer")
            return
        self.press(event)

    # --- drawing --------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        assets, tr = self.assets, self.app.tr
        w, h = self.size
        panel = self.panel()
        title_px = round(min(h * 0.07, 52))
        draw_backdrop(surface, assets, tr("past.title"), title_px, (w / 2, panel.top / 2))
        draw_panel(surface, assets, panel)
        rows = self.rows()
        if not rows:
            px = max(12, round(h / 34))
            text = tr("past.empty")
            draw_text(
                surface,
                assets,
                text,
                fit_px(assets, text, px, panel.w - 40),
                panel.center,
                colour=SOFT,
            )
        buttons = self.buttons()
        stacked = self.stacked()
        line_h = self.unit() - 6 if stacked else None  # (the verdict's line of a stacked row)
        for k, (row, _, game) in enumerate(rows):
            if k % 2 == 0:
                rounded_box(surface, assets, row, (255, 255, 255, 14), round(self.unit()) // 6)
            first, second = summary_lines(game, tr)
            room = buttons[2 * k].rect.left - row.left - 24
            unit = row.h if line_h is None else line_h
            px = round(unit * 0.3)
            colour = (236, 120, 100) if game.result and game.result.durak == game.seat else GOLD
            draw_text(
                surface,
                assets,
                ellipsize(assets, first, px, room),
                px,
                (row.left + 14, row.top + unit * (0.5 if stacked else 0.32)),
                "midleft",
                colour,
                bold=True,
            )
            small = round(unit * 0.24)
            if stacked:  # a line of its own: smaller before it is cut short
                small = max(round(small * 0.8), fit_px(assets, second, small, row.w - 28))
            line = ellipsize(assets, second, small, row.w - 28 if stacked else room)
            draw_text(
                surface,
                assets,
                line,
                small,
                (row.left + 14, row.top + (unit + small * 0.9 if stacked else row.h * 0.72)),
                "midleft",
                SOFT,
            )
        if self.listing.problems:
            problems = self.listing.problems
            text = tr("past.problems", count=len(problems), first=problems[0])
            px = max(10, round(h / 48))
            text = ellipsize(assets, text, px, panel.w)
            draw_text(surface, assets, text, px, (w / 2, panel.bottom + px), colour=SOFT)
        self.draw_buttons(surface, assets)
