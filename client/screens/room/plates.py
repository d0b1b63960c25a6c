"""A seat's box in the room: the player's badge and name, then their level or mark.

Around the oval table a box has the name on its first line (the player's badge beside
it, ``client.ui.looks``) and a second line under it: an AI's level, "away", or a pill
for the ready mark, "not ready" or the owner. In a column (a phone held upright) it is
one line: badge and name on the left, the level or pill on the right. This module says
what each box says (``seat_words``), draws it, and measures the lines the room screen lays
the boxes out by (``second_line``, ``pill_h``); the screen says where each box goes.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from client.i18n import Translator
from client.net.remote import seat_names
from client.screens.choices import ai_names, levels
from client.ui.assets import Assets
from client.ui.looks import draw_look
from client.ui.render import GOLD, SOFT, draw_panel, draw_text, ellipsize, fit_px, line_h
from protocol import Room

__all__ = ["Badge", "SeatWords", "draw_seat", "pill_h", "seat_words", "second_line"]

READY_FILL = (56, 150, 84)  # the ready mark's pill
WAITING_FILL = (16, 40, 28)  # "not ready": dark glass, muted words
WAITING_INK = (150, 170, 156)
OWNER_FILL = (236, 190, 84)
OWNER_INK = (44, 30, 8)

Colour = tuple[int, int, int]


@dataclass(frozen=True)
class Badge:
    """The pill under a player's name: its words, fill and ink."""

    text: str
    fill: Colour
    ink: Colour


@dataclass(frozen=True)
class SeatWords:
    """What a seat's box says: the name, its status (a level, "away"), the name's colour,
    the pill (None without one) and the player's look (None: no badge)."""

    name: str
    status: str
    colour: Colour
    badge: Badge | None
    look: int | None = None


def seat_words(room: Room, i: int, me: int, tr: Translator) -> SeatWords:
    """What seat ``i``'s box says, seen from our seat ``me``."""
    seat = room.seats[i]
    owner = room.owner == i
    badge: Badge | None = None
    if seat.kind == "human":
        name = seat.name + (f" ({tr('room.you')})" if i == me else "")
        # a player away (only while a game is on) says so instead of a mark
        status = tr("room.away") if seat.status in ("away", "stand_in") else ""
        colour = GOLD if i == me else (255, 255, 255)
        if status:
            badge = None
        elif owner:  # the owner's Start is the owner's readiness
            text = tr("room.owner")
            badge = Badge(text[:1].upper() + text[1:], OWNER_FILL, OWNER_INK)
        elif seat.ready:
            badge = Badge("✓ " + tr("room.ready_mark"), READY_FILL, (255, 255, 255))
        else:
            badge = Badge(tr("room.not_ready_mark"), WAITING_FILL, WAITING_INK)
    elif seat.kind == "ai":  # the name it plays under, and what it is
        name = seat_names(room, ai_names(tr))[i]
        level = tr("level." + seat.level) if seat.level in levels() else seat.level or ""
        status = f"{tr('room.computer')} · {level}" if level else tr("room.computer")
        colour = (255, 255, 255)
    else:
        name, status, colour = tr("room.open"), "", SOFT
    look = seat.look if seat.kind == "human" else None
    return SeatWords(name, status, colour, badge, look)


def second_line(assets: Assets, px: int) -> int:
    """Where a seat's second line may start, around the table: below its name."""
    name_h = line_h(assets, round(px * 1.05), True)
    return round(px * 1.2) - name_h // 2 + name_h


def pill_h(assets: Assets, px: int) -> int:
    return assets.font(px, True).get_height() + round(px * 0.45)


def draw_seat(
    surface: pygame.Surface,
    assets: Assets,
    rect: pygame.Rect,
    words: SeatWords,
    px: int,
    column: bool,
    empty: bool = False,
    chips: bool = False,
) -> None:
    """Seat box ``rect`` saying ``words`` (``empty``: an open seat, a fainter box;
    ``chips``: the owner's chips go under its name). A box that says nothing under its
    name has it in the middle."""
    draw_panel(surface, assets, rect, 120 if empty else 210)
    if column:
        _draw_seat_line(surface, assets, rect, px, words)
        return
    name, status, look = words.name, words.status, words.look
    disc = round(px * 1.35) if look is not None else 0  # the player's badge, left of it
    room = rect.w - 20 - (disc + px // 3 if disc else 0)
    name_px = fit_px(assets, name, round(px * 1.05), room, True)
    name_px = max(name_px, round(px * 0.75))  # a long name: cut short, not set tiny
    name = ellipsize(assets, name, name_px, room, True)
    lone = not words.status and words.badge is None and not chips
    y = rect.centery if lone else rect.top + round(px * 1.2)
    name_w = assets.font(name_px, True).size(name)[0]
    shift = (disc + px // 3) / 2 if disc else 0  # the badge and name centred together
    at: tuple[float, float] = (rect.centerx + shift, y)
    draw_text(surface, assets, name, name_px, at, colour=words.colour, bold=True)
    if disc:
        draw_look(surface, assets, look, (at[0] - name_w / 2 - px // 3 - disc / 2, y), disc)
    below = rect.top + second_line(assets, px)  # the second line, as near as it was
    if status:
        small = fit_px(assets, status, round(px * 0.85), rect.w - 20)
        at = (rect.centerx, max(rect.top + px * 2.4, below + line_h(assets, small) // 2))
        draw_text(surface, assets, status, small, at, colour=SOFT)
    badge = words.badge
    if badge is not None:
        small = fit_px(assets, badge.text, round(px * 0.8), rect.w - 20 - px, bold=True)
        at = (rect.centerx, max(rect.top + px * 2.45, below + pill_h(assets, small) / 2))
        _draw_badge(surface, assets, at, small, badge)


def _draw_seat_line(
    surface: pygame.Surface, assets: Assets, rect: pygame.Rect, px: int, words: SeatWords
) -> None:
    """A seat in a column: its badge and name on the left, its level or mark on the
    right, on one line above its chips."""
    name, status, badge = words.name, words.status, words.badge
    y = rect.top + round(px * 1.2)
    right = rect.right - 12
    if badge is not None:
        pill = _draw_badge(surface, assets, (0, y), round(px * 0.8), badge, right=right)
        right = pill.left - px // 2
    elif status:
        drawn = draw_text(surface, assets, status, round(px * 0.85), (right, y), "midright", SOFT)
        right = drawn.left - px // 2
    left = rect.left + 12
    if words.look is not None:
        disc = round(px * 1.3)
        draw_look(surface, assets, words.look, (left + disc / 2, y), disc)
        left += disc + px // 3
    room = right - left
    name_px = fit_px(assets, name, round(px * 1.05), room, True)
    name_px = max(name_px, round(px * 0.85))  # a long name: cut short, not set tiny
    name = ellipsize(assets, name, name_px, room, True)
    draw_text(surface, assets, name, name_px, (left, y), "midleft", words.colour, True)


def _draw_badge(
    surface: pygame.Surface,
    assets: Assets,
    centre: tuple[float, float],
    px: int,
    badge: Badge,
    right: int | None = None,
) -> pygame.Rect:
    """A pill under the name (or, ``right``: ending there): the ready mark, "not
    ready", or the owner."""
    width = assets.font(px, True).size(badge.text)[0]
    pill = pygame.Rect(0, 0, width + round(px * 1.2), pill_h(assets, px))
    pill.center = (round(centre[0]), round(centre[1]))
    if right is not None:
        pill.right = right
    border = (255, 255, 255, 60) if badge.fill == WAITING_FILL else None
    surface.blit(assets.box(pill.size, (*badge.fill, 235), pill.h // 2, border), pill)
    ink, text = badge.ink, badge.text
    draw_text(surface, assets, text, px, pill.center, colour=ink, bold=True, shadow=False)
    return pill
