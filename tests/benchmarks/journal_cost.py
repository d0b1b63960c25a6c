"""The journal's cost per move, at move 100 and at move 10,000 of one game.

Plays one long 3-seat game in the engine (the defender always takes, the attacker leads
its highest card, everyone else passes: a game that need not end, as colluding clients
can make it) and writes it as the host does: the header, then every action through
``host.disk.DiskWriter`` into a journal in ``--dir`` (default: a temporary folder).
For the 100 moves around each mark it measures what the event loop pays per move
(building the record and queueing it), the time until the record is durable (written and
``fsync``'d by the writer thread, awaited as the table awaits it before it broadcasts),
and the record's bytes; and, for comparison, the bytes a whole-table save at that move
would be (what the host wrote per move before the journal). Then it times reading the
journal back (``load_table``, which replays every move: what ``--resume`` costs).

    python tests/benchmarks/journal_cost.py [--moves N] [--dir DIR]

The last line is ``journal_us_100=<n> journal_us_10000=<n> bytes_100=<n> bytes_10000=<n>``
(the durable time per move, median, and the record's bytes). Target: the same at both
marks. The durable time is mostly the disk's ``fsync``; on a busy machine it varies from
run to run far more than between the marks.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine import Action, Attack, GameLog, Pass, Rules, Series, Take  # noqa: E402
from host.disk import DiskWriter  # noqa: E402
from host.journal import action_record, header_record  # noqa: E402
from host.resume import load_table  # noqa: E402
from host.save import SavedSeat, TableSave, encode  # noqa: E402

MARKS = (100, 10_000)
WINDOW = 100  # moves measured around each mark (each awaited alone, as a lone move is)


def long_game(moves: int, seed: int = 0) -> GameLog:
    """A game of up to ``moves`` actions by players who keep it going."""
    game = GameLog(Rules(players=3), seed)
    state = game.start()
    while state.result is None and len(game.actions) < moves:
        seat = next(s for s in range(3) if state.legal_actions(s))
        legal = state.legal_actions(seat)
        action: Action
        if seat == state.defender and Take() in legal:
            action = Take()
        elif Pass() in legal:
            action = Pass()
        else:
            leads = [a for a in legal if isinstance(a, Attack) and len(a.cards) == 1]
            trump = state.trump
            action = max(
                leads, key=lambda a: (a.cards[0].suit == trump, a.cards[0].rank), default=legal[0]
            )
        state.apply(seat, action)
        game.actions.append((seat, action))
    return game


def table(game: GameLog) -> TableSave:
    seats = tuple(SavedSeat("human", f"P{i}", None, f"{i:064x}") for i in range(3))
    return TableSave("Bench", game.rules, seats, 0, Series.new(3), 1, game, None)


async def measure(game: GameLog, folder: Path) -> dict[int, tuple[list[float], list[float], int]]:
    save_path = folder / "table-45654.json"
    disk = DiskWriter(save_path, asyncio.get_running_loop())
    await disk.durable(disk.begin(header_record(table(GameLog(game.rules, game.seed)))))
    marks: dict[int, tuple[list[float], list[float], int]] = {}
    for move, (seat, action) in enumerate(game.actions, 1):
        near = [mark for mark in MARKS if abs(move - mark) < WINDOW // 2]
        start = time.perf_counter()
        record = action_record(seat, action)
        number = disk.append(record)
        queued = time.perf_counter()
        if not near:  # between the marks, only the file has to grow: one fsync per 100
            if move % 100 == 0:
                await disk.durable(number)
            continue
        await disk.durable(number)  # the table's sends wait for exactly this
        durable = time.perf_counter()
        loop_us, durable_us, size = marks.setdefault(near[0], ([], [], 0))
        loop_us.append((queued - start) * 1e6)
        durable_us.append((durable - start) * 1e6)
        marks[near[0]] = (loop_us, durable_us, size + len(record))
    await asyncio.get_running_loop().run_in_executor(None, disk.close)
    return marks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=MARKS[-1] + WINDOW)
    parser.add_argument("--dir", type=Path, default=None, help="where to write the journal")
    args = parser.parse_args()
    game = long_game(args.moves)
    print(f"a game of {len(game.actions)} moves (3 seats, the defender always takes)")
    with tempfile.TemporaryDirectory(dir=args.dir) as name:
        folder = Path(name)
        marks = asyncio.run(measure(game, folder))
        journal = folder / "table-45654.journal"
        print(f"journal: {journal.stat().st_size} bytes in {folder}")
        start = time.perf_counter()
        resumed = load_table(folder / "table-45654.json").table
        assert resumed.current is not None and resumed.current.actions == game.actions
        print(f"reading it back and replaying every move (--resume): "
              f"{(time.perf_counter() - start) * 1000:.0f} ms")  # fmt: skip
    times, sizes = [], []
    for mark in MARKS:
        if mark not in marks:
            print(f"move {mark}: not reached (the game ended at move {len(game.actions)})")
            times.append(f"journal_us_{mark}=nan")
            sizes.append(f"bytes_{mark}=nan")
            continue
        loop_us, durable_us, size = marks[mark]
        n = len(loop_us)
        upto = GameLog(game.rules, game.seed, None, game.actions[:mark])
        whole = len(encode(table(upto).to_dict()))
        print(
            f"move {mark:>6}: on the event loop {statistics.median(loop_us):6.1f} us "
            f"(mean {statistics.mean(loop_us):.1f}), durable after "
            f"{statistics.median(durable_us):7.1f} us (mean {statistics.mean(durable_us):.1f}), "
            f"{size / n:.1f} bytes per record; a whole-table save would be {whole} bytes"
        )
        times.append(f"journal_us_{mark}={statistics.median(durable_us):.0f}")
        sizes.append(f"bytes_{mark}={size / n:.0f}")
    print(" ".join(times + sizes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
