"""How to play: the rules in a few short pages, in the chosen language.

One page per topic (``howto.N.title`` and ``howto.N.body`` in the catalogues); the text is
wrapped to the window and set as large as fits, so a small window pages rather than clips.
←/→ (or the buttons) turn the pages, Esc (or Back) returns.
"""

from __future__ import annotations

import math

import pygame

from client.i18n import N_, Translator
from client.ui.assets import Assets
from client.ui.metrics import CARD_RATIO
from client.ui.pointer import Input, Key
from client.ui.render import GOLD, SOFT, draw_backdrop, draw_panel, draw_text, fit_px, wrap
from client.ui.scene import ButtonScene, Director
from client.ui.widgets import Button
from engine import Card

__all__ = ["PAGES", "PAGE_KEYS", "HowToScene", "page_text"]

PAGE_KEYS = (
    (N_("howto.1.title"), N_("howto.1.body")),
    (N_("howto.2.title"), N_("howto.2.body")),
    (N_("howto.3.title"), N_("howto.3.body")),
    (N_("howto.4.title"), N_("howto.4.body")),
    (N_("howto.5.title"), N_("howto.5.body")),
)
PAGES = len(PAGE_KEYS)
# a picture beside each page: cards side by side, each maybe with one beating it on top
# (None: a card face down)
PICTURES: tuple[tuple[tuple[str | None, str | None], ...], ...] = (
    (("6h", None), ("9s", None), ("Jd", None), ("Qc", None), ("As", None)),  # a hand
    (("7c", None), ("7d", None)),  # a lead, and a card of its rank thrown in
    (("9h", "Qh"), ("8c", "6s")),  # beaten higher in the suit, and by a trump (spades)
    ((None, None), (None, None)),  # a beaten bout goes face down to the discard pile
    (("Td", None), ("Ts", None)),  # a lead passed on with a card of its rank
)
# a line under a picture that needs one: 6♠ on 8♣ says nothing without the trump
CAPTIONS: tuple[str | None, ...] = (None, None, N_("howto.3.picture"), None, None)


def page_text(tr: Translator, page: int) -> tuple[str, list[str]]:
    """The title and the paragraphs of page ``page`` (0-based)."""
    title, body = PAGE_KEYS[page]
    return tr(title), tr(body).split("\n")


class HowToScene(ButtonScene):
    def __init__(self, app: Director) -> None:
        self.app = app
        self.assets: Assets = app.assets
        self.page = 0
        self.hover = None
        self.size = app.size

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size

    # --- geometry -------------------------------------------------------------------------

    def panel(self) -> pygame.Rect:
        w, h = self.size
        title_h = min(h * 0.13, 96)
        bh = self.button_h()
        panel = pygame.Rect(0, 0, round(min(w - 24, 900)), round(h - title_h - bh * 1.8))
        panel.midtop = (w // 2, round(title_h))
        return panel

    def buttons(self) -> list[Button]:
        w = self.size[0]
        tr = self.app.tr
        bh = self.button_h()
        y = round(self.panel().bottom + bh * 0.4)
        bw = round(min((w - 48) / 3, bh * 5))
        prev = pygame.Rect(0, y, bw, bh)
        back = prev.copy()
        nxt = prev.copy()
        back.centerx = w // 2
        prev.right = back.left - 12
        nxt.left = back.right + 12
        return [
            Button(prev, "prev", tr("howto.prev"), self.page > 0),
            Button(back, "back", tr("howto.back"), style="primary"),
            Button(nxt, "next", tr("howto.next"), self.page < PAGES - 1),
        ]

    def picture(self) -> pygame.Rect:
        """Where the page's picture goes: the right of a wide panel, the foot of a tall one."""
        panel = self.panel()
        if panel.w > panel.h * 1.3:
            return pygame.Rect(panel.right - round(panel.w * 0.3), panel.top + 16,
                               round(panel.w * 0.3) - 16, panel.h - 48)  # fmt: skip
        h = round(panel.h * 0.24)
        return pygame.Rect(panel.left + 16, panel.bottom - h - 28, panel.w - 32, h)

    def layout_page(self) -> tuple[int, list[tuple[str, bool]]]:
        """The text size and the lines (text, is a heading) that fit the panel beside or
        above its picture."""
        panel = self.panel()
        title, paragraphs = page_text(self.app.tr, self.page)
        picture = self.picture()
        wide = picture.h > picture.w
        room_w = (picture.left - panel.left - 40) if wide else panel.w - 48
        room_h = panel.h - 32 if wide else picture.top - panel.top - 24
        px = max(10, min(30, round(self.size[1] * 0.036)))
        while True:
            font = self.assets.font(px, False)
            lines: list[tuple[str, bool]] = [(title, True)]
            for paragraph in paragraphs:
                lines += [(line, False) for line in wrap(font, paragraph, room_w)]
            height = px * 1.45 * (len(lines) + 0.6 + len(paragraphs) * 0.35)
            if height <= room_h or px <= 9:
                return px, lines
            px -= 1

    # --- input ----------------------------------------------------------------------------

    def handle(self, event: Input) -> None:
        if isinstance(event, Key):
            if event.key == pygame.K_ESCAPE:
                self.app.pop()
            elif event.key in (pygame.K_RIGHT, pygame.K_PAGEDOWN, pygame.K_SPACE):
                self.page = min(PAGES - 1, self.page + 1)
            elif event.key in (pygame.K_LEFT, pygame.K_PAGEUP):
                self.page = max(0, self.page - 1)
            return
        self.press(event)

    def activate(self, name: str) -> None:
        if name == "back":
            self.app.pop()
        else:
            self.page = max(0, min(PAGES - 1, self.page + (1 if name == "next" else -1)))

    # --- drawing --------------------------------------------------------------------------

    def next_frame(self) -> float:
        return math.inf  # only input changes it

    def draw(self, surface: pygame.Surface) -> None:
        w = surface.get_width()
        tr = self.app.tr
        panel = self.panel()
        title = tr("howto.title")
        title_px = fit_px(self.assets, title, round(min(panel.top * 0.45, w * 0.08)), w - 32, True)
        draw_backdrop(surface, self.assets, title, title_px, (w / 2, panel.top * 0.5))
        draw_panel(surface, self.assets, panel, 190)
        px, lines = self.layout_page()
        y = panel.top + 16 + px * 0.2
        for text, heading in lines:
            if heading:
                draw_text(
                    surface,
                    self.assets,
                    text,
                    fit_px(self.assets, text, round(px * 1.15), panel.w - 48, bold=True),
                    (panel.left + 24, y),
                    "topleft",
                    GOLD,
                    True,
                )
                y += px * 1.45 * 1.5
                continue
            if text.startswith("• ") and y > panel.top + 16 + px * 2:
                y += px * 0.5  # a little air before each bullet
            draw_text(surface, self.assets, text, px, (panel.left + 24, y), "topleft")
            y += px * 1.45
        self._draw_picture(surface)
        page = tr("howto.page", n=self.page + 1, total=PAGES)
        corner = max(6, panel.h // 18)  # (the panel's rounded corner, as draw_panel makes it)
        draw_text(
            surface,
            self.assets,
            page,
            round(px * 0.9),
            (panel.right - max(16, corner), panel.bottom - max(10, corner // 2)),
            "bottomright",
            SOFT,
        )
        self.draw_buttons(surface, self.assets)

    def _draw_picture(self, surface: pygame.Surface) -> None:
        """The page's cards, centred in ``picture()``; a card beating another lies on it,
        a little lower and to the right."""
        area = self.picture()
        caption = CAPTIONS[self.page]
        if caption is not None:  # two lines at most under the cards: room kept for them
            area = pygame.Rect(area.left, area.top, area.w, round(area.h * 0.78))
        pairs = PICTURES[self.page]
        slots = len(pairs) * 1.25 + 0.25
        height = round(min(area.h * 0.72, area.w / slots / CARD_RATIO, area.h / 1.45))
        step = height * CARD_RATIO * 1.25
        x = area.centerx - step * (len(pairs) - 1) / 2
        top = area.centery - height * 0.6
        for card, over in pairs:
            for k, code in enumerate((card, over)):
                if k == 1 and code is None:
                    continue
                image = self.assets.card(None if code is None else Card.parse(code), height)
                at = (x + k * height * 0.22, top + height / 2 + k * height * 0.3)
                surface.blit(image, image.get_rect(center=(round(at[0]), round(at[1]))))
            x += step
        if caption is not None:
            px = max(12, round(height * 0.15))
            y = top + height * 1.3 + px * 1.1  # (under the lowest card, a beating one)
            width = area.w if area.w < area.h * 2 else area.w * 0.7  # (clear of "3 / 5")
            for line in wrap(self.assets.font(px, True), self.app.tr(caption), width)[:2]:
                size = fit_px(self.assets, line, px, round(width), True)
                draw_text(
                    surface, self.assets, line, size, (area.centerx, y), colour=GOLD, bold=True
                )
                y += px * 1.3
