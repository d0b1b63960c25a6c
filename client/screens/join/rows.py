"""The join screen's list of the tables found on the LAN: how each row is laid out in the
screen's panel, and drawn.

A wide window sets a table's row on two lines (name and seats, then its rules beside its
address). A narrow one (a phone held upright) stacks the row: the name (cut short with
"…" where it is long), then the seats and the address, then the rules on up to three
lines. Every row has a Watch button at its right end (of its first line, when stacked).
A row is dimmer for a table in a game or full (joining it is refused) or that answered at
none of its addresses, and edged in gold while its password is asked (the prompt under
the list says only "this table").

``TableList`` is made for one frame from what the screen knows (its panel, its text
size, the tables found, the table whose password is asked); ``client.screens.join.screen``
asks it where the rows and their buttons are and has it draw them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import pygame

from client.i18n import Translator
from client.i18n.rulestext import comma_lines, rules_summary
from client.ui.render import (
    GOLD,
    MIN_PX,
    SOFT,
    draw_button,
    draw_text,
    ellipsize,
    fit_px,
    label_px,
    line_h,
)
from client.ui.widgets import draw_padlock

if TYPE_CHECKING:
    from client.ui.assets import Assets
    from host import TableAd

__all__ = ["TableList"]


@dataclass(frozen=True)
class TableList:
    """The rows of ``ads`` in ``panel``: text of ``px`` pixels, buttons up to
    ``button_h`` high; ``asked``: the (addresses, port) whose password is asked, if any."""

    assets: Assets
    tr: Translator
    panel: pygame.Rect
    px: int
    button_h: int
    ads: tuple[TableAd, ...]
    asked: tuple[tuple[str, ...], int] | None = None

    @property
    def small(self) -> int:
        return round(self.px * 0.8)

    def line_h(self, px: int, bold: bool = False) -> int:
        return line_h(self.assets, px, bold)

    @property
    def inner(self) -> int:
        """The width of a row's text (beside its Watch button)."""
        return self.panel.w - 48 - self.watch_w - 8

    @cached_property
    def watch_h(self) -> int:
        return round(min(self.button_h * 0.8, self.px * 2))

    @cached_property
    def watch_w(self) -> int:
        font = self.assets.font(label_px(self.watch_h), True)
        return max(round(self.watch_h * 2.6), font.size(self.tr("join.watch"))[0] + 16)

    def rows(self) -> list[tuple[pygame.Rect, TableAd]]:
        """Each table's row, as many as the panel holds."""
        panel, row_h = self.panel, self.row_h
        top = panel.top + round(self.px * 2.6)
        found = []
        for ad in self.ads:
            rect = pygame.Rect(panel.left + 12, top, panel.w - 24, row_h - 6)
            if rect.bottom > panel.bottom - 6:
                break
            found.append((rect, ad))
            top += row_h
        return found

    def watch_rects(self) -> list[tuple[pygame.Rect, TableAd]]:
        """Each listed table's Watch button: at the right end of its row, or of a stacked
        row's first line (beside the name)."""
        found = []
        for rect, ad in self.rows():
            button = pygame.Rect(0, 0, self.watch_w, min(self.watch_h, rect.h - 8))
            if self.stacked:
                button.h = min(button.h, self.line_h(self.px, True) + 2)
                button.topright = (rect.right - 8, rect.top + 3)
            else:
                button.midright = (rect.right - 8, rect.centery)
            found.append((button, ad))
        return found

    def text_rect(self, rect: pygame.Rect) -> pygame.Rect:
        """The part of a row its words use: all but its Watch button."""
        if self.stacked:  # (the name leaves room for it: see ``_draw_stacked``)
            return rect
        return pygame.Rect(rect.left, rect.top, rect.w - self.watch_w - 8, rect.h)

    @cached_property
    def stacked(self) -> int:
        """0 where every row fits on two lines (its rules readable beside its address), else
        how many lines the rules take in a stacked row (1 to 3, the same for every row)."""
        inner = self.inner
        px, small = self.px, self.small
        font = self.assets.font(small)
        readable = max(MIN_PX, round(small * 0.6))
        stacked = 0
        for ad in self.ads:
            seats, where = self.meta(ad)
            rules = self.rules_text(ad)
            name_w = self.assets.font(px, True).size(ad.name)[0] + (px * 2 if ad.password else 0)
            seats_w = self.assets.font(px).size(seats)[0]
            beside = fit_px(self.assets, rules, small, inner - font.size(where)[0] - 2 - px)
            if beside < readable or name_w + seats_w + px > inner:
                full = self.panel.w - 48  # a stacked row's words: its whole width
                lines = comma_lines(rules, full, lambda text: font.size(text)[0])
                stacked = max(stacked, len(lines))
        if stacked > 2:  # a third line where every row still fits the panel
            room = self.panel.h - round(px * 2.6) - 6
            return 3 if len(self.ads) * self.stacked_h(3) <= room else 2
        return stacked

    def meta(self, ad: TableAd, short: bool = False) -> tuple[str, str]:
        """A table's seats taken (``short``: as "1/4", beside a figure) and whether it is
        in a game, and its address, as its row shows them."""
        tr = self.tr
        seats = (
            f"{ad.taken}/{ad.seats}" if short else tr("join.seats", taken=ad.taken, seats=ad.seats)
        )
        if ad.status == "playing":
            seats = tr("join.in_game", seats=seats)
        if ad.reachable is False:  # (chosen, it is tried at every address again)
            return seats, tr("join.not_reachable")
        return seats, f"{ad.address}:{ad.port}"

    def rules_text(self, ad: TableAd) -> str:
        """A table's rules in our language, or its English summary when its announcement
        does not say them in a form we can read (an older host, a malformed record)."""
        if ad.game_rules is None:
            return ad.rules
        return rules_summary(ad.game_rules, self.tr)

    def short_seats(self) -> bool:
        """A stacked row shows its seats as a figure and "1/4": with their words the seats
        and the address would not fit one line (in some row; then in every row)."""
        font, inner = self.assets.font(self.small), self.panel.w - 48
        return any(
            font.size(f"{seats}   {where}")[0] > inner
            for seats, where in (self.meta(ad) for ad in self.ads)
        )

    def stacked_h(self, rules_lines: int) -> int:
        """The height of a stacked row (its gap to the next included)."""
        px, small = self.px, self.small
        return self.line_h(px, True) + (1 + rules_lines) * self.line_h(small) + round(px * 0.6) + 6

    @property
    def row_h(self) -> int:
        """A row's height (its gap to the next included)."""
        px, small = self.px, self.small
        if self.stacked:
            return self.stacked_h(self.stacked)
        return max(round(px * 2.6), self.line_h(px, True) + self.line_h(small) + 8)

    def asked_for(self, ad: TableAd) -> bool:
        """Whether the password asked for now is ``ad``'s (its row is edged in gold)."""
        return self.asked == (ad.candidates, ad.port)

    # --- drawing --------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, hover: tuple[float, float] | None) -> None:
        """The rows and their Watch buttons (``hover``: the pointer, if over the window)."""
        for rect, ad in self.rows():
            self._draw_row(surface, rect, ad, hover)
            if self.stacked:
                self._draw_stacked(surface, self.text_rect(rect), ad, self.stacked)
            else:
                self._draw_table(surface, self.text_rect(rect), ad)
        for button, _ in self.watch_rects():
            over = hover is not None and button.collidepoint(hover)
            draw_button(surface, self.assets, button, self.tr("join.watch"), "secondary", over)

    def _draw_row(
        self,
        surface: pygame.Surface,
        rect: pygame.Rect,
        ad: TableAd,
        hover: tuple[float, float] | None,
    ) -> None:
        """A row's box: dimmer for a table joining is refused at, gold while asked."""
        over = hover is not None and rect.collidepoint(hover)
        open_ = ad.status != "playing" and ad.taken < ad.seats and ad.reachable is not False
        fill = (40, 96, 64) if over else (28, 74, 50) if open_ else (22, 52, 38)
        pygame.draw.rect(surface, fill, rect, border_radius=8)
        if self.asked_for(ad):
            pygame.draw.rect(surface, GOLD, rect, 2, border_radius=8)
            return
        edge = (90, 150, 110) if open_ else (60, 100, 76)
        pygame.draw.rect(surface, edge, rect, 1, border_radius=8)

    def _draw_table(self, surface: pygame.Surface, rect: pygame.Rect, ad: TableAd) -> None:
        """A row on two lines: the name and the seats, then the rules and the address."""
        seats, where = self.meta(ad)
        px, small = self.px, self.small
        name_h, low_h = self.line_h(px, True), self.line_h(small)
        pad = max(1, (rect.h - name_h - low_h) // 2)  # whole pixels: the lines never touch
        top = rect.top + pad + name_h // 2
        low = rect.top + pad + name_h + low_h // 2
        name_px = fit_px(self.assets, ad.name, px, rect.w * 0.55, True)
        at = (rect.left + 12, top)
        drawn = draw_text(surface, self.assets, ad.name, name_px, at, "midleft", GOLD, True)
        if ad.password:
            draw_padlock(surface, (drawn.right + px * 0.8, top), px, GOLD)
        draw_text(surface, self.assets, seats, px, (rect.right - 12, top), "midright")
        at = (rect.right - 12, low)
        address = draw_text(surface, self.assets, where, small, at, "midright", SOFT)
        rules = self.rules_text(ad)  # as wide as the row leaves beside the address
        rules_px = fit_px(self.assets, rules, small, address.left - rect.left - 12 - px)
        draw_text(surface, self.assets, rules, rules_px, (rect.left + 12, low), "midleft", SOFT)

    def _draw_stacked(
        self, surface: pygame.Surface, rect: pygame.Rect, ad: TableAd, rules_lines: int
    ) -> None:
        """A row of a narrow window: the name (cut short with "…" where it is long), the
        seats and the address, then the rules on ``rules_lines`` lines."""
        px, small = self.px, self.small
        inner = rect.w - 24
        left, right = rect.left + 12, rect.right - 12
        y = rect.top + round(px * 0.3)
        lock = round(px * 1.6) if ad.password else 0
        watch = self.watch_w + 8  # the Watch button beside the name
        name = ellipsize(self.assets, ad.name, px, inner - lock - watch, True)
        drawn = draw_text(surface, self.assets, name, px, (left, y), "topleft", GOLD, True)
        if ad.password:
            draw_padlock(surface, (drawn.right + px * 0.8, drawn.centery), px, GOLD)
        y = drawn.bottom
        short = self.short_seats()
        seats, where = self.meta(ad, short)
        if short:
            figure = _figure(surface, (left, y + self.line_h(small) / 2), small)
            at = (figure.right + small * 0.3, y)
        else:
            at = (left, y)
        taken = draw_text(surface, self.assets, seats, small, at, "topleft")
        room = right - taken.right - small
        draw_text(
            surface,
            self.assets,
            where,
            fit_px(self.assets, where, small, room),
            (right, y),
            "topright",
            SOFT,
        )
        y += self.line_h(small)
        font = self.assets.font(small)
        lines = comma_lines(self.rules_text(ad), inner, lambda text: font.size(text)[0])
        if len(lines) > rules_lines:  # the rest of the rules on the last line, cut short
            lines = [*lines[: rules_lines - 1], " ".join(lines[rules_lines - 1 :])]
        for line in lines:
            line = ellipsize(self.assets, line, small, inner)
            line_px = fit_px(self.assets, line, small, inner)
            draw_text(surface, self.assets, line, line_px, (left, y), "topleft", SOFT)
            y += self.line_h(small)


def _figure(surface: pygame.Surface, midleft: tuple[float, float], px: int) -> pygame.Rect:
    """A small figure of a person (a head over shoulders), for "seats taken"; where it is."""
    head = max(2, round(px * 0.22))
    shoulders = pygame.Rect(0, 0, round(px * 0.8), round(px * 0.46))
    figure = pygame.Rect(0, 0, shoulders.w, 2 * head + 1 + shoulders.h)
    figure.midleft = (round(midleft[0]), round(midleft[1]))
    pygame.draw.circle(surface, SOFT, (figure.centerx, figure.top + head), head)
    shoulders.midbottom = figure.midbottom
    clip = surface.get_clip()
    surface.set_clip(shoulders.clip(clip))
    pygame.draw.ellipse(surface, SOFT, shoulders.inflate(0, shoulders.h).move(0, shoulders.h // 2))
    surface.set_clip(clip)
    return figure
