"""A game state consistent with what one seat knows: its view, plus sampled hidden cards.

Hard searches such states ("determinisations"). The seat's own hand, the table, the cards
publicly known to be in a hand, the discard pile it remembers and the trump card's place
at the bottom of the stock are kept; the other hands' unknown cards and the stock's order
are drawn at random from the cards the seat has not seen. Nothing of the real game is
read: the same view and memory give the same samples for the same random generator.

With ``weights`` (``engine.ai.inference``: per seat, per card, how likely that seat holds
it) each seat's unknown cards are drawn by weight instead of uniformly: every card of the
pool gets the key ``Exp(1) / weight`` and the seat takes the lowest keys (a weighted
sample without replacement), the seats with any weight below 1 first. The remaining cards
fill the other hands and the stock uniformly. A weight only makes a card rarer; it never
removes it, so any consistent deal can still be sampled.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import bits, mask_of
from ..state import GameState
from ..view import SeatView
from .tactics import Memory, unseen_pool

__all__ = ["hidden_slots", "sample_state"]


def hidden_slots(view: SeatView) -> list[int]:
    """How many unknown cards each seat holds (0 for the viewer)."""
    return [
        0 if s == view.seat else view.hand_sizes[s] - len(view.known[s])
        for s in range(view.players)
    ]


def sample_state(
    view: SeatView,
    memory: Memory,
    rng: random.Random,
    weights: Sequence[Sequence[float]] | None = None,
) -> GameState:
    """A full game state that ``view.seat`` cannot tell apart from the real one."""
    pool = unseen_pool(view, memory.discard)
    slots = hidden_slots(view)
    stock_unknown = view.stock_size - 1 if view.stock_size else 0
    unknown = list(bits(pool))
    rng.shuffle(unknown)
    # A bot that missed events knows less of the discard: the surplus went there.
    missing_discard = len(unknown) - sum(slots) - stock_unknown
    discard = memory.discard
    for _ in range(max(missing_discard, 0)):
        discard |= 1 << unknown.pop()

    known = [mask_of(cards) for cards in view.known]
    hands = known[:]
    seats = [s for s in range(view.players) if slots[s]]
    if weights is not None:
        weighted = [s for s in seats if any(weights[s][c] < 1.0 for c in unknown)]
        for s in weighted:
            row = weights[s]
            keys = sorted((rng.expovariate(1.0) / row[c], c) for c in unknown)
            taken = {c for _, c in keys[: slots[s]]}
            for c in taken:
                hands[s] |= 1 << c
            unknown = [c for c in unknown if c not in taken]
        seats = [s for s in seats if s not in weighted]
    for s in seats:
        for _ in range(slots[s]):
            hands[s] |= 1 << unknown.pop()
    hands[view.seat] |= mask_of(view.hand)
    trump_card = view.trump_card.index
    return GameState(
        view.rules,
        hands=hands,
        known=known,
        stock=[trump_card, *unknown[:stock_unknown]] if view.stock_size else [],
        trump_card=trump_card,
        discard=discard,
        attacks=[a.index for a, _ in view.table],
        defences=[d.index if d is not None else -1 for _, d in view.table],
        attacker=view.attacker,
        defender=view.defender,
        leader=view.attacker if memory.leader is None else memory.leader,
        # The view tells the bout's limit, not how it came about: any cap and hand size
        # that give the same limit play the same.
        bout_max=max(memory.bout_max(view.rules), view.limit),
        defender_start=view.limit,
        phase=view.phase,
        taking=view.taking,
        passed=sum(1 << s for s in view.passed),
        shown=sum(1 << s for s in view.shown),
        throwers=sum(1 << s for s in view.throwers),
        places=list(view.places),
        result=view.result,
    )
