"""Engine speed: random-legal games through the public API (run by hand, not by CI).

    python tests/benchmarks/engine_speed.py [--seconds S] [--beside DIR] [--cpu] [--site DIR]
        [--instructions GAMES]

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

``--instructions GAMES`` counts instead of timing: the machine instructions of GAMES
random heads-up games (a few hundred: the first games fill the engine's tables), ours
(and theirs with ``--beside``), each less those of a run that plays none (the
interpreter's start and the imports), under valgrind's cachegrind (which must be
installed: Linux or macOS). A count is the same on a busy machine, where two timed runs
of the same code can differ by a third: the measure to tell a change of a few percent.
It is not the speed (instructions differ in what they cost: the compiled engine runs
56 % of the pure one's in a game, yet takes less than half its time), so the ratio to
quote is still the timed one; the last line is then ``instructions_ratio=<number>``
(theirs per game over ours).
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from site_option import engine_site

ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 5  # alternations of ours and theirs with --beside


def engine_origin() -> str:
    """Which engine this process imports, and from where (its path set first). Not
    ``engine.compiled``'s to say: ``--site`` may hold a build of an older commit."""
    import engine.state
    from engine.compiled import engine_kind

    return f"{engine_kind()} ({engine.state.__file__})"


def our_games(players: int) -> Callable[[], int]:
    """One random-legal game of ours after another (each call plays one and returns its
    actions), every seat's legal actions pooled and one drawn."""
    from engine import Rules, new_game

    rules = Rules(players=players, deck_size=36 if players < 6 else 52)
    rng = random.Random(players)
    seats = range(players)

    def game() -> int:
        state = new_game(rules, rng.getrandbits(32))
        actions = 0
        while not state.is_over:
            moves = [(s, a) for s in seats for a in state.legal_actions(s)]
            seat, action = moves[rng.randrange(len(moves))]
            state.apply(seat, action)
            actions += 1
        return actions

    return game


def measure(players: int, seconds: float, clock: Callable[[], float]) -> tuple[float, float]:
    game = our_games(players)
    games = actions = 0
    started = clock()
    while clock() - started < seconds:
        actions += game()
        games += 1
    elapsed = clock() - started
    return games / elapsed, actions / elapsed


def their_games(folder: Path) -> Callable[[], None]:
    """jorisperrenet/durak's games with two random players, one a call. They draw from
    the module-level generator, which the caller seeds (``random.seed(1)``)."""
    source = folder / "python_version"
    if not (source / "main.py").is_file():
        raise SystemExit(f"{folder} is not a checkout of jorisperrenet/durak (no python_version)")
    sys.path.insert(0, str(source))
    game_tree = importlib.import_module("main").GameTree
    random_player = importlib.import_module("players").Random

    def game() -> None:
        play = game_tree([random_player("A"), random_player("B")], True, "A", print_info=False)
        while not play.is_end_state:
            play.next()

    return game


def their_engine(folder: Path) -> Callable[[float, Callable[[], float]], float]:
    """jorisperrenet/durak's game with two random players, as games/s over ``seconds``."""
    game = their_games(folder)

    def games_per_s(seconds: float, clock: Callable[[], float]) -> float:
        random.seed(1)  # each round the same games, as ours (``measure``)
        games = 0
        started = clock()
        while clock() - started < seconds:
            game()
            games += 1
        return games / (clock() - started)

    return games_per_s


def play(which: str, games: int, folder: Path) -> None:
    """``--play``: the games alone, for ``count`` to run under valgrind."""
    if which == "ours":
        sys.path.insert(0, str(folder))
        print(engine_origin())
        game: Callable[[], object] = our_games(2)
    else:
        game = their_games(folder)
        random.seed(1)
    for _ in range(games):
        game()


def count(which: str, games: int, folder: Path) -> tuple[float, str]:
    """The instructions of one of ``games`` heads-up games of ``which`` (``ours`` from
    ``folder``, ``theirs`` a checkout), less those of a run that plays none; and what the
    run printed (ours: which engine it imported). Every run hashes strings alike (one
    ``PYTHONHASHSEED``), so the same code counts the same to the instruction."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("--instructions needs valgrind (its cachegrind tool)")
    totals = []
    for n in (0, games):
        run = subprocess.run(
            [
                valgrind,
                "--tool=cachegrind",
                "--cache-sim=no",
                f"--cachegrind-out-file={os.devnull}",
                sys.executable,
                __file__,
                "--play",
                which,
                str(n),
                str(folder),
            ],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        refs = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
        if refs is None:
            raise SystemExit(f"no instruction count in valgrind's output:\n{run.stderr}")
        totals.append(int(refs.group(1).replace(",", "")))
    return (totals[1] - totals[0]) / games, run.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per player count")
    parser.add_argument("--beside", type=Path, help="a checkout of jorisperrenet/durak")
    parser.add_argument("--cpu", action="store_true", help="time CPU, not wall clock")
    parser.add_argument("--site", type=engine_site, help="time the engine installed in this folder")
    parser.add_argument(
        "--instructions", type=int, metavar="GAMES", help="count instructions, not time"
    )
    parser.add_argument("--play", nargs=3, help=argparse.SUPPRESS)  # what valgrind runs
    args = parser.parse_args()
    if args.play:
        which, games, folder = args.play
        play(which, int(games), Path(folder))
        return
    ours = ROOT if args.site is None else args.site
    if args.instructions:
        mine, kind = count("ours", args.instructions, ours)
        print(f"engine: {kind}")
        print(f"ours: {mine:,.0f} instructions a heads-up game")
        if args.beside is not None:
            other, _ = count("theirs", args.instructions, args.beside.resolve())
            print(f"theirs: {other:,.0f} instructions a heads-up game")
            print(f"instructions_ratio={other / mine:.3f}")
        return
    sys.path.insert(0, str(ours))
    print(f"engine: {engine_origin()}")
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
