"""Host under load: a 6-seat game of bot clients while junk connections and a connection
flood hit the same host.

Runs ``durak host`` (6 seats, no announcement, saving to a temporary folder) in a child
process on 127.0.0.1 — on POSIX under a file limit of ``--ulimit`` (256 by default, macOS's
default) — joins 6 ``random`` bot clients from this process and, once they sit, starts a
second child process that keeps 200 junk connections busy against the same port until the
game is over: random bytes, half-open connections that never finish their hello, slowloris
hellos trickled a byte at a time by clients that never read, and floods (a hello and
thousands of pings in one write, or a huge length prefix), from 127.0.0.2 where the OS has
it (a machine of its own). Meanwhile ``tests/host/flood.py`` opens ``--flood-rate`` connections
a second (default 1,000) for ``--flood-seconds`` (default 5) from the bots' own address,
and 0.3 s into it one bot's connection is dropped early in a game: it is lost as a network
would lose it (the bot talks to the host through a relay in this process, which cuts both
sides of it; the bot's client does not close it), and the bot comes back with its seat's
token by itself.

Prints whether the game completed, every bot's action round trip p50/p99 (act to ack, also
of bots that had not finished when the run ended; timed where the bot's connection is read,
``NetClient.round_trips``, so neither a bot's thinking nor the other bots' work in this
process between the ack's arrival and its turn is counted, and the deal's verification at a
game's end, the heaviest of that work, runs outside the connection's reader), what
the junk and the flood got back, how long the dropped bot took to get back, the host's most
open files (where /proc has them), the host's "Too many open files" and failed-save log
lines (both should be 0), its peak memory (VmHWM) and the CPU time it used (where /proc has
them; the CPU time hardly moves with what else the machine runs, the round trips do: on a
loaded machine compare that). The last line is exactly
``game_completed=<0|1> rtt_p99_ms=<number>``. Target: the game completes and p99 <= 20 ms
(without the flood: ``--flood-seconds 0``). Everything is bounded: ``--timeout`` seconds at
most (default 120).

    python tests/benchmarks/host_load.py [--games N] [--junk N] [--seed S] [--timeout T]
        [--flood-seconds S] [--flood-rate N] [--ulimit N]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import dataclasses
import functools
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from client.cli.bot_player import BotPlayer, BotReport  # noqa: E402
from client.net.client import Backoff, NetClient  # noqa: E402
from protocol import PROTOCOL_VERSION, Hello, Ping, encode  # noqa: E402

SEATS = 6
KINDS = ("random", "half_open", "slowloris", "flood")


# --- the junk (a child process of its own, so it does not slow the bots' loop) -----------


def junk_source() -> str | None:
    """The junk's own loopback address (127.0.0.2: a machine of its own, as a real
    attacker's would be) where the OS has one (Linux), else None (127.0.0.1)."""
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.2", 0))
        except OSError:
            return None
    return "127.0.0.2"


async def junk_worker(
    kind: str,
    port: int,
    until: float,
    rng: random.Random,
    seen: collections.Counter[str],
    source: str | None,
    stopping: asyncio.Event,
) -> None:
    local = None if source is None else (source, 0)
    while time.monotonic() < until and not stopping.is_set():
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port, local_addr=local), 5
            )
        except (OSError, TimeoutError):
            seen["refused"] += 1
            await asyncio.sleep(0.05)
            continue
        seen[f"{kind}:connected"] += 1
        try:
            if kind == "random":
                writer.write(rng.randbytes(rng.randrange(1, 300)))
            elif kind == "half_open":
                writer.write(b"\x00\x00")  # half a length prefix, then nothing
            elif kind == "slowloris":
                for byte in encode(Hello(PROTOCOL_VERSION, "Slow")):
                    if writer.is_closing() or time.monotonic() > until:
                        break
                    writer.write(bytes([byte]))
                    with contextlib.suppress(TimeoutError):  # a pause, or the host's goodbye
                        if await asyncio.wait_for(reader.read(65536), 0.5) is not None:
                            seen[f"{kind}:goodbye"] += 1
                            break
            elif rng.random() < 0.5:
                hello = Hello(PROTOCOL_VERSION, "Flood", None, "f" * 32)  # a token: never a seat
                writer.write(encode(hello) + encode(Ping(1)) * 5000)
            else:
                writer.write((2**31).to_bytes(4, "big") + b"\x00" * 1000)
            # Then wait for the host to say goodbye and close (half-open and slowloris
            # connections are cut off by the handshake timeout).
            while data := await asyncio.wait_for(reader.read(65536), 15):
                if b"goodbye" in data:
                    seen[f"{kind}:goodbye"] += 1
        except (OSError, TimeoutError):
            seen[f"{kind}:reset"] += 1
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()
        await asyncio.sleep(rng.uniform(0.5, 1.5))  # a broken client's retry loop


async def junk_main(port: int, count: int, seconds: float) -> None:
    until = time.monotonic() + seconds
    seen: collections.Counter[str] = collections.Counter()
    asyncio.get_running_loop().call_later(1.0, functools.partial(print, "ready", flush=True))
    rng = random.Random(port)
    stopping = asyncio.Event()
    source = junk_source()
    seen[f"from_{source or '127.0.0.1'}"] = 1
    workers = [
        asyncio.create_task(
            junk_worker(
                KINDS[i % len(KINDS)],
                port,
                until,
                random.Random(rng.random()),
                seen,
                source,
                stopping,
            )
        )
        for i in range(count)
    ]
    stop = asyncio.get_running_loop().run_in_executor(
        None, sys.stdin.readline
    )  # the parent says stop
    done, _ = await asyncio.wait(
        [stop, *workers], timeout=seconds, return_when=asyncio.FIRST_COMPLETED
    )
    while stop not in done and not all(w.done() for w in workers):
        done, _ = await asyncio.wait(
            [stop, *workers], timeout=seconds, return_when=asyncio.FIRST_COMPLETED
        )
    # A worker stops at its next try; cancelled again in case a cancellation was lost
    # (Python 3.11's wait_for drops one that meets the inner future's completion).
    stopping.set()
    pending = set(workers)
    while pending:
        for worker in pending:
            worker.cancel()
        _, pending = await asyncio.wait(pending, timeout=1)
    with contextlib.suppress(BrokenPipeError):
        print(" ".join(f"{k}={v}" for k, v in sorted(seen.items())), flush=True)


# --- the game ----------------------------------------------------------------------------


def open_files(pid: int) -> int | None:
    try:
        return len(list(Path(f"/proc/{pid}/fd").iterdir()))
    except OSError:
        return None


class Relay:
    """A TCP relay on 127.0.0.1 to the host: the dropped bot's way to it, so that its
    connection can be lost as a network loses one (``cut``: both sides aborted, no goodbye
    and no close from the bot), while the bot's reconnections go through it again."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.server: asyncio.Server | None = None
        self.live: list[asyncio.StreamWriter] = []  # both ends of the relayed connections
        self.tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # The bot's bytes are read while the host's side opens (slow during the flood). A
        # bot that gave up on the connection meanwhile (its greeting timed out; it is
        # connecting again) has closed it: its hello is not delivered late, as no network
        # would, else it could reach the host after the bot's next one and replace it.
        early, gone = bytearray(), asyncio.Event()

        async def read_early() -> None:
            with contextlib.suppress(ConnectionError, OSError):
                while data := await reader.read(65536):
                    early.extend(data)
            gone.set()

        reading = asyncio.create_task(read_early())
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.port)
        reading.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reading
        if gone.is_set():
            up_writer.transport.abort()
            writer.close()
            return
        up_writer.write(bytes(early))
        self.live += [writer, up_writer]
        pipes = [
            asyncio.create_task(self._pipe(reader, up_writer)),
            asyncio.create_task(self._pipe(up_reader, writer)),
        ]
        self.tasks.update(pipes)
        await asyncio.wait(pipes)
        self.tasks.difference_update(pipes)
        for end in (writer, up_writer):
            end.close()
            if end in self.live:
                self.live.remove(end)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError, OSError):
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        with contextlib.suppress(ConnectionError, OSError, RuntimeError):
            writer.write_eof()

    def cut(self) -> None:
        """Lose every relayed connection at once: a reset on both sides."""
        for end in self.live:
            end.transport.abort()

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        self.cut()
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


@dataclasses.dataclass(slots=True)
class Flood:
    """The flood's settings, and what it saw."""

    host_pid: int
    seconds: float
    rate: float
    summary: str = "not run"
    most_open: int | None = None  # the host's most open files seen while it ran
    back_after: float | None = None  # seconds from the dropped bot's drop to its welcome
    armed: bool = False  # the flood has run a second: drop the bot at its next chance
    dropped: NetClient | None = None  # the bot's client
    relay: Relay | None = None  # the dropped bot's way to the host
    dropped_at: float | None = None

    def watch(self, payload: object) -> None:
        """The dropped bot's frames: once armed, drop it while it holds 4 cards or more
        (the game waits for it when it is its turn, so the game's end cannot free its seat
        before it is back: 6 seats leave no stock)."""
        dropped = self.dropped
        if not self.armed or self.dropped_at is not None or dropped is None:
            return
        update = isinstance(payload, dict) and payload.get("type") == "update"
        view = payload.get("view") if update and isinstance(payload, dict) else None
        if isinstance(view, dict) and len(view.get("hand") or ()) >= 4 and self.relay:
            self.dropped_at = time.monotonic()
            self.relay.cut()  # the connection is lost; its client reconnects by itself


async def flood_the_host(port: int, flood: Flood) -> None:
    """Run ``tests/host/flood.py`` against the host; 0.3 s in, arm the drop of ``dropped``'s
    connection (``Flood.watch``; its client reconnects with its token) and time how long it
    takes to get back."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(ROOT / "tests" / "host" / "flood.py"), str(port),
        "--seconds", str(flood.seconds), "--rate", str(flood.rate),
        stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdout is not None
    await asyncio.wait_for(proc.stdout.readline(), 30)  # "started"
    done = asyncio.create_task(proc.stdout.readline())
    start = time.monotonic()
    while not done.done():
        count = open_files(flood.host_pid)
        if count is not None:
            flood.most_open = max(flood.most_open or 0, count)
        now = time.monotonic()
        flood.armed = now - start >= 0.3  # the flood is at full rate by then
        dropped_at, dropped = flood.dropped_at, flood.dropped
        if dropped_at is not None and flood.back_after is None and dropped and dropped.reconnects:
            flood.back_after = now - dropped_at
        await asyncio.wait([done], timeout=0.02)
    flood.summary = (await done).decode().strip()
    await proc.wait()


def cpu_seconds(pid: int) -> float | None:
    """The CPU time (user + system) the host's process has used so far (where /proc has
    it): unlike the round trips, hardly moved by what else the machine runs."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def peak_memory(pid: int) -> str:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "n/a (no /proc)"


async def play(
    port: int, games: int, junk: int, seed: int, timeout: float, flood: Flood
) -> tuple[list[BotReport], bool, str]:
    reports: list[BotReport] = []
    seated = asyncio.Event()
    joined = 0

    def welcome_watch(payload: object) -> None:
        nonlocal joined
        if isinstance(payload, dict) and payload.get("type") == "welcome":
            joined += 1
            if joined == SEATS:
                seated.set()

    def dropped_watch(payload: object) -> None:
        welcome_watch(payload)
        flood.watch(payload)

    backoff = Backoff(first=0.05, longest=1.0, give_up=timeout)
    players: list[BotPlayer] = []  # every bot, so that each one's round trips are reported
    bots = []
    junk_proc = None
    relay = flood.relay = Relay(port)
    relay_port = await relay.start()
    for i in range(SEATS):
        if i == SEATS - 1:  # the junk starts before the last seat fills (and the game starts)
            while joined < SEATS - 1:
                await asyncio.sleep(0.01)
            junk_proc = await asyncio.create_subprocess_exec(
                sys.executable, __file__, "--junk-port", str(port), "--junk", str(junk),
                "--timeout", str(timeout),
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            )  # fmt: skip
            assert junk_proc.stdout is not None
            await asyncio.wait_for(junk_proc.stdout.readline(), 30)  # "ready"
        if i == SEATS - 1:  # the bot whose connection the flood's run drops (via the relay)
            client = flood.dropped = await NetClient.connect(
                "127.0.0.1",
                relay_port,
                "Dropped",
                on_payload=dropped_watch,
                reconnect=backoff,
            )
        else:
            client = await NetClient.connect(
                "127.0.0.1", port, "Random bot", on_payload=welcome_watch, reconnect=backoff
            )
        players.append(BotPlayer(client, "random", games, seed + i))
        bots.append(asyncio.create_task(players[-1].play()))
        await asyncio.sleep(0.01)  # seat 0 joins first and owns the room
    await asyncio.wait_for(seated.wait(), 60)
    flooding = None
    if flood.seconds > 0:
        flooding = asyncio.create_task(flood_the_host(port, flood))
    completed = False
    try:
        await asyncio.wait_for(asyncio.gather(*bots), timeout)
        completed = all(len(p.report.results) == games for p in players)
    except (TimeoutError, Exception) as exc:  # reported as not completed
        print(f"the game did not complete: {exc!r}")
        for bot in bots:
            bot.cancel()
        await asyncio.gather(*bots, return_exceptions=True)
    reports = [p.report for p in players]  # finished or not
    if flooding is not None:
        await asyncio.wait_for(flooding, 120)
    for player in players:
        await player.client.close()
    await relay.close()
    assert junk_proc is not None and junk_proc.stdin is not None and junk_proc.stdout is not None
    junk_proc.stdin.write(b"stop\n")
    with contextlib.suppress(ConnectionError):
        await junk_proc.stdin.drain()
    summary = (await asyncio.wait_for(junk_proc.stdout.read(), 30)).decode().strip()
    await junk_proc.wait()
    return reports, completed, summary


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--junk", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--flood-seconds", type=float, default=5.0, help="0: no flood")
    parser.add_argument("--flood-rate", type=float, default=1000.0)
    parser.add_argument("--ulimit", type=int, default=256, help="the host's file limit (POSIX)")
    parser.add_argument("--junk-port", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.junk_port is not None:
        asyncio.run(junk_main(args.junk_port, args.junk, args.timeout))
        return 0

    def tight_file_limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (args.ulimit, args.ulimit))

    posix = sys.platform != "win32"
    with tempfile.TemporaryDirectory() as save_dir, tempfile.TemporaryFile("w+") as log:
        host = subprocess.Popen(
            [sys.executable, "-m", "client", "host", "--bind", "127.0.0.1", "--port", "0",
             "--seats", str(SEATS), "--no-announce", "--seed", str(args.seed),
             "--save-dir", save_dir],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=log, text=True,
            preexec_fn=tight_file_limit if posix else None,
        )  # fmt: skip
        memory, cpu = "n/a", None
        flood = Flood(host.pid, args.flood_seconds, args.flood_rate)
        try:
            assert host.stdout is not None
            port = next(
                int(line.rsplit(":", 1)[1]) for line in host.stdout if "listening on" in line
            )
            reports, completed, junk_summary = asyncio.run(
                play(port, args.games, args.junk, args.seed, args.timeout, flood)
            )
            memory = peak_memory(host.pid)
            cpu = cpu_seconds(host.pid)
        finally:
            if sys.platform == "win32":
                host.terminate()
            else:
                host.send_signal(2)  # Ctrl-C: the host closes cleanly
            try:
                host.wait(15)
            except subprocess.TimeoutExpired:
                host.kill()
                host.wait()
        log.seek(0)
        host_log = log.read()
    rtts = [rtt * 1000 for r in reports for rtt in r.rtts]
    p99 = percentile(rtts, 0.99) if rtts else float("nan")
    p50 = percentile(rtts, 0.5) if rtts else float("nan")
    print(f"{SEATS} bot clients, {args.games} game(s), {args.junk} junk connections on loopback")
    reconnects = sum(r.reconnects for r in reports)
    print(f"game completed: {'yes' if completed else 'no'}; reconnects: {reconnects}")
    print(
        f"action round trip (act to ack), {len(rtts)} actions: p50 {p50:.3f} ms  p99 {p99:.3f} ms"
    )
    print(f"junk: {junk_summary}")
    limit = f"ulimit -n {args.ulimit}" if posix else "no file limit (Windows)"
    print(f"flood: {flood.rate:g} connections/s for {flood.seconds:g} s, host under {limit}")
    print(f"flood: {flood.summary}")
    back = "did not get back" if flood.back_after is None else f"{flood.back_after * 1000:.0f} ms"
    print(f"flood: the dropped bot got back in with its token after {back}")
    most = "n/a (no /proc)" if flood.most_open is None else str(flood.most_open)
    print(f"flood: the host's most open files {most}")
    emfile = host_log.count("Too many open files")
    failed = host_log.count("cannot save")
    print(f"host log: 'Too many open files' {emfile} times, failed saves {failed}")
    print(f"host peak memory: {memory}")
    per = "" if cpu is None else f" ({cpu * 1000 / max(1, len(rtts)):.1f} ms per bot action)"
    print(f"host CPU time: {'n/a (no /proc)' if cpu is None else f'{cpu:.2f} s'}{per}")
    print(f"game_completed={int(completed)} rtt_p99_ms={p99:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
