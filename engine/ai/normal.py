"""Normal: saves trumps, throws in what the defender probably cannot beat, weighs the stock.

- Leads its cheapest plain (non-trump) card, preferring one the defender probably cannot
  beat (an estimate from the cards it has not seen: the discard it remembers, the table,
  cards known to be in other hands), with its cheap twins of the same rank; once the stock
  is empty it leads the rank it holds most of, to shed cards fast. A trump only when it
  holds nothing else.
- Throws in the low plain cards the defender is least likely to beat, and trumps too once
  the stock is nearly gone (every card shed then counts); gives a taker only its junk while
  the stock lasts.
- Defends with the cheapest cover, but while the stock is large it takes a few cheap cards
  rather than spend a high trump (or two); it transfers with a plain card and shows a
  trump when the variant allows.

The thresholds were tuned with ``durak arena normal easy``."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..actions import PASS, TAKE, Action, Attack, Take, ThrowIn, attack_of_mask
from ..cards import SAME_RANK, SUIT_MASKS, bits, mask_of
from ..view import SeatView
from .tactics import (
    Memory,
    RememberingBot,
    beat_action,
    beat_chance,
    cheapest,
    cheapest_play,
    cover_plan,
    split_adding,
    split_defence,
    table_mask,
    unbeaten_of,
    unseen_pool,
    value,
)

__all__ = ["NormalBot", "normal_action", "normal_choice"]

Chance = Callable[[int], float]

TRUMP_THROW_STOCK = 3  # with this few cards left in the stock, trumps are thrown in too
THROW_WEIGHT = 4.0  # how much a card the defender probably cannot beat is preferred


def _no_idea(_target: int) -> float:
    return 0.5


def normal_action(
    legal: Sequence[Action],
    hand: int,
    trump: int,
    unbeaten: Sequence[int],
    table: int,
    *,
    stock: int,
    taking: bool,
    chance: Chance = _no_idea,
) -> Action:
    """Normal's choice among ``legal``. ``table`` is the mask of every card on the table;
    ``chance(card)`` estimates whether the defender can beat ``card``."""
    if type(legal[0]) is Attack:
        return _lead(legal, hand, trump, stock, chance)
    if unbeaten and any(type(a) is Take for a in legal):
        return _defend(legal, hand, trump, unbeaten, table, stock)
    throws, can_pass = split_adding(legal)
    choice = _throw(throws, trump, stock, taking, chance)
    if choice is not None:
        return choice
    return PASS if can_pass else cheapest_play(throws, trump)


def _lead(legal: Sequence[Action], hand: int, trump: int, stock: int, chance: Chance) -> Action:
    plain = hand & ~SUIT_MASKS[trump]
    if not plain:
        return attack_of_mask(1 << cheapest(hand, trump))
    cards = list(bits(plain))
    if stock and chance is _no_idea:  # the same for every card: the cheapest (playouts)
        card = cheapest(plain, trump)
    elif stock:  # cheap, and what the defender may not be able to beat
        card = min(cards, key=lambda i: value(i, trump) - 8 * (1 - chance(i)))
    else:  # the endgame: shed as many cards at once as possible
        card = min(cards, key=lambda i: value(i, trump) - 10 * (plain & SAME_RANK[i]).bit_count())
    rank = card % 13 + 2
    group = plain & SAME_RANK[card]
    if group.bit_count() > 1 and (rank <= 10 or not stock):
        attack = attack_of_mask(group)
        if attack in legal:
            return attack
    return attack_of_mask(1 << card)


def _throw(
    throws: Sequence[ThrowIn], trump: int, stock: int, taking: bool, chance: Chance
) -> ThrowIn | None:
    if taking:  # a gift: only junk while the stock lasts, anything plain at the end
        gifts = [t for t in throws if t.card.suit != trump and (not stock or t.card.rank <= 9)]
        return min(gifts, key=lambda t: t.card.rank) if gifts else None
    # Near the end every card shed counts: trumps go in too once the stock is nearly gone.
    candidates = [t for t in throws if t.card.suit != trump or stock <= TRUMP_THROW_STOCK]
    if not candidates:
        return None
    return min(candidates, key=lambda t: t.card.rank - THROW_WEIGHT * (1 - chance(t.card.index)))


def _defend(
    legal: Sequence[Action],
    hand: int,
    trump: int,
    unbeaten: Sequence[int],
    table: int,
    stock: int,
) -> Action:
    transfers, shows = split_defence(legal)
    if shows:
        return shows[0]
    plain_transfers = [t for t in transfers if t.card.suit != trump]
    if plain_transfers:
        return cheapest_play(plain_transfers, trump)
    plan = cover_plan(hand, trump, unbeaten)
    if plan is None:
        if transfers:
            return cheapest_play(transfers, trump)
        return TAKE

    if stock >= 8 and _cheap_to_take(plan, trump, table):
        return TAKE
    return beat_action(*plan[0])


def _cheap_to_take(plan: Sequence[tuple[int, int]], trump: int, table: int) -> bool:
    """Early on, a few low plain cards are cheaper to take than a high trump (or two)."""
    trumps = [card for card, _ in plan if card // 13 == trump]
    if not trumps or (len(trumps) < 2 and max(c % 13 + 2 for c in trumps) < 12):
        return False
    return table.bit_count() <= 3 and all(
        i // 13 != trump and i % 13 + 2 <= 10 for i in bits(table)
    )


def view_chance(view: SeatView, memory: Memory) -> Chance:
    """The defender's chance to beat a card, from what ``view.seat`` has seen."""
    defender = view.defender
    known = mask_of(view.known[defender])
    hidden = view.hand_sizes[defender] - len(view.known[defender])
    pool = unseen_pool(view, memory.discard)
    slots = pool.bit_count()
    trump = view.trump

    def chance(target: int) -> float:
        return beat_chance(target, trump, known, pool, slots, hidden)

    return chance


def normal_choice(view: SeatView, memory: Memory) -> Action:
    """Normal's choice in ``view``, with what its seat remembers in ``memory``."""
    chance = _no_idea if view.seat == view.defender else view_chance(view, memory)
    return normal_action(
        view.legal,
        mask_of(view.hand),
        view.trump,
        unbeaten_of(view),
        table_mask(view),
        stock=view.stock_size,
        taking=view.taking,
        chance=chance,
    )


class NormalBot(RememberingBot):
    level = "normal"

    def decide(self, view: SeatView) -> Action:
        return normal_choice(view, self.memory)
