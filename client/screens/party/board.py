"""The party board: the whole night on one screen, for a TV or a projector across the room.

Every table of the round as its watchers see it (``tiles``), the standings, the round and
its clock, and the night's figures. It is laid out from the screen's size alone: on a
wide screen the tables take the left ~62 % in the grid that gives each the most room at
a table's shape and the standings and figures stand on the right; on a tall one they are
stacked. Type is sized from the screen's height (a 1080-line screen's standings rows are
46 px), so a 4K projector shows the same board at twice the pixels.
"""

from __future__ import annotations

import math

import pygame

from client.i18n import Translator
from client.screens.party.model import Feed, PartyView, Stage, clock_text
from client.screens.party.paint import Plan, label, paint
from client.screens.party.ranking import plan_figures, plan_standings
from client.screens.party.tiles import plan_tile
from client.ui.assets import Assets
from client.ui.pointer import Input, Key
from client.ui.render import GOLD, SOFT
from client.ui.scene import Director, Scene

__all__ = ["TILE_SHAPE", "BoardScene", "grid", "plan_board"]

TILE_SHAPE = 1.45  # a table tile's width to height: two bands of plates round the cards


def grid(count: int, area: pygame.Rect, gap: int) -> list[pygame.Rect]:
    """``count`` tiles in ``area``: the columns and rows that make each largest at the
    tile's shape, centred."""
    if count == 0:
        return []
    best: tuple[float, int, int] = (0.0, 1, count)
    for cols in range(1, count + 1):
        rows = math.ceil(count / cols)
        w = (area.w - gap * (cols - 1)) / cols
        h = (area.h - gap * (rows - 1)) / rows
        scale = min(w / TILE_SHAPE, h)
        if scale > best[0]:
            best = (scale, cols, rows)
    scale, cols, rows = best
    tile_h = math.floor(min(scale * 1.15, (area.h - gap * (rows - 1)) / rows))
    tile_w = math.floor(min(tile_h * TILE_SHAPE * 1.2, (area.w - gap * (cols - 1)) / cols))
    tiles = []
    total_h = rows * tile_h + gap * (rows - 1)
    for index in range(count):
        row, col = divmod(index, cols)
        in_row = min(cols, count - row * cols)  # a last row that is short is centred
        total_w = in_row * tile_w + gap * (in_row - 1)
        x = area.centerx - total_w // 2 + col * (tile_w + gap)
        y = area.centery - total_h // 2 + row * (tile_h + gap)
        tiles.append(pygame.Rect(x, y, tile_w, tile_h))
    return tiles


def headline(tr: Translator, view: PartyView) -> str:
    """What the night is at: the round of how many, the final, or the gathering."""
    if view.stage is Stage.GATHERING:
        return tr.plural("party.gathering", len(view.standings))
    if view.stage is Stage.OVER:
        return tr("party.night_over")
    if view.final:
        return tr("party.final")
    if view.rounds is None:
        return tr("party.round", n=view.round)
    return tr("party.round_of", n=view.round, of=view.rounds)


def clock_line(tr: Translator, view: PartyView, since: float) -> str:
    """The round's clock (while it is played) and what is left of a night of fixed time."""
    parts = []
    if view.stage is Stage.PLAYING:
        parts.append(clock_text(view.round_seconds + since))
    elif view.stage is Stage.BETWEEN and view.next_in is not None:
        parts.append(tr("party.next_in", time=clock_text(max(0.0, view.next_in - since))))
    if view.night_left is not None and view.stage is not Stage.OVER:
        parts.append(tr("party.left", time=clock_text(view.night_left - since)))
    return " · ".join(parts)


def plan_board(
    assets: Assets, tr: Translator, view: PartyView, size: tuple[int, int], since: float = 0.0
) -> Plan:
    """The board of ``view`` on a screen of ``size``, ``since`` seconds after it was heard."""
    w, h = size
    wide = w >= h * 1.2
    unit = min(h / 1080, w / (1920 if wide else 1080))
    margin = max(8, round(24 * unit))
    line_h = max(36, round(92 * unit))
    header = pygame.Rect(margin, margin // 2, w - 2 * margin, line_h if wide else 2 * line_h)
    plan: Plan = []
    px = round(line_h * 0.62)
    # wide: the party's name, the headline and the clock on one line; tall: the name on a
    # line of its own (a third of a portrait screen's width cut it), the others under it
    lower = (
        header.copy() if wide else pygame.Rect(header.left, header.top + line_h, header.w, line_h)
    )
    clock = label(
        assets, clock_line(tr, view, since), round(px * 0.9), lower, "midright", bold=True
    )
    right = clock.rect.left - margin if clock.text else lower.right
    if wide:  # the party's name and the headline share what the clock leaves
        name_box = pygame.Rect(header.left, header.top, (right - header.left) * 2 // 5, line_h)
        head_box = pygame.Rect(name_box.right + margin, header.top, 0, line_h)
    else:
        name_box = pygame.Rect(header.left, header.top, header.w, line_h)
        head_box = pygame.Rect(lower.left, lower.top, 0, line_h)
    head_box.w = right - head_box.left
    title = headline(tr, view)
    lone = not wide and bool(clock.text)  # (the headline at the left, the clock at the right)
    plan += [
        label(assets, view.name, px, name_box, "midleft" if wide else "center", GOLD, True, 0.7),
        label(assets, title, px, head_box, "midleft" if lone else "center", bold=True, shrink=0.7),
    ]
    if clock.text:
        plan.append(clock)
    body = pygame.Rect(
        margin, header.bottom + margin // 2, w - 2 * margin, h - header.bottom - margin
    )
    if wide:
        tables_w = round(body.w * 0.62)
        tables = pygame.Rect(body.left, body.top, tables_w, body.h)
        side = pygame.Rect(
            tables.right + margin, body.top, body.right - tables.right - margin, body.h
        )
        figures_h = round(side.h * 0.27)
        standings = pygame.Rect(side.left, side.top, side.w, side.h - figures_h - margin)
        figures = pygame.Rect(side.left, standings.bottom + margin, side.w, figures_h)
    else:
        tables = pygame.Rect(body.left, body.top, body.w, round(body.h * 0.5))
        figures_h = round(body.h * 0.16)
        standings = pygame.Rect(
            body.left,
            tables.bottom + margin,
            body.w,
            body.bottom - tables.bottom - figures_h - 2 * margin,
        )
        figures = pygame.Rect(body.left, standings.bottom + margin, body.w, figures_h)
    tallest = max(16, round(46 * unit))
    if view.tables:
        for table, rect in zip(view.tables, grid(len(view.tables), tables, margin), strict=True):
            plan += plan_tile(assets, tr, table, rect)
    else:
        waiting = {
            Stage.BETWEEN: tr("party.seating"),
            Stage.GATHERING: tr("party.waiting_start"),
        }.get(view.stage, title)
        plan.append(
            label(assets, waiting, round(tallest * 1.1), tables, "center", SOFT, shrink=0.6)
        )
    plan += plan_standings(assets, tr, view.standings, standings, tallest)
    plan += plan_figures(assets, tr, view.figures, figures, round(tallest * 0.62))
    return plan


class BoardScene(Scene):
    """The board, full screen, fed by ``feed`` until Esc (or the party's end and Esc)."""

    def __init__(self, app: Director, feed: Feed) -> None:
        self.app = app
        self.feed = feed
        self.view: PartyView | None = None
        self.since = 0.0  # seconds since the view was heard
        self.size = app.size

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size

    def enter(self) -> None:
        self.feed.listen(self.app.wake)

    def exit(self) -> None:
        self.feed.close()

    def handle(self, event: Input) -> None:
        if isinstance(event, Key) and event.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
            self.app.pop()

    def update(self, dt: float) -> None:
        fresh = self.feed.poll()
        if fresh is not None:
            self.view, self.since = fresh, 0.0
        else:
            self.since += dt

    def next_frame(self) -> float:
        """The clock's next second (the feed wakes the window for anything else)."""
        return 1.0 - (self.since % 1.0)

    def draw(self, surface: pygame.Surface) -> None:
        assets, tr = self.app.assets, self.app.tr
        surface.blit(assets.felt(surface.get_size()), (0, 0))
        w, h = surface.get_size()
        if self.view is None:
            text = self.feed.problem or tr("party.connecting")
            paint(
                surface,
                assets,
                [label(assets, text, max(16, h // 20), surface.get_rect(), "center", SOFT)],
            )
            return
        paint(surface, assets, plan_board(assets, tr, self.view, (w, h), self.since))
        if self.feed.problem:
            bar = pygame.Rect(0, h - h // 14, w, h // 14)
            paint(
                surface,
                assets,
                [label(assets, self.feed.problem, h // 28, bar, "center", (255, 170, 150))],
            )
