"""Engine speed: random-legal games through the public API (run by hand, not by CI).

    python tests/benchmarks/engine_speed.py [--seconds S]

Plays games of 2, 4 and 6 players (36 cards; 52 for 6 so that a stock remains) on one
core, choosing uniformly among every seat's legal actions, and prints games/s and
actions/s. The last line is exactly ``games_per_s_2p=<number>``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import Rules, new_game


def measure(players: int, seconds: float) -> tuple[float, float]:
    rules = Rules(players=players, deck_size=36 if players < 6 else 52)
    rng = random.Random(players)
    games = actions = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = new_game(rules, rng.getrandbits(32))
        seats = range(players)
        while not state.is_over:
            moves = [(s, a) for s in seats for a in state.legal_actions(s)]
            seat, action = moves[rng.randrange(len(moves))]
            state.apply(seat, action)
            actions += 1
        games += 1
    elapsed = time.perf_counter() - started
    return games / elapsed, actions / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per player count")
    args = parser.parse_args()
    results = {}
    for players in (2, 4, 6):
        games, actions = measure(players, args.seconds)
        results[players] = games
        print(f"{players} players: {games:8.0f} games/s {actions:10.0f} actions/s")
    print(f"games_per_s_2p={results[2]:.0f}")


if __name__ == "__main__":
    main()
