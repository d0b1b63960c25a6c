"""The end of a game as a moment, before its panel: the Durak's seat gets a stamp.

The end panel has the facts (places, series, the Durak's cards), but an evening's game
deserves a beat between the last card and the numbers. For ``SECONDS`` the table stays in
sight: a red "DURAK" stamp comes down on the Durak's plate, with a short fanfare
(``assets/sounds/sting.wav``), and a line for us, who are not the Durak. When we are, the
cloth darkens, a larger stamp lands across our own hand and the horn falls instead
(``sting_you.wav``). A draw has no Durak and no moment. The stamp stays on the plate after
the panel opens (seen with Table). Time is only the ``dt`` passed to ``update``; drawing
changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

import pygame

from client.i18n import ENGLISH, Translator
from client.screens.table.layout import Layout
from client.ui.assets import Assets
from client.ui.render import GOLD, draw_text, fit_px
from client.ui.tween import ease_out_back

__all__ = ["LAND", "SECONDS", "Moment", "draw_durak_stamp", "draw_stamp"]

SECONDS = 2.2  # how long the moment holds the end panel back (at the normal pace)
LAND = 0.28  # seconds the stamp takes to come down
INK = (206, 38, 44)
TILT = 12  # degrees the stamp is turned, as by a hand in a hurry


@dataclass
class Moment:
    """The moment under way: ``durak`` (a seat), ``ours`` (we are the Durak), ``watching``
    (a watcher's: no line for us), ``elapsed`` seconds since it began."""

    durak: int
    ours: bool
    watching: bool = False
    length: float = SECONDS
    elapsed: float = 0.0

    @property
    def sound(self) -> str:
        return "sting_you" if self.ours else "sting"

    @property
    def done(self) -> bool:
        return self.elapsed >= self.length

    def update(self, dt: float) -> None:
        self.elapsed += dt

    @property
    def landed(self) -> float:
        """0 as the stamp starts to come down, 1 once it is down."""
        return min(1.0, self.elapsed / (LAND * self.length / SECONDS))

    def draw(
        self, surface: pygame.Surface, assets: Assets, layout: Layout, tr: Translator = ENGLISH
    ) -> None:
        w, h = layout.size
        if self.ours:
            veil = _veil(assets, (w, h))
            veil.set_alpha(round(110 * min(1.0, self.landed * 2)))  # (set before each use)
            surface.blit(veil, (0, 0))
            at = (w / 2, layout.hand_y - layout.card_h * 0.15)
            text, height = tr("end.stamp_you"), layout.card_h * 0.42
            draw_stamp(surface, assets, text, at, height, w * 0.9, self.landed)
            return
        if self.durak in layout.seats:
            draw_durak_stamp(surface, assets, layout, self.durak, tr, self.landed)
        if not self.watching and self.landed >= 1.0:
            text = tr("end.not_durak")
            px = fit_px(assets, text, round(layout.font_px * 1.5), w * 0.9, bold=True)
            draw_text(surface, assets, text, px, (w / 2, layout.status_y), colour=GOLD, bold=True)

    def ahead(
        self, surface: pygame.Surface, assets: Assets, layout: Layout, tr: Translator = ENGLISH
    ) -> Iterator[None]:
        """Its images made before it begins, a part at each step, drawing on ``surface`` (a
        scratch): the veil (ours), then the moment as it ends (its stamp and its line,
        without the scaling of the stamp's way down)."""
        if self.ours:
            _veil(assets, layout.size)
            yield
        replace(self, elapsed=self.length).draw(surface, assets, layout, tr)


def draw_durak_stamp(
    surface: pygame.Surface,
    assets: Assets,
    layout: Layout,
    seat: int,
    tr: Translator = ENGLISH,
    landed: float = 1.0,
) -> None:
    """The stamp on ``seat``'s plate (an opponent's), across its lower edge: the name
    stays readable, the cards the Durak was left with show under it."""
    x, y, w, h = layout.seats[seat].plate
    at = (x + w / 2, y + h * 0.95)
    draw_stamp(surface, assets, tr("end.stamp"), at, h * 1.05, w * 1.1, landed)


def draw_stamp(
    surface: pygame.Surface,
    assets: Assets,
    text: str,
    centre: tuple[float, float],
    height: float,
    room: float,
    landed: float = 1.0,
) -> None:
    """A rubber stamp: ``text`` in red capitals in a red frame, turned a little, about
    ``height`` pixels tall and no wider than ``room``; ``landed`` from 0 (high above the
    table: large and faint) to 1 (pressed down)."""
    px = max(10, round(height * 0.62))
    px = fit_px(assets, text, px, room * 0.8, bold=True)
    image = assets.composite(("stamp", text, px), lambda: _stamp(assets, text, px))
    if landed < 1.0:
        scale = 1 + 1.6 * (1 - ease_out_back(landed))
        size = (round(image.get_width() * scale), round(image.get_height() * scale))
        image = pygame.transform.smoothscale(image, (max(1, size[0]), max(1, size[1])))
        image.set_alpha(round(255 * min(1.0, 0.25 + landed)))
    surface.blit(image, image.get_rect(center=(round(centre[0]), round(centre[1]))))


def _stamp(assets: Assets, text: str, px: int) -> pygame.Surface:
    label = assets.text(text, px, INK, True)
    pad_x, pad_y = round(px * 0.45), round(px * 0.18)
    frame = pygame.Surface(
        (label.get_width() + 2 * pad_x, label.get_height() + 2 * pad_y), pygame.SRCALPHA
    )
    rect = frame.get_rect()
    pygame.draw.rect(frame, (255, 242, 236, 150), rect, border_radius=px // 4)
    pygame.draw.rect(frame, INK, rect, max(2, px // 9), border_radius=px // 4)
    frame.blit(label, label.get_rect(center=rect.center))
    return pygame.transform.rotozoom(frame, TILT, 1.0)


def _veil(assets: Assets, size: tuple[int, int]) -> pygame.Surface:
    return assets.composite(("veil", size), lambda: _black(size))  # type: ignore[no-any-return]


def _black(size: tuple[int, int]) -> pygame.Surface:
    """The veil over the table as it darkens, given its alpha at each step: the same
    pixels as a box of translucent black, without a new window-sized image at each step
    (4-8 ms of CPU each at 1920x1080, in the moment's first frames)."""
    veil = pygame.Surface(size)
    veil.fill((0, 0, 0))
    return veil
