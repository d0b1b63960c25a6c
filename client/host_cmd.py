"""``durak host``: serve a table on the network until Ctrl-C (or SIGTERM)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal

from engine import Rules
from engine.ai import LEVELS, make_bot
from host import Host, HostConfig

from .options import add_rules_options, rules_from_args

DEFAULT_PORT = 45654


def _seats(text: str) -> int:
    value = int(text)
    if not 2 <= value <= 6:
        raise argparse.ArgumentTypeError(f"a table has 2 to 6 seats, not {value}")
    return value


def _levels(text: str) -> tuple[str, ...]:
    levels = tuple(part.strip().lower() for part in text.split(",") if part.strip())
    for level in levels:
        try:
            make_bot(level, 0, Rules(), 0)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"unknown AI level {level!r} (choose from {', '.join(LEVELS)})"
            ) from None
    return levels


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--name", default="Durak table", help="the table's name on the LAN")
    parser.add_argument(
        "--bind",
        default="",
        metavar="ADDR",
        help="the address to listen on and announce from (default: all; 127.0.0.1: this machine)",
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"default {DEFAULT_PORT}; 0: any free port"
    )
    parser.add_argument("--seats", type=_seats, default=2, help="2 to 6 (default 2)")
    parser.add_argument(
        "--ai",
        type=_levels,
        default=(),
        metavar="LEVEL,...",
        help=f"host AI players in the last seats ({', '.join(LEVELS)})",
    )
    parser.add_argument(
        "--autostart",
        action="store_true",
        help="start when every seat is taken, and the next game when one ends",
    )
    parser.add_argument("--password", default=None, help="players must give it to join")
    parser.add_argument("--no-announce", action="store_true", help="do not announce on the LAN")
    parser.add_argument("--seed", type=int, default=None, help="reproducible deals")
    add_rules_options(parser)


def run(args: argparse.Namespace) -> int:
    if len(args.ai) > args.seats:
        print(f"durak host: {len(args.ai)} AI players do not fit {args.seats} seats")
        return 2
    config = HostConfig(
        name=args.name,
        bind=args.bind,
        port=args.port,
        seats=args.seats,
        ai=args.ai,
        autostart=args.autostart,
        password=args.password or None,
        rules=rules_from_args(args, args.seats),
        announce=not args.no_announce,
        seed=args.seed,
    )
    try:
        asyncio.run(serve(config))
    except OSError as exc:
        print(f"durak host: cannot listen on {args.bind or 'all'}:{args.port}: {exc.strerror}")
        return 1
    return 0


async def serve(config: HostConfig) -> None:
    """Serve until SIGINT/SIGTERM, then close cleanly (clients told, announcement gone)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # Windows
            loop.add_signal_handler(sig, stop.set)
    host = Host(config)
    await host.start()
    where = f"{config.bind or 'all interfaces'} port {host.port}"
    if not config.announce:
        announced = "not announced"
    else:
        announced = f"announced on {config.bind}" if config.bind else "announced on the LAN"
    print(f"durak host: table {config.name!r} on {where}, {announced}", flush=True)
    print(f"durak host: listening on {config.bind or '0.0.0.0'}:{host.port}", flush=True)
    try:
        await stop.wait()
    finally:
        print("durak host: closing the table", flush=True)
        await host.stop("The host closed the table.")
        print("durak host: closed", flush=True)
