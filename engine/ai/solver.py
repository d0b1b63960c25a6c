"""The exact solver for the heads-up endgame: two players, every card known — the stock is
empty, or holds only the face-up trump card (whoever draws next takes it).

Then Durak is a two-player game of perfect information, and alpha-beta search with a
transposition table finds its value: 1 (the solver's seat is not the Durak), 1/2 (a draw)
or 0 (it is the Durak).

Several seats may act at once in a bout (the attacker adding cards while the defender is
still beating). The search uses the driver's sequential convention (``engine.ai.match``):
whenever the defender has a legal action, the defender moves; the attacker adds or passes
once the defender has answered (every card is beaten, or the defender takes). Adding
later never takes an option away from the attacker — the ranks on the table only grow and
the bout's limit does not change — so this is the attacker's best timing, and it is the
order in which the bots are asked at a real table.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..actions import Action
from ..state import GameState
from .match import next_actor

__all__ = ["SearchAborted", "Solver", "brute_force", "outcome", "solvable"]

Key = tuple[object, ...]

# Cards can go round for ever (each player taking in turn): a line that comes back to a
# position already on it is scored as a draw, as a repetition is in chess.
REPETITION = 0.5


class SearchAborted(Exception):
    """The position needed more nodes (or time) than the solver was given."""


def solvable(state: GameState) -> bool:
    """Heads-up (two seats still in), at most the face-up trump left in the stock, the
    game not over."""
    return (
        not state.is_over and len(state.stock) <= 1 and sum(1 for p in state.places if not p) == 2
    )


def outcome(state: GameState, seat: int) -> float:
    """A finished game's score for ``seat``: 1 not the Durak, 1/2 a draw, 0 the Durak."""
    assert state.result is not None
    durak = state.result.durak
    return 0.5 if durak is None else 0.0 if durak == seat else 1.0


class Solver:
    """Alpha-beta with a transposition table of value bounds, for one seat's point of view.

    ``order`` may sort each node's moves (best first) to prune more; the values found do
    not depend on it. ``deadline`` is a time on ``clock``.
    """

    def __init__(
        self,
        seat: int,
        *,
        max_nodes: int = 200_000,
        deadline: float | None = None,
        order: Callable[[GameState, int, list[Action]], list[Action]] | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.seat = seat
        self.clock = clock
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.order = order
        self.nodes = 0
        self.repetitions = 0
        self.path: set[Key] = set()
        self.table: dict[Key, tuple[float, float]] = {}

    def solve(self, state: GameState) -> tuple[float, list[tuple[Action, float]]]:
        """The position's value and each root move's value (moves of the seat to act).

        Raises ``SearchAborted`` when the node or time budget runs out.
        """
        actor = next_actor(state)
        if actor is None:
            return outcome(state, self.seat), []
        seat, legal = actor
        moves = self.order(state, seat, legal) if self.order else legal
        values: list[tuple[Action, float]] = []
        for action in moves:
            child = state.copy()
            child.apply(seat, action)
            values.append((action, self._search(child, 0.0, 1.0)))
        pick = max if seat == self.seat else min
        return pick(v for _, v in values), values

    def value(self, state: GameState, alpha: float = 0.0, beta: float = 1.0) -> float:
        """The position's value if it lies strictly between ``alpha`` and ``beta``; else a
        bound on the same side (at most ``alpha``, at least ``beta``)."""
        return self._search(state, alpha, beta)

    def _search(self, state: GameState, alpha: float, beta: float) -> float:
        if state.is_over:
            return outcome(state, self.seat)
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise SearchAborted(f"more than {self.max_nodes} nodes")
        if self.deadline is not None and self.nodes & 255 == 0 and self.clock() > self.deadline:
            raise SearchAborted("out of time")
        key = state.key()
        if key in self.path:
            self.repetitions += 1
            return REPETITION
        low, high = self.table.get(key, (0.0, 1.0))
        if low >= beta:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        start_alpha, start_beta = alpha, beta
        actor = next_actor(state)
        assert actor is not None
        seat, legal = actor
        moves = self.order(state, seat, legal) if self.order else legal
        repetitions = self.repetitions
        self.path.add(key)
        if seat == self.seat:
            best = 0.0
            for action in moves:
                child = state.copy()
                child.push(seat, action)
                best = max(best, self._search(child, alpha, beta))
                alpha = max(alpha, best)
                if alpha >= beta:
                    break
        else:
            best = 1.0
            for action in moves:
                child = state.copy()
                child.push(seat, action)
                best = min(best, self._search(child, alpha, beta))
                beta = min(beta, best)
                if alpha >= beta:
                    break
        self.path.discard(key)
        if self.repetitions != repetitions:
            return best  # the value depends on the path that led here: not for the table
        if best <= start_alpha:
            self.table[key] = (low, min(high, best))
        elif best >= start_beta:
            self.table[key] = (max(low, best), high)
        else:
            self.table[key] = (best, best)
        return best


def brute_force(state: GameState, seat: int, path: frozenset[Key] = frozenset()) -> float:
    """Plain minimax over every line (no pruning, no table): the reference for tests."""
    if state.is_over:
        return outcome(state, seat)
    key = state.key()
    if key in path:
        return REPETITION
    actor = next_actor(state)
    assert actor is not None
    mover, legal = actor
    values = []
    for action in legal:
        child = state.copy()
        child.apply(mover, action)
        values.append(brute_force(child, seat, path | {key}))
    return max(values) if mover == seat else min(values)
