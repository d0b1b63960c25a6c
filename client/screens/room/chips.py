"""The owner's chips under the other seats of the room: where they go and what they say.

Under an open seat or an AI's, a row of level chips (and, under an AI, one that clears the
seat); where a box is too narrow for that row, one chip that opens them (``Seating.menus``,
``seatmenu``); under another player's seat, "send away" (a squatter cannot hold a table).
The room screen lays the boxes out wide enough for these (``chips_w``), draws the chips and
sends what a tap on one chooses to the host.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from client.i18n import Translator
from client.screens.choices import levels
from client.screens.room.seating import chip_h
from client.screens.room.seatmenu import menu_label
from client.ui.assets import Assets
from client.ui.render import MIN_PX, button_px, label_px
from protocol import Room

__all__ = ["CLEAR", "KICK", "MENU", "Chip", "chip_label", "chip_px", "chips_w", "seat_chips"]

CLEAR = "clear"
KICK = "kick"  # the owner's chip under another player's seat
MENU = "menu"  # the owner's one chip under a seat too narrow for a row (``Seating.menus``)
CHIP_GAP = 4  # between the chips of a row

Chip = tuple[pygame.Rect, int, str]  # where, under which seat, what it chooses


def chips_w(assets: Assets, tr: Translator, room: Room, me: int, px: int, menus: bool) -> int:
    """The narrowest a seat's box may be for the owner's chips under it, with the seats'
    words set at ``px``: a row of chips with every label readable (or, with ``menus``, the
    one chip that opens them)."""
    height = chip_h(px)
    full = label_px(height)
    readable = min(full, max(MIN_PX + 1, round(full * 0.8)))
    font = assets.font(readable, True)
    pad = height * 0.5 + 2  # as ``render.button_px`` measures a label
    kinds = {seat.kind for i, seat in enumerate(room.seats) if i != me}
    need = 0
    if "human" in kinds:  # "send away", in 0.6 of the box
        need = round((font.size(tr("room.kick"))[0] + pad) / 0.6 + 16)
    if not kinds & {"ai", "empty"}:
        return need
    offered = levels()
    if menus:
        labels = [menu_label(tr, level) for level in (*offered, None)]
        return max(need, round(max(font.size(label)[0] for label in labels) + pad + 16))
    widest = max(font.size(tr("level." + level))[0] for level in offered)
    chip_w = widest + pad
    row = len(offered) * chip_w + (len(offered) - 1) * CHIP_GAP + height * 1.3 + CHIP_GAP
    return max(need, round(row + 16))


def seat_chips(
    room: Room, me: int, boxes: Sequence[pygame.Rect], height: int, menus: bool
) -> list[Chip]:
    """The owner's chips (``height`` tall) under every seat's box but ours (``me``): a
    level, or clear, where no player sits (or, with ``menus``, one chip that opens those);
    "send away" under another player's seat."""
    found = []
    offered = levels()
    gap = CHIP_GAP
    for i, (rect, seat) in enumerate(zip(boxes, room.seats, strict=True)):
        if i == me:
            continue
        if seat.kind == "human":
            chip = pygame.Rect(0, rect.bottom - height - 8, round((rect.w - 16) * 0.6), height)
            chip.right = rect.right - 8
            found.append((chip, i, KICK))
            continue
        if menus:
            chip = pygame.Rect(rect.left + 8, rect.bottom - height - 8, rect.w - 16, height)
            found.append((chip, i, MENU))
            continue
        clear = height * 1.3 + gap if seat.kind == "ai" else 0
        chip_w = (rect.w - 16 - clear - gap * (len(offered) - 1)) / len(offered)
        y = rect.bottom - height - 8
        for k, level in enumerate(offered):
            x = rect.left + 8 + k * (chip_w + gap)
            found.append((pygame.Rect(round(x), y, round(chip_w), height), i, level))
        if clear:
            chip = pygame.Rect(0, y, round(height * 1.3), height)
            chip.right = rect.right - 8
            found.append((chip, i, CLEAR))
    return found


def chip_label(tr: Translator, room: Room, choice: str, seat: int) -> str:
    """What the chip ``choice`` under ``seat`` says."""
    if choice == KICK:
        return tr("room.kick")
    if choice == MENU:
        info = room.seats[seat]
        return menu_label(tr, info.level if info.kind == "ai" else None)
    return "✕" if choice == CLEAR else tr("level." + choice)


def chip_px(assets: Assets, tr: Translator, room: Room, chips: list[Chip]) -> dict[int, int]:
    """One label size for each seat's row of chips: the largest at which every label of
    the row fits its chip (so "Schwer" is not set smaller than "Normal")."""
    sizes: dict[int, int] = {}
    for chip, seat, choice in chips:
        px = button_px(assets, chip, chip_label(tr, room, choice, seat))
        sizes[seat] = min(px, sizes.get(seat, px))
    return sizes
