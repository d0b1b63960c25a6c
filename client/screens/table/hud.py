"""What the table shows over the cards: buttons, the status line, toasts, the end of a game.

Pure functions of what they are given: the table scene decides, these lay out and draw.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pygame

from client.i18n import ENGLISH, Translator
from client.net.session import GameOver
from client.screens.table.board import Board
from client.screens.table.draw import ROLE_COLOURS
from client.screens.table.layout import Layout
from client.screens.table.overlays import bout_parts, cards_parts
from client.ui.assets import Assets
from client.ui.render import (
    GOLD,
    SOFT,
    SOLID,
    WHITE,
    button_px,
    draw_button,
    draw_panel,
    draw_text,
    fit_px,
    rounded_box,
)
from client.ui.widgets import Button
from engine import Card, Pass, SeatView, Transfer
from protocol import Room

WARN = (255, 170, 150)  # what went wrong (as the room screen says it)

__all__ = [
    "TOAST_SECONDS",
    "EndShow",
    "draw_banner",
    "draw_buttons",
    "draw_closed",
    "draw_end",
    "draw_paused",
    "draw_recap",
    "draw_status",
    "draw_toast",
    "draw_unsaved",
    "draw_watching",
    "end_buttons",
    "end_lines",
    "end_panel",
    "panel_rect",
    "status_text",
    "waiting_for",
    "who_plays",
]

TOAST_SECONDS = 2.4


def panel_rect(size: tuple[int, int], lines: float) -> tuple[pygame.Rect, int]:
    """A centred panel ``lines`` text lines tall, and its text size in pixels."""
    w, h = size
    px = max(12, round(min(w, h) * 0.028))
    panel = pygame.Rect(0, 0, round(min(w - 16, px * 30)), round(px * lines))
    panel.center = (w // 2, h // 2)
    return panel, px


CARD_BAND = 5.2  # text lines of a band of cards on the end panel (its caption and cards)


@dataclass(frozen=True, slots=True)
class EndShow:
    """What the end of a game shows beside the ranking, as the window saw the game: the
    Durak's cards (None for one it cannot name: a back), the last bout, each under its
    caption ("": not shown), and this game's numbers, set in words; at a party's table
    its round and table, named in place of the series."""

    durak_caption: str = ""
    durak_cards: tuple[Card | None, ...] = ()
    bout_caption: str = ""
    last_bout: tuple[tuple[Card, Card | None], ...] = ()
    numbers: str = ""
    party: str = ""

    @property
    def bands(self) -> int:
        return bool(self.durak_caption) + bool(self.bout_caption)


def end_panel(
    size: tuple[int, int], over: GameOver, show: EndShow = EndShow()
) -> tuple[pygame.Rect, int]:
    """The end panel, with room for the bands of cards; its text shrinks to fit."""
    w, h = size
    lines = 9.5 + 1.6 * len(over.result.places) + (1.4 if show.numbers else 0.0)
    lines += CARD_BAND * show.bands
    lines += 1.2 if over.deal is not None else 0.0  # the line saying the deal was verified
    px = max(9, min(round(min(w, h) * 0.028), int((h - 16) / lines)))
    panel = pygame.Rect(0, 0, round(min(w - 16, px * 32)), round(px * lines))
    panel.center = (w // 2, h // 2)
    return panel, px


def end_buttons(
    size: tuple[int, int],
    over: GameOver,
    tr: Translator = ENGLISH,
    show: EndShow = EndShow(),
    review: bool = False,
    watching: bool = False,
    rematch: bool = True,
) -> list[Button]:
    """Menu, Rematch (``watching``: Next game, back to the room; none without ``rematch``:
    a party's table, whose next game the party seats, and whose Menu says where it leads,
    the standings), Review (``review``: the game was kept, so the coach can go over it) and
    Table along the end panel's foot."""
    panel, px = end_panel(size, over, show)
    specs = [("menu", tr("table.menu" if rematch else "party.standings"), "secondary", 6.5)]
    if rematch:
        again = tr("table.next_game" if watching else "table.rematch")
        specs.append(("rematch", again, "primary", 8.0))
    if review:
        specs.append(("review", tr("past.review"), "secondary", 6.5))
    specs.append(("hide", tr("table.hide"), "secondary", 6.5))
    gap = px
    x = panel.centerx - (sum(w for *_, w in specs) * px + gap * (len(specs) - 1)) / 2
    buttons = []
    for name, label, style, w in specs:
        rect = pygame.Rect(round(x), 0, round(w * px), round(px * 2.3))
        rect.bottom = panel.bottom - px
        buttons.append(Button(rect, name, label, style=style))
        x += w * px + gap
    return buttons


def closed_buttons(
    size: tuple[int, int], tr: Translator = ENGLISH, label: str = ""
) -> list[Button]:
    """The closed table's one button, Menu (``label``: its words where it leads elsewhere)."""
    panel, px = panel_rect(size, 7)
    menu = pygame.Rect(0, 0, px * 7, round(px * 2.2))
    menu.midbottom = (panel.centerx, panel.bottom - px)
    return [Button(menu, "menu", label or tr("table.menu"), style="primary")]


def end_lines(
    over: GameOver, names: tuple[str, ...], me: int, tr: Translator = ENGLISH, party: str = ""
) -> tuple[str, list[tuple[str, str]], str]:
    """The title, one (place and name, series score) row per seat, and the series line;
    at a party's table (``party``: its round and table) that line instead, and no scores
    (the table plays one game; the party's standings come after it)."""
    result, series = over.result, over.series

    def name(seat: int) -> str:
        return tr("end.you") if seat == me else names[seat]

    if result.durak is None:
        title = tr("end.draw")
    elif result.durak == me:
        title = tr("end.durak_you")
    else:
        title = tr("end.durak", name=name(result.durak))
    rows = []
    for seat in sorted(range(len(result.places)), key=lambda s: (result.places[s], s)):
        place = tr("table.durak") if seat == result.durak else tr.ordinal(result.places[seat])
        score = tr("end.score", won=series.wins[seat], lost=series.losses[seat])
        rows.append((f"{place}   {name(seat)}", "" if party else score))
    if party:
        return title, rows, party
    games = tr.plural("end.series", series.games)
    if series.draws:
        games += tr("end.drawn", n=series.draws)
    return title, rows, games


def waiting_for(view: SeatView) -> tuple[int, ...]:
    """The seats the table waits for, as the view tells it: the attacker to lead, the
    defender to answer an unbeaten card, else every seat that may still add or pass."""
    if view.result is not None:
        return ()
    if not view.table:
        return (view.attacker,)
    if not view.taking and any(d is None for _, d in view.table):
        return (view.defender,)
    return tuple(s for s in view.throwers if s not in view.passed)


def awaited(view: SeatView) -> bool:
    """Is the game waiting for us: to lead, or to answer an attack?"""
    if view.result is not None or not view.legal:
        return False
    if view.seat == view.defender:
        return not view.taking and any(d is None for _, d in view.table)
    return view.seat == view.attacker and not view.table


def prompt(
    board: Board | None,
    view: SeatView | None,
    names: tuple[str, ...],
    me: int | None,
    settled: bool,
    tr: Translator = ENGLISH,
) -> str:
    """The prompt line during a game, from our seat ``me`` (None: a watcher's): what we may
    do once the table is ``settled`` (it shows what the latest view says and no action of
    ours awaits its answer), else only who attacks whom."""
    if board is None:
        return tr("table.shuffling")
    if view is None:
        return tr("table.dealing")
    if me is None or not settled:
        return who_plays(board, names, me, tr)
    return status_text(view, names, me, tr)


def status_text(view: SeatView, names: tuple[str, ...], me: int, tr: Translator = ENGLISH) -> str:
    """What is going on, from our seat: what we may do, or who attacks whom."""
    if view.result is not None:
        return ""
    if view.places[me]:
        return tr("status.out")
    kinds = {type(a) for a in view.legal}
    if me == view.defender:
        if view.taking:
            return tr("status.taking")
        if any(d is None for _, d in view.table):
            return tr("status.defend_transfer" if Transfer in kinds else "status.defend")
        return tr("status.attacks_you", name=names[view.attacker])
    if view.legal:
        if not view.table:
            return tr("status.lead")
        if Pass in kinds:
            return tr("status.throw_in_pass" if view.taking else "status.throw_in_beaten")
        return tr("status.may_throw_in")
    if view.attacker == me:
        return tr("status.you_attack", name=names[view.defender])
    return tr("status.attacks", attacker=names[view.attacker], defender=names[view.defender])


def who_plays(
    board: Board, names: tuple[str, ...], me: int | None, tr: Translator = ENGLISH
) -> str:
    """Who attacks whom as the board shows it, from our seat ``me`` (None: a watcher's);
    nothing between bouts, or once we are out."""
    if board.attacker < 0 or board.defender < 0 or (me is not None and board.places[me]):
        return ""
    if board.defender == me:
        return tr("status.attacks_you", name=names[board.attacker])
    if board.attacker == me:
        return tr("status.you_attack", name=names[board.defender])
    return tr("status.attacks", attacker=names[board.attacker], defender=names[board.defender])


# --- drawing ------------------------------------------------------------------------------


def draw_buttons(
    surface: pygame.Surface,
    assets: Assets,
    buttons: list[Button],
    hover: tuple[float, float] | None,
) -> None:
    # the buttons of one row share one size: the largest at which all their labels fit
    sizes: dict[tuple[int, int], int] = {}
    for button in buttons:
        row = (button.rect.y, button.rect.h)
        px = button_px(assets, button.rect, button.label)
        sizes[row] = min(sizes.get(row, px), px)
    for button in buttons:
        over = hover is not None and button.rect.collidepoint(hover)
        px = sizes[button.rect.y, button.rect.h]
        draw_button(surface, assets, button.rect, button.label, button.style, over, px=px)


def draw_status(
    surface: pygame.Surface,
    assets: Assets,
    layout: Layout,
    text: str,
    role: str | None,
    tr: Translator = ENGLISH,
    our_turn: bool = False,
    flash: float = 0.0,
) -> None:
    """The status line, with our role as a coloured tag before it (or, when the table
    waits for us, a gold "Your turn"); ``flash`` (0-1): a new prompt lit up behind, in
    gold, as the bout or our role has just changed."""
    if not text:
        return
    px = round(layout.font_px * 1.1)
    tag = tr("role." + role) if role in ROLE_COLOURS else ""
    if our_turn:
        tag = tr("table.your_turn")
    tag_w = px * (len(tag) * 0.7 + 1.5) if tag else 0
    room = layout.size[0] - 2 * layout.margin - tag_w
    px = fit_px(assets, text, px, room)
    centre = (layout.size[0] / 2 + tag_w / 2, layout.status_y)
    colour = SOFT
    if flash > 0:  # a dark pill ringed in gold, the words in gold, fading back
        glow = assets.text(text, px, SOFT).get_rect(center=(round(centre[0]), round(centre[1])))
        glow = glow.inflate(px * 1.2, px * 0.5)
        level = round(8 * min(1.0, flash)) / 8  # (a few steps: each box is kept)
        ring = (*GOLD, round(255 * level))
        rounded_box(surface, assets, glow, (6, 22, 14, round(200 * level)), glow.h // 2, ring)
        r, g, b = (
            round(soft + (gold - soft) * level) for soft, gold in zip(SOFT, GOLD, strict=True)
        )
        colour = (r, g, b)
    rect = draw_text(surface, assets, text, px, centre, colour=colour)
    if tag:
        fill, ink = (GOLD, (44, 30, 8)) if our_turn else (ROLE_COLOURS[role or ""], WHITE)
        image = assets.text(tag, round(px * 0.8), ink, True, not our_turn)
        pill = image.get_rect().inflate(px * 0.9, px * 0.3)
        pill.midright = (rect.left - px // 2, rect.centery)
        surface.blit(assets.box(pill.size, (*fill, 235), pill.h // 2), pill)
        surface.blit(image, image.get_rect(center=pill.center))


def draw_recap(surface: pygame.Surface, assets: Assets, layout: Layout, text: str) -> None:
    """The last bout in a line ("Vera took 3: 9♦ 10♠ J♣"), on a dark pill just above the
    status line, smaller than it."""
    if not text:
        return
    px = round(layout.font_px * 0.9)
    px = fit_px(assets, text, px, layout.size[0] - 2 * layout.margin - px)
    image = assets.text(text, px, SOFT)
    pill = image.get_rect().inflate(px * 1.2, px * 0.45)
    pill.center = (round(layout.size[0] / 2), round(layout.status_y - layout.font_px * 1.45))
    rounded_box(surface, assets, pill, (6, 22, 14, 190), pill.h // 2)
    surface.blit(image, image.get_rect(center=pill.center))


def draw_unsaved(
    surface: pygame.Surface,
    assets: Assets,
    layout: Layout,
    room: Room | None,
    seat: int | None,
    tr: Translator = ENGLISH,
) -> None:
    """For the room's owner, while the host cannot save the table: one line saying so, at
    the top of the window (``room.unsaved``, docs/protocol.md section 12)."""
    if room is None or not room.unsaved or seat is None or room.owner != seat:
        return
    text = tr("room.unsaved")
    px = fit_px(assets, text, round(layout.font_px * 0.9), layout.size[0] - 2 * layout.margin)
    draw_text(surface, assets, text, px, (layout.size[0] / 2, layout.margin + px), colour=WARN)


def draw_paused(
    surface: pygame.Surface,
    assets: Assets,
    layout: Layout,
    room: Room | None,
    tr: Translator = ENGLISH,
) -> None:
    """While the table's one player has paused the game (``room.paused``, docs/protocol.md
    section 18): one line saying so mid-table, for a watcher (the player has the pause)."""
    if room is None or not room.paused:
        return
    text = tr("table.paused")
    w = layout.size[0]
    px = round(layout.font_px * 1.2)
    px = fit_px(assets, text, px, w - 2 * layout.margin - 2 * px, bold=True)
    image = assets.text(text, px, GOLD, True)
    pill = image.get_rect().inflate(px * 1.6, px * 0.9)
    pill.center = (w // 2, round(layout.status_y - pill.h * 1.3))  # above the status line
    rounded_box(surface, assets, pill, (6, 22, 14, 225), pill.h // 2, (*GOLD, 160))
    surface.blit(image, image.get_rect(center=pill.center))


def draw_watching(
    surface: pygame.Surface, assets: Assets, layout: Layout, tr: Translator = ENGLISH
) -> None:
    """A watcher's table says so where a player's hand would be."""
    at = (layout.size[0] / 2, layout.hand_y)
    draw_text(surface, assets, tr("table.watching"), layout.font_px * 2, at, "center", GOLD, True)


def draw_toast(
    surface: pygame.Surface, assets: Assets, layout: Layout, text: str, ttl: float, k: int
) -> None:
    """The ``k``-th newest toast below the opponents, fading in and out."""
    px = round(layout.font_px * 1.15)
    px = fit_px(assets, text, px, layout.size[0] - 2 * layout.margin - 2 * px, bold=True)
    image = assets.text(text, px, (255, 255, 255), True)
    rect = image.get_rect().inflate(px * 1.6, px * 0.8)
    top = layout.toast_y + k * rect.h * 1.15
    rect.midtop = (round(layout.size[0] / 2), round(top))
    alpha = max(0.0, min(1.0, ttl / 0.4, (TOAST_SECONDS - ttl) / 0.15 + 0.2))
    box = pygame.Surface(rect.size, pygame.SRCALPHA)
    fill = (8, 20, 12, round(200 * alpha))
    pygame.draw.rect(box, fill, box.get_rect(), border_radius=rect.h // 2)
    image = image.copy()
    image.set_alpha(round(255 * alpha))
    box.blit(image, image.get_rect(center=box.get_rect().center))
    surface.blit(box, rect)


def draw_end(
    surface: pygame.Surface,
    assets: Assets,
    over: GameOver,
    names: tuple[str, ...],
    me: int,
    buttons: list[Button],
    tr: Translator = ENGLISH,
    show: EndShow = EndShow(),
) -> None:
    """The end of a game over the dimmed table: the Durak, the series, the ranking, this
    game's numbers, then the Durak's cards face up and the last bout."""
    for _ in end_parts(surface, assets, over, names, me, buttons, tr, show):
        pass


def end_parts(
    surface: pygame.Surface,
    assets: Assets,
    over: GameOver,
    names: tuple[str, ...],
    me: int,
    buttons: list[Button],
    tr: Translator = ENGLISH,
    show: EndShow = EndShow(),
) -> Iterator[None]:
    """``draw_end`` a part at a time: each step draws one more (a line, a card), so that
    the end's images and words can be made ahead a few milliseconds a frame (the panel
    drawn whole the first time took 22-25 ms of CPU at 1920x1080)."""
    w, h = surface.get_size()
    shade = assets.composite(("shade", (w, h)), lambda: _shade((w, h)))
    surface.blit(shade, (0, 0))
    yield
    title, rows, games = end_lines(over, names, me, tr, show.party)
    panel, px = end_panel((w, h), over, show)
    draw_panel(surface, assets, panel, SOLID)
    yield
    y = panel.top + px * 1.6
    title_px = fit_px(assets, title, round(px * 1.5), panel.w - 2 * px, bold=True)
    draw_text(surface, assets, title, title_px, (panel.centerx, y), bold=True, colour=GOLD)
    yield
    y += px * 1.9
    draw_text(surface, assets, games, px, (panel.centerx, y), colour=SOFT)
    y += px * 1.7
    for left, right in rows:
        yield
        draw_text(surface, assets, left, px, (panel.left + px * 1.5, y), "midleft")
        at = (panel.right - px * 1.5, y)
        draw_text(surface, assets, right, round(px * 0.9), at, "midright", SOFT)
        y += px * 1.6
    if show.numbers:
        yield
        numbers_px = fit_px(assets, show.numbers, round(px * 0.9), panel.w - 2 * px)
        draw_text(surface, assets, show.numbers, numbers_px, (panel.centerx, y), colour=GOLD)
        y += px * 1.4
    band_x = panel.left + px * 1.5
    for caption, durak in ((show.durak_caption, True), (show.bout_caption, False)):
        if not caption:
            continue
        y += px * 0.3
        draw_text(surface, assets, caption, round(px * 0.9), (band_x, y), "midleft", SOFT)
        band = pygame.Rect(round(band_x), round(y + px * 0.8), panel.w - 3 * px, round(px * 3.9))
        if durak:
            yield from cards_parts(surface, assets, list(show.durak_cards), band)
        else:
            yield from bout_parts(surface, assets, list(show.last_bout), band)
        y += px * (CARD_BAND - 0.3)
    yield
    draw_buttons(surface, assets, buttons, None)


def draw_banner(surface: pygame.Surface, assets: Assets, layout: Layout, text: str) -> None:
    """A strip across the top of the table that stays while ``text`` holds (reconnecting)."""
    px = round(layout.font_px * 1.15)
    px = fit_px(assets, text, px, layout.size[0] - 2 * layout.margin - 2 * px, bold=True)
    image = assets.text(text, px, (255, 255, 255), True)
    rect = image.get_rect().inflate(px * 2, px * 1.0)
    rect.midtop = (round(layout.size[0] / 2), round(layout.margin))
    surface.blit(assets.box(rect.size, (150, 60, 40, 235), rect.h // 2), rect)
    surface.blit(image, image.get_rect(center=rect.center))


def draw_closed(surface: pygame.Surface, assets: Assets, text: str, buttons: list[Button]) -> None:
    panel, px = panel_rect(surface.get_size(), 7)
    draw_panel(surface, assets, panel, SOLID)
    text_px = fit_px(assets, text, px, panel.w - 2 * px)
    draw_text(surface, assets, text, text_px, (panel.centerx, panel.top + px * 2))
    draw_buttons(surface, assets, buttons, None)


def _shade(size: tuple[int, int]) -> pygame.Surface:
    shade = pygame.Surface(size, pygame.SRCALPHA)
    shade.fill((0, 0, 0, 110))
    return shade
