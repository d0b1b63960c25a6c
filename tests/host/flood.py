"""A connection flood against a host on 127.0.0.1, for a fixed time (a helper of the tests
and of ``tests/benchmarks/host_load.py``, run as its own process).

    python tests/host/flood.py PORT [--seconds S] [--rate N] [--open N]

Opens ``--rate`` connections a second (at most ``--open`` of them open at once, the rest
wait their turn) for ``--seconds``: in turn one that says nothing, one that says hello
without a token, one that sends junk bytes and one that sends half a length prefix. Each
reads what the host sends until the host closes it, for 3 seconds at most. Prints
``started`` as the flood begins, and at the end one line ``key=value ...``: connections
made, refused by the OS, closed by the host, still open after 3 s (per kind), and the
goodbye codes.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from protocol import PROTOCOL_VERSION, Connection, Goodbye, Hello, ProtocolError, Role
from protocol import encode as encode_message

KINDS = ("silent", "hello", "junk", "half")


async def one(
    port: int,
    kind: str,
    rng: random.Random,
    seen: collections.Counter[str],
    gate: asyncio.Semaphore,
) -> None:
    async with gate:
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 3)
        except (OSError, TimeoutError):
            seen["os_refused"] += 1
            return
        seen["connected"] += 1
        try:
            if kind == "hello":
                writer.write(encode_message(Hello(PROTOCOL_VERSION, "Flood")))
            elif kind == "junk":
                writer.write(rng.randbytes(rng.randrange(1, 64)))
            elif kind == "half":
                writer.write(b"\x00\x00")
            conn = Connection(Role.CLIENT)
            async with asyncio.timeout(3):
                while data := await reader.read(65536):
                    conn.receive_data(data)
                    with contextlib.suppress(ProtocolError):
                        while (message := conn.next_message()) is not None:
                            if isinstance(message, Goodbye):
                                seen[f"goodbye_{message.code}"] += 1
            seen["closed_by_host"] += 1
        except TimeoutError:
            seen[f"{kind}_still_open"] += 1
        except OSError:
            seen["closed_by_host"] += 1  # a reset: the host closed with our bytes unread
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()


async def flood(port: int, seconds: float, rate: float, most_open: int) -> str:
    seen: collections.Counter[str] = collections.Counter()
    gate = asyncio.Semaphore(most_open)
    rng = random.Random(port)
    tasks: set[asyncio.Task[None]] = set()
    start = time.monotonic()
    made = 0
    print("started", flush=True)
    while (elapsed := time.monotonic() - start) < seconds:
        while made < elapsed * rate:
            task = asyncio.create_task(one(port, KINDS[made % len(KINDS)], rng, seen, gate))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            made += 1
        await asyncio.sleep(0.005)
    seen["attempted"] = made
    if tasks:
        await asyncio.wait(tasks, timeout=30)
    return " ".join(f"{key}={value}" for key, value in sorted(seen.items()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("port", type=int)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rate", type=float, default=1000.0)
    parser.add_argument("--open", type=int, default=500, help="connections open at once, at most")
    args = parser.parse_args()
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < args.open + 64:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, args.open + 64), hard))
    print(asyncio.run(flood(args.port, args.seconds, args.rate, args.open)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
