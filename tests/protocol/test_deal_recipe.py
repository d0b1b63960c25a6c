"""docs/protocol.md section 15's recipe for the deal, followed as a client in another
language would follow it: its own Mersenne Twister, its own deck and shuffle, its own deal,
written from the document with nothing of ``engine`` or ``random`` (the engine is only the
host to hold the result against). A client author who got the deal right from the text
gets these hands, this trump card and this stock."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import GameResult, Rules, new_game
from engine.cards import CARDS

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"

RANKS = "23456789TJQKA"
LOWEST = {24: "9", 36: "6", 52: "2"}  # the deck's lowest rank (section 2)
N, M = 624, 397


def twister(seed: int) -> Iterator[int]:
    """MT19937 keyed by ``seed`` as 32-bit words, least significant first (the recipe's
    step b): ``init_by_array``, then ``genrand_int32`` for ever."""
    key = []
    while True:
        key.append(seed & 0xFFFFFFFF)
        seed >>= 32
        if not seed:
            break
    state = [19650218]
    for i in range(1, N):
        state.append((1812433253 * (state[-1] ^ (state[-1] >> 30)) + i) & 0xFFFFFFFF)
    i, j = 1, 0
    for _ in range(max(N, len(key))):
        mixed = (state[i - 1] ^ (state[i - 1] >> 30)) * 1664525
        state[i] = ((state[i] ^ mixed) + key[j] + j) & 0xFFFFFFFF
        i, j = i + 1, (j + 1) % len(key)
        if i >= N:
            state[0], i = state[N - 1], 1
    for _ in range(N - 1):
        mixed = (state[i - 1] ^ (state[i - 1] >> 30)) * 1566083941
        state[i] = ((state[i] ^ mixed) - i) & 0xFFFFFFFF
        i += 1
        if i >= N:
            state[0], i = state[N - 1], 1
    state[0] = 0x80000000
    while True:
        for k in range(N):
            y = (state[k] & 0x80000000) | (state[(k + 1) % N] & 0x7FFFFFFF)
            state[k] = state[(k + M) % N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        for y in state:
            y ^= y >> 11
            y ^= (y << 7) & 0x9D2C5680
            y ^= (y << 15) & 0xEFC60000
            yield y ^ (y >> 18)


def recipe(
    deck_size: int, players: int, seed: int, dealer: int
) -> tuple[list[set[str]], list[str], str]:
    """Steps a to f: each seat's hand, the stock in drawing order (the turned card last)
    and the trump card."""
    ranks = RANKS[RANKS.index(LOWEST[deck_size]) :]
    deck = [rank + suit for suit in "cdhs" for rank in ranks]
    numbers = twister(seed)
    for top in range(len(deck) - 1, 0, -1):
        size, width = top + 1, (top + 1).bit_length()
        other = next(numbers) >> (32 - width)
        while other >= size:
            other = next(numbers) >> (32 - width)
        deck[top], deck[other] = deck[other], deck[top]
    deck.reverse()
    dealt = 6 * players
    hands: list[set[str]] = [set() for _ in range(players)]
    for position in range(dealt):
        hands[(dealer + 1 + position) % players].add(deck[position])
    if len(deck) == dealt:
        return hands, [], deck[dealt - 1]
    return hands, [*deck[dealt + 1 :], deck[dealt]], deck[dealt]


def engine_deal(
    rules: Rules, seed: int, previous: GameResult | None
) -> tuple[list[set[str]], list[str], str]:
    state = new_game(rules, seed, previous)
    hands = [{str(CARDS[i]) for i in range(52) if hand >> i & 1} for hand in state.hands]
    stock = [str(CARDS[i]) for i in reversed(state.stock)]  # (the engine draws from the end)
    return hands, stock, str(CARDS[state.trump_card])


def test_the_twister_is_the_one_python_seeds_with_an_integer() -> None:
    for seed in (0, 1, 2**32 - 1, 2**32, 6675444580024205182, 2**63 - 1):
        mine, python = twister(seed), random.Random(seed)
        assert [next(mine) for _ in range(1300)] == [python.getrandbits(32) for _ in range(1300)]


SEEDS = (
    0,
    1,
    7,
    2**32 + 5,
    6675444580024205182,
    *(random.Random(23).getrandbits(63) for _ in range(6)),
)


@pytest.mark.parametrize(
    ("deck_size", "players"), [(36, 2), (36, 3), (36, 6), (24, 2), (24, 4), (52, 5), (52, 6)]
)
def test_the_documented_recipe_gives_the_hosts_deal(deck_size: int, players: int) -> None:
    rules = Rules(players=players, deck_size=deck_size)
    for seed in SEEDS:
        first = recipe(deck_size, players, seed, dealer=players - 1)
        assert first == engine_deal(rules, seed, None)
        # In a series the previous Durak deals; after a draw the last seat again.
        places = tuple(range(1, players + 1))
        for durak in range(players):
            previous = GameResult(places, durak)
            assert recipe(deck_size, players, seed, durak) == engine_deal(rules, seed, previous)
        drawn = GameResult((1,) * players, None)
        assert first == engine_deal(rules, seed, drawn)


def test_the_documents_worked_example_deals_what_it_says() -> None:
    text = DOC.read_text(encoding="utf-8")
    example = text[text.index("seed       6675444580024205182") :]
    lines = dict(re.findall(r"^(seat \d|trump|stock)\s+(.+)$", example[:2000], re.MULTILINE))
    hands, stock, trump = recipe(36, 3, 6675444580024205182, dealer=2)
    assert [set(lines[f"seat {s}"].split()) for s in range(3)] == hands
    assert lines["stock"].split() == stock and lines["trump"] == trump
