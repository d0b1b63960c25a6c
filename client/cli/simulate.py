"""``durak simulate``: random-legal games, headless, and a summary of how they went."""

from __future__ import annotations

import argparse
import random
import statistics
import time

from client.cli.options import add_rules_options, positive_int, rules_from_args
from client.cli.progress import Progress
from engine import new_game
from engine.playout import random_playout


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=int, default=2, help="2 to 6 (default 2)")
    parser.add_argument("--games", type=positive_int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    add_rules_options(parser)


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args, args.players)
    seeds = random.Random(args.seed)
    durak_count = [0] * rules.players
    draws = 0
    lengths: list[int] = []
    progress = Progress(args.games, "simulate")
    started = time.perf_counter()
    for number in range(args.games):
        game_seed = seeds.getrandbits(64)
        state = new_game(rules, game_seed)
        lengths.append(random_playout(state, random.Random(game_seed)))
        assert state.result is not None
        if state.result.durak is None:
            draws += 1
        else:
            durak_count[state.result.durak] += 1
        progress.update(number + 1)
    progress.close()
    elapsed = time.perf_counter() - started
    print(f"{args.games} games, {rules.players} players, {rules.summary}, seed {args.seed}")
    print(
        f"actions per game: mean {statistics.fmean(lengths):.1f}, "
        f"min {min(lengths)}, max {max(lengths)}"
    )
    print(f"draws: {draws} ({draws / args.games:.1%})")
    for seat, count in enumerate(durak_count):
        print(f"seat {seat} was the Durak {count} times ({count / args.games:.1%})")
    print(f"{args.games / elapsed:.0f} games/s, {sum(lengths) / elapsed:.0f} actions/s")
    return 0
