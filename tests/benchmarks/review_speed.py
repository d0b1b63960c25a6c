"""How long the coach takes to review a whole game: a heads-up game and a 6-seat game
(Normal's policy for every seat, one move in ten at random), every decision of seat 0,
48 sampled deals each. Prints one line per table size, last ``heads_up_s= six_seat_s=``
(wall time) and ``heads_up_cpu_s= six_seat_cpu_s=`` (this process's CPU time: the figure
to compare on a loaded machine).

    python tests/benchmarks/review_speed.py [--seed S] [--site DIR]

``--site DIR`` reviews with the engine installed in DIR instead of this checkout's (the
compiled one, installed as tests/benchmarks/engine_speed.py says); the first line says
which engine ran.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from site_option import engine_site

if TYPE_CHECKING:
    from engine import GameLog, Rules

ROOT = Path(__file__).resolve().parents[2]


def played(rules: Rules, seed: int) -> GameLog:
    from engine import GameLog
    from engine.ai import next_actor
    from engine.ai.hard import policy_action

    log = GameLog(rules, seed)
    state = log.start()
    rng = random.Random(seed)
    while (actor := next_actor(state)) is not None:
        seat, legal = actor
        odd = rng.random() < 0.1
        action = legal[rng.randrange(len(legal))] if odd else policy_action(state, seat, legal)
        state.apply(seat, action)
        log.actions.append((seat, action))
    return log


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--site", type=engine_site, help="review with the engine installed here")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT if args.site is None else args.site))
    from engine import Rules
    from engine.ai.coach import decisions_from_log, review
    from engine.compiled import engine_kind

    print(f"engine: {engine_kind()} ({sys.modules['engine'].__file__})")
    took = {}
    cpu = {}
    for players in (2, 6):
        log = played(Rules(players=players), args.seed)
        decisions = decisions_from_log(log, 0)
        started, cpu_started = time.perf_counter(), time.process_time()
        verdicts = list(review(decisions))
        took[players] = time.perf_counter() - started
        cpu[players] = time.process_time() - cpu_started
        costly = sum(v.costly for v in verdicts)
        print(
            f"{players} seats: {len(log.actions)} actions, {len(decisions)} decisions of seat 0,"
            f" {costly} costly, review {took[players]:.1f} s"
            f" ({took[players] / max(len(decisions), 1):.2f} s a decision),"
            f" CPU {cpu[players]:.1f} s"
        )
    print(f"heads_up_s={took[2]:.1f} six_seat_s={took[6]:.1f}")
    print(f"heads_up_cpu_s={cpu[2]:.1f} six_seat_cpu_s={cpu[6]:.1f}")


if __name__ == "__main__":
    main()
