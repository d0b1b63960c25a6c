"""Hard's reading of hands (``engine.ai.inference``): what a seat learns from the other
players' moves, and how it weights the hidden cards it samples.

The positions are written in the engine's notation; the moves are played through the
engine and the reading is told exactly the trimmed events seat 0 would hear.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine import GameState, observe, parse_action, trim
from engine.ai.determinize import sample_state
from engine.ai.inference import CLOSED, TOOK_SUIT, TOOK_TRUMP, HandReading
from engine.ai.tactics import Memory
from engine.cards import RANK_MASKS, SUIT_MASKS, Card, mask_of
from engine.events import Drew

SAMPLES = 300

# Three players, spades trump. Seat 0 is to lead the six of hearts, seat 1 beats it with
# the nine, and seat 2, who may throw in, holds no six and no nine.
THREE = (
    "rules=36 hands=6h7c8cJdQdKd/9hTcJcQc7d8d/7hThJhQhKhAh "
    "stock=6c9cKcAc6d9dTdAd8h6s7s8s9sTsJsQsKsAs trump=As table=- discard=- "
    "attacker=0 defender=1 leader=0 dealer=2 phase=lead cap=6 held=6 taking=no passed=- "
    "shown=- throwers=0,2 places=0,0,0 result=- moves=12 seen=-"
)

# Two players, spades trump. Seat 0 is to lead the seven of hearts; seat 1 holds no heart
# (only the six of trumps would beat it) and takes.
TWO = (
    "rules=36 hands=7h8cJdQdKd6c/9cTcJc7d8d6s "
    "stock=6h8h9hThJhQhKhAh6d9dTdAd7c7sQcKcAc8s9sTsJsQsKsAs trump=As table=- discard=- "
    "attacker=0 defender=1 leader=0 dealer=1 phase=lead cap=6 held=6 taking=no passed=- "
    "shown=- throwers=0 places=0,0 result=- moves=12 seen=-"
)

Hands = list[int]


def play(text: str, moves: list[tuple[int, str]]) -> tuple[GameState, Memory, HandReading]:
    """The position after ``moves``, with seat 0's memory and reading of it."""
    state = GameState.from_text(text)
    memory = Memory()
    reading = HandReading(0, state.rules)
    reading.look(observe(state, 0))
    for seat, action in moves:
        for event in state.apply(seat, parse_action(action)):
            memory.see(trim(event, 0))
            reading.see(trim(event, 0))
    return state, memory, reading


def frequency(
    state: GameState, memory: Memory, reading: HandReading | None, test: Callable[[Hands], float]
) -> float:
    """The mean of ``test(hands)`` over seat 0's samples of ``state`` (weighted by the
    reading, or uniform without one)."""
    rng = random.Random(3)
    view = observe(state, 0)
    weights = None if reading is None else reading.weights
    total = 0.0
    for _ in range(SAMPLES):
        total += test(sample_state(view, memory, rng, weights).hands)
    return total / SAMPLES


def cards(*names: str) -> int:
    return mask_of(Card.parse(name) for name in names)


def test_a_seat_that_let_the_bout_close_without_passing_held_none_of_its_ranks() -> None:
    state, memory, reading = play(THREE, [(0, "attack 6h"), (1, "beat 6h with 9h")])
    assert state.discard == cards("6h", "9h")  # the bout closed at once: nobody could add
    sixes_nines = RANK_MASKS[6] | RANK_MASKS[9]
    assert all(reading.weight(2, c) == CLOSED for c in range(52) if sixes_nines >> c & 1)
    assert all(reading.weight(1, c) == 1.0 for c in range(52))  # the defender: no reading

    def holds_one(hands: Hands) -> float:
        return bool(hands[2] & sixes_nines)

    # Five sixes and nines are unseen (6d 6s 9c 9d 9s) among 27 cards: a uniform deal gives
    # seat 2 one of them about three times in four, the weighted one hardly ever.
    assert frequency(state, memory, None, holds_one) > 0.6
    assert frequency(state, memory, reading, holds_one) < 0.1
    # Seat 1 was not read: it gets those cards more often instead, never fewer.
    assert frequency(state, memory, reading, lambda h: bool(h[1] & sixes_nines)) > 0.6


def test_a_taker_is_sampled_with_fewer_cards_that_would_have_beaten_the_lead() -> None:
    state, memory, reading = play(TWO, [(0, "attack 7h"), (1, "take")])
    assert state.hands[1] >> Card.parse("7h").index & 1  # picked up
    higher_hearts = cards("8h", "9h", "Th", "Jh", "Qh", "Kh", "Ah")
    trumps = SUIT_MASKS[Card.parse("As").suit]
    assert all(reading.weight(1, c) == TOOK_SUIT for c in range(52) if higher_hearts >> c & 1)
    assert all(reading.weight(1, c) == TOOK_TRUMP for c in range(52) if trumps >> c & 1)

    def hearts(hands: Hands) -> float:
        return (hands[1] & higher_hearts).bit_count()

    uniform = frequency(state, memory, None, hearts)
    weighted = frequency(state, memory, reading, hearts)
    assert weighted < 0.6 * uniform
    # What the view proves stays put: seat 0's hand, the seven seat 1 picked up.
    sample = sample_state(observe(state, 0), memory, random.Random(1), reading.weights)
    assert sample.hands[0] == state.hands[0]
    assert sample.hands[1] & cards("7h")


def test_drawing_cards_brings_the_weights_back_towards_even() -> None:
    _, _, reading = play(TWO, [(0, "attack 7h"), (1, "take")])
    ace = Card.parse("Ah").index
    reading.see(Drew(1, 3, None))  # half a hand of new cards
    assert reading.weight(1, ace) == TOOK_SUIT + (1 - TOOK_SUIT) / 2
    reading.see(Drew(1, 6, None))  # a whole new hand: nothing is known any more
    assert reading.weight(1, ace) == 1.0
