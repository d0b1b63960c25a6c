"""Panels over the table: the pause (leave the game, or resume, and the keys), the log
of the game (the last bout as cards, then every line of the log, scrollable), and the end
panel's line on the deal (verified, or loudly why not).

Layout functions give the buttons (what a tap may hit); drawing functions paint from what
they are given and change nothing. The table scene decides when each shows.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass

import pygame

from client.i18n import ENGLISH, N_, Translator
from client.ui.assets import Assets
from client.ui.metrics import CARD_RATIO
from client.ui.render import GOLD, SOFT, SOLID, draw_panel, draw_text, ellipsize, fit_px, line_h
from client.ui.widgets import Button
from engine import Card
from protocol import DealCheck

__all__ = [
    "DEAL_KEYS",
    "KEY_LINES",
    "LogPanel",
    "PauseKind",
    "bout_parts",
    "cards_parts",
    "draw_bout",
    "draw_cards",
    "draw_deal_check",
    "draw_log",
    "draw_pause",
    "log_buttons",
    "log_panel",
    "pause_buttons",
    "pause_panel",
]

# why a deal could not be verified (``DealCheck.problem``), in words
DEAL_KEYS = {
    "no_commitment": N_("deal.no_commitment"),
    "no_reveal": N_("deal.no_reveal"),
    "commitment": N_("deal.commitment"),
    "contribution": N_("deal.contribution"),
    "seed": N_("deal.seed"),
    "log": N_("deal.log"),
    "deal": N_("deal.deal"),
}
ALARM = (255, 110, 96)  # a deal that could not be verified

# full screen: F11, and on macOS (where F11 shows the desktop) also Cmd+Ctrl+F
FULL_SCREEN = "F11, Cmd+Ctrl+F" if sys.platform == "darwin" else "F11"
# the keys of the table, as the pause lists them (what is pressed, what it does)
KEY_LINES = (
    ("1-9, 0", N_("keys.play_card")),
    ("← → Enter", N_("keys.focus")),
    ("T", N_("keys.take")),
    ("B, P, Space", N_("keys.pass")),
    ("R", N_("keys.transfer")),
    ("S", N_("keys.show")),
    ("L", N_("keys.log")),
    ("E", N_("keys.react")),
    ("H", N_("keys.hints")),
    ("M", N_("keys.sound")),
    ("Esc", N_("keys.pause")),
    (FULL_SCREEN, N_("keys.fullscreen")),
)


def _shade(surface: pygame.Surface, assets: Assets) -> None:
    size = surface.get_size()

    def make() -> pygame.Surface:
        shade = pygame.Surface(size, pygame.SRCALPHA)
        shade.fill((0, 0, 0, 120))
        return shade

    surface.blit(assets.composite(("overlay shade", size), make), (0, 0))


# --- the pause ----------------------------------------------------------------------------


ROW = 2.9  # text lines a second row of buttons (End as a draw, Back in a minute) adds
CAPTION_AT = 7.6  # text lines from the pause's top to what leaving does, under Leave


@dataclass(frozen=True, slots=True)
class PauseKind:
    """What the pause says and offers: ``alone`` (the game's clock stops: only AIs play
    with us), ``lan`` (leaving hands our seat to an AI, else the game ends), ``owner``
    (End as a draw), ``mark`` (Back in a minute: other humans play on; ``marked``: set),
    ``watching`` (we have no seat: the game goes on without us)."""

    alone: bool = True
    lan: bool = False
    owner: bool = False
    mark: bool = False
    marked: bool = False
    watching: bool = False

    @property
    def rows(self) -> int:
        return int(self.owner) + int(self.mark)


def pause_panel(size: tuple[int, int], kind: PauseKind = PauseKind()) -> tuple[pygame.Rect, int]:
    """The pause's panel and its text size: what the pause means, its buttons, what
    leaving does, the keys."""
    w, h = size
    rows = 11.4 + 1.25 * len(KEY_LINES) + ROW * kind.rows
    px = max(11, min(round(min(w, h) * 0.028), round((h - 24) / rows)))
    panel = pygame.Rect(0, 0, round(min(w - 16, px * 32)), round(px * rows))
    panel.center = (w // 2, h // 2)
    return panel, px


def pause_buttons(
    size: tuple[int, int], tr: Translator = ENGLISH, kind: PauseKind = PauseKind()
) -> list[Button]:
    """Resume and Leave, side by side under the question, and what leaving does under
    them (``CAPTION_AT``); then Back in a minute (at a table with other players) and, for
    the owner of a LAN table, End as a draw."""
    panel, px = pause_panel(size, kind)
    bw, bh, gap = min(px * 10, (panel.w - 3 * px) // 2), round(px * 2.2), px
    top = panel.top + round(px * 4.6)
    left = panel.centerx - bw - gap // 2
    buttons = [
        Button(pygame.Rect(left, top, bw, bh), "resume", tr("leave.resume"), style="primary"),
        Button(pygame.Rect(left + bw + gap, top, bw, bh), "leave", tr("leave.leave")),
    ]
    below = top + bh + round(px * 1.8)  # (the caption of Leave between)
    if kind.mark:
        label = tr("pause.marked" if kind.marked else "pause.back_soon")
        style = "chosen" if kind.marked else "secondary"
        row = pygame.Rect(left, below, 2 * bw + gap, bh)
        buttons.append(Button(row, "mark", label, style=style))
        below += bh + round(px * 0.7)
    if kind.owner:
        row = pygame.Rect(left, below, 2 * bw + gap, bh)
        buttons.append(Button(row, "draw", tr("leave.draw"), style="danger"))
    return buttons


def draw_pause(
    surface: pygame.Surface,
    assets: Assets,
    kind: PauseKind,
    tr: Translator = ENGLISH,
) -> None:
    """The pause over the dimmed table (its buttons are drawn by the caller): whether the
    game waits (alone with the AIs) or goes on, what leaving does, and the keys."""
    _shade(surface, assets)
    panel, px = pause_panel(surface.get_size(), kind)
    draw_panel(surface, assets, panel, SOLID, radius=px)
    width = panel.w - 2 * px
    y = panel.top + px * 1.4
    title = tr("pause.paused" if kind.alone else "pause.goes_on")
    title_px = fit_px(assets, title, round(px * 1.3), width, True)
    draw_text(surface, assets, title, title_px, (panel.centerx, y), bold=True, colour=GOLD)
    y += px * 1.8
    detail = tr(
        "pause.waits"
        if kind.alone
        else "pause.watching"
        if kind.watching
        else "pause.goes_on_detail"
    )
    draw_text(surface, assets, detail, fit_px(assets, detail, px, width), (panel.centerx, y))
    y = panel.top + px * CAPTION_AT  # under Resume and Leave: what leaving does
    leaving = tr(
        "leave.watching" if kind.watching else "leave.lan" if kind.lan else "leave.computer"
    )
    leaving_px = fit_px(assets, leaving, round(px * 0.9), width)
    draw_text(surface, assets, leaving, leaving_px, (panel.centerx, y), colour=SOFT)
    y = panel.top + px * (CAPTION_AT + 1.6 + ROW * kind.rows)
    draw_text(
        surface, assets, tr("keys.title"), px, (panel.left + px * 1.5, y), "midleft", GOLD, True
    )
    y += px * 1.4
    key_x = panel.left + px * 1.5
    what_x = panel.left + px * 10
    for keys, what in KEY_LINES:
        draw_text(surface, assets, keys, round(px * 0.9), (key_x, y), "midleft", bold=True)
        text = ellipsize(assets, tr(what), round(px * 0.9), panel.right - px - what_x)
        draw_text(surface, assets, text, round(px * 0.9), (what_x, y), "midleft", SOFT)
        y += px * 1.25


# --- the log ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LogPanel:
    """Where the log draws: the panel, its text size, the band of the bout's cards, the
    band of the lines, and how many lines fit in it."""

    rect: pygame.Rect
    px: int
    bout: pygame.Rect
    lines: pygame.Rect
    rows: int


def log_panel(size: tuple[int, int], assets: Assets, cards: bool = True) -> LogPanel:
    """Where the log draws; without a bout's ``cards`` to show (none played yet) the lines
    start under the title, where the cards would be (a lone first line sat mid-panel)."""
    w, h = size
    px = max(11, round(min(w, h) * 0.026))
    rect = pygame.Rect(0, 0, min(w - 16, px * 36), h - max(16, round(h * 0.08)))
    rect.center = (w // 2, h // 2)
    card_h = min(round(rect.h * 0.2), round(rect.w / 7 / CARD_RATIO))
    band_h = card_h * 1.25 if cards else 0
    bout = pygame.Rect(rect.left + px, rect.top + round(px * 3.4), rect.w - 2 * px, band_h)
    top = bout.bottom + round(px * 1.2)
    lines = pygame.Rect(rect.left + px, top, rect.w - 2 * px, rect.bottom - round(px * 2.2) - top)
    step = round(line_h(assets, px) * 1.05)
    return LogPanel(rect, px, bout, lines, max(1, lines.h // step))


def log_buttons(panel: LogPanel) -> list[Button]:
    """Close (top right), and scroll up and down (at the right of the lines)."""
    px, rect, lines = panel.px, panel.rect, panel.lines
    size = round(px * 2.2)
    close = pygame.Rect(rect.right - size - px // 2, rect.top + px // 2, size, size)
    up = pygame.Rect(lines.right - size, lines.top, size, size)
    down = pygame.Rect(lines.right - size, lines.bottom - size, size, size)
    return [
        Button(close, "log", "✕"),
        Button(up, "scroll_up", "▲"),
        Button(down, "scroll_down", "▼"),
    ]


def draw_cards(
    surface: pygame.Surface, assets: Assets, cards: list[Card | None], rect: pygame.Rect
) -> None:
    """A row of cards face up (None: a back), overlapping as much as they must to fit
    ``rect``."""
    for _ in cards_parts(surface, assets, cards, rect):
        pass


def cards_parts(
    surface: pygame.Surface, assets: Assets, cards: list[Card | None], rect: pygame.Rect
) -> Iterator[None]:
    """``draw_cards`` a card at a time (``hud.end_parts``)."""
    if not cards:
        return
    ch = min(rect.h, round(rect.w / CARD_RATIO))
    cw = ch * CARD_RATIO
    step = min(cw * 1.05, (rect.w - cw) / max(1, len(cards) - 1))
    x = rect.centerx - (step * (len(cards) - 1)) / 2
    for card in cards:
        image = assets.card(card, ch)
        surface.blit(image, image.get_rect(center=(round(x), rect.centery)))
        x += step
        yield


def draw_bout(
    surface: pygame.Surface,
    assets: Assets,
    pairs: list[tuple[Card, Card | None]],
    rect: pygame.Rect,
) -> None:
    """A bout as it lay on the table: each attack card, and the card that beat it across it."""
    for _ in bout_parts(surface, assets, pairs, rect):
        pass


def bout_parts(
    surface: pygame.Surface,
    assets: Assets,
    pairs: list[tuple[Card, Card | None]],
    rect: pygame.Rect,
) -> Iterator[None]:
    """``draw_bout`` a card at a time (``hud.end_parts``)."""
    if not pairs:
        return
    ch = round(rect.h / 1.2)
    cw = ch * CARD_RATIO
    pitch = min(cw * 1.5, rect.w / len(pairs))
    x = rect.centerx - pitch * (len(pairs) - 1) / 2 - 0.13 * cw
    for attack, defence in pairs:
        image = assets.card(attack, ch)
        surface.blit(image, image.get_rect(center=(round(x), round(rect.top + ch * 0.5))))
        yield
        if defence is not None:
            image = assets.card(defence, ch, "plain", -14)
            at = (round(x + 0.26 * cw), round(rect.top + ch * 0.64))
            surface.blit(image, image.get_rect(center=at))
            yield
        x += pitch


def draw_log(
    surface: pygame.Surface,
    assets: Assets,
    panel: LogPanel,
    heading: str,
    pairs: list[tuple[Card, Card | None]],
    lines: list[tuple[str, bool]],
    scroll: int,
    tr: Translator = ENGLISH,
) -> None:
    """The log: ``heading`` over the bout's cards (``pairs``), then the lines (text, and
    whether it starts a bout) ending ``scroll`` lines before the newest (0: the newest at
    the bottom)."""
    _shade(surface, assets)
    rect, px = panel.rect, panel.px
    draw_panel(surface, assets, rect, SOLID, radius=px)
    draw_text(
        surface,
        assets,
        tr("history.title"),
        round(px * 1.2),
        (rect.centerx, rect.top + px * 1.2),
        bold=True,
        colour=GOLD,
    )
    draw_text(surface, assets, heading, px, (rect.left + px, rect.top + px * 2.6), "midleft", SOFT)
    if pairs:
        draw_bout(surface, assets, pairs, panel.bout)
    pygame.draw.line(
        surface,
        (210, 180, 100),
        (panel.lines.left, panel.lines.top - px // 2),
        (panel.lines.right, panel.lines.top - px // 2),
    )
    if not lines:
        draw_text(surface, assets, tr("history.empty"), px, panel.lines.center, colour=SOFT)
    end = len(lines) - scroll
    shown = lines[max(0, end - panel.rows) : end]
    step = panel.lines.h / panel.rows
    y = panel.lines.top + step / 2
    room = panel.lines.w - px * 3  # the scroll buttons sit at the right
    for text, bout in shown:
        colour = GOLD if bout else (235, 235, 228)
        left = panel.lines.left + (0 if bout else px)
        text = ellipsize(assets, text, px, room - (left - panel.lines.left), bout)
        draw_text(surface, assets, text, px, (left, y), "midleft", colour, bout)
        y += step
    hint = tr("history.keys")
    draw_text(
        surface, assets, hint, round(px * 0.85), (rect.centerx, rect.bottom - px * 1.1), colour=SOFT
    )


def draw_deal_check(
    surface: pygame.Surface,
    assets: Assets,
    check: DealCheck | None,
    buttons: list[Button],
    tr: Translator = ENGLISH,
) -> None:
    """One line just above the end panel's buttons: "Deal verified", small and calm, or in
    red and bold that the deal could not be verified, and why (nothing when unchecked)."""
    if check is None or not buttons:
        return
    left = min(b.rect.left for b in buttons)
    right = max(b.rect.right for b in buttons)
    top = min(b.rect.top for b in buttons)
    px = buttons[0].rect.h / 2.3  # (the panel's text size: its buttons are 2.3 lines high)
    at = ((left + right) / 2, top - px)
    if check.ok:
        size = fit_px(assets, tr("deal.verified"), round(px * 0.8), right - left)
        draw_text(surface, assets, tr("deal.verified"), size, at, colour=SOFT)
        return
    why = DEAL_KEYS.get(check.problem, DEAL_KEYS["deal"])
    text = tr("deal.failed", why=tr(why))
    room = min(surface.get_width() - 2 * px, right - left + 6 * px)
    size = fit_px(assets, text, round(px * 0.9), room, bold=True)
    draw_text(surface, assets, text, size, at, bold=True, colour=ALARM)
