"""``durak list``: print the tables announced on the LAN and exit.

Each table is tried at every address it announced (``host.routes``) and printed at the
first that answered, or with all of them and "[not reachable]" when none did: a table a
friend sees listed is one they can join."""

from __future__ import annotations

import argparse
import asyncio

from host import browse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bind",
        default="",
        metavar="ADDR",
        help="look on this interface's address only (default: all; 127.0.0.1: this machine)",
    )
    parser.add_argument("--timeout", type=float, default=3.0, help="seconds to listen (default 3)")


async def list_tables(bind: str, seconds: float) -> list[str]:
    return [ad.line() for ad in await browse(bind, seconds)]


def run(args: argparse.Namespace) -> int:
    lines = asyncio.run(list_tables(args.bind, args.timeout))
    if not lines:
        print("no tables found")
    for line in lines:
        print(line)
    return 0
