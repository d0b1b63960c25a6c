"""Which rule marks a careless player's mistakes at every table size: the coach's fixed
threshold, one that shrinks with the table, or the loss summed over a bout.

At n seats a seat is the Durak about 1 time in n, so a move changes its chance of not
being the Durak by less than heads-up: a fixed 8 points flags a careless player at six
seats almost never. This plays games with seat 0 careless (a random legal move every
time) and every other seat on Normal's policy, reviews seat 0 and seat 1 (the careful
one) with the coach (48 samples, seed 0), and checks each move that lost 2 points or
more on fresh samples (seed 1, 144 samples: the loss against the first review's best
move, free of the first review's luck). For each rule and table size it prints: the
careless seat's games with no mark, its marks a game, its thrown-in trumps marked, the
careful seat's marks a game, and how many marks the fresh samples confirm (a loss of at
least half the rule's threshold).

    python tests/benchmarks/coach_threshold.py [--games N] [--seed S] [--players 4 6]
        [--save MOVES.json | --load MOVES.json]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # this checkout's code

from engine import GameLog, Rules, ThrowIn
from engine.ai import next_actor
from engine.ai.coach import Verdict, decisions_from_log, review_decision
from engine.ai.hard import policy_action
from engine.cards import SUIT_MASKS

CHECK_FROM = 0.02  # moves that lost less are not checked again (no rule below marks them)


@dataclass(frozen=True, slots=True)
class Move:
    players: int
    seats: int  # seats still in the game at the move
    game: int
    careless: bool
    bout: int
    loss: float
    checked: float  # the loss on fresh samples (0 where not checked)
    trump_thrown: bool


def played(rules: Rules, seed: int) -> GameLog:
    log = GameLog(rules, seed)
    state = log.start()
    rng = random.Random(seed)
    while (actor := next_actor(state)) is not None:
        seat, legal = actor
        action = (
            legal[rng.randrange(len(legal))] if seat == 0 else policy_action(state, seat, legal)
        )
        state.apply(seat, action)
        log.actions.append((seat, action))
    return log


def moves_of(players: int, game: int, seed: int) -> list[Move]:
    log = played(Rules(players=players), seed)
    found = []
    for seat in (0, 1):
        for decision in decisions_from_log(log, seat):
            verdict = review_decision(decision, 0)
            if verdict.method == "forced":
                continue
            checked = _check(verdict) if verdict.loss >= CHECK_FROM else 0.0
            action, trump = decision.action, decision.view.trump
            thrown = isinstance(action, ThrowIn) and bool(action.card.bit & SUIT_MASKS[trump])
            found.append(
                Move(
                    players,
                    sum(1 for place in decision.view.places if not place),
                    game,
                    seat == 0,
                    decision.bouts,
                    verdict.loss,
                    checked,
                    thrown,
                )
            )
    return found


def _check(verdict: Verdict) -> float:
    again = dict(review_decision(verdict.decision, 1, 144).scores)
    return again[verdict.best] - again[verdict.decision.action]


Rule = Callable[[list[Move]], list[Move]]  # a seat's rated moves in one game -> the marked ones
Threshold = Callable[[Move], float]


def per_move(threshold: Threshold) -> Rule:
    return lambda moves: [m for m in moves if m.loss >= threshold(m)]


def per_bout(threshold: float) -> Rule:
    """A bout whose losses add up to the threshold marks its worst move."""

    def rule(moves: list[Move]) -> list[Move]:
        bouts: dict[int, list[Move]] = defaultdict(list)
        for m in moves:
            bouts[m.bout].append(m)
        return [
            max(ms, key=lambda m: m.loss)
            for ms in bouts.values()
            if sum(m.loss for m in ms) >= threshold
        ]

    return rule


def fixed(loss: float) -> Threshold:
    return lambda m: loss


RULES: dict[str, tuple[Rule, Threshold]] = {  # the rule, and the threshold a mark is checked by
    "fixed 8": (per_move(fixed(0.08)), fixed(0.08)),
    "16/table": (per_move(lambda m: 0.16 / m.players), lambda m: 0.16 / m.players),
    "16/in play": (per_move(lambda m: 0.16 / m.seats), lambda m: 0.16 / m.seats),
    "fixed 4": (per_move(fixed(0.04)), fixed(0.04)),
    "bout sum 8": (per_bout(0.08), fixed(0.08)),
    "bout sum 2.7": (per_bout(0.16 / 6), fixed(0.16 / 6)),
}


def report(moves: list[Move]) -> None:
    for name, (rule, threshold) in RULES.items():
        for players in sorted({m.players for m in moves}):
            games = 1 + max(m.game for m in moves if m.players == players)
            marked = {True: 0, False: 0}
            unmarked_games = 0
            confirmed = total = 0
            thrown_marked = thrown = 0
            for game in range(games):
                for careless in (True, False):
                    seat = [
                        m
                        for m in moves
                        if m.players == players and m.game == game and m.careless == careless
                    ]
                    hits = rule(seat)
                    marked[careless] += len(hits)
                    unmarked_games += careless and not hits
                    confirmed += sum(m.checked >= threshold(m) / 2 for m in hits)
                    total += len(hits)
                    if careless:
                        ids = {id(m) for m in hits}
                        thrown += sum(m.trump_thrown for m in seat)
                        thrown_marked += sum(m.trump_thrown and id(m) in ids for m in seat)
            rated = {
                c: sum(m.players == players and m.careless == c for m in moves)
                for c in (True, False)
            }
            print(
                f"{name:>13} {players} seats: careless rated/game {rated[True] / games:.1f},"
                f" unmarked games {unmarked_games}/{games},"
                f" marks/game {marked[True] / games:.1f}, trumps thrown in marked"
                f" {thrown_marked}/{thrown}; careful marks/game {marked[False] / games:.1f};"
                f" careful rated/game {rated[False] / games:.1f}; confirmed {confirmed}/{total}"
            )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=12, help="games per table size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--save", type=Path, default=None, help="write the moves (JSON)")
    parser.add_argument("--load", type=Path, default=None, help="report on moves written before")
    args = parser.parse_args()
    moves: list[Move] = []
    if args.load is not None:
        moves = [Move(*row) for row in json.loads(args.load.read_text(encoding="utf-8"))]
    for players in args.players if args.load is None else []:
        for game in range(args.games):
            moves += moves_of(players, game, args.seed * 10_000 + players * 100 + game)
            if args.save is not None:  # after every game: a long run can be read half-way
                rows = [dataclasses.astuple(m) for m in moves]
                args.save.write_text(json.dumps(rows), encoding="utf-8")
    report(moves)


if __name__ == "__main__":
    main()
