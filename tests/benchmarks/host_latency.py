"""Host latency: 6 clients on loopback, one action in flight at a time.

Runs ``durak host`` (6 seats, autostart, no announcement) in a child process on
127.0.0.1 and connects 6 clients from this process. Each round, one seat with a legal
action plays a random one; we time from sending it to the actor's ``ack`` and to every
client having the resulting ``update``. Prints p50/p99 of both; the last line is exactly
``rtt_p99_ms=<number>`` (the to-every-client figure). Target: p99 <= 5 ms.

With ``--hard5`` the host's other 5 seats are Hard AIs and one client plays seat 0 (a
random legal action as soon as it may) for ``--seconds`` (20) of games, pinging the host
every 10 ms; the ping round trips while the AIs think are what another player at that
host feels. The last line is then exactly ``rtt_p99_ms_hard5=<number>``. Target: 5 ms.

    python tests/benchmarks/host_latency.py [--actions N] [--seed S]
    python tests/benchmarks/host_latency.py --hard5 [--seconds S] [--seed S]
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
from protocol import Ack, Pong, Update  # noqa: E402

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


async def bench_hard5(port: int, seconds: float, seed: int) -> tuple[list[float], list[float]]:
    """Seat 0 plays at a table of five Hard AIs and pings every 10 ms: the round trips
    while an AI thinks (not our turn) and while it is our turn."""
    client = await NetClient.connect("127.0.0.1", port, "bench")
    rng = random.Random(seed)
    sent: dict[int, tuple[float, bool]] = {}  # ping ref -> (when, an AI was thinking)
    thinking: list[float] = []
    ours: list[float] = []
    latest: list[Update] = []
    acted: set[tuple[int, int]] = set()

    async def receive() -> None:
        while True:
            message = await client.receive()
            now = time.perf_counter()
            if isinstance(message, Pong) and message.ref in sent:
                when, ai = sent.pop(message.ref)
                (thinking if ai else ours).append((now - when) * 1000)
            elif isinstance(message, Update):
                latest[:] = [message]
                step = (message.game, message.seq)
                if message.view.legal and step not in acted:
                    acted.add(step)
                    client.act(rng.choice(message.view.legal))

    receiver = asyncio.create_task(receive())
    try:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            ai = bool(latest) and not latest[0].view.legal
            sent[client.ping()] = (time.perf_counter(), ai)
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)  # the last pongs
    finally:
        receiver.cancel()
        await asyncio.gather(receiver, return_exceptions=True)
        await client.close()
    return thinking, ours


def start_host(options: list[str], seed: int) -> tuple[subprocess.Popen[str], int]:
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
            "--autostart",
            "--no-announce",
            "--no-save",
            "--seed",
            str(seed),
            *options,
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert host.stdout is not None
    for line in host.stdout:
        if "listening on" in line:
            return host, int(line.rsplit(":", 1)[1])
    raise SystemExit("the host did not start")


def main_hard5(seconds: float, seed: int) -> int:
    host, port = start_host(["--seats", str(SEATS), "--ai", ",".join(["hard"] * 5)], seed)
    try:
        thinking, ours = asyncio.run(bench_hard5(port, seconds, seed))
    finally:
        host.send_signal(2)
        host.wait(30)
    print(f"{seconds:g} s at a 6-seat table with 5 Hard AIs (host in its own process)")
    for label, values in (("AI thinking", thinking), ("our turn", ours)):
        if values:
            print(
                f"{label:>13}: {len(values)} pings  p50 {statistics.median(values):.3f} ms  "
                f"p99 {percentile(values, 0.99):.3f} ms  max {max(values):.3f} ms"
            )
    print(f"rtt_p99_ms_hard5={percentile(thinking, 0.99):.3f}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hard5", action="store_true", help="seat 0 against five Hard AIs")
    parser.add_argument("--seconds", type=float, default=20.0, help="(--hard5) how long")
    args = parser.parse_args()
    if args.hard5:
        return main_hard5(args.seconds, args.seed)
    host, port = start_host(["--seats", str(SEATS)], args.seed)
    try:
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
