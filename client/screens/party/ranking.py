"""The standings as a table of rows, and the night's figures, planned into a box: the
board and each player's between-rounds screen show the same list.

The columns are the rank, the name (all the room left over, a long name ellipsised), the
score, the wins, the times the Durak and the games played; the rows share the box's
height, as tall as reads well and no taller. Rows that do not fit end in "and N more",
never in a cut row.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from client.i18n import N_, Translator
from client.screens.party.model import Figure, NightFigures, StandingRow
from client.screens.party.paint import Badge, Box, Plan, label
from client.ui.assets import Assets
from client.ui.render import GOLD, SOFT, WHITE

__all__ = ["plan_figures", "plan_standings"]

LEFT = (150, 170, 156)  # a player who left the party
ME = (255, 236, 170)
# the number columns' headings, left to right
NUMBERS = (N_("party.col.score"), N_("party.col.won"), N_("party.col.durak"), N_("party.col.games"))


def plan_standings(
    assets: Assets,
    tr: Translator,
    rows: Sequence[StandingRow],
    rect: pygame.Rect,
    tallest: int,
    snug: bool = False,
) -> Plan:
    """The standings in ``rect`` (a panel round them), rows at most ``tallest`` pixels;
    ``snug``: the panel ends below the last row instead of filling ``rect``."""
    pad = max(6, round(min(rect.w, rect.h) * 0.03))
    inner = rect.inflate(-2 * pad, -2 * pad)
    title_h = min(round(tallest * 1.2), inner.h // 6)
    room = inner.h - title_h
    row_h = max(14, min(tallest, room // max(1, len(rows) + 1)))
    fit = max(1, room // row_h - 1)  # the header row takes one
    shown = list(rows) if len(rows) <= fit else list(rows[: fit - 1])
    if snug:
        lines = len(shown) + 1 + (len(shown) < len(rows))
        rect = pygame.Rect(rect.left, rect.top, rect.w, title_h + lines * row_h + 2 * pad)
        inner = rect.inflate(-2 * pad, -2 * pad)
    plan: Plan = [Box(rect, radius=max(8, rect.h // 40))]
    title = pygame.Rect(inner.left, inner.top, inner.w, title_h)
    plan.append(
        label(assets, tr("party.standings"), round(title_h * 0.7), title, colour=GOLD, bold=True)
    )
    px = max(10, round(row_h * 0.62))
    number_w = round(px * 3.1)
    rank_w = round(px * 2.2)
    name_w = inner.w - rank_w - number_w * len(NUMBERS)
    y = title.bottom

    def cells(top: int) -> tuple[pygame.Rect, pygame.Rect, list[pygame.Rect]]:
        rank = pygame.Rect(inner.left, top, rank_w, row_h)
        name = pygame.Rect(rank.right, top, name_w - round(px * 0.5), row_h)
        numbers = [
            pygame.Rect(inner.left + rank_w + name_w + i * number_w, top, number_w, row_h)
            for i in range(len(NUMBERS))
        ]
        return rank, name, numbers

    _, name_head, heads = cells(y)
    small = max(10, round(px * 0.8))
    plan.append(label(assets, tr("party.player"), small, name_head, colour=SOFT))
    for key, head in zip(NUMBERS, heads, strict=True):
        plan.append(label(assets, tr(key), small, head, "midright", SOFT, shrink=0.6))
    for index, row in enumerate(shown):
        y += row_h
        rank, name, numbers = cells(y)
        if row.me:
            plan.append(
                Box(
                    pygame.Rect(inner.left - pad // 2, y, inner.w + pad, row_h),
                    (250, 220, 140, 46),
                    None,
                    row_h // 4,
                )
            )
        elif index % 2:
            plan.append(
                Box(
                    pygame.Rect(inner.left - pad // 2, y, inner.w + pad, row_h),
                    (255, 255, 255, 12),
                    None,
                    row_h // 4,
                )
            )
        colour = ME if row.me else LEFT if row.left else WHITE
        same = index and shown[index - 1].rank == row.rank
        plan.append(label(assets, "" if same else str(row.rank), px, rank, colour=SOFT, bold=True))
        if row.look is not None:  # the badge before the name
            diameter = round(row_h * 0.8)
            plan.append(Badge(row.look, diameter, (name.left + diameter // 2, name.centery)))
            name = pygame.Rect(
                name.left + round(diameter * 1.3), y, name.w - round(diameter * 1.3), row_h
            )
        plan.append(label(assets, row.name, px, name, colour=colour, bold=row.me, shrink=0.85))
        values = (
            f"{row.score:+d}" if row.score else "0",
            str(row.wins),
            str(row.losses),
            str(row.games),
        )
        for value, cell in zip(values, numbers, strict=True):
            plan.append(label(assets, value, px, cell, "midright", colour, bold=cell is numbers[0]))
    if len(shown) < len(rows):
        y += row_h
        more = pygame.Rect(inner.left + rank_w, y, name_w, row_h)
        plan.append(
            label(assets, tr("party.more", n=len(rows) - len(shown)), px, more, colour=SOFT)
        )
    return plan


def plan_figures(
    assets: Assets, tr: Translator, figures: NightFigures, rect: pygame.Rect, px: int
) -> Plan:
    """The night's figures, a line each, in ``rect`` (a panel round them)."""
    plan: Plan = [Box(rect, radius=max(8, rect.h // 12))]
    pad = max(6, round(min(rect.w, rect.h) * 0.06))
    inner = rect.inflate(-2 * pad, -2 * pad)
    title_h = inner.h // 4
    plan.append(
        label(
            assets,
            tr("party.figures"),
            round(title_h * 0.7),
            pygame.Rect(inner.left, inner.top, inner.w, title_h),
            colour=GOLD,
            bold=True,
        )
    )
    most, longest, fastest = figures.most_durak, figures.longest, figures.fastest
    lines = [
        (tr("party.most_durak"), most and tr.plural("party.times", most.count, names=_names(most))),
        (
            tr("party.longest"),
            longest
            and tr.plural(
                "party.actions", longest.actions, round=longest.round, table=longest.table
            ),
        ),
        (
            tr("party.fastest"),
            fastest and tr.plural("party.after", fastest.count, names=_names(fastest)),
        ),
    ]
    line_h = (inner.h - title_h) // len(lines)
    px = min(px, round(line_h * 0.62))
    caption_w = max(assets.font(px).size(caption)[0] for caption, _ in lines) + px
    caption_w = min(caption_w, inner.w // 2)
    for i, (caption, held) in enumerate(lines):
        value = held or "—"
        top = inner.top + title_h + i * line_h
        plan.append(
            label(
                assets,
                caption,
                px,
                pygame.Rect(inner.left, top, caption_w - px // 2, line_h),
                colour=SOFT,
                shrink=0.7,
            )
        )
        box = pygame.Rect(inner.left + caption_w, top, inner.w - caption_w, line_h)
        plan.append(
            label(assets, value, px, box, colour=WHITE if value != "—" else SOFT, shrink=0.75)
        )
    return plan


def _names(figure: Figure) -> str:
    return ", ".join(figure.names)
