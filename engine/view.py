"""What one seat may know, and what anyone may see from outside the seats: the only
pictures of a game that leave the engine.

A seat's view (``observe``) holds the seat's own hand, every card that is face up or
publicly known to be in a hand (the trump card, the table, cards a taker picked up, a shown
trump), each hand's size, the stock's and the discard pile's sizes, and the seat's legal
actions with the reason each other card of its hand cannot be played. Never another hand's
unseen cards, the stock's order or the seed.

The public view (``observe_public``, for a watcher) is what every seat's view has in
common: the same public cards and sizes, with no hand, no legal actions and no hints. It
holds nothing a seat could not see from outside its own hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .cards import CARDS, Card, Suit, cards_of
from .events import GameResult
from .legality import card_reason
from .phase import Phase
from .pickling import pickle_by_fields
from .position import Position
from .reasons import Reason
from .rules import Rules

__all__ = ["PublicView", "SeatView", "observe", "observe_public"]


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    rules: Rules
    phase: Phase
    trump: Suit
    trump_card: Card
    stock_size: int
    discard_size: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    known: tuple[tuple[Card, ...], ...]
    table: tuple[tuple[Card, Card | None], ...]
    attacker: int
    defender: int
    limit: int
    taking: bool
    passed: tuple[int, ...]
    shown: tuple[int, ...]
    throwers: tuple[int, ...]
    places: tuple[int, ...]
    result: GameResult | None
    legal: tuple[Action, ...]
    hints: tuple[tuple[Card, Reason], ...]

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    def hint(self, card: Card) -> Reason | None:
        """Why ``card`` cannot be played now (None if it can)."""
        return dict(self.hints).get(card)


@dataclass(frozen=True, slots=True)
class PublicView:
    """A game as a watcher sees it: ``known`` lists every seat's publicly known cards."""

    rules: Rules
    phase: Phase
    trump: Suit
    trump_card: Card
    stock_size: int
    discard_size: int
    hand_sizes: tuple[int, ...]
    known: tuple[tuple[Card, ...], ...]
    table: tuple[tuple[Card, Card | None], ...]
    attacker: int
    defender: int
    limit: int
    taking: bool
    passed: tuple[int, ...]
    shown: tuple[int, ...]
    throwers: tuple[int, ...]
    places: tuple[int, ...]
    result: GameResult | None

    @property
    def players(self) -> int:
        return len(self.hand_sizes)


def _seats(mask: int, players: int) -> tuple[int, ...]:
    return tuple(s for s in range(players) if mask >> s & 1)


def observe_public(state: Position) -> PublicView:
    """The game as anyone outside the seats may see it (no hand, no legal actions)."""
    n = state.players
    return PublicView(
        rules=state.rules,
        phase=state.phase,
        trump=state.trump,
        trump_card=CARDS[state.trump_card],
        stock_size=len(state.stock),
        discard_size=state.discard.bit_count(),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        known=tuple(cards_of(state.known[s]) for s in range(n)),
        table=state.table,
        attacker=state.attacker,
        defender=state.defender,
        limit=state.limit,
        taking=state.taking,
        passed=_seats(state.passed, n),
        shown=_seats(state.shown, n),
        throwers=_seats(state.throwers, n),
        places=tuple(state.places),
        result=state.result,
    )


def observe(state: Position, seat: int) -> SeatView:
    n = state.players
    if not 0 <= seat < n:
        raise ValueError(f"no seat {seat} at a {n}-player table")
    hand = state.hand(seat)
    hints = tuple(
        (card, reason) for card in hand if (reason := card_reason(state, seat, card)) is not None
    )
    known = tuple(cards_of(state.known[s]) if s != seat else () for s in range(n))
    return SeatView(
        seat=seat,
        rules=state.rules,
        phase=state.phase,
        trump=state.trump,
        trump_card=CARDS[state.trump_card],
        stock_size=len(state.stock),
        discard_size=state.discard.bit_count(),
        hand=hand,
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        known=known,
        table=state.table,
        attacker=state.attacker,
        defender=state.defender,
        limit=state.limit,
        taking=state.taking,
        passed=_seats(state.passed, n),
        shown=_seats(state.shown, n),
        throwers=_seats(state.throwers, n),
        places=tuple(state.places),
        result=state.result,
        legal=tuple(state.legal_actions(seat)),
        hints=hints,
    )


pickle_by_fields(SeatView, PublicView)
