"""Does the coach flag the moves that lose, and only those? Checked against two judges
stronger than the coach itself.

- Heads-up endgames, judged exactly: games between two careless seats (Normal's policy
  with one move in three at random, so that blunders happen), and at every decision with
  at most the face-up trump left in the stock the exact solver (``engine.ai.solver``, on
  the real state: every card is known then) values each legal move. A *blunder*: the
  move made loses and another wins. *Fine*: the move made is worth the best.
- 4 and 6 seats, judged by a long search: seat 0 plays a random legal move, every other
  seat Normal's policy; each of seat 0's and seat 1's decisions is searched with ten
  times the coach's samples, on other random numbers than the coach's. As the coach
  looks twice, so does the judge: the best of the sensible moves other than the move
  made is picked on 480 samples (the coach's first look is 48), then it and the move
  made are played again on 3,000 fresh samples (the coach's second look plays about 300
  on average at four seats), which give the loss and the standard error of its paired
  differences: the best of several moves on the same samples is the one luck favoured,
  so its lead measured on them is overstated; and measured against itself, a move made
  that led the 480 by luck would show a loss of exactly 0. A *blunder*: the move made is
  below the best by the coach's threshold for the seats in play (``costly_loss``) and
  by more than two standard errors. *Fine*: within half the threshold of the best, and
  below the threshold by more than two standard errors. (Moves between the two are not
  counted.) Once two seats are left with at most the trump card in the stock the real
  state is solved, as heads-up, as the coach solves it.

  The judge's second look matters: with 480 fresh samples (a standard error of about 3
  points at four seats, against a threshold of 4) the judge could not agree with itself:
  judged again on other random numbers, 121 of its 140 blunders at four seats (seed 3)
  were blunders again, and a coach as strong as the judge, marking a move at the
  threshold, would have flagged 127 of them (91 %).

The judges' verdicts do not depend on the coach: ``--judged FILE`` keeps them, and a
later run with the same file and seed judges only the games it does not hold, so a
change to the coach is measured on the same moves in the coach's time alone. ``--jobs``
judges and reviews that many games at once (one process each).

    nice -n 10 python tests/benchmarks/coach_blunders.py [--games N] [--seed S]
        [--players 2 4 6] [--jobs J] [--judged VERDICTS.json]
        [--save ROWS.json | --load ROWS.json]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import astuple, dataclass
from itertools import repeat
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # this checkout's code

from engine import Action, GameLog, GameState, Rules, SeatView
from engine.ai import next_actor
from engine.ai.coach import (
    SAMPLES,
    Decision,
    costly_loss,
    decisions_from_log,
    review_decision,
)
from engine.ai.determinize import sample_state
from engine.ai.hard import candidates, policy_action, score_after
from engine.ai.solver import SearchAborted, Solver, solvable
from engine.ai.tactics import Memory
from engine.cards import mask_of

EXACT_NODES = 400_000
LONG = 10 * SAMPLES  # the judge's first look
MEASURE = 3_000  # and its second: ten times the coach's, about 300 on average
JUDGES = f"best other, {LONG}+{MEASURE}; exact {EXACT_NODES}"  # kept verdicts: by these only


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


@dataclass(frozen=True, slots=True)
class Judged:
    """A judge's verdict on one decision, whatever the coach makes of it."""

    players: int
    game: int
    seat: int
    number: int  # the decision's action number in the game
    judge: str  # "solver" or "long"
    kind: str  # "blunder", "fine" or "between"
    loss: float  # the judge's loss of the move made


def game_seed(seed: int, players: int, game: int) -> int:
    return seed * 100_000 + players * 1_000 + game


def game_log(players: int, game: int, seed: int) -> GameLog:
    """Game ``game`` at ``players`` seats: heads-up both seats careless, bigger tables a
    random seat 0 among Normal seats."""
    rules, at = Rules(players=players), game_seed(seed, players, game)
    return careless(rules, at, 1 / 3, True) if players == 2 else careless(rules, at, 1.0, False)


def judge_game(players: int, game: int, seed: int) -> list[Judged]:
    """The judges' verdicts on a game's decisions: every solvable one (both seats
    heads-up), and at a bigger table each other one of seat 0 and seat 1 that is not
    forced."""
    log = game_log(players, game, seed)
    decisions = {(s, d.number): d for s in (0, 1) for d in decisions_from_log(log, s)}
    state = log.start()
    judged = []
    for number, (seat, action) in enumerate(log.actions):
        decision = decisions.get((seat, number))
        if decision is not None and solvable(state):
            verdict = _solved(state, seat, action)
            if verdict is not None:
                judged.append(Judged(players, game, seat, number, "solver", *verdict))
        elif decision is not None and players > 2 and len(_moves(decision)) > 1:
            luck = game_seed(seed, players, game) * 7 + number
            loss, error, threshold = long_search(decision, luck)
            if loss >= threshold and loss > 2 * error:
                kind = "blunder"
            elif loss < threshold / 2 and loss + 2 * error < threshold:
                kind = "fine"
            else:
                kind = "between"
            judged.append(Judged(players, game, seat, number, "long", kind, loss))
        state.apply(seat, action)
    return judged


def _solved(state: GameState, seat: int, action: Action) -> tuple[str, float] | None:
    """A solvable decision's kind and loss (None: neither a blunder nor fine, or past the
    solver's budget)."""
    legal = state.legal_actions(seat)
    values = _exact(state, seat, legal) if len(legal) > 1 else None
    if values is None:
        return None
    best, made = max(values.values()), values[action]
    kind = "blunder" if made == 0.0 and best == 1.0 else "fine" if made == best else ""
    return (kind, best - made) if kind else None


def _moves(decision: Decision) -> list[Action]:
    """The moves the coach weighs when it does not solve: the sensible ones and the one
    made."""
    view = decision.view
    moves = candidates(view.legal, mask_of(view.hand), view.trump)
    return moves if decision.action in moves else [*moves, decision.action]


def coach_game(judged: list[Judged], seed: int) -> list[Row]:
    """The coach's verdicts on the judged decisions of one game."""
    if not judged:
        return []
    players, game = judged[0].players, judged[0].game
    log = game_log(players, game, seed)
    decisions = {(s, d.number): d for s in (0, 1) for d in decisions_from_log(log, s)}
    rows = []
    for j in judged:
        verdict = review_decision(decisions[j.seat, j.number], 0)
        row = Row(
            players, game, j.judge, j.kind, j.loss, verdict.loss, verdict.costly, verdict.method
        )
        rows.append(row)
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
    """The move made's loss against the best other sensible move (picked on ``LONG``
    samples, measured on ``MEASURE`` fresh ones; below 0 when the move made is the best),
    the standard error of that paired difference, and the threshold at this table."""
    view = decision.view
    memory = Memory()
    memory.discard, memory.bouts = decision.discard, decision.bouts
    moves = _moves(decision)
    rng = random.Random(seed)
    picked = _scores(view, memory, moves, rng, LONG)
    # The best of the others, never the move made itself: a move made that led the 480
    # samples by luck would be measured against itself, a loss of exactly 0.
    others = [i for i, move in enumerate(moves) if move != decision.action]
    best = max(others, key=lambda i: sum(picked[i]))
    fresh = _scores(view, memory, [moves[best], decision.action], rng, MEASURE)
    diffs = [a - b for a, b in zip(*fresh, strict=True)]
    mean = sum(diffs) / MEASURE
    spread = math.sqrt(max(sum(d * d for d in diffs) / MEASURE - mean * mean, 0.0))
    seats = sum(1 for place in view.places if not place)
    return mean, spread / math.sqrt(MEASURE - 1), costly_loss(seats)


def _scores(
    view: SeatView, memory: Memory, moves: list[Action], rng: random.Random, deals: int
) -> list[list[float]]:
    """Each move's score in each of ``deals`` sampled deals, the same deals and luck for
    every move: as the coach's, 1 once the seat is out, the outcome at the end."""
    seat = view.seat
    scores: list[list[float]] = [[] for _ in moves]
    for _ in range(deals):
        sample = sample_state(view, memory, rng)
        luck = rng.getrandbits(32)
        for i, action in enumerate(moves):
            scores[i].append(score_after(sample, seat, action, luck))
    return scores


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
    parser.add_argument("--jobs", type=int, default=1, help="games judged at once")
    parser.add_argument(
        "--judged",
        type=Path,
        default=None,
        help="the judges' verdicts (JSON): read for the games it holds, the others judged"
        " and added; the coach is run on them afresh",
    )
    parser.add_argument("--save", type=Path, default=None, help="write the rows (JSON)")
    parser.add_argument("--load", type=Path, default=None, help="report on rows written before")
    args = parser.parse_args()
    if args.load is not None:
        report([Row(*r) for r in json.loads(args.load.read_text(encoding="utf-8"))])
        return
    cache = args.judged
    known: dict[tuple[int, int], list[Judged]] = {}
    if cache is not None and cache.exists():
        saved = json.loads(cache.read_text(encoding="utf-8"))
        if (saved["seed"], saved.get("judges")) != (args.seed, JUDGES):
            parser.error(f"{cache} holds another seed's verdicts, or another judge's")
        for fields in saved["judged"]:
            j = Judged(*fields)
            known.setdefault((j.players, j.game), []).append(j)
    games = [(p, g) for p in args.players for g in range(args.games)]
    rows: list[Row] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        todo = [game for game in games if game not in known]
        tables, numbers = [p for p, _ in todo], [g for _, g in todo]
        judging = pool.map(judge_game, tables, numbers, repeat(args.seed))
        for game, judged in zip(todo, judging, strict=True):
            known[game] = judged
            if cache is not None:
                everything = [astuple(j) for js in known.values() for j in js]
                text = json.dumps({"seed": args.seed, "judges": JUDGES, "judged": everything})
                cache.write_text(text, encoding="utf-8")
        for game_rows in pool.map(coach_game, [known[g] for g in games], repeat(args.seed)):
            rows += game_rows
            if args.save is not None:
                args.save.write_text(json.dumps([astuple(r) for r in rows]), encoding="utf-8")
    report(rows)


if __name__ == "__main__":
    main()
