"""One table of the party drawn small, as its watchers see it: its seats with their card
counts and roles, the cards on the table, the trump and the stock.

A tile reads from across a room: the seats sit in a band above the cards and one below
them (the first half left to right, the rest right to left, so the order goes round the
table as the seats do), each plate with the name and, under it, the cards in hand, the
place once out or the Durak's mark. The middle band has the trump card under the stock's
count on the left and the bout's cards, each defence over its attack, beside it.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from client.i18n import Translator
from client.screens.party.model import LiveTable
from client.screens.party.paint import Badge, Box, Pic, Plan, label
from client.ui.assets import Assets
from client.ui.metrics import CARD_RATIO
from client.ui.render import GOLD, SOFT
from engine import GameResult

__all__ = ["ATTACKS", "DEFENDS", "plan_tile", "seat_rects"]

ATTACKS = (246, 206, 110)  # the attacker's rim
DEFENDS = (130, 190, 250)  # the defender's rim
DIM = (150, 170, 156)


def seat_rects(
    area: pygame.Rect, seats: int, top: pygame.Rect, bottom: pygame.Rect
) -> list[pygame.Rect]:
    """Each seat's plate: ``top`` takes the first half (left to right), ``bottom`` the rest
    (right to left)."""
    upper = (seats + 1) // 2
    lower = seats - upper
    gap = round(area.w * 0.02)

    def band(rect: pygame.Rect, count: int) -> list[pygame.Rect]:
        if count == 0:
            return []
        w = (rect.w - gap * (count - 1)) // count
        return [pygame.Rect(rect.left + i * (w + gap), rect.top, w, rect.h) for i in range(count)]

    return band(top, upper) + band(bottom, lower)[::-1]


def plan_tile(assets: Assets, tr: Translator, table: LiveTable, rect: pygame.Rect) -> Plan:
    """The plan of ``table`` drawn in ``rect``."""
    plan: Plan = [Box(rect, radius=max(8, rect.h // 24))]
    pad = max(6, round(rect.h * 0.035))
    inner = rect.inflate(-2 * pad, -2 * pad)
    title_h = round(inner.h * 0.13)
    title = pygame.Rect(inner.left, inner.top, inner.w, title_h)
    px = max(12, round(title_h * 0.72))
    plan.append(label(assets, tr("party.table", n=table.number), px, title, colour=GOLD, bold=True))
    state = _state(tr, table)
    plan.append(label(assets, state, round(px * 0.8), title, "midright", SOFT))
    band_h = round(inner.h * 0.22)
    top = pygame.Rect(inner.left, title.bottom + pad // 2, inner.w, band_h)
    bottom = pygame.Rect(inner.left, inner.bottom - band_h, inner.w, band_h)
    middle = pygame.Rect(inner.left, top.bottom + pad, inner.w, bottom.top - top.bottom - 2 * pad)
    for seat, plate in enumerate(seat_rects(inner, len(table.names), top, bottom)):
        plan += _plate(assets, tr, table, seat, plate)
    if table.outcome is not None:
        plan += _outcome(assets, tr, table.outcome, table.names, middle)
    elif table.view is not None:
        plan += _middle(assets, tr, table, middle)
    return plan


def _state(tr: Translator, table: LiveTable) -> str:
    result = table.outcome
    if result is not None:
        return tr("party.drawn") if result.durak is None else tr("party.game_over")
    return tr("party.dealing") if table.view is None else tr("party.playing")


def _plate(assets: Assets, tr: Translator, table: LiveTable, seat: int, rect: pygame.Rect) -> Plan:
    view = table.view
    result = table.outcome
    acting = view is not None and result is None and seat in (view.attacker, view.defender)
    rim: tuple[int, ...] = (255, 255, 255, 60)
    if acting and view is not None:
        rim = ATTACKS if seat == view.attacker else DEFENDS
    radius = max(6, rect.h // 5)
    plan: Plan = [Box(rect, (8, 26, 18, 220), rim, radius)]
    inner = rect.inflate(-round(rect.h * 0.3), -round(rect.h * 0.16))
    name_box = pygame.Rect(inner.left, inner.top, inner.w, inner.h // 2)
    low = pygame.Rect(inner.left, name_box.bottom, inner.w, inner.h - name_box.h)
    px = max(11, round(name_box.h * 0.78))
    name = table.names[seat]
    look = table.look(seat)
    if look is not None:  # the player's badge before the name
        diameter = round(name_box.h * 0.9)
        plan.append(Badge(look, diameter, (name_box.left + diameter // 2, name_box.centery)))
        shift = round(diameter * 1.25)
        name_box = pygame.Rect(name_box.left + shift, name_box.top, name_box.w - shift, name_box.h)
    colour = (210, 214, 255) if table.is_ai(seat) else (255, 255, 255)
    if table.is_ai(seat):  # an AI player's plate says so, at its right
        tag = label(assets, tr("party.ai"), round(px * 0.7), name_box, "midright", colour, True)
        plan.append(tag)
        name_box = pygame.Rect(
            name_box.left, name_box.top, tag.rect.left - name_box.left - px // 3, name_box.h
        )
    plan.append(label(assets, name, px, name_box, "midleft", colour, bold=acting, shrink=0.75))
    small = max(10, round(px * 0.82))
    if result is not None and result.durak == seat:
        plan.append(label(assets, tr("table.durak"), small, low, colour=(255, 140, 120), bold=True))
        return plan
    place = result.places[seat] if result is not None else view.places[seat] if view else 0
    if place:
        text = tr("party.out", place=tr.ordinal(place))
        plan.append(label(assets, text, small, low, colour=GOLD))
        return plan
    if view is None:
        return plan
    back_h = round(low.h * 0.92)
    back_w = round(back_h * CARD_RATIO)
    plan.append(Pic(None, back_h, (low.left + back_w // 2 + 1, low.centery)))
    count = pygame.Rect(low.left + back_w + round(small * 0.4), low.top, 0, low.h)
    count.w = low.right - count.left
    held = label(assets, str(view.hand_sizes[seat]), small, count, bold=True)
    plan.append(held)
    if acting:  # the role's word where it fits whole beside the count (its rim says it too)
        role = tr("party.attacks") if seat == view.attacker else tr("party.defends")
        room = pygame.Rect(held.rect.right + small // 2, low.top, 0, low.h)
        room.w = low.right - room.left
        word = label(
            assets,
            role,
            round(small * 0.9),
            room,
            "midright",
            ATTACKS if seat == view.attacker else DEFENDS,
            shrink=0.75,
        )
        if word.text == role:
            plan.append(word)
    return plan


def _outcome(
    assets: Assets, tr: Translator, result: GameResult, names: Sequence[str], rect: pygame.Rect
) -> Plan:
    """A finished game: who went out first and who is the Durak."""
    px = max(11, rect.h // 6)
    if result.durak is None:
        return [label(assets, tr("party.drawn_game"), px, rect, "center", SOFT)]
    first = [names[s] for s, place in enumerate(result.places) if place == 1]
    text = tr("party.outcome", first=", ".join(first), durak=names[result.durak])
    return [label(assets, text, px, rect, "center", GOLD, shrink=0.7)]


def _middle(assets: Assets, tr: Translator, table: LiveTable, rect: pygame.Rect) -> Plan:
    view = table.view
    assert view is not None
    card_h = round(rect.h * 0.66)
    card_w = round(card_h * CARD_RATIO)
    plan: Plan = []
    pile = pygame.Rect(rect.left, rect.top, round(card_w * 1.5), rect.h)
    if view.stock_size:
        plan.append(
            Pic(view.trump_card, round(card_h * 0.8), (pile.centerx, pile.centery - rect.h // 10))
        )
        count = pygame.Rect(pile.left, pile.bottom - rect.h // 4, pile.w, rect.h // 4)
        plan.append(
            label(assets, str(view.stock_size), max(10, rect.h // 5), count, "center", bold=True)
        )
    else:  # the stock is gone: the trump suit stays known
        plan.append(
            label(assets, view.trump.symbol, round(rect.h * 0.5), pile, "center", GOLD, True)
        )
    room = pygame.Rect(pile.right, rect.top, rect.right - pile.right, rect.h)
    pairs = view.table
    if not pairs:
        if view.result is None:
            text = tr("party.lead", name=table.names[view.attacker])
            plan.append(label(assets, text, max(11, rect.h // 6), room, "center", SOFT))
        return plan
    step = min(card_w * 1.25, (room.w - card_w) / max(1, len(pairs) - 1)) if len(pairs) > 1 else 0
    height = card_h if step >= card_w * 0.9 or len(pairs) == 1 else round(card_h * 0.85)
    span = step * (len(pairs) - 1) + card_w
    x0 = room.centerx - span / 2 + card_w / 2
    for i, (attack, defence) in enumerate(pairs):
        x = round(x0 + i * step)
        plan.append(Pic(attack, height, (x, room.centery - round(rect.h * 0.08))))
        if defence is not None:
            plan.append(
                Pic(defence, height, (x + card_w // 5, room.centery + round(rect.h * 0.12)))
            )
    return plan
