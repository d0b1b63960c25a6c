"""Drawing the window's text, panels, buttons and bubbles. Reads, never changes, what it draws."""

from __future__ import annotations

import pygame

from client.ui.assets import Assets

__all__ = [
    "MIN_PX",
    "SOLID",
    "button_px",
    "draw_bubble",
    "draw_button",
    "draw_panel",
    "draw_shade",
    "draw_text",
    "ellipsize",
    "fit_px",
    "label_px",
    "line_h",
    "rounded_box",
    "wrap",
]

MIN_PX = 10  # the smallest label that still reads on a phone; layouts make room for it
WHITE = (255, 255, 255)
SOFT = (214, 228, 216)
GOLD = (250, 220, 140)  # titles, headings, our own name
# a dialog's panel over the table (the pause, the end, the log, a closed table): near
# opaque, as the words of the table under it (a banner, the seats' plates) showed through
# the 225-238 of before and read as part of the dialog
SOLID = 252


def fit_px(assets: Assets, text: str, px: int, room: float, bold: bool = False) -> int:
    """``px``, or smaller so that ``text`` fits in ``room`` pixels (8 at the least)."""
    width = assets.font(px, bold).size(text)[0]
    if width <= room:
        return px
    size = max(8, int(px * room / width))  # glyphs do not scale quite in proportion
    while size > 8 and assets.font(size, bold).size(text)[0] > room:
        size -= 1
    return size


def ellipsize(assets: Assets, text: str, px: int, room: float, bold: bool = False) -> str:
    """``text``, or as much of it as fits in ``room`` pixels at ``px`` followed by "…"."""
    font = assets.font(px, bold)
    if font.size(text)[0] <= room:
        return text

    def cut(n: int) -> str:  # no space or comma before the ellipsis
        return text[:n].rstrip(" ,;:") + "…"

    low, high = 0, len(text)  # the longest prefix that fits with its ellipsis
    while low < high:
        mid = (low + high + 1) // 2
        if font.size(cut(mid))[0] <= room:
            low = mid
        else:
            high = mid - 1
    return cut(low)


def line_h(assets: Assets, px: int, bold: bool = False) -> int:
    """The height of a line of text at ``px`` as ``draw_text`` sets it, shadow and all (a
    few glyphs, accented capitals among them, reach beyond the font's own height)."""
    return assets.text("ÅÄÖgjy(|", px, WHITE, bold, True).get_height()


def draw_text(
    surface: pygame.Surface,
    assets: Assets,
    text: str,
    px: int,
    pos: tuple[float, float],
    anchor: str = "center",
    colour: tuple[int, int, int] = WHITE,
    bold: bool = False,
    shadow: bool = True,
) -> pygame.Rect:
    image = assets.text(text, px, colour, bold, shadow)
    rect = image.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
    surface.blit(image, rect)
    return rect


def wrap(font: pygame.font.Font, text: str, width: float) -> list[str]:
    """``text`` broken into lines no wider than ``width`` (a bullet's lines are indented)."""
    indent = "   " if text.startswith("• ") else ""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and font.size(lines[-1] + " " + word)[0] <= width:
            lines[-1] += " " + word
        else:
            lines.append((indent if lines else "") + word)
    return lines


def rounded_box(
    surface: pygame.Surface,
    assets: Assets,
    rect: pygame.Rect,
    fill: tuple[int, ...],
    radius: int,
    border: tuple[int, ...] | None = None,
) -> None:
    """A box with rounded corners (and a border), cached by the assets."""
    surface.blit(assets.box(rect.size, fill, radius, border), rect)


def draw_backdrop(
    surface: pygame.Surface, assets: Assets, title: str, px: int, at: tuple[float, float]
) -> None:
    """A screen's background: the felt, and its title in bold gold centred at ``at``."""
    surface.blit(assets.felt(surface.get_size()), (0, 0))
    draw_text(surface, assets, title, px, at, bold=True, colour=GOLD)


def draw_shade(surface: pygame.Surface, assets: Assets, alpha: int = 140) -> None:
    """Dim the whole screen under an overlay (the image made once for a size)."""
    size = surface.get_size()

    def shade() -> pygame.Surface:
        dim = pygame.Surface(size, pygame.SRCALPHA)
        dim.fill((0, 0, 0, alpha))
        return dim

    surface.blit(assets.composite(("shade", size, alpha), shade), (0, 0))


def draw_panel(
    surface: pygame.Surface,
    assets: Assets,
    rect: pygame.Rect,
    alpha: int = 200,
    radius: int | None = None,
) -> None:
    """A dark rounded panel with a gold rim (``radius``: its corners, by default by its
    height)."""
    radius = max(6, rect.h // 18) if radius is None else radius
    shadow = rect.move(0, max(3, rect.h // 60))
    rounded_box(surface, assets, shadow, (0, 0, 0, alpha // 3), radius)
    rounded_box(surface, assets, rect, (12, 36, 24, alpha), radius, (210, 180, 100, 160))


def draw_button(
    surface: pygame.Surface,
    assets: Assets,
    rect: pygame.Rect,
    label: str,
    style: str = "primary",
    hover: bool = False,
    enabled: bool = True,
    px: int | None = None,
) -> None:
    """A rounded pill button: "primary" (gold), "secondary" (dark glass), "danger" (red).
    Its label is set as large as fits (``button_px``), or at ``px`` (a row of buttons that
    share one size)."""
    fills = {
        "primary": ((236, 190, 84), (44, 30, 8)),
        "secondary": ((20, 52, 34), WHITE),
        "danger": ((176, 52, 48), WHITE),
        "chosen": ((60, 120, 84), WHITE),
    }
    fill, ink = fills[style]
    if not enabled:
        fill, ink = (40, 60, 48), (130, 150, 138)
    elif hover:
        r, g, b = fill
        fill = (min(255, r + 22), min(255, g + 22), min(255, b + 22))
    radius = rect.h // 2
    rounded_box(surface, assets, rect.move(0, max(2, rect.h // 12)), (0, 0, 0, 90), radius)
    rounded_box(surface, assets, rect, (*fill, 240), radius, (255, 255, 255, 70))
    if px is None:
        px = button_px(assets, rect, label)
    draw_text(surface, assets, label, px, rect.center, colour=ink, bold=True, shadow=False)


def button_px(assets: Assets, rect: pygame.Rect, label: str) -> int:
    """The size of ``label`` on a button of ``rect``: as large as fits."""
    return fit_px(assets, label, label_px(rect.h), rect.w - rect.h * 0.5, bold=True)


def button_w(assets: Assets, label: str, height: int, least: int = 0) -> int:
    """How wide a button ``height`` pixels tall must be to show ``label`` at full size
    (``label_px``), and at least ``least``."""
    width = assets.font(label_px(height), True).size(label)[0] + height * 0.6
    return max(least, round(width))


def label_px(height: float) -> int:
    """The size of a label on a button ``height`` pixels tall, when it fits."""
    return max(MIN_PX, round(height * 0.42))


def draw_bubble(
    surface: pygame.Surface, assets: Assets, text: str, anchor: tuple[float, float], px: int
) -> pygame.Rect:
    """A speech bubble whose tail points at ``anchor`` (it sits above, kept on screen)."""
    words = text.split()
    lines: list[str] = []
    limit = max(14, int(surface.get_width() * 0.5 / (px * 0.55)))
    for word in words:
        if lines and len(lines[-1]) + 1 + len(word) <= limit:
            lines[-1] += " " + word
        else:
            lines.append(word)
    images = [assets.text(line, px, (30, 30, 30)) for line in lines]
    pad = px * 0.7
    w = max(i.get_width() for i in images) + 2 * pad
    h = sum(i.get_height() for i in images) + 2 * pad * 0.8
    x = min(max(6, anchor[0] - w / 2), surface.get_width() - w - 6)
    y = max(6, anchor[1] - h - px)
    rect = pygame.Rect(round(x), round(y), round(w), round(h))
    tail = [
        (anchor[0] - px * 0.5, rect.bottom - 1),
        (anchor[0] + px * 0.5, rect.bottom - 1),
        (anchor[0], rect.bottom + px * 0.8),
    ]
    rounded_box(surface, assets, rect.move(2, 3), (0, 0, 0, 70), round(px * 0.6))
    pygame.draw.polygon(surface, (250, 247, 236), tail)
    rounded_box(surface, assets, rect, (250, 247, 236, 255), round(px * 0.6))
    ty = rect.top + pad * 0.8
    for image in images:
        surface.blit(image, image.get_rect(midtop=(rect.centerx, round(ty))))
        ty += image.get_height()
    return rect
