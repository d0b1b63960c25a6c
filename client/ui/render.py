"""Drawing the table and the few widgets of the window. Reads, never changes, what it draws."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from client.i18n import ENGLISH, N_, Translator
from client.screens.table.board import TRUMP, Board, Sprite
from client.screens.table.layout import CARD_RATIO, OPPONENT_SCALE, PILE_SCALE, Layout, Pose
from client.ui.assets import Assets
from engine import Card

__all__ = [
    "MIN_PX",
    "ROLE_COLOURS",
    "SEAT_STATUS_KEYS",
    "STATUS_COLOURS",
    "button_px",
    "draw_board",
    "draw_bubble",
    "draw_button",
    "draw_panel",
    "draw_text",
    "ellipsize",
    "fit_px",
    "label_px",
    "line_h",
    "role_of",
    "wrap",
]

MIN_PX = 10  # the smallest label that still reads on a phone; layouts make room for it
WHITE = (255, 255, 255)
SOFT = (214, 228, 216)
GOLD = (250, 220, 140)  # titles, headings, our own name
ACTING = (246, 206, 110)  # the rim of the plate of a seat the table waits for
ROLE_COLOURS = {
    "attacking": (226, 132, 40),
    "defending": (66, 132, 222),
    "taking": (200, 60, 60),
    "out": (120, 130, 124),
    "Durak": (214, 64, 70),
}
# a seat's status in the room (``protocol.SeatInfo.status``): its label and its dot
SEAT_STATUS_KEYS = {
    "connected": N_("seat_status.connected"),
    "away": N_("seat_status.away"),
    "stand_in": N_("seat_status.stand_in"),
}
STATUS_COLOURS = {
    "connected": (96, 200, 110),
    "away": (236, 176, 60),
    "stand_in": (120, 160, 236),
}


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


def _rounded_box(
    surface: pygame.Surface,
    assets: Assets,
    rect: pygame.Rect,
    fill: tuple[int, ...],
    radius: int,
    border: tuple[int, ...] | None = None,
) -> None:
    surface.blit(assets.box(rect.size, fill, radius, border), rect)


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
    _rounded_box(surface, assets, shadow, (0, 0, 0, alpha // 3), radius)
    _rounded_box(surface, assets, rect, (12, 36, 24, alpha), radius, (210, 180, 100, 160))


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
        fill = tuple(min(255, c + 22) for c in fill)  # type: ignore[assignment]
    radius = rect.h // 2
    _rounded_box(surface, assets, rect.move(0, max(2, rect.h // 12)), (0, 0, 0, 90), radius)
    _rounded_box(surface, assets, rect, (*fill, 240), radius, (255, 255, 255, 70))
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
    _rounded_box(surface, assets, rect.move(2, 3), (0, 0, 0, 70), round(px * 0.6))
    pygame.draw.polygon(surface, (250, 247, 236), tail)
    _rounded_box(surface, assets, rect, (250, 247, 236, 255), round(px * 0.6))
    ty = rect.top + pad * 0.8
    for image in images:
        surface.blit(image, image.get_rect(midtop=(rect.centerx, round(ty))))
        ty += image.get_height()
    return rect


# --- the board ----------------------------------------------------------------------------


def _canonical(layout: Layout) -> list[int]:
    ch = layout.card_h
    return [round(ch), round(ch * PILE_SCALE), round(ch * OPPONENT_SCALE)]


def draw_sprite(
    surface: pygame.Surface, assets: Assets, layout: Layout, sprite: Sprite, look: str = "plain"
) -> None:
    pose = sprite.pose
    height = layout.card_h * pose.scale
    card = sprite.card if sprite.face >= 0.5 else None
    squash = abs(math.cos(math.pi * sprite.face))
    x, y = pose.x, pose.y - sprite.lift
    h = round(height)
    sizes = _canonical(layout)
    if h in sizes and squash > 0.999 and sprite.motion is None:
        image = assets.card(card, h, look, round(pose.angle))
    else:
        base_h = min((s for s in sizes if s >= h), default=max(sizes))
        base = assets.card(card, base_h, look if sprite.motion is None else "plain")
        factor = height / base_h
        w = max(1, round(base.get_width() * factor * max(squash, 0.02)))
        image = pygame.transform.smoothscale(base, (w, max(1, round(base.get_height() * factor))))
        if abs(pose.angle) > 0.5:
            image = pygame.transform.rotate(image, pose.angle)
    surface.blit(image, image.get_rect(center=(round(x), round(y))))


def _blit_group(
    surface: pygame.Surface, assets: Assets, poses: list[Pose], height: int, kind: str
) -> None:
    """Card backs at ``poses``, composed once into one image (one blit per frame)."""
    if not poses:
        return
    x0, y0 = poses[0].x, poses[0].y
    rel = tuple((round(p.x - x0), round(p.y - y0), round(p.angle)) for p in poses)

    def make() -> tuple[pygame.Surface, tuple[int, int]]:
        images = [assets.card(None, height, "plain", a) for _, _, a in rel]
        span = max(max(i.get_width(), i.get_height()) for i in images)
        left = min(dx for dx, _, _ in rel) - span
        top = min(dy for _, dy, _ in rel) - span
        right = max(dx for dx, _, _ in rel) + span
        bottom = max(dy for _, dy, _ in rel) + span
        out = pygame.Surface((right - left, bottom - top), pygame.SRCALPHA)
        for (dx, dy, _), image in zip(rel, images, strict=True):
            out.blit(image, image.get_rect(center=(dx - left, dy - top)))
        box = out.get_bounding_rect()
        return out.subsurface(box).copy(), (left + box.x, top + box.y)

    image, (dx, dy) = assets.composite((kind, height, rel), make)
    surface.blit(image, (round(x0) + dx, round(y0) + dy))


def _draw_slot(surface: pygame.Surface, assets: Assets, pose: Pose, height: int) -> None:
    """The faint outline of an empty pile's place, as printed on a card-table cloth."""
    w = round(height * CARD_RATIO)

    def make() -> pygame.Surface:
        slot = pygame.Surface((w, height), pygame.SRCALPHA)
        radius = round(w * 0.08)
        pygame.draw.rect(slot, (0, 0, 0, 40), slot.get_rect(), border_radius=radius)
        pygame.draw.rect(slot, (255, 255, 255, 46), slot.get_rect(), 2, border_radius=radius)
        return slot

    image = assets.composite(("slot", height), make)
    surface.blit(image, image.get_rect(center=(round(pose.x), round(pose.y))))


def role_of(board: Board, seat: int) -> str | None:
    if board.durak == seat:
        return "Durak"
    if board.places and board.places[seat]:
        return "out"
    if seat == board.defender:
        return "taking" if board.taking else "defending"
    if seat == board.attacker:
        return "attacking"
    return None


def _draw_seat(
    surface: pygame.Surface,
    assets: Assets,
    board: Board,
    seat: int,
    name: str,
    tr: Translator,
    status: str = "",
) -> None:
    layout = board.layout
    spot = layout.seats[seat]
    count = max(0, board.counts[seat] - board.incoming(("seat", seat)))
    _blit_group(
        surface,
        assets,
        layout.opponent_fan(seat, count),
        round(layout.card_h * OPPONENT_SCALE),
        "fan",
    )
    role = role_of(board, seat)
    rect = pygame.Rect(spot.plate)
    acting = role in ("attacking", "defending") and (
        (role == "attacking" and not board.table)
        or (role == "defending" and any(d is None for _, d in board.table))
    )
    _rounded_box(
        surface,
        assets,
        rect,
        (6, 22, 14, 190),
        rect.h // 4,
        ACTING if acting else (255, 255, 255, 50),
    )
    px = max(10, round(rect.h * 0.34))
    name_px = fit_px(assets, name, px, rect.w * 0.9, bold=True)
    draw_text(surface, assets, name, name_px, (rect.centerx, rect.top + rect.h * 0.3), bold=True)
    if role == "out":
        place = board.places[seat]
        detail = tr("table.out_place", place=tr.ordinal(place))
    elif role == "Durak":
        detail = tr("table.durak")
    else:
        detail = tr.plural("table.cards", count)
        if seat in board.passed:
            detail += tr("table.passed")
    colour = ROLE_COLOURS.get(role or "", SOFT) if role in ("out", "Durak") else SOFT
    key = SEAT_STATUS_KEYS.get(status)
    if key is not None and status != "connected":
        detail = f"{tr(key)} · {detail}"
        colour = STATUS_COLOURS[status]
    if status in STATUS_COLOURS:  # a dot in the plate's corner: the seat's connection
        r = max(3, round(rect.h * 0.09))
        at_dot = (rect.left + r * 2, rect.top + r * 2)
        pygame.draw.circle(surface, STATUS_COLOURS[status], at_dot, r)
    detail_px = fit_px(assets, detail, round(px * 0.85), rect.w * 0.92)
    at = (rect.centerx, rect.top + rect.h * 0.72)
    draw_text(surface, assets, detail, detail_px, at, colour=colour)
    if role in ("attacking", "defending", "taking"):
        pill_px = max(9, round(px * 0.72))
        label = assets.text(tr("role." + role), pill_px, WHITE, True)
        pill = label.get_rect().inflate(pill_px, pill_px * 0.4)
        pill.midbottom = (rect.centerx, rect.top - 2)
        _rounded_box(surface, assets, pill, (*ROLE_COLOURS[role], 235), pill.h // 2)
        surface.blit(label, label.get_rect(center=pill.center))


def _draw_piles(surface: pygame.Surface, assets: Assets, board: Board, tr: Translator) -> None:
    layout = board.layout
    ph = round(layout.card_h * PILE_SCALE)
    px = layout.font_px
    # the trump card lies crosswise under the stock
    trump = board.cards.get(board.trump_card) if board.trump_card else None
    if trump is not None and trump.dest[0] == TRUMP and trump.motion is None:
        draw_sprite(surface, assets, layout, trump)
    stock = board.stock_shown
    backs = stock - (1 if trump is not None and trump.dest[0] == TRUMP else 0)
    x, y = layout.stock_pos
    if backs > 0:
        layers = [layout.stock_pose(layer) for layer in range(min(4, 1 + backs // 6))]
        _blit_group(surface, assets, layers, ph, "stock")
    elif board.trump is not None:
        _draw_slot(surface, assets, layout.stock_pose(), ph)
        symbol, size = board.trump.symbol, round(layout.card_h * 0.45)

        def faint() -> pygame.Surface:
            mark = assets.text(symbol, size, (255, 255, 255)).copy()
            mark.set_alpha(70)
            return mark

        mark = assets.composite(("trump mark", symbol, size), faint)
        surface.blit(mark, mark.get_rect(center=(round(x), round(y))))
    if stock > 0:
        draw_text(surface, assets, str(stock), px, (x, y + ph * 0.62), "midtop", SOFT, bold=True)
    dx, dy = layout.discard_pos
    shown = board.discard - board.incoming(("discard", 0))
    if shown <= 0:
        _draw_slot(surface, assets, Pose(dx, dy, 0, PILE_SCALE), ph)
    layers = [layout.discard_pose(layer) for layer in range(min(7, (shown + 1) // 2))]
    _blit_group(surface, assets, layers, ph, "discard")
    if shown > 0:
        text = tr("table.beaten_pile", n=shown)
        draw_text(surface, assets, text, round(px * 0.9), (dx, dy + ph * 0.7), "midtop", SOFT)


def _draw_order(board: Board) -> list[Sprite]:
    """Resting cards of the bout and the hand, then every card in flight, in take-off order.

    The trump card at rest is drawn with the stock; the dragged card comes last of all.
    """
    resting: list[Sprite] = []
    flying: list[Sprite] = list(board.flying)
    placed = [c for pair in board.table for c in pair if c is not None] + board.hand
    for card in placed:
        sprite = board.cards.get(card)
        if sprite is not None and card != board.dragged:
            started = sprite.motion is not None and sprite.motion.started
            (flying if started else resting).append(sprite)
    listed = set(placed)
    for card, sprite in board.cards.items():
        at_rest_under_stock = sprite.dest[0] == TRUMP and sprite.motion is None
        if card not in listed and card != board.dragged and not at_rest_under_stock:
            flying.append(sprite)
    return resting + sorted((s for s in flying if not s.in_stock), key=lambda s: s.order)


def draw_board(
    surface: pygame.Surface,
    assets: Assets,
    board: Board,
    names: tuple[str, ...],
    looks: dict[Card, str],
    tr: Translator = ENGLISH,
    statuses: Sequence[str] = (),
) -> None:
    """``statuses``: each seat's status from the room (``connected``, ``away``...)."""
    layout = board.layout
    surface.blit(assets.felt(layout.size), (0, 0))
    _draw_piles(surface, assets, board, tr)
    for seat in layout.seats:
        name = names[seat] if seat < len(names) else tr("table.seat", n=seat + 1)
        status = statuses[seat] if seat < len(statuses) else ""
        _draw_seat(surface, assets, board, seat, name, tr, status)
    for sprite in _draw_order(board):
        draw_sprite(surface, assets, layout, sprite, looks.get(sprite.card, "plain"))  # type: ignore[arg-type,unused-ignore]
    if board.dragged is not None and board.dragged in board.cards:
        draw_sprite(surface, assets, layout, board.cards[board.dragged], "selected")
