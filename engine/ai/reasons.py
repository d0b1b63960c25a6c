"""Why the coach flagged a move: one reason a player understands, as a code and its
numbers, for the window and ``durak review`` to put in words.

A percentage alone ("40 % → 59 %") says that a move was worse, not why, and a player who
is not told why does not learn. The reason is read from what the coach's search saw, in
this order (the first that holds is given):

- ``solved``: every card was known (heads-up, the stock empty or down to its face-up
  trump) and the coach counted the ending out exactly.
- ``keep_trump``: the move spent a trump where the better one spent none (or a lower
  one), with ``count`` higher trumps still in play (not in the player's hand, on the
  table or in the discard) and ``stock`` cards in the stock.
- ``take_costs``: the move took ``count`` cards where beating was better, with ``stock``
  cards left to draw.
- ``take_instead``: the move beat with ``card`` where taking was better, and ``count``
  more cards could still be thrown in.
- ``no_higher``: the better move plays ``card`` to ``seat``, who has shown (by taking a
  lower card of its suit rather than beating it: ``engine.ai.inference``) that he
  probably holds no higher one.
- ``keep_high``: the move played ``card`` (led, threw in or beat with it) where the better
  move played only lower cards or none, and only ``count`` cards still in play beat it.
- ``samples``: none of those: in the ``samples`` sampled deals the loss was measured on
  the better move left the seat not the Durak ``count`` times more often.

Pure computation on the seat's own view and memory: nothing the seat could not see.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..actions import Action, Attack, Beat, ShowTrump, Take, ThrowIn, Transfer
from ..cards import SUIT_MASKS, Card, beaters_mask, bits, deck_mask, mask_of
from ..pickling import pickle_by_fields
from ..view import SeatView
from .tactics import table_mask, value

__all__ = ["SHOWN", "Why", "WhyCode", "explain"]

SHOWN = 0.35  # every higher card of the suit this unlikely in a hand: "has shown he has none"


class WhyCode(StrEnum):
    SOLVED = "solved"
    KEEP_TRUMP = "keep_trump"
    TAKE_COSTS = "take_costs"
    TAKE_INSTEAD = "take_instead"
    NO_HIGHER = "no_higher"
    KEEP_HIGH = "keep_high"
    SAMPLES = "samples"


@dataclass(frozen=True, slots=True)
class Why:
    """A reason: its code and the numbers its sentence needs (unused ones stay empty)."""

    code: WhyCode
    card: Card | None = None
    seat: int = -1
    count: int = 0
    stock: int = 0
    samples: int = 0

    def params(self) -> dict[str, int | str]:
        """The reason's numbers by name, for a sentence or a JSON file (a card as text)."""
        out: dict[str, int | str] = {"count": self.count, "stock": self.stock}
        if self.samples:
            out["samples"] = self.samples
        if self.card is not None:
            out["card"] = str(self.card)
        if self.seat >= 0:
            out["seat"] = self.seat
        return out


def cards_of_action(action: Action) -> tuple[Card, ...]:
    """The cards a move puts on the table (none for a take, a pass or a shown trump)."""
    if isinstance(action, Attack):
        return action.cards
    if isinstance(action, Beat | ThrowIn | Transfer):
        return (action.card,)
    return ()


def out_mask(view: SeatView, discard: int) -> int:
    """Cards still out from the seat's point of view: not in its hand, on the table or in
    the discard it has seen (another hand or the stock)."""
    return deck_mask(view.rules.deck_size) & ~discard & ~mask_of(view.hand) & ~table_mask(view)


def explain(
    view: SeatView,
    discard: int,
    played: Action,
    best: Action,
    *,
    method: str,
    loss: float,
    samples: int,
    weights: Sequence[Sequence[float]] = (),
) -> Why:
    """The reason ``best`` was better than ``played`` (the seat's view before the move,
    the discard it had seen, how the coach judged it and by how much)."""
    if method == "solver":
        return Why(WhyCode.SOLVED)
    trump = view.trump
    out = out_mask(view, discard)
    spent = [c for c in cards_of_action(played) if c.suit == trump]
    if spent and not isinstance(played, ShowTrump):
        highest = max(spent, key=lambda c: c.rank)
        kept = [c for c in cards_of_action(best) if c.suit == trump]
        if not kept or max(c.rank for c in kept) < highest.rank:
            higher = sum(1 for i in bits(out & SUIT_MASKS[trump]) if i % 13 + 2 > highest.rank)
            return Why(WhyCode.KEEP_TRUMP, highest, count=higher, stock=view.stock_size)
    if isinstance(played, Take) and not isinstance(best, Take):
        taken = sum(1 + (d is not None) for _, d in view.table)
        return Why(WhyCode.TAKE_COSTS, count=taken, stock=view.stock_size)
    if isinstance(played, Beat) and isinstance(best, Take):
        more = max(0, view.limit - len(view.table))
        return Why(WhyCode.TAKE_INSTEAD, played.card, count=more)
    target = view.defender
    if weights and target != view.seat and isinstance(best, Attack | ThrowIn):
        for card in cards_of_action(best):
            higher = beaters_mask(trump, card.index) & out & ~SUIT_MASKS[trump]
            shown = all(weights[target][i] < SHOWN for i in bits(higher))
            if card.suit != trump and higher and shown:
                return Why(WhyCode.NO_HIGHER, card, seat=target)
    mine, theirs = cards_of_action(played), cards_of_action(best)
    if mine:
        top = max(mine, key=lambda c: value(c.index, trump))
        if all(value(c.index, trump) < value(top.index, trump) for c in theirs):
            beaten_by = (beaters_mask(trump, top.index) & out).bit_count()
            return Why(WhyCode.KEEP_HIGH, top, count=beaten_by)
    return Why(WhyCode.SAMPLES, count=max(1, round(loss * samples)), samples=samples)


pickle_by_fields(Why)
