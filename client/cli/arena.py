"""``durak arena A B``: two AI levels play duplicate deals against each other.

Each deal is played once for every distinct seating of the two bots: the seats alternate
between them (A B A B ...), rotated through every seat, and at a table with an odd number
of seats the pattern with A and B swapped is rotated too. Heads-up that is the deal played
twice with the seats swapped; every bot sits in every seat equally often on every deal,
so the luck of the deal cancels.

Scoring, per seat a bot occupies in a game ("a game" in the counts below):

- win: the seat is not the Durak and the game is not a draw (heads-up: the other is the
  Durak) — score 1;
- draw: the game ended without a Durak (the last players went out together) — score 1/2;
- durak: the seat is the Durak — score 0.

So with P players, two equal bots each score about 1 - 1/P (exactly, without draws). The
95 % confidence interval is mean ± 1.96 standard errors of the bot's per-deal mean score
(the deals are independent; the games within one deal are not). Decision times are
wall-clock seconds per call of the bot's ``decide``; p95 is the nearest-rank percentile.

The games are driven as a host drives a table (``engine.ai.play_game``): one seat is asked
at a time, the defender first, on a fresh view after every action, so a run is
reproducible with ``--seed`` (Hard's time budget aside: it thinks until its deadline).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import math
import multiprocessing
import os
import random
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from client.cli.options import add_rules_options, positive_int, rules_from_args
from client.cli.progress import Progress
from engine import Rules, new_game
from engine.ai import LEVELS, GameRecord, make_bot, play_game


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal to play in every seating (picklable: it crosses to worker processes)."""

    index: int
    seed: int
    specs: tuple[str, str]
    rules: dict[str, Any]


@dataclass(frozen=True, slots=True)
class SeatResult:
    """How one seat of one game went for the bot (0 = A, 1 = B) that sat there."""

    bot: int
    outcome: float  # 1 win, 0.5 draw, 0 Durak
    times: tuple[float, ...]


def seatings(players: int) -> list[tuple[int, ...]]:
    """Every distinct seating: which bot (0 or 1) sits in each seat, A first."""
    found: list[tuple[int, ...]] = []
    patterns = [tuple(s % 2 for s in range(players))]
    if players % 2:
        patterns.append(tuple(1 - b for b in patterns[0]))
    for pattern in patterns:
        for shift in range(players):
            seating = pattern[shift:] + pattern[:shift]
            if seating not in found:
                found.append(seating)
    return found


def play_deal(deal: Deal) -> list[list[SeatResult]]:
    """Play one deal in every seating; a list of games, each a list of seats."""
    rules = Rules.from_dict(deal.rules)
    games: list[list[SeatResult]] = []
    for number, seating in enumerate(seatings(rules.players)):
        state = new_game(rules, deal.seed)
        bots = [
            make_bot(deal.specs[bot], seat, rules, _bot_seed(deal.seed, number, seat))
            for seat, bot in enumerate(seating)
        ]
        games.append(seat_results(play_game(state, bots), seating))
    return games


def seat_results(record: GameRecord, seating: Sequence[int]) -> list[SeatResult]:
    """Each seat of a played game: which bot sat there, its score (a win 1, a draw 1/2,
    the Durak 0) and its decision times."""
    durak = record.result.durak
    return [
        SeatResult(
            bot, 0.5 if durak is None else 0.0 if durak == seat else 1.0, tuple(record.times[seat])
        )
        for seat, bot in enumerate(seating)
    ]


def _bot_seed(deal_seed: int, game: int, seat: int) -> int:
    return (deal_seed * 1_000_003 + game * 7_919 + seat) % (1 << 63)


@dataclass(frozen=True, slots=True)
class BotStats:
    games: int
    wins: int
    durak: int
    draws: int
    score: float
    ci95: tuple[float, float]
    mean_ms: float
    p95_ms: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": self.wins,
            "durak": self.durak,
            "draws": self.draws,
            "score": round(self.score, 4),
            "ci95": [round(self.ci95[0], 4), round(self.ci95[1], 4)],
            "mean_ms": round(self.mean_ms, 3),
            "p95_ms": round(self.p95_ms, 3),
        }


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def bot_stats(deals: Sequence[Sequence[Sequence[SeatResult]]], bot: int) -> BotStats:
    """The statistics of bot ``bot`` (0 = A, 1 = B) over played deals."""
    outcomes: list[float] = []
    per_deal: list[float] = []
    times: list[float] = []
    for games in deals:
        mine = [seat for game in games for seat in game if seat.bot == bot]
        if not mine:
            continue
        per_deal.append(statistics.fmean(s.outcome for s in mine))
        outcomes.extend(s.outcome for s in mine)
        for seat in mine:
            times.extend(seat.times)
    games_played = len(outcomes)
    score = statistics.fmean(outcomes) if outcomes else 0.0
    if len(per_deal) >= 2:
        half = 1.96 * statistics.stdev(per_deal) / math.sqrt(len(per_deal))
        ci = (max(0.0, score - half), min(1.0, score + half))
    else:
        ci = (0.0, 1.0)
    return BotStats(
        games=games_played,
        wins=sum(1 for o in outcomes if o == 1.0),
        durak=sum(1 for o in outcomes if o == 0.0),
        draws=sum(1 for o in outcomes if o == 0.5),
        score=score,
        ci95=ci,
        mean_ms=1000 * statistics.fmean(times) if times else 0.0,
        p95_ms=1000 * percentile(times, 0.95),
    )


def bot_names(specs: Sequence[str]) -> list[str]:
    """Report names: the level, or ``<level>#1`` and ``<level>#2`` for the same level."""
    levels = [spec.partition(":")[0].lower() for spec in specs]
    if levels[0] == levels[1]:
        return [f"{levels[0]}#1", f"{levels[0]}#2"]
    return levels


def summarize(
    specs: Sequence[str], deals: Sequence[Sequence[Sequence[SeatResult]]]
) -> dict[str, Any]:
    """What ``--json`` writes: ``{"deals": N, "bots": {name: stats}}``."""
    names = bot_names(specs)
    return {
        "deals": len(deals),
        "bots": {name: bot_stats(deals, bot).to_dict() for bot, name in enumerate(names)},
    }


def run_deals(deals: Sequence[Deal], jobs: int, progress: Progress) -> list[list[list[SeatResult]]]:
    """Play every deal, over ``jobs`` worker processes (spawned), in deal order."""
    results: list[list[list[SeatResult]] | None] = [None] * len(deals)
    if jobs <= 1:
        for number, deal in enumerate(deals):
            results[number] = play_deal(deal)
            progress.update(number + 1)
    else:
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(jobs, mp_context=context) as pool:
            futures = {pool.submit(play_deal, deal): n for n, deal in enumerate(deals)}
            for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
                results[futures[future]] = future.result()
                progress.update(done)
    progress.close()
    return [r for r in results if r is not None]


def make_deals(specs: tuple[str, str], rules: Rules, count: int, seed: int) -> list[Deal]:
    seeds = random.Random(seed)
    data = rules.to_dict()
    return [Deal(n, seeds.getrandbits(63), specs, data) for n in range(count)]


def _spec(text: str) -> str:
    try:
        make_bot(text, 0, Rules(), 0)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Two AI levels play duplicate deals: each deal again with the seats swapped "
        "(rotated through every seat at bigger tables). Per bot and seat: a win is 1 "
        "(not the Durak, no draw), a draw 1/2, the Durak 0 (two equal bots at a table of "
        "P score about 1 - 1/P each); score = mean, with a 95 % confidence interval over deals. "
        "Times: wall-clock seconds per decision, mean and p95."
    )
    levels = ", ".join(LEVELS)
    parser.add_argument("a", type=_spec, metavar="A", help=f"a level ({levels}; hard:0.2)")
    parser.add_argument("b", type=_spec, metavar="B", help="the other level")
    parser.add_argument("--deals", type=positive_int, default=100, help="default 100")
    parser.add_argument("--players", type=int, default=2, help="2 to 6 (default 2)")
    parser.add_argument("--seed", type=int, default=0, help="default 0")
    parser.add_argument(
        "--jobs",
        type=positive_int,
        default=os.cpu_count() or 1,
        help="worker processes (default: one per core)",
    )
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    add_rules_options(parser)


def format_table(specs: Sequence[str], summary: dict[str, Any]) -> Iterable[str]:
    yield (
        f"{'bot':<10} {'level':<10} {'games':>6} {'wins':>6} {'durak':>6} {'draws':>6} "
        f"{'score':>6}  {'95% CI':<15} {'mean ms':>9} {'p95 ms':>9}"
    )
    for spec, (name, s) in zip(specs, summary["bots"].items(), strict=True):
        ci = f"[{s['ci95'][0]:.3f}, {s['ci95'][1]:.3f}]"
        yield (
            f"{name:<10} {spec:<10} {s['games']:>6} {s['wins']:>6} {s['durak']:>6} "
            f"{s['draws']:>6} {s['score']:>6.3f}  {ci:<15} {s['mean_ms']:>9.2f} "
            f"{s['p95_ms']:>9.2f}"
        )


def run(args: argparse.Namespace) -> int:
    rules = rules_from_args(args, args.players)
    specs = (args.a, args.b)
    deals = make_deals(specs, rules, args.deals, args.seed)
    games = len(seatings(rules.players))
    print(
        f"arena: {specs[0]} vs {specs[1]}, {args.deals} deals x {games} seatings, "
        f"{rules.players} players, {rules.summary}, seed {args.seed}, {args.jobs} jobs",
        flush=True,
    )
    results = run_deals(deals, args.jobs, Progress(len(deals), "arena"))
    summary = summarize(specs, results)
    for line in format_table(specs, summary):
        print(line)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(summary, out, indent=2)
            out.write("\n")
    return 0
