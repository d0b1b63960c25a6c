"""``durak list``: print the tables announced on the LAN and exit."""

from __future__ import annotations

import argparse
import asyncio
import contextlib

from host import TableAd, browse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bind",
        default="",
        metavar="ADDR",
        help="look on this interface's address only (default: all; 127.0.0.1: this machine)",
    )
    parser.add_argument("--timeout", type=float, default=3.0, help="seconds to listen (default 3)")


async def reachable(ad: TableAd, timeout: float = 1.0) -> bool:
    """Confirm an announced table with a TCP connection before calling it joinable."""
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(ad.address, ad.port), timeout)
    except (OSError, TimeoutError):
        return False
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return True


async def list_tables(bind: str, seconds: float) -> list[str]:
    ads = await browse(bind, seconds)
    lines = []
    for ad in ads:
        note = "" if await reachable(ad) else "  [not reachable]"
        lines.append(ad.line() + note)
    return lines


def run(args: argparse.Namespace) -> int:
    lines = asyncio.run(list_tables(args.bind, args.timeout))
    if not lines:
        print("no tables found")
    for line in lines:
        print(line)
    return 0
