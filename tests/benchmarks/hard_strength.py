"""Hard against a frozen Hard: duplicate deals, as ``durak arena`` plays them (run by hand).

    python tests/benchmarks/hard_strength.py A B [--deals N] [--players P] [--seed S]
        [--jobs J] [--clock cpu|wall] [--baseline COMMIT] [--json FILE] [--every N]
        [--site DIR]

A and B are arena levels (``hard:0.25``, ``normal``, ...), ``hard-peek[:BUDGET]`` (a
bound, not a player: today's Hard whose every sample is the real game, as if it read every
hand perfectly) or ``hard-baseline[:BUDGET]``: the Hard player of another commit
(``--baseline``, by default the commit this round of work started from), loaded from git
into this process beside today's code. Only its ``engine/ai`` modules come from that
commit; the rules engine is this checkout's, so both players play the same game at the
same engine speed. The deals, seatings and scoring are the arena's
(``client.cli.arena``), and so is the output (with ``--json``). A line after the table
gives A's Durak rate over B's, the measure of Hard at 4 and 6 seats (when B was ever the
Durak; ``durak_ratio`` in the JSON).

``--clock cpu`` (the default) measures both Hards' budgets and every decision time in the
thread's CPU time (``time.thread_time``): on a machine other programs keep busy, a wall
clock budget would buy each decision a varying, smaller share of a core. ``--clock wall``
measures them as the product does (``time.perf_counter``).

``--site DIR`` plays the games with the engine and AI installed in DIR instead of this
checkout's (the compiled ones, as players get them: ``python packaging/engine_wheel.py W
&& pip install --no-deps --target DIR W/*.whl``, built from this checkout's source); the
first line says which engine the workers ran.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import importlib.abc
import importlib.util
import json
import multiprocessing
import subprocess
import sys
import time
import types
from collections.abc import Callable, Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path

from site_option import engine_site

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # a worker keeps the path it was given (``--site`` first)
    sys.path.insert(0, str(ROOT))

from client.cli.arena import (  # noqa: E402
    Deal,
    SeatResult,
    format_table,
    make_deals,
    seat_results,
    seatings,
    summarize,
)
from client.cli.progress import Progress  # noqa: E402
from engine import GameState, Rules, new_game  # noqa: E402
from engine.ai import Bot, HardBot, make_bot, play_game  # noqa: E402

BASELINE = "275d6ed"  # main when the work on Hard per second began
PACKAGE = "engine.baseline_ai"  # where the baseline's modules live in this process
CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.thread_time, "wall": time.perf_counter}


class _GitModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports ``engine.baseline_ai.<name>`` from ``engine/ai/<name>.py`` at ``commit``.

    Their relative imports (``..state``, ``.solver``) then find this checkout's engine and
    the baseline's own AI modules."""

    def __init__(self, commit: str, clock: Callable[[], float]) -> None:
        self.commit = commit
        self.clock = clock

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname != PACKAGE and not fullname.startswith(PACKAGE + "."):
            return None
        package = fullname == PACKAGE
        return importlib.util.spec_from_loader(fullname, self, is_package=package)

    def create_module(self, spec: ModuleSpec) -> types.ModuleType | None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        name = module.__name__
        if name == PACKAGE:
            return  # an empty package: its ``__init__`` would import the coach too
        path = f"engine/ai/{name.rpartition('.')[2]}.py"
        source = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{self.commit}:{path}"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        exec(compile(source, f"{self.commit}:{path}", "exec"), module.__dict__)
        if "time" in module.__dict__:  # its budget and deadlines on the benchmark's clock
            module.__dict__["time"] = types.SimpleNamespace(perf_counter=self.clock)


def load_baseline(commit: str, clock: Callable[[], float]) -> Callable[..., Bot]:
    """The baseline's ``HardBot`` class (loaded once per process; its signature is that
    commit's)."""
    if not any(isinstance(f, _GitModules) for f in sys.meta_path):
        sys.meta_path.insert(0, _GitModules(commit, clock))
    hard = importlib.import_module(PACKAGE + ".hard")
    bot: Callable[..., Bot] = hard.HardBot
    return bot


def build(spec: str, seat: int, game: GameState, seed: int, commit: str, clock: str) -> Bot:
    """A bot for ``game`` from a level spec, every Hard thinking on the benchmark's clock."""
    level, _, param = spec.partition(":")
    tick = CLOCKS[clock]
    rules = game.rules
    if level == "hard-baseline":
        return load_baseline(commit, tick)(seat, rules, seed, budget=float(param or 1.0))
    if level == "hard-peek":
        return HardBot(seat, rules, seed, budget=float(param or 1.0), clock=tick, peek=lambda: game)
    if level == "hard":  # no peek: a --site built before it had none
        return HardBot(seat, rules, seed, budget=float(param or 1.0), clock=tick)
    return make_bot(spec, seat, rules, seed)


def play_deal(deal: Deal, commit: str, clock: str) -> list[list[SeatResult]]:
    """The arena's ``play_deal`` with the benchmark's bots and clock."""
    rules = Rules.from_dict(deal.rules)
    games: list[list[SeatResult]] = []
    for number, seating in enumerate(seatings(rules.players)):
        game = new_game(rules, deal.seed)
        bots = [
            build(deal.specs[bot], seat, game, deal.seed ^ (number * 7_919 + seat), commit, clock)
            for seat, bot in enumerate(seating)
        ]
        record = play_game(game, bots, clock=CLOCKS[clock])
        games.append(seat_results(record, seating))
    return games


def worker_engine() -> str:
    """Which engine a worker plays with, and from where."""
    import engine.state
    from engine.compiled import engine_kind

    return f"{engine_kind()} ({engine.state.__file__})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    parser.add_argument("--baseline", default=BASELINE, help=f"a commit (default {BASELINE})")
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument(
        "--every", type=int, default=0, help="print the scores so far every N deals (0: never)"
    )
    parser.add_argument("--site", type=engine_site, help="play with the engine installed in DIR")
    args = parser.parse_args()
    if args.site is not None:
        # the workers (spawned with this path) import the engine from there; this process
        # only deals, which both engines do alike
        sys.path.insert(0, str(args.site))
    specs = (args.a, args.b)
    try:  # a bad spec or table fails here, not in a worker
        rules = Rules(players=args.players)
        for spec in specs:
            build(spec, 0, new_game(rules, 0), 0, args.baseline, args.clock)
    except ValueError as exc:
        parser.error(str(exc))
    deals = make_deals(specs, rules, args.deals, args.seed)
    print(
        f"hard_strength: {specs[0]} vs {specs[1]}, {args.deals} deals x "
        f"{len(seatings(rules.players))} seatings, {rules.players} players, seed {args.seed}, "
        f"{args.jobs} jobs, {args.clock} clock, baseline {args.baseline}",
        flush=True,
    )
    progress = Progress(len(deals), "deals")
    results: list[list[list[SeatResult]]] = [[] for _ in deals]
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(args.jobs, mp_context=context) as pool:
        print(f"engine: {pool.submit(worker_engine).result()}", flush=True)
        futures = {
            pool.submit(play_deal, deal, args.baseline, args.clock): n
            for n, deal in enumerate(deals)
        }
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            results[futures[future]] = future.result()
            progress.update(done)
            if args.every and done % args.every == 0 and done < len(deals):
                so_far = summarize(specs, [r for r in results if r])
                scores = ", ".join(
                    f"{name} {s['score']:.3f} [{s['ci95'][0]:.3f}, {s['ci95'][1]:.3f}] "
                    f"durak {s['durak']}/{s['games']} p95 {s['p95_ms']:.0f} ms"
                    for name, s in so_far["bots"].items()
                )
                print(f"after {done} deals: {scores}", flush=True)
    progress.close()
    summary = summarize(specs, results)
    summary["clock"] = args.clock
    summary["baseline"] = args.baseline
    (name_a, a), (name_b, b) = summary["bots"].items()
    # A's Durak rate over B's (the target at 4 and 6 seats); none when B never lost
    rates = [bot["durak"] / bot["games"] for bot in (a, b)]
    summary["durak_ratio"] = rates[0] / rates[1] if rates[1] else None
    for line in format_table(specs, summary):
        print(line)
    if summary["durak_ratio"] is not None:
        print(f"{name_a}'s Durak rate over {name_b}'s: {summary['durak_ratio']:.3f}")
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
