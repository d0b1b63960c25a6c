"""Perft: the size of the legal-action tree from fixed positions, pinned.

As chess engines count the nodes of the move tree to a small depth from known positions, so
any change to move generation, ``apply`` or the bout's flow that plays a different game
shows up as a different count. A move here is any seat's legal action (several seats may
act at once, as at a real table); a finished game has no moves. The counts were taken from
this engine, and the small depths are checked against an independent enumeration that asks
``check`` about every action that could be written down.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from engine import (
    CARDS,
    Action,
    Attack,
    Beat,
    GameState,
    Pass,
    ShowTrump,
    Take,
    ThrowIn,
    Transfer,
)
from engine.cards import SAME_RANK, bits, cards_of

POSITIONS = {
    # Three players, the deal of new_game(Rules(players=3), 7): seat 1 leads, having shown
    # the lowest trump (7c).
    "a first bout": (
        "rules=36 hands=9cQcTdAd6h8h/7c*Tc6dJsQsAs/8c8dKd9hKhAh"
        " stock=9s7h6cQdKsTh7s9dJdJhAc6s8sJc7dQhTsKc trump=Kc table=- discard=-"
        " attacker=1 defender=2 leader=1 dealer=2 phase=lead cap=5 held=6 taking=no"
        " passed=- shown=- throwers=0,1 places=0,0,0 result=- moves=0"
        " seen=1:5:9cQcTdAd6h8h/7cTc6dJsQsAs/8c8dKd9hKhAh",
        [6, 17, 65, 274, 1164],
    ),
    # Four players: three kings on the table, one beaten; seats 0, 2 and 3 may add.
    "a bout with throw-ins": (
        "rules=36 hands=6hJhQh6s/Qc7dAdThQs/7c8c8d*8h*8sJs/9c*Tc*JcKcAc9d*Ah*9sTs*As*"
        " stock=9hJd7h6cTd trump=Td table=Kd,Kh:6d,Ks discard=Qd7s attacker=0 defender=1"
        " leader=0 dealer=3 phase=open cap=6 held=6 taking=no passed=- shown=-"
        " throwers=0,2,3 places=0,0,0,0 result=- moves=21"
        " seen=0:6:Kd6hJhQhKh6sKs/Qc6d7dAdThQs/7c8c8d8h8sJs/9cTcJcKcAc9dAh9sTsAs",
        [7, 53, 396, 2950],
    ),
    # Four players, transfer and show-trump: seat 1 led the 8h, seat 2 passed it on with
    # the 8s, and seat 3 can pass it on again (8d) to seat 0.
    "a transfer chain": (
        "rules=36,transfer,show-trump hands=6hJhQh6sTsKs/Qc6d*9dAh7s/7c8c9cQdJs/TcAc8dKdKhAs"
        " stock=7dJcKc9sQsAdTh9hJd7h6cTd trump=Td table=8h,8s discard=- attacker=2"
        " defender=3 leader=1 dealer=3 phase=open cap=5 held=6 taking=no passed=- shown=-"
        " throwers=0,1,2 places=0,0,0,0 result=- moves=2"
        " seen=1:5:6hJhQh6sTsKs/Qc6d9d8hAh7s/7c8c9cQd8sJs/TcAc8dKdKhAs",
        [10, 60, 356, 1809, 9346],
    ),
    # Heads-up, the stock empty, every card known; positions have started to repeat.
    "a heads-up endgame": (
        "rules=36 hands=Td*Ad*Js*Ks*/8c*Th*Ah*6s stock=- trump=9c table=-"
        " discard=6c7c9cTcJcQcKcAc6d7d8d9dJdQdKd6h7h8h9hJhQhKh7s8s9sTsQsAs attacker=1"
        " defender=0 leader=1 dealer=1 phase=lead cap=6 held=4 taking=no passed=- shown=-"
        " throwers=1 places=0,0 result=- moves=62 seen=1:6:Ad/8cTdThAh6sJsKs;"
        "1:6:TdAd/8cThAh6sJsKs;1:6:TdAdJs/8cThAh6sKs;1:6:TdAdJsKs/8cThAh6s",
        [4, 6, 18, 34, 92, 174, 434, 698],
    ),
}


def legal_moves(state: GameState) -> list[tuple[int, Action]]:
    return [(seat, a) for seat in range(state.players) for a in state.legal_actions(seat)]


def every_writable_move(state: GameState) -> list[tuple[int, Action]]:
    """Every action that could be written for every seat (each card of the deck alone, each
    same-rank group of a hand, each card on each table card, take, pass), kept if ``check``
    allows it: move generation by another road than ``legal_actions``."""
    actions: list[Action] = [Take(), Pass()]
    for card in CARDS:
        actions += [ThrowIn(card), Transfer(card), ShowTrump(card)]
        actions += [Beat(card, CARDS[target]) for target in state.attacks]
    for hand in state.hands:
        for index in bits(hand):
            group = cards_of(hand & SAME_RANK[index])
            for size in range(1, len(group) + 1):
                actions += [Attack(combo) for combo in itertools.combinations(group, size)]
    unique = list(dict.fromkeys(actions))
    return [
        (seat, action)
        for seat in range(state.players)
        for action in unique
        if state.check(seat, action) is None
    ]


Moves = Callable[[GameState], list[tuple[int, Action]]]


def perft(state: GameState, depth: int, moves: Moves = legal_moves) -> int:
    if depth == 0:
        return 1
    total = 0
    for seat, action in moves(state):
        child = state.copy()
        child.apply(seat, action)
        total += perft(child, depth - 1, moves)
    return total


@pytest.mark.parametrize("name", POSITIONS)
def test_perft_counts(name: str) -> None:
    text, counts = POSITIONS[name]
    state = GameState.from_text(text)
    assert [perft(state, depth) for depth in range(1, len(counts) + 1)] == counts
    assert state.to_text() == text  # counting changed nothing


@pytest.mark.parametrize("name", POSITIONS)
def test_perft_agrees_with_check_over_every_writable_action(name: str) -> None:
    text, counts = POSITIONS[name]
    state = GameState.from_text(text)
    assert perft(state, 3, every_writable_move) == counts[2]
