"""The eight badges a player picks to be told apart by (``protocol.LOOKS``), drawn by us.

Names at a LAN party repeat ("Player", "Igor", "Igor 2"); a badge beside each name lets a
glance tell the seats apart. Each badge is a coloured disc with its own emblem, so two
badges never differ by colour alone (a colour-blind player still tells them apart). They
are drawn with pygame's primitives at three times the size asked and scaled down, for
smooth edges, and kept by the assets' cache per size: no image files.
"""

from __future__ import annotations

import math

import pygame

from client.ui.assets import Assets
from protocol import LOOKS

__all__ = ["LOOK_COLOURS", "LOOK_NAMES", "draw_look", "look_image"]

# (disc, emblem ink) for each look, in order; the names are i18n keys (``look.<name>``)
LOOK_COLOURS: tuple[tuple[tuple[int, int, int], tuple[int, int, int]], ...] = (
    ((204, 64, 58), (255, 236, 214)),  # star on red
    ((230, 140, 40), (60, 30, 8)),  # sun on orange
    ((226, 200, 74), (70, 52, 6)),  # diamond on gold
    ((70, 158, 88), (236, 250, 226)),  # leaf on green
    ((52, 150, 190), (232, 248, 255)),  # wave on sky blue
    ((72, 92, 200), (236, 238, 255)),  # moon on blue
    ((144, 82, 190), (250, 236, 255)),  # crown on violet
    ((200, 84, 150), (255, 236, 246)),  # heart on pink
)
LOOK_NAMES = ("star", "sun", "diamond", "leaf", "wave", "moon", "crown", "heart")
assert len(LOOK_COLOURS) == len(LOOK_NAMES) == LOOKS

SCALE = 3  # drawn this many times larger, then scaled down


def _points(
    cx: float, cy: float, pairs: list[tuple[float, float]], r: float
) -> list[tuple[float, float]]:
    return [(cx + x * r, cy + y * r) for x, y in pairs]


def _star(n: int, outer: float, inner: float) -> list[tuple[float, float]]:
    out = []
    for k in range(2 * n):
        radius = outer if k % 2 == 0 else inner
        angle = -math.pi / 2 + k * math.pi / n
        out.append((radius * math.cos(angle), radius * math.sin(angle)))
    return out


def _emblem(
    surface: pygame.Surface, look: int, c: float, r: float, ink: tuple[int, int, int]
) -> None:
    """The emblem of ``look`` centred at (c, c), ``r`` the disc's radius."""
    name = LOOK_NAMES[look]
    if name == "star":
        pygame.draw.polygon(surface, ink, _points(c, c, _star(5, 0.62, 0.26), r))
    elif name == "sun":
        pygame.draw.circle(surface, ink, (c, c), r * 0.3)
        for k in range(8):
            a = k * math.pi / 4
            start = (c + math.cos(a) * r * 0.42, c + math.sin(a) * r * 0.42)
            end = (c + math.cos(a) * r * 0.64, c + math.sin(a) * r * 0.64)
            pygame.draw.line(surface, ink, start, end, max(1, round(r * 0.12)))
    elif name == "diamond":
        shape = [(0.0, -0.64), (0.46, 0.0), (0.0, 0.64), (-0.46, 0.0)]
        pygame.draw.polygon(surface, ink, _points(c, c, shape, r))
    elif name == "leaf":
        leaf = pygame.Rect(0, 0, round(r * 0.7), round(r * 1.24))
        leaf.center = (round(c), round(c))
        pygame.draw.ellipse(surface, ink, leaf)
        stem = (c, c + r * 0.62), (c, c - r * 0.5)
        pygame.draw.line(surface, LOOK_COLOURS[look][0], *stem, max(1, round(r * 0.07)))
    elif name == "wave":
        width = max(1, round(r * 0.14))
        for dy in (-0.26, 0.08, 0.42):
            line = [
                (
                    c + (t / 10 - 0.5) * r * 1.2,
                    c + (dy - 0.08) * r + math.sin(t / 10 * 2 * math.pi) * r * 0.12,
                )
                for t in range(11)
            ]
            pygame.draw.lines(surface, ink, False, line, width)
    elif name == "moon":
        pygame.draw.circle(surface, ink, (c - r * 0.08, c), r * 0.56)
        pygame.draw.circle(surface, LOOK_COLOURS[look][0], (c + r * 0.18, c - r * 0.12), r * 0.5)
    elif name == "crown":
        shape = [
            (-0.56, 0.4),
            (-0.56, -0.3),
            (-0.28, 0.04),
            (0.0, -0.46),
            (0.28, 0.04),
            (0.56, -0.3),
            (0.56, 0.4),
        ]
        pygame.draw.polygon(surface, ink, _points(c, c, shape, r))
    else:  # heart: two lobes and a point
        lobe = r * 0.3
        pygame.draw.circle(surface, ink, (c - lobe * 0.95, c - r * 0.12), lobe)
        pygame.draw.circle(surface, ink, (c + lobe * 0.95, c - r * 0.12), lobe)
        shape = [(-0.57, -0.02), (0.57, -0.02), (0.0, 0.6)]
        pygame.draw.polygon(surface, ink, _points(c, c, shape, r))


def look_image(assets: Assets, look: int, diameter: int) -> pygame.Surface:
    """Badge ``look`` as an image ``diameter`` pixels across (made once per size)."""
    diameter = max(8, diameter)

    def make() -> pygame.Surface:
        big = diameter * SCALE
        surface = pygame.Surface((big, big), pygame.SRCALPHA)
        c, r = big / 2, big / 2 - SCALE
        disc, ink = LOOK_COLOURS[look]
        pygame.draw.circle(surface, (20, 26, 22), (c, c), r)  # a dark rim on any felt
        pygame.draw.circle(surface, disc, (c, c), r * 0.88)
        _emblem(surface, look, c, r * 0.88, ink)
        return pygame.transform.smoothscale(surface, (diameter, diameter))

    return assets.composite(("look", look, diameter), make)  # type: ignore[no-any-return]


def draw_look(
    surface: pygame.Surface,
    assets: Assets,
    look: int | None,
    center: tuple[float, float],
    diameter: int,
) -> None:
    """Badge ``look`` centred at ``center`` (nothing for None or a look this window does
    not know, as from a newer host)."""
    if look is None or not 0 <= look < LOOKS:
        return
    image = look_image(assets, look, diameter)
    surface.blit(image, image.get_rect(center=(round(center[0]), round(center[1]))))
