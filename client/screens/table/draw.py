"""Drawing the table: the cards where the board says they are, the seats' plates and the
piles. Reads, never changes, what it draws."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from client.i18n import ENGLISH, N_, Translator
from client.screens.table.board import TRUMP, Board, Sprite
from client.screens.table.layout import OPPONENT_SCALE, PILE_SCALE, Layout, Pose
from client.ui.assets import Assets
from client.ui.looks import draw_look
from client.ui.metrics import CARD_RATIO
from client.ui.render import SOFT, WHITE, draw_text, fit_px, rounded_box
from engine import Card
from protocol import Room

__all__ = [
    "ROLE_COLOURS",
    "SEAT_STATUS_KEYS",
    "STATUS_COLOURS",
    "at_rest",
    "draw_board",
    "draw_digits",
    "draw_seat_word",
    "role_of",
    "seat_statuses",
    "warm_fan",
    "warm_turn_glow",
]

ACTING = (246, 206, 110)  # the rim of the plate of a seat the table waits for
GLOW, GLOW_RIM = (*ACTING, 46), (*ACTING, 150)  # behind our hand on our turn
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
    "back_soon": N_("seat_status.back_soon"),  # its player said "back in a minute"
}
STATUS_COLOURS = {
    "connected": (96, 200, 110),
    "away": (236, 176, 60),
    "stand_in": (120, 160, 236),
    "back_soon": (236, 176, 60),
}


def seat_statuses(room: Room) -> tuple[str, ...]:
    """Each seat's status as its plate shows it (a key of ``SEAT_STATUS_KEYS``, or
    another of ``protocol.SeatInfo.status``): a connected player who said "back in a
    minute" is ``back_soon``."""
    return tuple(
        "back_soon" if seat.back_soon and seat.status == "connected" else seat.status
        for seat in room.seats
    )


def _canonical(layout: Layout) -> list[int]:
    ch = layout.card_h
    return [round(ch), round(ch * PILE_SCALE), round(ch * OPPONENT_SCALE)]


def at_rest(layout: Layout, sprite: Sprite) -> tuple[Card | None, int, int] | None:
    """The cached image that shows ``sprite`` once it rests where it is going (where its
    flight ends): the card (None: its back), the height and the angle to ask the assets
    for; None if it rests at a size that is drawn scaled, or half turned."""
    if sprite.motion is not None:
        _, _, angle, scale, face = sprite.motion.end  # type: ignore[misc]
    else:
        angle, scale, face = sprite.pose.angle, sprite.pose.scale, sprite.face
    h = round(layout.card_h * scale)
    if h not in _canonical(layout) or abs(math.cos(math.pi * face)) <= 0.999:
        return None
    return (sprite.card if face >= 0.5 else None), h, round(angle)


def draw_sprite(
    surface: pygame.Surface, assets: Assets, layout: Layout, sprite: Sprite, look: str = "plain"
) -> None:
    pose = sprite.pose
    x, y = pose.x, pose.y - sprite.lift
    rest = at_rest(layout, sprite) if sprite.motion is None else None
    if rest is not None:
        card, h, angle = rest
        image = assets.card(card, h, look, angle)
    else:
        height = layout.card_h * pose.scale
        card = sprite.card if sprite.face >= 0.5 else None
        squash = abs(math.cos(math.pi * sprite.face))
        sizes = _canonical(layout)
        base_h = min((s for s in sizes if s >= round(height)), default=max(sizes))
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


def warm_fan(
    surface: pygame.Surface, assets: Assets, layout: Layout, seat: int, count: int
) -> None:
    """Make the image of ``seat``'s fan of ``count`` backs, as ``draw_board`` draws it."""
    height = round(layout.card_h * OPPONENT_SCALE)
    _blit_group(surface, assets, layout.opponent_fan(seat, count), height, "fan")


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
    held = len(board.hand) if seat == board.seat else board.counts[seat]
    if seat == board.attacker and held > 0:  # (with no card left it can add none)
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
    look: int | None = None,
    fan: bool = True,
    stamped: bool = False,
) -> None:
    layout = board.layout
    spot = layout.seats[seat]
    count = max(0, board.counts[seat] - board.incoming(("seat", seat)))
    if fan:
        warm_fan(surface, assets, layout, seat, count)
    role = role_of(board, seat)
    rect = pygame.Rect(spot.plate)
    acting = role in ("attacking", "defending") and (
        (role == "attacking" and not board.table)
        or (role == "defending" and any(d is None for _, d in board.table))
    )
    if acting:  # the table waits for this seat: a gold ring round its plate
        ring = rect.inflate(6, 6)
        rounded_box(surface, assets, ring, (*ACTING, 70), ring.h // 4)
        pygame.draw.rect(surface, ACTING, ring, 3, border_radius=ring.h // 4)
    rounded_box(
        surface,
        assets,
        rect,
        (6, 22, 14, 190),
        rect.h // 4,
        ACTING if acting else (255, 255, 255, 50),
    )
    px = max(10, round(rect.h * 0.34))
    disc = round(rect.h * 0.36) if look is not None else 0  # the player's badge, left of it
    name_px = fit_px(assets, name, px, rect.w * 0.9 - disc * 1.3, bold=True)
    name_at = (rect.centerx + disc * 0.65, rect.top + rect.h * 0.3)
    drawn = draw_text(surface, assets, name, name_px, name_at, bold=True)
    if disc:
        draw_look(surface, assets, look, (drawn.left - disc * 0.75, name_at[1]), disc)
    if role == "out":
        place = board.places[seat]
        detail = tr("table.out_place", place=tr.ordinal(place))
    elif role == "Durak":
        detail = tr("table.durak")
    elif count == 0 and not board.stock_shown and role != "taking":
        detail = tr("role.out")  # (no card and none to draw: out once the bout ends)
        role = "out"
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
    if stamped and role == "Durak":
        return  # the stamp across the plate's lower edge says it
    detail_px = fit_px(assets, detail, round(px * 0.85), rect.w * 0.92)
    at = (rect.centerx, rect.top + rect.h * 0.72)
    draw_text(surface, assets, detail, detail_px, at, colour=colour)
    if role in ("attacking", "defending", "taking"):
        pill_px = max(9, round(px * 0.72))
        label = assets.text(tr("role." + role), pill_px, WHITE, True)
        pill = label.get_rect().inflate(pill_px, pill_px * 0.4)
        pill.midbottom = (rect.centerx, rect.top - 2)
        rounded_box(surface, assets, pill, (*ROLE_COLOURS[role], 235), pill.h // 2)
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

        colour = (236, 96, 96) if board.trump.symbol in "♥♦" else (255, 255, 255)

        def faint() -> pygame.Surface:
            mark = assets.text(symbol, size, colour).copy()
            mark.set_alpha(150)
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


def _draw_trump_tag(surface: pygame.Surface, assets: Assets, layout: Layout, text: str) -> None:
    x, y = layout.stock_pos
    ph = layout.card_h * PILE_SCALE
    px = fit_px(assets, text, layout.font_px, ph * CARD_RATIO * 1.6, bold=True)
    red = text.endswith(("♥", "♦"))
    image = assets.text(text, px, (190, 30, 40) if red else (20, 20, 20), True, False)
    pill = image.get_rect().inflate(px, px * 0.35)
    pill.center = (round(x), round(y - ph / 2))
    rounded_box(surface, assets, pill, (250, 247, 236, 245), pill.h // 2, (210, 180, 100, 255))
    surface.blit(image, image.get_rect(center=pill.center))


def _turn_glow(layout: Layout, count: int) -> tuple[pygame.Rect, int] | None:
    """Where the glow behind a hand of ``count`` cards goes, and its corners' radius."""
    tray = layout.hand_tray(count)
    return None if tray is None else (pygame.Rect(tray), round(layout.tray_radius))


def _draw_turn_glow(surface: pygame.Surface, assets: Assets, board: Board) -> None:
    """Our turn: a warm glow behind our hand."""
    glow = _turn_glow(board.layout, len(board.hand))
    if glow is not None:
        rounded_box(surface, assets, glow[0], GLOW, glow[1], GLOW_RIM)


def warm_turn_glow(assets: Assets, layout: Layout, count: int) -> None:
    """Make the glow behind a hand of ``count`` cards (a box as wide as the hand: a few
    milliseconds at 1920x1080), as ``draw_board`` draws it on our turn."""
    glow = _turn_glow(layout, count)
    if glow is not None:
        assets.box(glow[0].size, GLOW, glow[1], GLOW_RIM)


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
    our_turn: bool = False,
    badges: Sequence[int | None] = (),
    face_up: int | None = None,
    stamped: int | None = None,
) -> None:
    """``statuses``: each seat's status from the room (``connected``, ``away``...);
    ``our_turn``: the table waits for us (our hand glows); ``badges``: each seat's look;
    ``face_up``: the seat whose cards the end shows face up (``ending``), without its
    fan of backs; ``stamped``: the seat whose plate the end stamps "DURAK" (its plate
    leaves the word to the stamp)."""
    layout = board.layout
    surface.blit(assets.felt(layout.size), (0, 0))
    if our_turn:
        _draw_turn_glow(surface, assets, board)
    _draw_piles(surface, assets, board, tr)
    for seat in layout.seats:
        name = names[seat] if seat < len(names) else tr("table.seat", n=seat + 1)
        status = statuses[seat] if seat < len(statuses) else ""
        look = badges[seat] if seat < len(badges) else None
        fan, stamp = seat != face_up, seat == stamped
        _draw_seat(surface, assets, board, seat, name, tr, status, look, fan, stamp)
    for sprite in _draw_order(board):
        draw_sprite(surface, assets, layout, sprite, looks.get(sprite.card, "plain"))  # type: ignore[arg-type,unused-ignore]
    if board.trump_card is not None:  # the trump, always in sight on the stock's top edge:
        text = tr("table.trump", card=board.trump_card.pretty)  # over the cards drawn from it
        _draw_trump_tag(surface, assets, layout, text)
    if board.dragged is not None and board.dragged in board.cards:
        draw_sprite(surface, assets, layout, board.cards[board.dragged], "selected")


def draw_seat_word(
    surface: pygame.Surface,
    assets: Assets,
    layout: Layout,
    seat: int,
    text: str,
    fade: float = 1.0,
    thinking: bool = False,
) -> pygame.Rect:
    """A seat's word for what it just did ("throws in"), or that it is thinking, as a pill
    hanging from the bottom of its name plate; ``fade`` from 0 (gone) to 1."""
    x, y, w, h = layout.seats[seat].plate
    px = max(10, round(h * 0.36))
    px = fit_px(assets, text, px, w - px * 1.2, bold=True)  # the pill no wider than the plate
    image = assets.text(text, px, (30, 24, 10) if not thinking else WHITE, True)
    pill = image.get_rect().inflate(px * 1.1, px * 0.45)
    pill.midtop = (x + w // 2, y + h - px // 3)
    pill.clamp_ip(surface.get_rect())
    fill = (246, 206, 110) if not thinking else (40, 64, 96)
    alpha = max(0.0, min(1.0, fade))
    box = pygame.Surface(pill.size, pygame.SRCALPHA)
    pygame.draw.rect(box, (*fill, round(240 * alpha)), box.get_rect(), border_radius=pill.h // 2)
    pygame.draw.rect(
        box, (255, 255, 255, round(120 * alpha)), box.get_rect(), 1, border_radius=pill.h // 2
    )
    shown = image.copy()
    shown.set_alpha(round(255 * alpha))
    box.blit(shown, shown.get_rect(center=box.get_rect().center))
    surface.blit(box, pill)
    return pill


def draw_digits(
    surface: pygame.Surface, assets: Assets, board: Board, numbers: dict[Card, int]
) -> None:
    """The key of each card of the hand that has one (``numbers``: 0 is the 1 key, 9 the 0
    key), on the part of the card that shows; none on a card still flying to the hand, nor
    on the card being dragged."""
    layout = board.layout
    poses = layout.hand_poses(len(board.hand))
    step = poses[1].x - poses[0].x if len(poses) > 1 else layout.card_w
    px = max(10, round(layout.font_px * 0.95))
    for card in board.hand:
        sprite = board.cards.get(card)
        if card not in numbers or sprite is None or card == board.dragged:
            continue
        if sprite.in_stock or abs(sprite.pose.y - layout.hand_y) > layout.card_h * 0.5:
            continue  # in flight (from the stock, or from the bout to the taker)
        x = sprite.pose.x - layout.card_w / 2 + min(step, layout.card_w) / 2
        y = sprite.pose.y - sprite.lift + layout.card_h * 0.3
        image = assets.text(str((numbers[card] + 1) % 10), px, WHITE, True, False)
        badge = image.get_rect().inflate(px * 0.7, px * 0.25)
        badge.w = max(badge.w, badge.h)
        badge.center = (round(x), round(y))
        rounded_box(surface, assets, badge, (20, 40, 70, 220), badge.h // 2)
        surface.blit(image, image.get_rect(center=badge.center))
