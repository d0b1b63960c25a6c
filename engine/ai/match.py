"""Playing a game between bots, the way a host drives a table.

Several seats may act at once in Durak (the attackers add cards while the defender is
still beating). The driver asks one seat at a time in a fixed order — the defender first,
then the others clockwise from the attacker — applies that seat's action, and looks again
from the start, so every decision is taken on a fresh view and a run is reproducible. An
attacker is thus asked to add (or pass) once the defender has answered: adding later never
costs an attacker anything it could have done earlier, and the bots plan with the same
convention (see ``engine.ai.solver``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..actions import Action
from ..events import GameResult, trim
from ..state import GameState
from ..view import observe
from .base import Bot

__all__ = ["GameRecord", "next_actor", "play_game"]


def next_actor(state: GameState) -> tuple[int, list[Action]] | None:
    """The seat the driver asks next and its legal actions (None when the game is over)."""
    if state.is_over:
        return None
    defender = state.defender
    legal = state.legal_actions(defender)
    if legal:
        return defender, legal
    n = state.players
    for step in range(n):
        seat = (state.attacker + step) % n
        if seat != defender:
            legal = state.legal_actions(seat)
            if legal:
                return seat, legal
    raise RuntimeError("no seat has a legal action in a game that is not over")


@dataclass
class GameRecord:
    """How a game went: its result, the actions played, each seat's decision times (s)."""

    result: GameResult
    actions: int = 0
    times: list[list[float]] = field(default_factory=list)


def play_game(
    state: GameState,
    bots: Sequence[Bot],
    *,
    clock: Callable[[], float] = time.perf_counter,
    max_actions: int = 20_000,
) -> GameRecord:
    """Play ``state`` to the end with one bot per seat; every bot is told its events."""
    n = state.players
    times: list[list[float]] = [[] for _ in range(n)]
    for event in state.opening:
        for seat in range(n):
            bots[seat].see(trim(event, seat))
    played = 0
    while (actor := next_actor(state)) is not None:
        if played >= max_actions:
            raise RuntimeError(f"the game did not end within {max_actions} actions")
        seat = actor[0]
        view = observe(state, seat)
        started = clock()
        action = bots[seat].decide(view)
        times[seat].append(clock() - started)
        events = state.apply(seat, action)  # IllegalAction if the bot broke the rules
        played += 1
        for event in events:
            for other in range(n):
                bots[other].see(trim(event, other))
    assert state.result is not None
    return GameRecord(state.result, played, times)
