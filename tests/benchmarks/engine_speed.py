"""Engine speed: random-legal games through the public API (run by hand, not by CI).

    python tests/benchmarks/engine_speed.py [--seconds S] [--beside DIR] [--cpu] [--site DIR]

Plays games of 2, 4 and 6 players (36 cards; 52 for 6 so that a stock remains) on one
core, choosing uniformly among every seat's legal actions, and prints games/s and
actions/s. The last line is exactly ``games_per_s_2p=<number>``.

``--beside DIR`` also times the Python engine of a checkout of jorisperrenet/durak (its
``python_version`` folder; fetched by hand, never part of this project) with two of its
random players, alternating with ours in rounds, and prints the ratio of 2-player games/s.
``--cpu`` counts this process's CPU time instead of wall time, which a busy machine
disturbs less. ``--site DIR`` times the engine installed in DIR instead of this checkout's
(e.g. the compiled one: ``python packaging/engine_wheel.py W && pip install --no-deps
--target DIR W/*.whl``); the first line says which engine ran.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 5  # alternations of ours and theirs with --beside


def measure(players: int, seconds: float, clock: Callable[[], float]) -> tuple[float, float]:
    from engine import Rules, new_game

    rules = Rules(players=players, deck_size=36 if players < 6 else 52)
    rng = random.Random(players)
    games = actions = 0
    started = clock()
    while clock() - started < seconds:
        state = new_game(rules, rng.getrandbits(32))
        seats = range(players)
        while not state.is_over:
            moves = [(s, a) for s in seats for a in state.legal_actions(s)]
            seat, action = moves[rng.randrange(len(moves))]
            state.apply(seat, action)
            actions += 1
        games += 1
    elapsed = clock() - started
    return games / elapsed, actions / elapsed


def their_engine(folder: Path) -> Callable[[float, Callable[[], float]], float]:
    """jorisperrenet/durak's game with two random players, as games/s over ``seconds``."""
    source = folder / "python_version"
    if not (source / "main.py").is_file():
        raise SystemExit(f"{folder} is not a checkout of jorisperrenet/durak (no python_version)")
    sys.path.insert(0, str(source))
    game_tree = importlib.import_module("main").GameTree
    random_player = importlib.import_module("players").Random

    def games_per_s(seconds: float, clock: Callable[[], float]) -> float:
        random.seed(1)  # their engine draws from the module-level generator
        games = 0
        started = clock()
        while clock() - started < seconds:
            game = game_tree([random_player("A"), random_player("B")], True, "A", print_info=False)
            while not game.is_end_state:
                game.next()
            games += 1
        return games / (clock() - started)

    return games_per_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per player count")
    parser.add_argument("--beside", type=Path, help="a checkout of jorisperrenet/durak")
    parser.add_argument("--cpu", action="store_true", help="time CPU, not wall clock")
    parser.add_argument("--site", type=Path, help="time the engine installed in this folder")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT if args.site is None else args.site.resolve()))
    import engine.state
    from engine.compiled import engine_kind

    print(f"engine: {engine_kind()} ({engine.state.__file__})")
    clock = time.process_time if args.cpu else time.perf_counter
    results = {}
    for players in (2, 4, 6):
        games, actions = measure(players, args.seconds, clock)
        results[players] = games
        print(f"{players} players: {games:8.0f} games/s {actions:10.0f} actions/s")
    if args.beside is not None:
        theirs = their_engine(args.beside)
        ours_total = theirs_total = 0.0
        for _ in range(ROUNDS):
            ours_total += measure(2, args.seconds / ROUNDS, clock)[0]
            theirs_total += theirs(args.seconds / ROUNDS, clock)
        print(
            f"beside jorisperrenet/durak, 2 players: ours {ours_total / ROUNDS:.0f} games/s,"
            f" theirs {theirs_total / ROUNDS:.0f} games/s, ratio {ours_total / theirs_total:.2f}"
        )
    print(f"games_per_s_2p={results[2]:.0f}")


if __name__ == "__main__":
    main()
