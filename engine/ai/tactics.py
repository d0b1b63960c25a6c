"""Shared know-how of the AI players: what a card is worth, how to cover a table cheaply,
and what a seat can remember from the events it was told.

Everything here works on card bit masks and indices (see ``engine.cards``) so the same
helpers serve a bot deciding from a view and Hard's playouts on a sampled game state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from ..actions import BEATS, Action, Attack, Pass, ShowTrump, ThrowIn, Transfer
from ..cards import SUIT_MASKS, beaters_mask, deck_mask, mask_of
from ..events import BoutStarted, Discarded, Event
from ..rules import Rules
from ..view import SeatView
from .base import Bot

__all__ = [
    "Memory",
    "cheapest",
    "cheapest_play",
    "cover_plan",
    "lowest_lead",
    "table_mask",
    "unbeaten_of",
    "unseen_pool",
    "value",
]


def value(index: int, trump: int) -> int:
    """What a card is worth to keep: its rank, plus 13 for a trump (any trump > any ace)."""
    return index % 13 + 2 + (13 if index // 13 == trump else 0)


_VALUES = tuple(tuple(value(index, trump) for index in range(52)) for trump in range(4))


def cheapest(mask: int, trump: int) -> int:
    """The index of the least valuable card in a non-empty mask (of equals, the lowest).

    Every plain card is worth less than any trump, so it is the lowest plain rank (the
    lowest of each suit's slice, compared), or else the lowest trump. Hard's playouts ask
    this at nearly every step, so it looks at four slices rather than at every card."""
    plain = mask & ~SUIT_MASKS[trump]
    if not plain:
        return (mask & -mask).bit_length() - 1
    best, best_rank = -1, 99
    for base in (0, 13, 26, 39):
        part = plain >> base & 0x1FFF
        if part:
            rank = (part & -part).bit_length()
            if rank < best_rank:
                best, best_rank = base + rank - 1, rank
    return best


def cover_plan(hand: int, trump: int, unbeaten: Sequence[int]) -> list[tuple[int, int]] | None:
    """A cheap way to beat every unbeaten card: ``[(card, target), ...]``, or None.

    Greedy: the most valuable target first, each with the cheapest card that beats it.
    """
    plan: list[tuple[int, int]] = []
    free = hand
    # The sort is stable either way round: equal targets keep the table's order.
    for target in sorted(unbeaten, key=_VALUES[trump].__getitem__, reverse=True):
        beaters = free & beaters_mask(trump, target)
        if not beaters:
            return None
        card = cheapest(beaters, trump)
        free &= ~(1 << card)
        plan.append((card, target))
    return plan


def lowest_lead(legal: Sequence[Action], trump: int) -> Attack:
    """The single-card lead of the least valuable card (leads are always single-able)."""
    best: Attack | None = None
    best_value = 99
    for action in legal:
        if type(action) is Attack and len(action.cards) == 1:
            v = value(action.cards[0].index, trump)
            if v < best_value:
                best, best_value = action, v
    if best is None:  # not a lead position: the caller asked wrongly
        raise ValueError("no single-card attack among the legal actions")
    return best


def split_defence(legal: Sequence[Action]) -> tuple[list[Transfer], list[ShowTrump]]:
    """The legal transfers and shows."""
    transfers: list[Transfer] = []
    shows: list[ShowTrump] = []
    for action in legal:
        if isinstance(action, Transfer):
            transfers.append(action)
        elif isinstance(action, ShowTrump):
            shows.append(action)
    return transfers, shows


def split_adding(legal: Sequence[Action]) -> tuple[list[ThrowIn], bool]:
    """The legal throw-ins, and whether Pass is legal."""
    throws: list[ThrowIn] = []
    can_pass = False
    for action in legal:
        if type(action) is ThrowIn:
            throws.append(action)
        elif type(action) is Pass:
            can_pass = True
    return throws, can_pass


def beat_action(card: int, target: int) -> Action:
    return BEATS[card][target]


Play = TypeVar("Play", ThrowIn, Transfer)


def cheapest_play(plays: Sequence[Play], trump: int) -> Play:
    """The throw-in or transfer of the least valuable card (the first of equals: legal
    actions list them by card index, so the lowest index, as ``cheapest`` picks)."""
    return min(plays, key=lambda p: value(p.card.index, trump))


class Memory:
    """What a seat remembers from its trimmed events: the discard pile, the bout count and
    who led the bout (after a transfer the view only names the attacker).

    Everything else a bot needs (cards known to be in a hand, hand sizes) is in the view.
    """

    __slots__ = ("bouts", "discard", "leader")

    def __init__(self) -> None:
        self.discard = 0
        self.bouts = 0
        self.leader: int | None = None

    def see(self, event: Event) -> None:
        if isinstance(event, Discarded):
            self.discard |= mask_of(event.cards)
        elif isinstance(event, BoutStarted):
            self.bouts += 1
            self.leader = event.attacker

    def bout_max(self, rules: Rules) -> int:
        """The current bout's own cap (5 in the first bout under "first bout 5")."""
        return rules.bout_max(first=self.bouts <= 1)


def unbeaten_of(view: SeatView) -> list[int]:
    """The attack cards on the table still to beat, by index."""
    return [attack.index for attack, defence in view.table if defence is None]


def table_mask(view: SeatView) -> int:
    """Every card on the table, attacks and defences."""
    mask = 0
    for attack, defence in view.table:
        mask |= attack.bit
        if defence is not None:
            mask |= defence.bit
    return mask


def unseen_pool(view: SeatView, discard: int) -> int:
    """Cards whose place ``view.seat`` does not know: another hand's unknown cards or the
    stock (the face-up trump card under the stock is known, so it is excluded)."""
    pool = deck_mask(view.rules.deck_size) & ~discard & ~mask_of(view.hand) & ~table_mask(view)
    for cards in view.known:
        pool &= ~mask_of(cards)
    if view.stock_size:
        pool &= ~view.trump_card.bit
    return pool


def beat_chance(
    target: int, trump: int, known: int, pool: int, pool_slots: int, hidden: int
) -> float:
    """The chance that a hand with ``known`` cards and ``hidden`` unknown ones (drawn from the
    ``pool`` whose cards fill ``pool_slots`` places) holds a card that beats ``target``."""
    beaters = beaters_mask(trump, target)
    if known & beaters:
        return 1.0
    good = (pool & beaters).bit_count()
    if not good or hidden <= 0:
        return 0.0
    size = max(pool_slots, pool.bit_count())
    miss = 1.0
    for i in range(hidden):
        if size - i <= 0:
            break
        miss *= max(size - good - i, 0) / (size - i)
    return 1.0 - miss


class RememberingBot(Bot):
    """A bot that keeps a ``Memory`` of the events its seat was told."""

    def __init__(self, seat: int, rules: Rules, seed: int) -> None:
        super().__init__(seat, rules, seed)
        self.memory = Memory()

    def see(self, event: Event) -> None:
        self.memory.see(event)
