"""The end of a game as a moment, before its panel: the Durak's seat gets a stamp.

The end panel has the facts (places, series, the Durak's cards), but an evening's game
deserves a beat between the last card and the numbers. For ``SECONDS`` the table stays in
sight: a red "DURAK" stamp comes down on the Durak's plate, with a short fanfare
(``assets/sounds/sting.wav``), and a line for us, who are not the Durak. When we are, the
cloth darkens, a larger stamp lands across our own hand and the horn falls instead
(``sting_you.wav``). A draw has no Durak and no moment. The moment holds its ``SECONDS``
however fast the cards are set to fly (an end once a game is not hurried): the stamp is
down for some two seconds on its own before the panel comes. Then the stamp goes with the
panel: it glides from the table onto the panel's top edge (``notices.EndScene``), so that
the panel never hides it; under the panel it stays on the plate (seen with Table). Time is
only the ``dt`` passed to ``update``; drawing changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

import pygame

from client.i18n import ENGLISH, Translator
from client.screens.table.layout import Layout
from client.ui.assets import Assets
from client.ui.render import GOLD, draw_text, fit_px
from client.ui.tween import ease_in_out_cubic, ease_out_back

__all__ = [
    "LAND",
    "SECONDS",
    "Moment",
    "Stamp",
    "draw_durak_stamp",
    "draw_stamp",
    "stamp_for",
    "stamp_image",
]

SECONDS = 2.2  # how long the moment holds the end panel back (at the normal pace)
LAND = 0.28  # seconds the stamp takes to come down
INK = (206, 38, 44)
TILT = 12  # degrees the stamp is turned, as by a hand in a hurry


@dataclass(frozen=True, slots=True)
class Stamp:
    """A stamp's words and where it lands: its ``centre``, about ``height`` pixels tall and
    no wider than ``room``."""

    text: str
    centre: tuple[float, float]
    height: float
    room: float

    def draw(self, surface: pygame.Surface, assets: Assets, landed: float = 1.0) -> None:
        draw_stamp(surface, assets, self.text, self.centre, self.height, self.room, landed)

    def glide(self, surface: pygame.Surface, assets: Assets, start: Stamp | None, t: float) -> None:
        """The stamp on its way here from ``start`` (None: here already), ``t`` from 0
        (at ``start``) to 1 (here): this stamp's image, scaled to the size on the way."""
        if start is None or t >= 1.0:
            self.draw(surface, assets)
            return
        k = ease_in_out_cubic(max(0.0, t))
        x = start.centre[0] + (self.centre[0] - start.centre[0]) * k
        y = start.centre[1] + (self.centre[1] - start.centre[1]) * k
        image = stamp_image(assets, self.text, self.height, self.room)
        ink = stamp_image(assets, start.text, start.height, start.room)
        scale = (ink.get_height() + (image.get_height() - ink.get_height()) * k) / max(
            1, image.get_height()
        )
        size = (max(1, round(image.get_width() * scale)), max(1, round(image.get_height() * scale)))
        image = pygame.transform.smoothscale(image, size)
        surface.blit(image, image.get_rect(center=(round(x), round(y))))


def stamp_for(layout: Layout, durak: int, ours: bool, tr: Translator = ENGLISH) -> Stamp | None:
    """Where the moment's stamp lands: across our hand (``ours``), or on the Durak's plate
    (None when the Durak has none on this layout)."""
    w, _ = layout.size
    if ours:
        at = (w / 2, layout.hand_y - layout.card_h * 0.15)
        return Stamp(tr("end.stamp_you"), at, layout.card_h * 0.42, w * 0.9)
    if durak not in layout.seats:
        return None
    x, y, pw, ph = layout.seats[durak].plate
    return Stamp(tr("end.stamp"), (x + pw / 2, y + ph * 0.95), ph * 1.05, pw * 1.1)


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
        stamp = stamp_for(layout, self.durak, self.ours, tr)
        if stamp is not None:
            stamp.draw(surface, assets, self.landed)
        if not self.ours and not self.watching and self.landed >= 1.0:
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
    stamp = stamp_for(layout, seat, False, tr)
    if stamp is not None:
        stamp.draw(surface, assets, landed)


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
    image = stamp_image(assets, text, height, room)
    if landed < 1.0:
        scale = 1 + 1.6 * (1 - ease_out_back(landed))
        size = (round(image.get_width() * scale), round(image.get_height() * scale))
        image = pygame.transform.smoothscale(image, (max(1, size[0]), max(1, size[1])))
        image.set_alpha(round(255 * min(1.0, 0.25 + landed)))
    surface.blit(image, image.get_rect(center=(round(centre[0]), round(centre[1]))))


def stamp_image(assets: Assets, text: str, height: float, room: float) -> pygame.Surface:
    """The stamp's image (made once for a size): ``text`` about ``height`` pixels tall, no
    wider than ``room``."""
    px = max(10, round(height * 0.62))
    px = fit_px(assets, text, px, room * 0.8, bold=True)
    return assets.composite(("stamp", text, px), lambda: _stamp(assets, text, px))  # type: ignore[no-any-return]


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
