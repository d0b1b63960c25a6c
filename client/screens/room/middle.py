"""The words in the room's table: what the room waits for, from our seat, and how the
lines in the table (and in the strip under the seats) are wrapped, spaced and drawn.

The room screen says which lines there are (what went wrong, who watches, where others
reach a table we host); this module says what the room waits for (``status_line``) and
sets the lines, each set smaller where it is wider than the room it has.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from client.i18n import Translator
from client.net.session import WATCHING
from client.ui.assets import Assets
from client.ui.render import draw_text, fit_px, line_h, wrap
from protocol import Room

__all__ = ["Line", "draw_lines", "line_step", "status_line", "wrap_lines"]

Line = tuple[str, tuple[int, int, int]]  # its words and their colour


def status_line(
    room: Room, me: int, tr: Translator, *, ready: bool, full: bool, waiting: Sequence[int]
) -> str:
    """What the room waits for, from our seat (``me``): ``ready``, our own ready mark;
    ``full``, every seat is taken; ``waiting``, the players the owner's start waits for."""
    names = [room.seats[i].name for i in waiting if i != me]
    if me == WATCHING:
        return tr("table.watching")
    if room.owner == me:
        if not full:
            return tr("room.fill_seats")
        if names:
            return tr("room.waiting_ready", names=", ".join(names))
        return tr("room.ready")
    if not ready:
        return tr("room.press_ready")
    if names:
        return tr("room.waiting_ready", names=", ".join(names))
    return tr("room.waiting_owner")


def wrap_lines(assets: Assets, lines: Sequence[Line], px: int, width: float) -> list[Line]:
    """``lines`` at ``px``, each broken between words into as many as it takes to fit
    ``width``."""
    font = assets.font(px, False)
    return [(part, colour) for text, colour in lines for part in wrap(font, text, width)]


def line_step(assets: Assets, px: int) -> int:
    """From one line of the words in the table to the next."""
    return max(round(px * 1.4), line_h(assets, px))


def draw_lines(
    surface: pygame.Surface,
    assets: Assets,
    wrapped: list[Line],
    centre: tuple[int, int],
    px: int,
    room: float,
) -> None:
    """Lines centred on ``centre``, each set smaller where it is wider than ``room``."""
    step = line_step(assets, px)
    x, y = centre[0], centre[1] - (len(wrapped) - 1) * step // 2  # whole pixels
    for text, colour in wrapped:
        size = fit_px(assets, text, px, room)
        draw_text(surface, assets, text, size, (x, y), colour=colour)
        y += step
