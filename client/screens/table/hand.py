"""Our hand as the table shows it: which card lifts how far, how each is drawn (glowing,
dimmed, chosen, focused, a target), and what lies under the pointer (a card of the hand,
an attack card to beat, the discard pile).

Functions of the board and of what the table tells them; ``playable(card)``: the actions
the card may make now (none while our last action awaits its answer).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from client.screens.table.board import Board
from client.screens.table.layout import MAX_LIFT, Pose
from client.ui.metrics import CARD_RATIO
from engine import Action, Attack, Beat, Card, ShowTrump, Transfer

__all__ = ["card_at", "cards_of", "looks", "on_discard", "set_lifts", "target_at"]

Playable = Callable[[Card], list[Action]]


def set_lifts(
    board: Board,
    playable: Playable,
    chosen: tuple[Card | None, ...],
    focus: int | None,
    hover: Card | None,
) -> None:
    """Lift what may be played a little, a little more under the pointer (``hover``), the
    focused card more, and the ``chosen`` cards (picked, or on their way) high."""
    ch = board.layout.card_h
    for i, card in enumerate(board.hand):
        sprite = board.cards.get(card)
        if sprite is None:
            continue
        lift = 0.0
        if playable(card):
            lift = 0.04 * ch
        if card == hover and playable(card):
            lift += 0.04 * ch
        if focus == i:
            lift = max(lift, 0.1 * ch)
        if card in chosen:
            lift = MAX_LIFT * ch
        sprite.lift_target = lift
    for card, sprite in board.cards.items():
        if card not in board.hand:
            sprite.lift_target = 0.0


def looks(
    board: Board,
    playable: Playable,
    any_play: bool,
    selected: Card | None,
    focus: int | None,
    transferring: bool,
    chosen: Card | None,
) -> dict[Card, str]:
    """How each card of our hand (and each target of the ``chosen`` card) is drawn
    (``any_play``: we may play now, so what may not be is dimmed; ``transferring``: the
    Transfer button asked for a card, so only those that can transfer glow)."""
    found: dict[Card, str] = {}
    for card in board.hand:
        acts = playable(card)
        if transferring:
            acts = [a for a in acts if isinstance(a, Transfer | ShowTrump)]
        if card == selected:
            found[card] = "selected"
        elif focus is not None and card in board.hand[focus : focus + 1]:
            found[card] = "target"  # the keyboard's focus: a blue halo
        elif acts:
            found[card] = "glow"
        elif any_play:
            found[card] = "dim"
    if chosen is not None:
        for action in playable(chosen):
            if isinstance(action, Beat):
                found[action.target] = "target"
    return found


def _inside(
    board: Board, pose: Pose, lift: float, pos: tuple[float, float], scale: float = 1.0
) -> bool:
    dx, dy = pos[0] - pose.x, pos[1] - (pose.y - lift)
    a = math.radians(pose.angle)
    lx = dx * math.cos(a) - dy * math.sin(a)
    ly = dx * math.sin(a) + dy * math.cos(a)
    h = board.layout.card_h * pose.scale * scale
    return abs(lx) <= h * CARD_RATIO / 2 and abs(ly) <= h / 2


def card_at(board: Board | None, pos: tuple[float, float] | None) -> Card | None:
    """The card of our hand under ``pos`` (the topmost)."""
    if board is None or pos is None:
        return None
    for card in reversed(board.hand):
        sprite = board.cards.get(card)
        if sprite is not None and _inside(board, sprite.pose, sprite.lift, pos):
            return card
    return None


def on_discard(board: Board | None, pos: tuple[float, float]) -> bool:
    """Is ``pos`` on the discard pile (generously)?"""
    if board is None or not board.discard:
        return False
    return _inside(board, board.layout.discard_pose(), 0.0, pos, 1.1)


def target_at(board: Board | None, pos: tuple[float, float]) -> Card | None:
    """The unbeaten attack card of the bout under ``pos`` (generously)."""
    if board is None:
        return None
    for i, (attack, defence) in enumerate(board.table):
        if defence is None and attack is not None:
            pose = board.layout.attack_pose(i, len(board.table))
            if _inside(board, pose, 0.0, pos, 1.15):
                return attack
    return None


def cards_of(action: Action | None) -> tuple[Card, ...]:
    """The cards ``action`` plays."""
    if action is None:
        return ()
    if isinstance(action, Attack):
        return action.cards
    card = getattr(action, "card", None)
    return (card,) if card is not None else ()
