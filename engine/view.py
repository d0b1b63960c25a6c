"""What one seat may know: the only picture of a game that leaves the engine for a player.

A view holds the seat's own hand, every card that is face up or publicly known to be in a
hand (the trump card, the table, cards a taker picked up, a shown trump), each hand's size,
the stock's and the discard pile's sizes, and the seat's legal actions with the reason each
other card of its hand cannot be played. Never another hand's unseen cards, the stock's
order or the seed.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .cards import CARDS, Card, Suit, cards_of
from .events import GameResult
from .reasons import Reason
from .rules import Rules
from .state import GameState, Phase

__all__ = ["SeatView", "observe"]


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


def _seats(mask: int, players: int) -> tuple[int, ...]:
    return tuple(s for s in range(players) if mask >> s & 1)


def observe(state: GameState, seat: int) -> SeatView:
    n = state.players
    if not 0 <= seat < n:
        raise ValueError(f"no seat {seat} at a {n}-player table")
    hand = state.hand(seat)
    hints = tuple(
        (card, reason) for card in hand if (reason := state.card_reason(seat, card)) is not None
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
