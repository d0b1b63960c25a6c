"""The first player out of a game, celebrated on the table for a moment: a gold ring
widening from the seat's plate (or from our hand's place, when it is us), sparks flying
out of it and a rosette with the place ("1st") popping up over it, all fading together
in ``SECONDS``. ``cues.Cues`` starts it with the seat's ``WentOut`` and times it (with a
chime, ``assets/sounds/cheer.wav``); drawing it changes nothing.
"""

from __future__ import annotations

import math

import pygame

from client.screens.table.layout import Layout
from client.ui.assets import Assets
from client.ui.render import fit_px
from client.ui.tween import ease_out_back, ease_out_cubic

__all__ = ["SECONDS", "draw_flourish", "flourish_spot"]

SECONDS = 1.8  # how long the celebration lasts (at the normal pace)
SPARKS = 12
GOLD = (246, 206, 110)
BRIGHT = (255, 246, 210)


def flourish_spot(layout: Layout, seat: int) -> pygame.Rect:
    """Where ``seat``'s celebration is centred: its name plate, or for our own seat (which
    has none) a plate's size at our hand's place."""
    spot = layout.seats.get(seat)
    if spot is not None:
        return pygame.Rect(spot.plate)
    rect = pygame.Rect(0, 0, round(2.2 * layout.card_w), round(0.36 * layout.card_h))
    rect.center = (round(layout.size[0] / 2), round(layout.hand_y - 0.1 * layout.card_h))
    return rect


def draw_flourish(
    surface: pygame.Surface, assets: Assets, layout: Layout, seat: int, text: str, t: float
) -> None:
    """``seat``'s celebration at ``t``, from 0 (it begins) to 1 (it is gone); ``text``:
    the rosette's words (the place)."""
    if not 0.0 <= t < 1.0:
        return
    plate = flourish_spot(layout, seat)
    fade = min(1.0, (1.0 - t) / 0.35)
    grow = ease_out_cubic(min(1.0, t / 0.6))
    # the ring: the plate's outline, widening and fading
    ring = plate.inflate(round(plate.h * 1.2 * grow), round(plate.h * 1.2 * grow))
    glow = pygame.Surface(ring.inflate(8, 8).size, pygame.SRCALPHA)
    width = max(2, round(plate.h * 0.1 * (1.0 - grow) + 2))
    box = glow.get_rect().inflate(-8, -8)
    pygame.draw.rect(glow, (*GOLD, round(220 * fade * (1.0 - 0.6 * grow))), box, width, ring.h // 2)
    surface.blit(glow, glow.get_rect(center=plate.center))
    # the sparks: small diamonds flying out from the plate's middle
    cx, cy = plate.center
    reach = plate.w * 0.75 * grow
    size = max(4.0, plate.h * 0.26 * (1.0 - 0.4 * grow))
    spark_alpha = round(255 * fade)
    for k in range(SPARKS):
        a = 2 * math.pi * k / SPARKS + 0.3
        x = cx + math.cos(a) * reach
        y = cy + math.sin(a) * reach * 0.55
        points = [(x, y - size), (x + size * 0.45, y), (x, y + size), (x - size * 0.45, y)]
        spark = pygame.Surface((round(size * 2) + 2, round(size * 2) + 2), pygame.SRCALPHA)
        local = [(px - x + size + 1, py - y + size + 1) for px, py in points]
        pygame.draw.polygon(spark, (*(BRIGHT if k % 2 else GOLD), spark_alpha), local)
        surface.blit(spark, (round(x - size - 1), round(y - size - 1)))
    # the rosette: the place in a gold pill popping up over the plate
    pop = ease_out_back(min(1.0, t / 0.25))
    px = max(10, round(plate.h * 0.5 * max(0.1, pop)))
    px = fit_px(assets, text, px, plate.w * 0.8, bold=True)
    image = assets.text(text, px, (44, 30, 8), True)
    pill = image.get_rect().inflate(px * 1.2, px * 0.5)
    pill.midbottom = (cx, round(plate.top + pill.h * 0.2))
    pill.clamp_ip(surface.get_rect())
    badge = pygame.Surface(pill.size, pygame.SRCALPHA)
    pygame.draw.rect(badge, (*GOLD, 255), badge.get_rect(), border_radius=pill.h // 2)
    pygame.draw.rect(badge, (*BRIGHT, 255), badge.get_rect(), 2, border_radius=pill.h // 2)
    badge.blit(image, image.get_rect(center=badge.get_rect().center))
    badge.set_alpha(round(255 * fade))
    surface.blit(badge, pill)
