"""Card faces and backs, drawn by us at the exact pixel size they are shown at.

Shapes are drawn three times larger and scaled down (smooth rounded corners); the
indices and pips are DejaVu Sans glyphs rendered at their final size, so they stay crisp
from a phone to 4K. Every image carries its soft drop shadow (or a glow) in a margin of
``pad(height)`` pixels around the card. Nothing here caches: ``client.ui.assets`` does.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from client.ui.metrics import CARD_RATIO
from engine import Card, Suit

__all__ = ["PAPER", "card_size", "draw_back", "draw_face", "halo", "pad", "with_halo"]

PAPER = (251, 249, 243)
EDGE = (168, 166, 158)
RED = (200, 30, 45)
BLACK = (28, 28, 36)
BACK = (128, 26, 38)
BACK_LINE = (176, 58, 66)
GOLD = (206, 168, 82)
SS = 3  # supersampling factor for shapes

FontFor = Callable[[int, bool], pygame.font.Font]

# pip centres for 2..10 as (x, y) in the pip box, 0..1; pips below the middle are upside down
_PIPS: dict[int, list[tuple[float, float]]] = {
    2: [(0.5, 0.0), (0.5, 1.0)],
    3: [(0.5, 0.0), (0.5, 0.5), (0.5, 1.0)],
    4: [(0, 0), (1, 0), (0, 1), (1, 1)],
    5: [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    6: [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    7: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    8: [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    9: [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    10: [
        (0, 0),
        (1, 0),
        (0.5, 1 / 6),
        (0, 1 / 3),
        (1, 1 / 3),
        (0, 2 / 3),
        (1, 2 / 3),
        (0.5, 5 / 6),
        (0, 1),
        (1, 1),
    ],
}
_COURT = {11: "J", 12: "Q", 13: "K"}


def card_size(height: int) -> tuple[int, int]:
    return max(8, round(height * CARD_RATIO)), max(10, height)


def pad(height: int) -> int:
    """The margin around a card image that holds its shadow or glow."""
    return max(3, round(height * 0.07))


def suit_colour(suit: Suit) -> tuple[int, int, int]:
    return RED if suit in (Suit.HEARTS, Suit.DIAMONDS) else BLACK


def _rounded(
    size: tuple[int, int], radius: float, fill: tuple[int, ...], edge: tuple[int, ...]
) -> pygame.Surface:
    """A smooth rounded card shape: drawn at SS times the size, scaled down."""
    w, h = size
    big = pygame.Surface((w * SS, h * SS), pygame.SRCALPHA)
    r = round(radius * SS)
    pygame.draw.rect(big, edge, big.get_rect(), border_radius=r)
    inner = big.get_rect().inflate(-2 * SS, -2 * SS)
    pygame.draw.rect(big, fill, inner, border_radius=max(1, r - SS))
    return pygame.transform.smoothscale(big, size)


def _glyph(font: pygame.font.Font, text: str, colour: tuple[int, int, int]) -> pygame.Surface:
    return font.render(text, True, colour)


def _blit_centred(target: pygame.Surface, image: pygame.Surface, x: float, y: float) -> None:
    target.blit(image, image.get_rect(center=(round(x), round(y))))


def _tight(font: pygame.font.Font, text: str, colour: tuple[int, int, int]) -> pygame.Surface:
    """A glyph image cropped to its ink (so symbols centre on their visible middle)."""
    image = _glyph(font, text, colour)
    box = image.get_bounding_rect()
    return image.subsurface(box).copy() if box.w and box.h else image


def draw_face(card: Card, height: int, font_for: FontFor) -> pygame.Surface:
    """The face of ``card``, ``card_size(height)`` pixels, transparent corners."""
    w, h = size = card_size(height)
    face = _rounded(size, w * 0.075, PAPER, EDGE)
    colour = suit_colour(card.suit)
    symbol = card.suit.symbol
    rank = "10" if card.rank == 10 else {11: "J", 12: "Q", 13: "K", 14: "A"}.get(card.rank, "")
    rank = rank or str(card.rank)

    # corner indices: rank over suit, top-left and (upside down) bottom-right
    rank_font = font_for(max(6, round(h * 0.15)), True)
    if len(rank) == 1:
        rank_img = _tight(rank_font, rank, colour)
    else:  # "10": two narrower digits set close together, as printed cards do
        ten_font = font_for(max(6, round(h * 0.125)), True)
        one, zero = _tight(ten_font, "1", colour), _tight(ten_font, "0", colour)
        gap = max(0, round(h * 0.004))
        rank_img = pygame.Surface(
            (one.get_width() + gap + zero.get_width(), max(one.get_height(), zero.get_height())),
            pygame.SRCALPHA,
        )
        rank_img.blit(one, (0, rank_img.get_height() - one.get_height()))
        rank_img.blit(zero, (one.get_width() + gap, rank_img.get_height() - zero.get_height()))
    suit_img = _tight(font_for(max(6, round(h * 0.13)), False), symbol, colour)
    iw = max(round(w * 0.2), rank_img.get_width() + 2)
    index = pygame.Surface((iw, round(h * 0.3)), pygame.SRCALPHA)
    index.blit(rank_img, rank_img.get_rect(midtop=(iw / 2, 0)))
    index.blit(suit_img, suit_img.get_rect(midtop=(iw / 2, rank_img.get_height() + h * 0.02)))
    centre_x = round(w * 0.135)  # the column the index is centred on
    face.blit(index, index.get_rect(midtop=(centre_x, round(h * 0.045))))
    flipped = pygame.transform.rotate(index, 180)
    face.blit(flipped, flipped.get_rect(midbottom=(w - centre_x, round(h * 0.955))))

    if card.rank in _PIPS:
        pip = _tight(font_for(max(6, round(h * 0.17)), False), symbol, colour)
        upside = pygame.transform.rotate(pip, 180)
        x0, x1 = w * 0.32, w * 0.68
        y0, y1 = h * 0.2, h * 0.8
        for px, py in _PIPS[card.rank]:
            image = upside if py > 0.5 else pip
            _blit_centred(face, image, x0 + (x1 - x0) * px, y0 + (y1 - y0) * py)
    elif card.rank == 14:
        ace = _tight(font_for(max(8, round(h * 0.42)), False), symbol, colour)
        _blit_centred(face, ace, w / 2, h / 2)
    else:
        _draw_court(face, card, rank, colour, font_for)
    return face


def _draw_court(
    face: pygame.Surface, card: Card, rank: str, colour: tuple[int, int, int], font_for: FontFor
) -> None:
    w, h = face.get_size()
    frame = pygame.Rect(0, 0, round(w * 0.54), round(h * 0.66))
    frame.center = (w // 2, h // 2)
    tint = (252, 240, 214) if colour == RED else (236, 238, 246)
    big = pygame.Surface((frame.w * SS, frame.h * SS), pygame.SRCALPHA)
    r = round(w * 0.03 * SS)
    line = max(1, round(w * 0.008)) * SS  # the frame's lines grow with the card
    pygame.draw.rect(big, GOLD, big.get_rect(), border_radius=r)
    pygame.draw.rect(big, tint, big.get_rect().inflate(-3 * line, -3 * line), border_radius=r)
    inner = big.get_rect().inflate(-7 * line, -7 * line)
    pygame.draw.rect(big, colour, inner, width=line, border_radius=r)
    face.blit(pygame.transform.smoothscale(big, frame.size), frame)
    letter = _tight(font_for(max(8, round(h * 0.3)), True), rank, colour)
    _blit_centred(face, letter, frame.centerx, frame.centery - h * 0.035)
    small = _tight(font_for(max(6, round(h * 0.14)), False), card.suit.symbol, colour)
    _blit_centred(face, small, frame.centerx, frame.centery + h * 0.17)
    corner = _tight(font_for(max(5, round(h * 0.08)), False), card.suit.symbol, GOLD)
    inset = h * 0.055
    _blit_centred(face, corner, frame.left + inset, frame.top + inset)
    _blit_centred(
        face, pygame.transform.rotate(corner, 180), frame.right - inset, frame.bottom - inset
    )


def draw_back(height: int) -> pygame.Surface:
    """The back: a white border round a red field with a fine diamond lattice."""
    w, h = size = card_size(height)
    big = pygame.Surface((w * SS, h * SS), pygame.SRCALPHA)
    r = round(w * 0.075 * SS)
    pygame.draw.rect(big, EDGE, big.get_rect(), border_radius=r)
    pygame.draw.rect(big, PAPER, big.get_rect().inflate(-2 * SS, -2 * SS), border_radius=r - SS)
    field = big.get_rect().inflate(-round(w * 0.16 * SS), -round(w * 0.16 * SS))
    pygame.draw.rect(big, BACK, field, border_radius=round(r * 0.5))
    lattice = pygame.Surface(field.size, pygame.SRCALPHA)
    step = max(3 * SS, round(w * 0.11 * SS))
    lw = max(1, SS // 2 + 1)
    fw, fh = field.size
    for k in range(-fh, fw + fh, step):
        pygame.draw.line(lattice, BACK_LINE, (k, 0), (k + fh, fh), lw)
        pygame.draw.line(lattice, BACK_LINE, (k, 0), (k - fh, fh), lw)
    cx, cy = fw / 2, fh / 2
    dx, dy = fw * 0.26, fh * 0.17
    diamond = [(cx, cy - dy), (cx + dx, cy), (cx, cy + dy), (cx - dx, cy)]
    pygame.draw.polygon(lattice, BACK, diamond)
    pygame.draw.polygon(lattice, GOLD, diamond, max(1, SS))
    inner = [(cx, cy - dy * 0.55), (cx + dx * 0.55, cy), (cx, cy + dy * 0.55), (cx - dx * 0.55, cy)]
    pygame.draw.polygon(lattice, GOLD, inner)
    big.blit(lattice, field)
    pygame.draw.rect(
        big,
        GOLD,
        field.inflate(-3 * SS, -3 * SS),
        width=max(1, SS // 2 + 1),
        border_radius=round(r * 0.4),
    )
    return pygame.transform.smoothscale(big, size)


def halo(
    card_size: tuple[int, int], height: int, glow: tuple[int, int, int] | None = None
) -> pygame.Surface:
    """The soft drop shadow (or coloured glow) behind a card, with its margin."""
    p = pad(height)
    w, h = card_size
    out = pygame.Surface((w + 2 * p, h + 2 * p), pygame.SRCALPHA)
    radius = round(w * 0.08)
    if glow is None:
        rect = pygame.Rect(p, p, w, h).move(round(p * 0.25), round(p * 0.45))
        pygame.draw.rect(out, (0, 0, 0, 110), rect, border_radius=radius)
        return pygame.transform.gaussian_blur(out, max(1, round(p * 0.45)))
    rect = pygame.Rect(p, p, w, h).inflate(round(p * 0.9), round(p * 0.9))
    pygame.draw.rect(out, (*glow, 235), rect, border_radius=radius + p // 2)
    return pygame.transform.gaussian_blur(out, max(1, round(p * 0.4)))


def with_halo(card: pygame.Surface, height: int, behind: pygame.Surface) -> pygame.Surface:
    """``card`` on its shadow or glow (made by ``halo`` for the same size)."""
    out = behind.copy()
    p = pad(height)
    out.blit(card, (p, p))
    return out
