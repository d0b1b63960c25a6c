"""The party's screens are planned, then painted: a plan is a list of panels, labels and
cards with their places, worked out from the view and the window's size alone.

Planning apart from painting lets the tests ask what a board shows (every table, every
player, no name wider than its box) without reading pixels, and keeps ``draw`` a loop that
changes nothing. A label is ellipsised to its box when planned (``label``), so a long
name is shortened, never clipped.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from client.ui.assets import Assets
from client.ui.looks import draw_look
from client.ui.render import WHITE, draw_panel, draw_text, ellipsize, fit_px, rounded_box
from engine import Card

__all__ = ["Badge", "Box", "Label", "Pic", "Plan", "label", "paint", "unfit"]

Colour = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Label:
    """A line of text: what is shown (``text``, perhaps shortened from ``full``), its size,
    where it is (``rect``) and the box it must keep inside (``box``)."""

    text: str
    full: str
    px: int
    rect: pygame.Rect
    box: pygame.Rect
    colour: Colour = WHITE
    bold: bool = False

    @property
    def fits(self) -> bool:
        return self.box.contains(self.rect)


@dataclass(frozen=True, slots=True)
class Box:
    """A panel (``fill`` None) or a plain rounded box with a rim."""

    rect: pygame.Rect
    fill: tuple[int, ...] | None = None
    rim: tuple[int, ...] | None = None
    radius: int = 8


@dataclass(frozen=True, slots=True)
class Pic:
    """A card (None: its back), ``height`` pixels tall, centred at ``at``."""

    card: Card | None
    height: int
    at: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Badge:
    """A player's badge (``client.ui.looks``), ``diameter`` pixels across, centred at ``at``."""

    look: int
    diameter: int
    at: tuple[int, int]


Plan = list[Label | Box | Pic | Badge]


def label(
    assets: Assets,
    text: str,
    px: int,
    box: pygame.Rect,
    anchor: str = "midleft",
    colour: Colour = WHITE,
    bold: bool = False,
    shrink: float = 0.8,
) -> Label:
    """``text`` set in ``box`` at ``anchor`` (one of the box's points): at ``px``, smaller
    down to ``shrink`` of it if that makes it fit, and ellipsised if even that does not."""
    room = box.w
    size = max(fit_px(assets, text, px, room, bold), round(px * shrink))
    shown = ellipsize(assets, text, size, room, bold)
    w, h = assets.font(size, bold).size(shown)
    rect = pygame.Rect(0, 0, w, h)
    setattr(rect, anchor, getattr(box, anchor))
    return Label(shown, text, size, rect, box, colour, bold)


def paint(surface: pygame.Surface, assets: Assets, plan: Plan) -> None:
    """Everything of ``plan``, in its order."""
    for item in plan:
        if isinstance(item, Label):
            draw_text(
                surface,
                assets,
                item.text,
                item.px,
                item.rect.center,
                "center",
                item.colour,
                item.bold,
            )
        elif isinstance(item, Pic):
            image = assets.card(item.card, item.height)
            surface.blit(image, image.get_rect(center=item.at))
        elif isinstance(item, Badge):
            draw_look(surface, assets, item.look, item.at, item.diameter)
        elif item.fill is None:
            draw_panel(surface, assets, item.rect, 170, radius=item.radius)
        else:
            rounded_box(surface, assets, item.rect, item.fill, item.radius, item.rim)


def unfit(plan: Plan) -> list[Label]:
    """The labels of ``plan`` that leave their box (none, when the plan is right)."""
    return [item for item in plan if isinstance(item, Label) and not item.fits]
