"""Seeded games, played to the end and written down, against the digest of their record.

What the engine decides must not change when it is made faster or compiled (mypyc): every
action, every event and every final position of these games, and every choice of the AI
levels (Hard searching a fixed number of samples, with no clock), are folded into one
digest pinned here. It was taken from the engine before the work for compiling it; CI
runs this module against the pure engine and against a compiled build alike. A change
that means to alter play updates the digest and says why in its commit.
"""

from __future__ import annotations

import hashlib
import random

import pytest
from test_properties import ALL_RULES

from engine import GameState, new_game, trim
from engine.ai import EasyBot, HardBot, NormalBot, RandomBot, next_actor
from engine.ai.base import Bot
from engine.playout import random_move
from engine.rules import Rules
from engine.view import observe

RANDOM_GAMES = 4  # per rules variant, one in every RULES_STEP of them
RULES_STEP = 5
HARD_SAMPLES = 12  # per decision: a short search, fully determined by the seed

RANDOM_DIGEST = "f68d20c2fc0c2de8"
BOTS_DIGEST = "c37477305cd3fb20"


def random_games_record() -> str:
    """Uniformly random games over every fifth rules variant, each seat's legal actions
    asked each turn (as the engine benchmark plays them)."""
    lines: list[str] = []
    for number, rules in enumerate(ALL_RULES[::RULES_STEP]):
        for k in range(RANDOM_GAMES):
            seed = number * 100 + k
            state = new_game(rules, seed)
            rng = random.Random(seed)
            lines.extend(map(repr, state.opening))
            while not state.is_over:
                seat, action = random_move(state, rng)
                lines.append(f"{seat} {action} {state.apply(seat, action)!r}")
            lines.append(state.to_text())
    return "\n".join(lines)


def bot_games_record() -> str:
    """Games between the AI levels, every decision written down with its seat."""
    tables: list[tuple[Rules, int, tuple[type[Bot], ...]]] = [
        (Rules(), 3, (NormalBot, HardBot)),
        (Rules(), 2, (HardBot, EasyBot)),
        (Rules(players=3, transfer=True), 7, (HardBot, NormalBot, RandomBot)),
        (Rules(players=4, deck_size=52), 4, (EasyBot, HardBot, NormalBot, HardBot)),
    ]
    lines: list[str] = []
    for rules, seed, levels in tables:
        bots = [
            HardBot(seat, rules, seed + seat, budget=None, iterations=HARD_SAMPLES)
            if level is HardBot
            else level(seat, rules, seed + seat)
            for seat, level in enumerate(levels)
        ]
        lines.append(play(new_game(rules, seed), bots))
    return "\n".join(lines)


def play(state: GameState, bots: list[Bot]) -> str:
    """The game played by ``bots`` as the match driver plays it, as text."""
    n = state.players
    lines: list[str] = []
    for event in state.opening:
        for seat in range(n):
            bots[seat].see(trim(event, seat))
    while (actor := next_actor(state)) is not None:
        seat = actor[0]
        action = bots[seat].decide(observe(state, seat))
        lines.append(f"{seat} {action}")
        for event in state.apply(seat, action):
            for other in range(n):
                bots[other].see(trim(event, other))
    lines.append(state.to_text())
    return "\n".join(lines)


def digest(record: str) -> str:
    return hashlib.sha256(record.encode()).hexdigest()[:16]


def test_seeded_random_games_are_played_as_they_always_were() -> None:
    assert digest(random_games_record()) == RANDOM_DIGEST


@pytest.mark.slow
def test_the_ai_levels_choose_as_they_always_did() -> None:
    assert digest(bot_games_record()) == BOTS_DIGEST
