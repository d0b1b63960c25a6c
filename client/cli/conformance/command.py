"""The command line of ``durak conformance``: a host to check (HOST:PORT), with
``--client PORT`` a table for a client to join, or with ``--party HOST:PORT`` a party;
the exit status says whether every check passed (0), some failed (1) or the command could
not run (2)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from client.cli.conformance.client_check import ClientCheck
from client.cli.conformance.party import PartySuite
from client.cli.conformance.report import Check, report
from client.cli.conformance.runner import Suite
from client.cli.options import PASSWORD_HELP, password_option, positive_int
from client.net.client import parse_address


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "address", metavar="HOST:PORT", nargs="?", help="the host to check (a fresh table)"
    )
    parser.add_argument("--password", default=None, help=PASSWORD_HELP)
    parser.add_argument(
        "--timeouts",
        action="store_true",
        help="also check the 10 s handshake timeout (takes 10 s more)",
    )
    parser.add_argument(
        "--client",
        type=int,
        metavar="PORT",
        help="check a client instead: serve a table on 127.0.0.1:PORT for it to join",
    )
    parser.add_argument(
        "--games", type=positive_int, default=2, help="games the client plays (--client)"
    )
    parser.add_argument(
        "--party",
        metavar="HOST:PORT",
        help="check a party host instead (a fresh party: docs/protocol.md section 17)",
    )


def run(args: argparse.Namespace) -> int:
    if args.client is not None:
        return report(_check_client(args.client, args.games))
    if args.party is not None:
        return _check_party(args.party)
    try:
        if args.address is None:
            raise ValueError("give HOST:PORT (or --client PORT)")
        host, port = parse_address(args.address)
        password = password_option(args.password)
    except ValueError as exc:
        print(f"durak conformance: {exc}", file=sys.stderr)
        return 2
    suite = Suite(host, port, password, sys.stdout, timeouts=args.timeouts)
    try:
        return report(asyncio.run(suite.run()))
    except OSError as exc:
        print(f"durak conformance: cannot reach {args.address}: {exc}", file=sys.stderr)
        return 2


def _check_client(port: int, games: int) -> list[Check]:
    def ready(bound: int) -> None:
        print(f"durak conformance: a table on 127.0.0.1:{bound}; connect the client", flush=True)

    return asyncio.run(ClientCheck(port, games, sys.stdout).run(ready))


def _check_party(address: str) -> int:
    try:
        host, port = parse_address(address)
    except ValueError as exc:
        print(f"durak conformance: {exc}", file=sys.stderr)
        return 2
    try:
        return report(asyncio.run(PartySuite(host, port, sys.stdout).run()))
    except OSError as exc:
        print(f"durak conformance: cannot reach {address}: {exc}", file=sys.stderr)
        return 2
