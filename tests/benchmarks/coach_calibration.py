"""Does the coach's chance mean what it says? Its estimate for a seat against what then
happened to that seat, over self-play games at 2, 4 and 6 seats.

The games are played by Normal's policy with one move in ten at random for every seat:
the model the coach's playouts assume for everyone from the move on (its review screen
says so), so a calibrated coach must match what these games do. From each game a few
decisions are drawn at random among every seat's (a forced move has no estimate and is
left out), and the coach (``review_decision``, its default 48 samples, seed 0) gives the
seat's chance of not being the Durak after the move made; the outcome is 1 (not the
Durak), 1/2 (a draw) or 0. Printed per table size and pooled: a reliability table by
tenths (positions, mean estimate, observed rate, the gap), the Brier score (also for
the solved and the sampled positions apart) and, beside it, that of the best constant
guess (the observed rate of the same positions: a guess
that knows the answer's average, so beating it means the coach tells positions apart).
A tenth "holds enough" with 30 positions or more; the last line says whether every such
tenth is within 0.1.

    nice -n 10 python tests/benchmarks/coach_calibration.py [--games N] [--per-game K]
        [--players 2 4 6] [--seed S] [--save ROWS.json | --load ROWS.json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import astuple, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # this checkout's code

from engine import GameLog, Rules
from engine.ai import next_actor
from engine.ai.coach import decisions_from_log, review_decision
from engine.ai.hard import policy_action
from engine.ai.solver import outcome

ENOUGH = 30  # positions a tenth needs before its gap counts
TOLERANCE = 0.1


@dataclass(frozen=True, slots=True)
class Row:
    players: int
    game: int
    seats: int  # seats still in the game at the move
    stock: int
    method: str
    estimate: float
    result: float  # 1 not the Durak, 1/2 a draw, 0 the Durak


def self_play(rules: Rules, seed: int) -> GameLog:
    """Normal's policy for every seat, one move in ten at random."""
    log = GameLog(rules, seed)
    state = log.start()
    rng = random.Random(seed)
    while (actor := next_actor(state)) is not None and len(log.actions) < 3_000:
        seat, legal = actor
        odd = rng.random() < 0.1
        action = legal[rng.randrange(len(legal))] if odd else policy_action(state, seat, legal)
        state.apply(seat, action)
        log.actions.append((seat, action))
    return log


def rows_of(players: int, game: int, seed: int, per_game: int) -> list[Row]:
    log = self_play(Rules(players=players), seed)
    state = log.start()
    for seat, action in log.actions:
        state.apply(seat, action)
    if not state.is_over:
        return []
    decisions = [
        (seat, d)
        for seat in range(players)
        for d in decisions_from_log(log, seat)
        if len(d.view.legal) > 1
    ]
    rng = random.Random(seed ^ 0x5EED)
    rows = []
    for seat, decision in rng.sample(decisions, min(per_game, len(decisions))):
        verdict = review_decision(decision, 0)
        if verdict.method == "forced":
            continue
        view = decision.view
        rows.append(
            Row(
                players,
                game,
                sum(1 for place in view.places if not place),
                view.stock_size,
                verdict.method,
                verdict.played,
                outcome(state, seat),
            )
        )
    return rows


def brier(rows: list[Row], estimate: float | None = None) -> float:
    return sum(((r.estimate if estimate is None else estimate) - r.result) ** 2 for r in rows) / (
        len(rows) or 1
    )


def report(rows: list[Row], title: str) -> bool:
    """Print the table; True when every tenth with enough positions is within 0.1."""
    if not rows:
        return True
    base = sum(r.result for r in rows) / len(rows)
    games = len({(r.players, r.game) for r in rows})
    print(f"\n{title}: {len(rows)} positions from {games} games")
    print("  tenth      n   estimate  observed   gap")
    good = True
    for tenth in range(10):
        held = [r for r in rows if min(int(r.estimate * 10), 9) == tenth]
        if not held:
            continue
        mean = sum(r.estimate for r in held) / len(held)
        seen = sum(r.result for r in held) / len(held)
        gap = seen - mean
        counts = len(held) >= ENOUGH
        good &= not counts or abs(gap) <= TOLERANCE
        flag = "" if not counts else " ok" if abs(gap) <= TOLERANCE else " OFF"
        print(
            f"  {tenth / 10:.1f}-{(tenth + 1) / 10:.1f} {len(held):5d}   {mean:.3f}    {seen:.3f}"
            f"  {gap:+.3f}{flag}"
        )
    print(f"  Brier {brier(rows):.4f}; constant guess {base:.3f}: Brier {brier(rows, base):.4f}")
    for method in sorted({r.method for r in rows}):
        held = [r for r in rows if r.method == method]
        mean = sum(r.estimate for r in held) / len(held)
        seen = sum(r.result for r in held) / len(held)
        print(
            f"  {method}: {len(held)} positions, estimate {mean:.3f}, observed {seen:.3f},"
            f" Brier {brier(held):.4f}"
        )
    return good


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100, help="games per table size")
    parser.add_argument("--per-game", type=int, default=8, help="positions drawn per game")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--save", type=Path, default=None, help="write the rows (JSON)")
    parser.add_argument("--load", type=Path, default=None, help="report on rows written before")
    args = parser.parse_args()
    rows: list[Row] = []
    if args.load is not None:
        rows = [Row(*r) for r in json.loads(args.load.read_text(encoding="utf-8"))]
    for players in args.players if args.load is None else []:
        for game in range(args.games):
            seed = args.seed * 100_000 + players * 1_000 + game
            rows += rows_of(players, game, seed, args.per_game)
            if args.save is not None:  # after every game: a long run can be read half-way
                args.save.write_text(json.dumps([astuple(r) for r in rows]), encoding="utf-8")
    good = True
    for players in sorted({r.players for r in rows}):
        good &= report([r for r in rows if r.players == players], f"{players} seats")
    report(rows, "all tables")
    print(f"\nevery tenth with {ENOUGH}+ positions within {TOLERANCE}: {'yes' if good else 'no'}")


if __name__ == "__main__":
    main()
