"""Easy: attacks low and defends with the smallest card that beats.

It leads its least valuable card, throws in its least valuable plain (non-trump) card when
it may, covers every attack card with the cheapest card that beats it (a trump is worth
more than any plain card), and takes (or transfers, when it may) when it cannot cover all.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import PASS, TAKE, Action, Attack, Take
from ..cards import mask_of
from ..view import SeatView
from .tactics import (
    RememberingBot,
    beat_action,
    cheapest_play,
    cover_plan,
    lowest_lead,
    split_adding,
    split_defence,
    unbeaten_of,
)

__all__ = ["EasyBot", "easy_action"]


def easy_action(legal: Sequence[Action], hand: int, trump: int, unbeaten: Sequence[int]) -> Action:
    """Easy's choice among ``legal`` (a seat's legal actions, not empty)."""
    if type(legal[0]) is Attack:
        return lowest_lead(legal, trump)
    if unbeaten and any(type(a) is Take for a in legal):
        return _defend(legal, hand, trump, unbeaten)
    throws, can_pass = split_adding(legal)
    plain = [t for t in throws if t.card.suit != trump]
    if plain:
        return min(plain, key=lambda t: t.card.rank)
    if can_pass:
        return PASS
    return cheapest_play(throws, trump)


def _defend(legal: Sequence[Action], hand: int, trump: int, unbeaten: Sequence[int]) -> Action:
    plan = cover_plan(hand, trump, unbeaten)
    if plan is not None:
        return beat_action(*plan[0])
    transfers, shows = split_defence(legal)
    if shows:
        return shows[0]
    if transfers:
        return cheapest_play(transfers, trump)
    return TAKE


class EasyBot(RememberingBot):
    level = "easy"

    def decide(self, view: SeatView) -> Action:
        return easy_action(view.legal, mask_of(view.hand), view.trump, unbeaten_of(view))
