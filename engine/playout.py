"""Random-legal play: every seat's legal actions pooled, one picked at random.

This models a table where several seats may act at once and the host takes their actions
in arrival order. Used by ``durak simulate``, the tests and the client benchmark (the AI
players' playouts follow a policy instead: ``engine.ai.hard.playout``).
"""

from __future__ import annotations

import random

from .actions import Action
from .state import GameState

__all__ = ["random_move", "random_playout"]


def random_move(state: GameState, rng: random.Random) -> tuple[int, Action]:
    """A uniformly random (seat, action) among every seat's legal actions."""
    moves = [
        (seat, action) for seat in range(state.players) for action in state.legal_actions(seat)
    ]
    if not moves:
        raise RuntimeError("no seat has a legal action in a game that is not over")
    return moves[rng.randrange(len(moves))]


def random_playout(state: GameState, rng: random.Random, max_actions: int = 10_000) -> int:
    """Play random-legal actions until the game ends; return how many were played."""
    played = 0
    while not state.is_over:
        if played >= max_actions:
            raise RuntimeError(f"the game did not end within {max_actions} actions")
        seat, action = random_move(state, rng)
        state.apply(seat, action)
        played += 1
    return played
