"""Who played each card of the bout: a small tag on the card, there until the bout ends.

The seat's word by its plate ("throws in") lasts a second or two and does not name the
card, so two throw-ins a second apart could only be told apart in the log. A tag on the
card itself stays while the card is on the table: the attack cards carry it on their top
edge in the attacker's orange, the cards that beat them on their bottom edge in the
defender's blue, and our own cards say "You". A card still on its way gets its tag once it
is down. Reads, never changes, what it draws.
"""

from __future__ import annotations

import math

import pygame

from client.i18n import ENGLISH, Translator
from client.screens.table.board import LANDED, Board
from client.screens.table.draw import ROLE_COLOURS
from client.ui.assets import Assets
from client.ui.render import WHITE, fit_px, rounded_box
from engine import Card

__all__ = ["draw_tags", "tags"]


def tags(board: Board, names: tuple[str, ...], tr: Translator = ENGLISH) -> list[tuple[str, bool]]:
    """(name, beats) for each card of the bout that is down, in the order they lie (attack
    then its defence); ``beats``: the card beats another."""
    found = []
    for attack, defence in board.table:
        for card, beats in ((attack, False), (defence, True)):
            text = _name_for(board, card, names, tr) if card is not None else None
            if text is not None:
                found.append((text, beats))
    return found


def _name_for(board: Board, card: Card, names: tuple[str, ...], tr: Translator) -> str | None:
    seat = board.played_by.get(card)
    sprite = board.cards.get(card)
    if seat is None or sprite is None:
        return None
    if sprite.motion is not None and sprite.motion.progress < LANDED:
        return None  # still on its way
    if seat == board.seat:
        return tr("end.you")
    return names[seat] if seat < len(names) else tr("table.seat", n=seat + 1)


def draw_tags(
    surface: pygame.Surface,
    assets: Assets,
    board: Board,
    names: tuple[str, ...],
    tr: Translator = ENGLISH,
) -> None:
    layout = board.layout
    px = max(9, round(layout.font_px * 0.78))
    for attack, defence in board.table:
        for card, beats in ((attack, False), (defence, True)):
            if card is None:
                continue
            text = _name_for(board, card, names, tr)
            if text is None:
                continue
            sprite = board.cards[card]
            pose = sprite.pose
            # the middle of the card's top (attack) or bottom (defence) edge, turned with it
            reach = layout.card_h * pose.scale * (0.5 if beats else -0.5)
            angle = math.radians(pose.angle)
            x = pose.x + reach * math.sin(angle)
            y = pose.y + reach * math.cos(angle)
            size = fit_px(assets, text, px, layout.card_w * 1.05, bold=True)
            image = assets.text(text, size, WHITE, True)
            pill = image.get_rect().inflate(size * 0.8, size * 0.3)
            pill.center = (round(x), round(y))
            colour = ROLE_COLOURS["defending" if beats else "attacking"]
            rounded_box(surface, assets, pill, (*colour, 235), pill.h // 2, (255, 255, 255, 90))
            surface.blit(image, image.get_rect(center=pill.center))
