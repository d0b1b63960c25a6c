"""Host latency: 6 clients on loopback, one action in flight at a time.

Runs ``durak host`` (6 seats, autostart, no announcement) in a child process on
127.0.0.1 and connects 6 clients from this process. Each round, one seat with a legal
action plays a random one; we time from sending it to the actor's ``ack`` and to every
client having the resulting ``update``. Prints p50/p99 of both; the last line is exactly
``rtt_p99_ms=<number>`` (the to-every-client figure). Target: p99 <= 5 ms.

    python tests/benchmarks/host_latency.py [--actions N] [--seed S]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from client.net.client import NetClient  # noqa: E402
from protocol import Ack, Update  # noqa: E402

SEATS = 6


class Watcher:
    """One client: records when each (game, seq) update and each ack arrived."""

    def __init__(self, client: NetClient) -> None:
        self.client = client
        self.latest: Update | None = None
        self.arrived: dict[tuple[int, int], float] = {}
        self.acks: dict[int, float] = {}
        self.changed = asyncio.Event()

    async def run(self) -> None:
        while True:
            message = await self.client.receive()
            now = time.perf_counter()
            if isinstance(message, Update):
                self.latest = message
                self.arrived[(message.game, message.seq)] = now
            elif isinstance(message, Ack):
                self.acks[message.ref] = now
            self.changed.set()


async def wait_for(watchers: list[Watcher], done: Callable[[], bool]) -> None:
    while not done():
        events = [w.changed for w in watchers]
        for event in events:
            event.clear()
        if done():
            return
        await asyncio.wait(
            [asyncio.ensure_future(e.wait()) for e in events], return_when=asyncio.FIRST_COMPLETED
        )


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def bench(port: int, actions: int, seed: int) -> tuple[list[float], list[float]]:
    clients = [await NetClient.connect("127.0.0.1", port, f"bench{i}") for i in range(SEATS)]
    watchers = [Watcher(c) for c in clients]
    tasks = [asyncio.create_task(w.run()) for w in watchers]
    rng = random.Random(seed)
    acks: list[float] = []
    everyone: list[float] = []
    try:
        for _ in range(actions):
            # Wait until every client holds the same, latest update.
            def in_step() -> bool:
                latest = [w.latest for w in watchers]
                return (
                    all(u is not None for u in latest)
                    and len({(u.game, u.seq) for u in latest if u is not None}) == 1
                )

            await wait_for(watchers, in_step)
            movers = [w for w in watchers if w.latest is not None and w.latest.view.legal]
            if not movers:  # the game ended: autostart deals the next one
                game = watchers[0].latest.game
                await wait_for(watchers, lambda g=game: all(w.latest.game > g for w in watchers))
                continue
            mover = rng.choice(movers)
            assert mover.latest is not None
            game, seq = mover.latest.game, mover.latest.seq
            action = rng.choice(mover.latest.view.legal)
            sent = time.perf_counter()
            ref = mover.client.act(action)
            await wait_for(
                watchers,
                lambda m=mover, r=ref, step=(game, seq + 1): (
                    r in m.acks and all(step in w.arrived for w in watchers)
                ),
            )
            acks.append((mover.acks[ref] - sent) * 1000)
            everyone.append((max(w.arrived[(game, seq + 1)] for w in watchers) - sent) * 1000)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for client in clients:
            await client.close()
    return acks, everyone


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    host = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "client",
            "host",
            "--bind",
            "127.0.0.1",
            "--port",
            "0",
            "--seats",
            str(SEATS),
            "--autostart",
            "--no-announce",
            "--no-save",
            "--seed",
            str(args.seed),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert host.stdout is not None
        port = 0
        for line in host.stdout:
            if "listening on" in line:
                port = int(line.rsplit(":", 1)[1])
                break
        acks, everyone = asyncio.run(bench(port, args.actions, args.seed))
    finally:
        host.send_signal(2)  # Ctrl-C: the host closes cleanly
        host.wait(10)
    print(f"{len(acks)} actions, 6 clients on loopback (host in its own process)")
    for label, values in (("ack", acks), ("every client", everyone)):
        print(
            f"{label:>13}: p50 {statistics.median(values):.3f} ms  "
            f"p99 {percentile(values, 0.99):.3f} ms  max {max(values):.3f} ms"
        )
    print(f"rtt_p99_ms={percentile(everyone, 0.99):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
