"""Does the coach flag the moves that lose, and only those? Checked against two judges
stronger than the coach itself.

- Heads-up endgames, judged exactly: games between two careless seats (Normal's policy
  with one move in three at random, so that blunders happen), and at every decision with
  at most the face-up trump left in the stock the exact solver (``engine.ai.solver``, on
  the real state: every card is known then) values each legal move. A *blunder*: the
  move made loses and another wins. *Fine*: the move made is worth the best.
- 4 and 6 seats, judged by a long search: seat 0 plays a random legal move, every other
  seat Normal's policy; each of seat 0's and seat 1's decisions is searched with ten
  times the coach's samples (480, on other random numbers than the coach's): the best of
  the sensible moves is picked on them, then it and the move made are played again on 480
  fresh samples, which give the loss and the standard error of its paired differences
  (the best of several moves on the same samples is the one luck favoured, so its lead
  measured on them is overstated). A *blunder*: the move made is below the
  best by the coach's threshold for the seats in play (``costly_loss``) and by more than
  two standard errors. *Fine*: within half the threshold of the best, and below the
  threshold by more than two standard errors (at six seats a move that the 480 samples
  put a point behind may well cost three). (Moves between the two are not counted.)
  Once two seats are left with at most the trump card in the stock the real state is
  solved, as heads-up, as the coach solves it.

For each, the share of blunders the coach (``review_decision``: 48 samples and its fresh
confirmation, seed 0, its threshold) flags, and the share of fine moves it flags; targets
≥ 90 % and ≤ 5 %.

    nice -n 10 python tests/benchmarks/coach_blunders.py [--games N] [--seed S]
        [--players 2 4 6] [--save ROWS.json | --load ROWS.json]
"""

from __future__ import annotations

import argparse
import json
import math
import random
from dataclasses import astuple, dataclass
from pathlib import Path

from engine import Action, GameLog, GameState, Rules, SeatView
from engine.ai import next_actor
from engine.ai.coach import SAMPLES, Decision, costly_loss, decisions_from_log, review_decision
from engine.ai.determinize import sample_state
from engine.ai.hard import candidates, playout, policy_action
from engine.ai.solver import SearchAborted, Solver, outcome, solvable
from engine.ai.tactics import Memory
from engine.cards import mask_of

LONG = 10 * SAMPLES
EXACT_NODES = 400_000


@dataclass(frozen=True, slots=True)
class Row:
    players: int
    game: int
    judge: str  # "solver" or "long"
    kind: str  # "blunder", "fine" or "between"
    loss: float  # the judge's loss of the move made
    coach_loss: float
    flagged: bool
    method: str  # how the coach judged it


def careless(rules: Rules, seed: int, odd: float, everyone: bool) -> GameLog:
    """Seat 0 plays at random with probability ``odd`` (every seat when ``everyone``),
    otherwise Normal's policy."""
    log = GameLog(rules, seed)
    state = log.start()
    rng = random.Random(seed)
    while (actor := next_actor(state)) is not None and len(log.actions) < 3_000:
        seat, legal = actor
        random_move = (everyone or seat == 0) and rng.random() < odd
        action = (
            legal[rng.randrange(len(legal))] if random_move else policy_action(state, seat, legal)
        )
        state.apply(seat, action)
        log.actions.append((seat, action))
    return log


def heads_up(game: int, seed: int) -> list[Row]:
    log = careless(Rules(players=2), seed, 1 / 3, everyone=True)
    decisions = {(s, d.number): d for s in (0, 1) for d in decisions_from_log(log, s)}
    state = log.start()
    rows = []
    for number, (seat, action) in enumerate(log.actions):
        legal = state.legal_actions(seat)
        values = _exact(state, seat, legal) if solvable(state) and len(legal) > 1 else None
        if values is not None:
            best, made = max(values.values()), values[action]
            kind = "blunder" if made == 0.0 and best == 1.0 else "fine" if made == best else ""
            if kind:
                verdict = review_decision(decisions[seat, number], 0)
                rows.append(
                    Row(
                        2,
                        game,
                        "solver",
                        kind,
                        best - made,
                        verdict.loss,
                        verdict.costly,
                        verdict.method,
                    )
                )
        state.apply(seat, action)
    return rows


def _exact(state: GameState, seat: int, legal: list[Action]) -> dict[Action, float] | None:
    solver = Solver(seat, max_nodes=EXACT_NODES)
    values = {}
    try:
        for action in legal:
            child = state.copy()
            child.apply(seat, action)
            values[action] = solver.value(child)
    except SearchAborted:
        return None
    return values


def long_search(decision: Decision, seed: int) -> tuple[float, float, float]:
    """The move made's loss against the best of the sensible moves (picked on ``LONG``
    samples, measured on ``LONG`` fresh ones), the standard error of that paired
    difference, and the threshold at this table."""
    view = decision.view
    memory = Memory()
    memory.discard, memory.bouts = decision.discard, decision.bouts
    moves = candidates(view.legal, mask_of(view.hand), view.trump)
    if decision.action not in moves:
        moves.append(decision.action)
    rng = random.Random(seed)
    picked = _scores(view, memory, moves, rng)
    best = max(range(len(moves)), key=lambda i: sum(picked[i]))
    fresh = _scores(view, memory, [moves[best], decision.action], rng)
    diffs = [a - b for a, b in zip(*fresh, strict=True)]
    mean = sum(diffs) / LONG
    spread = math.sqrt(max(sum(d * d for d in diffs) / LONG - mean * mean, 0.0))
    seats = sum(1 for place in view.places if not place)
    return mean, spread / math.sqrt(LONG - 1), costly_loss(seats)


def _scores(
    view: SeatView, memory: Memory, moves: list[Action], rng: random.Random
) -> list[list[float]]:
    """Each move's outcome in each of ``LONG`` sampled deals, the same deals and luck for
    every move."""
    scores: list[list[float]] = [[] for _ in moves]
    for _ in range(LONG):
        sample = sample_state(view, memory, rng)
        luck = rng.getrandbits(32)
        for i, action in enumerate(moves):
            state = sample.copy()
            state.apply(view.seat, action)
            playout(state, random.Random(luck))
            scores[i].append(outcome(state, view.seat) if state.is_over else 0.5)
    return scores


def bigger(players: int, game: int, seed: int) -> list[Row]:
    log = careless(Rules(players=players), seed, 1.0, everyone=False)
    states = [log.start()]
    for seat, action in log.actions:
        states.append(states[-1].copy())
        states[-1].apply(seat, action)
    rows = []
    for seat in (0, 1):
        for decision in decisions_from_log(log, seat):
            state = states[decision.number]
            if solvable(state):
                rows += _solved(players, game, state, decision)
                continue
            verdict = review_decision(decision, 0)
            if verdict.method == "forced":
                continue
            loss, error, threshold = long_search(decision, seed * 7 + decision.number)
            if loss >= threshold and loss > 2 * error:
                kind = "blunder"
            elif loss < threshold / 2 and loss + 2 * error < threshold:
                kind = "fine"
            else:
                kind = "between"
            rows.append(
                Row(
                    players,
                    game,
                    "long",
                    kind,
                    loss,
                    verdict.loss,
                    verdict.costly,
                    verdict.method,
                )
            )
    return rows


def _solved(players: int, game: int, state: GameState, decision: Decision) -> list[Row]:
    """The row of a decision in a solvable ending, judged as heads-up (none if it is not
    a blunder nor fine, or past the solver's budget)."""
    seat = decision.view.seat
    legal = state.legal_actions(seat)
    values = _exact(state, seat, legal) if len(legal) > 1 else None
    if values is None:
        return []
    best, made = max(values.values()), values[decision.action]
    kind = "blunder" if made == 0.0 and best == 1.0 else "fine" if made == best else ""
    if not kind:
        return []
    verdict = review_decision(decision, 0)
    return [
        Row(
            players, game, "solver", kind, best - made, verdict.loss, verdict.costly, verdict.method
        )
    ]


def report(rows: list[Row]) -> bool:
    good = True
    for players in sorted({r.players for r in rows}):
        at = [r for r in rows if r.players == players]
        games = len({r.game for r in at})
        good &= _line(f"{players} seats ({games} games)", at)
        judges = sorted({r.judge for r in at})
        for judge in judges if len(judges) > 1 else []:
            _line(f"  judged by the {judge}", [r for r in at if r.judge == judge])
        solved = [r for r in at if r.judge == "solver"]
        if solved:
            done = sum(r.method == "solver" for r in solved)
            missed = sum(r.method != "solver" for r in solved if r.kind == "blunder")
            print(
                f"  of the solvable endings the coach solved {done}/{len(solved)}"
                f" (blunders left to samples: {missed})"
            )
    print(f"targets (>= 90 % flagged, <= 5 % false): {'met' if good else 'not met'}")
    return good


def _line(title: str, rows: list[Row]) -> bool:
    """Print the shares flagged; True when they meet the targets."""
    blunders = [r for r in rows if r.kind == "blunder"]
    fine = [r for r in rows if r.kind == "fine"]
    caught = sum(r.flagged for r in blunders)
    false = sum(r.flagged for r in fine)
    hit = caught / len(blunders) if blunders else 1.0
    wrong = false / len(fine) if fine else 0.0
    print(
        f"{title}: blunders flagged {caught}/{len(blunders)} = {hit:.0%}; fine moves flagged"
        f" {false}/{len(fine)} = {wrong:.1%}; between {sum(r.kind == 'between' for r in rows)}"
    )
    return hit >= 0.9 and wrong <= 0.05


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20, help="games per table size")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--save", type=Path, default=None, help="write the rows (JSON)")
    parser.add_argument("--load", type=Path, default=None, help="report on rows written before")
    args = parser.parse_args()
    rows: list[Row] = []
    if args.load is not None:
        rows = [Row(*r) for r in json.loads(args.load.read_text(encoding="utf-8"))]
    for players in args.players if args.load is None else []:
        for game in range(args.games):
            seed = args.seed * 100_000 + players * 1_000 + game
            rows += heads_up(game, seed) if players == 2 else bigger(players, game, seed)
            if args.save is not None:
                args.save.write_text(json.dumps([astuple(r) for r in rows]), encoding="utf-8")
    report(rows)


if __name__ == "__main__":
    main()
