"""Where the room's table and seats go (``screen``), for any window size and shape.

Around an oval table, ours at the bottom and the others clockwise from our left, where the
window is wide enough for every seat's box and nothing overlaps, the words in the table set
smaller where they need. The owner's controls and the host's words come in two forms, the
roomy one first:

- under each other seat, a row of level chips; where a box is too narrow for that row (a
  window held upright: three boxes across 720 pixels), one chip that opens them (``menus``);
- the host's lines on where others reach the table (four lines more than a guest's) in the
  table; where they do not fit it, in a strip under the seats (``strip``).

So the owner's room is an oval wherever the guests' is: at 720x1280 it was a column of
seats with their chips while the guests' was an oval. The seats' words may be set down to
``OVAL_SHARE`` of their size for the oval, before the seats leave it. Otherwise, as on a
small phone, the others sit in a column (or two, where one is too tall) above a smaller
table with ours below it, the chips in rows; where even that is too tall, everything is set
a little smaller, then a little closer.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import pygame

__all__ = ["Measure", "Seating", "Space", "arrange", "chip_h"]

GAP = 8  # between boxes, and between a box and the window's edge
SMALLEST = 15  # the smallest the words in the oval are set at to fit it (pixels)
OVAL_SHARE = 0.75  # the seats' words around the oval: set down to this share of their size


@dataclass(frozen=True)
class Seating:
    column: bool  # in a column (or two), not around the oval
    px: int  # the size the seats' words are set at
    table: pygame.Rect
    boxes: tuple[pygame.Rect, ...]  # one a seat, by seat number
    words_px: int  # the size the words in the table are set at
    menus: bool = False  # one chip under a seat opens its choices (no row of chips)
    strip: pygame.Rect | None = None  # the host's lines, under the seats (None: in the table)
    strip_px: int = 0  # the size they are set at there

    def chip_h(self) -> int:
        return chip_h(self.px)


@dataclass(frozen=True)
class Measure:
    """What the room measures for the seating, at a size of its words (``px``)."""

    width: Callable[[int, bool], int]  # the narrowest a seat's box may be (menus?)
    height: Callable[[int, bool, bool], int]  # a seat's box (with chips? in a column?)
    middle: Callable[[int, int], int]  # what the room waits for, in a width
    share: Callable[[int, int], int]  # the host's lines on where others reach it, in a width
    wide: Callable[[int, int, bool], bool]  # a word wider than a width (with the host's?)


def chip_h(px: int) -> int:
    """The height of a level chip when the seats are set at ``px``."""
    return round(px * 1.6)


@dataclass(frozen=True)
class Space:
    """Where a room's seats go: the window (``size``), below its header (``top``) and above
    its buttons (``button_h`` tall); ours (``seat``) nearest the player; ``chips``: which
    seats have a row of level chips; ``measure``: how big the room's boxes and words are."""

    size: tuple[int, int]
    top: float
    button_h: int
    seat: int
    chips: tuple[bool, ...]
    measure: Measure


def arrange(space: Space, px: int) -> Seating:
    """The seats and the table in ``space``, their words set at ``px`` where they fit."""
    owner = any(space.chips)
    shares = (False, True) if space.measure.share(px, space.size[0]) else (False,)
    for size_px in range(px, round(px * OVAL_SHARE) - 1, -1):
        for menus in (False, True) if owner else (False,):
            for strip in shares:
                around = _around(space, size_px, menus, strip)
                if around is not None:
                    return around
    best: tuple[float, Seating] | None = None
    for gap in (GAP, GAP // 2):  # closer together only where nothing else helps
        for size_px in range(px, min(px, 11) - 1, -1):
            for cols in (1, 2):
                found = _column(space, size_px, cols, gap)
                if found is not None and found[0] >= 0:
                    return found[1]
                if found is not None and (best is None or found[0] > best[0]):
                    best = found
    if best is None:  # no columns wide enough: one as wide as the window
        measure = space.measure
        anywhere = replace(space, measure=replace(measure, width=lambda _, __: 0))
        best = _column(anywhere, min(px, 11), 1, GAP // 2)
    assert best is not None
    return best[1]  # too small a window for everything: what overflows least


def _around(space: Space, px: int, menus: bool, strip: bool) -> Seating | None:
    """Around the oval, as long as every box is wide enough and nothing overlaps (``menus``:
    one chip a seat; ``strip``: the host's lines under the seats, not in the table)."""
    (w, h), top, button_h = space.size, space.top, space.button_h
    seat, chips, measure = space.seat, space.chips, space.measure
    n = len(chips)
    strip_px = px  # (as wide as the window: no need to set them smaller)
    lines = pygame.Rect(GAP + px, 0, w - 2 * (GAP + px), 0)  # the strip, when there is one
    lines.h = measure.share(strip_px, lines.w) if strip else 0
    under = lines.h + 2 * GAP if strip else 0
    bottom = h - button_h * 2.6 - under
    portrait = h > w
    oval = pygame.Rect(0, 0, round(min(w * (0.34 if portrait else 0.5), (bottom - top) * 1.8)), 0)
    width = round(min(w * (0.31 if portrait else 0.24), 300))
    angles = [math.pi / 2 + 2 * math.pi * ((i - seat) % n) / n for i in range(n)]
    if measure.width(px, menus) > width:  # wider boxes, and a narrower table between those
        width = measure.width(px, menus)
        if any(abs(math.cos(a)) > 0.3 for a in angles):
            oval.w = min(oval.w, w - 2 * width - 6 * GAP)
    oval.h = round(min((bottom - top) * 0.46, oval.w * (1.6 if portrait else 1.2)))
    oval.center = (w // 2, round((top + bottom) / 2))
    # the words' block, 0.78 of the oval wide, stays inside the ellipse up to 0.6 of its
    # height (0.78² + 0.6² < 1): smaller words where they need, down to ``SMALLEST``
    # (else at ``px``, within 0.8 of it, the most a block of a few short lines may take)
    share = round(oval.w * 0.78)

    def block(k: int) -> int:
        return measure.middle(k, share) + (0 if strip else measure.share(k, share))

    def fits(k: int) -> bool:  # (a word wider than the table, the link, would be set tiny)
        return block(k) <= oval.h * 0.6 and not measure.wide(k, share, not strip)

    sizes = range(px, SMALLEST - 1, -1)
    middle_px = next((k for k in sizes if fits(k)), px)
    text = pygame.Rect(0, 0, share, block(middle_px))
    text.center = oval.center
    if n and (width > w - 2 * GAP or oval.w < px * 8 or text.h > oval.h * 0.8):
        return None  # (no seats yet: the table alone, whatever the window)
    if n and measure.wide(middle_px, share, not strip):
        return None
    area = pygame.Rect(GAP, round(top), w - 2 * GAP, round(h - top - button_h * 1.5 - under))
    boxes = []
    for angle, has_chips in zip(angles, chips, strict=True):
        height = measure.height(px, has_chips, False)
        cos, sin = math.cos(angle), math.sin(angle)
        x = oval.centerx + oval.w / 2 * cos + (width / 2 + GAP) * cos
        y = oval.centery + oval.h / 2 * sin + (height / 2 + GAP) * sin
        rect = pygame.Rect(0, 0, width, height)
        rect.center = (round(x), round(y))
        rect.clamp_ip(area)
        boxes.append(rect)
    if not all(area.contains(b) and not b.colliderect(text) for b in boxes) or _overlap(boxes):
        return None
    if not strip:
        return Seating(False, px, oval, tuple(boxes), middle_px, menus)
    lines.top = max(b.bottom for b in boxes) + 2 * GAP  # just under the lowest seat
    # the seats and the strip as one block, centred in the height they have
    down = (area.bottom + under - lines.bottom - (min(b.top for b in boxes) - area.top)) // 2
    down = max(0, down)
    oval, lines = oval.move(0, down), lines.move(0, down)
    moved = tuple(b.move(0, down) for b in boxes)
    return Seating(False, px, oval, moved, middle_px, menus, lines, strip_px)


def _column(space: Space, px: int, cols: int, gap: int) -> tuple[float, Seating] | None:
    """The others in ``cols`` columns above the table, ours below it, and the height to
    spare (below 0: it overflows); None where the columns are too narrow for the boxes."""
    (w, h), top, button_h = space.size, space.top, space.button_h
    seat, chips, measure = space.seat, space.chips, space.measure
    n = len(chips)
    need = measure.width(px, False)
    cell = min((w - 2 * GAP - (cols - 1) * gap) // cols, max(need + 2 * px, px * 22))
    if cell < need:
        return None
    others = [(seat + k) % n for k in range(1, n)]  # clockwise from our left
    rows = [others[i : i + cols] for i in range(0, len(others), cols)]
    heights = [max(measure.height(px, chips[i], True) for i in row) for row in rows]
    span = cols * cell + (cols - 1) * gap if len(others) > 1 else cell
    ours_h = measure.height(px, chips[seat], True)
    table_w = span - 2 * px  # a little narrower than the seats around it
    words = round(table_w * 0.85)  # what the room waits for, and the host's lines
    low = measure.middle(px, words) + measure.share(px, words)
    low += round(px * (1.2 if gap == GAP else 0.6))
    high = max(low, round(table_w * 0.42))
    bottom = h - button_h * 1.5 - GAP
    room = bottom - top - sum(heights) - (len(rows) + 1) * gap - ours_h
    table_h = max(low, min(high, round(room)))
    block = sum(heights) + (len(rows) + 1) * gap + table_h + ours_h
    y = round(top + max(0, (bottom - top - block) / 2))
    boxes: dict[int, pygame.Rect] = {}
    for row, height in zip(rows, heights, strict=True):
        x = (w - (len(row) * cell + (len(row) - 1) * gap)) // 2
        for i in row:
            boxes[i] = pygame.Rect(x, y, cell, measure.height(px, chips[i], True))
            x += cell + gap
        y += height + gap
    table = pygame.Rect((w - table_w) // 2, y, table_w, table_h)
    boxes[seat] = pygame.Rect((w - cell) // 2, table.bottom + gap, cell, ours_h)
    return room - low, Seating(True, px, table, tuple(boxes[i] for i in range(n)), px)


def _overlap(rects: list[pygame.Rect]) -> bool:
    return any(a.inflate(4, 4).colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1 :])
