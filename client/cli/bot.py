"""``durak bot``: a headless AI player that joins a table over the network.

The reference client of the protocol (and what the tests use): it joins with a name, is
told its seat's view and trimmed events, and answers with one of the legal actions the
view carries, decided by an AI level from ``engine.ai.LEVELS``. In the lobby it marks
itself ready (again after every game); when it owns the room, every seat is taken and
every other player is ready, it starts the games itself. It exits 0 after ``--games`` games.
A lost connection is reconnected with the seat's token (exponential backoff with jitter)
unless ``--no-reconnect``; the host's snapshot then resynchronises the game. The host's
heartbeats are answered by the connection's own task (``NetClient``), however long the
bot thinks, and a host that falls silent counts as a lost connection.

Every deal is checked (docs/protocol.md section 15): the bot contributes to each deal when
the host commits to it, and after each game it verifies the host's reveal and prints "deal
verified" or why not; it exits 1 if a deal could not be verified.

``--table NAME`` finds the table on the LAN instead of ``--connect HOST:PORT`` and joins
at the first of its announced addresses that answers (``host.routes``).

``--watch`` joins as a watcher instead: no seat, no actions; it prints what happens at the
table (the room, every public event, the reactions) until ``--games`` games have ended.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from client.cli.bot_player import play_bot
from client.cli.demo import describe
from client.cli.options import PASSWORD_HELP, password_option, positive_int, seconds_option
from client.cli.party_bot import run_party
from client.net.client import Backoff, HostClosed, NetClient, parse_address
from engine import GameEnded, GameResult
from engine.ai import LEVELS
from host import TableAd, browse
from protocol import (
    Emoted,
    Room,
    RoomUpdate,
    WatcherEmoted,
    WatchSnapshot,
    WatchUpdate,
)


@dataclass(slots=True)
class WatchReport:
    results: list[GameResult] = field(default_factory=list)
    frames: int = 0  # game frames received (snapshots and updates)
    room: Room | None = None


def _room_line(room: Room) -> str:
    seats = ", ".join(s.name if s.kind != "empty" else "(open)" for s in room.seats)
    watching = f"; watching: {', '.join(room.watching)}" if room.watching else ""
    return f"room {room.name!r} ({room.status}): {seats}{watching}"


async def watch_table(
    client: NetClient, games: int, say: Callable[[str], None] = print
) -> WatchReport:
    """Watch over ``client`` (a watcher's connection) until ``games`` games have ended,
    telling ``say`` one line for each thing that happens."""
    assert client.watching is not None
    report = WatchReport(room=client.watching.room)
    say(_room_line(client.watching.room))
    while len(report.results) < games:
        message = await client.receive()
        if isinstance(message, WatchSnapshot):
            report.frames += 1
            view = message.view
            sizes = " ".join(str(n) for n in view.hand_sizes)
            say(
                f"game {message.game}: watching from move {message.seq}: hands {sizes}, "
                f"stock {view.stock_size}, trump {view.trump_card.pretty}, "
                f"discarded {view.discard_size}"
            )
        elif isinstance(message, WatchUpdate):
            report.frames += 1
            for event in message.events:
                say(f"game {message.game}: {describe(event)}")
                if isinstance(event, GameEnded):
                    report.results.append(event.result)
        elif isinstance(message, RoomUpdate):
            report.room = message.room
            say(_room_line(message.room))
        elif isinstance(message, Emoted):
            say(f"seat {message.seat} reacts: {message.code}")
        elif isinstance(message, WatcherEmoted):
            say(f"{message.name} (watching) reacts: {message.code}")
    return report


async def watch_bot(
    address: str | Sequence[str],
    port: int,
    games: int,
    *,
    name: str = "Watcher",
    password: str | None = None,
    on_payload: Callable[[Any], None] | None = None,
    say: Callable[[str], None] = print,
) -> WatchReport:
    """Watch the table at ``address:port`` until ``games`` games have ended."""
    client = await NetClient.connect(
        address, port, name, password=password, on_payload=on_payload, watch=True
    )
    try:
        return await watch_table(client, games, say)
    finally:
        await client.close()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--connect", metavar="HOST:PORT", help="the table at this address")
    where.add_argument(
        "--table",
        metavar="NAME",
        help="the table of this name on the LAN (tried at every address it announces)",
    )
    where.add_argument(
        "--party",
        metavar="HOST:PORT",
        help="join the party there and play its whole night, table after table",
    )
    parser.add_argument(
        "--bind",
        default="",
        metavar="ADDR",
        help="with --table: look on this interface's address only (default: all)",
    )
    parser.add_argument(
        "--level", default="random", help=f"AI level ({', '.join(LEVELS)}; default random)"
    )
    parser.add_argument("--games", type=positive_int, default=1, help="games to play (default 1)")
    parser.add_argument("--name", default=None, help="the name to join with")
    parser.add_argument("--password", default=None, help=PASSWORD_HELP)
    parser.add_argument("--seed", type=int, default=None, help="seed for the bot's choices")
    parser.add_argument(
        "--think",
        type=seconds_option,
        default=0.0,
        metavar="SECONDS",
        help="wait a random time of up to SECONDS before each action, as a player thinks",
    )
    parser.add_argument(
        "--no-reconnect", action="store_true", help="exit when the connection is lost"
    )
    parser.add_argument(
        "--watch",
        action="store_true",
        help="watch the table without a seat and print what happens (until --games end)",
    )


async def find_table(name: str, bind: str = "", seconds: float = 3.0) -> TableAd:
    """The table called ``name`` on the LAN (one that answered, where two share the
    name); ``LookupError`` if there is none."""
    found = [ad for ad in await browse(bind, seconds) if ad.name == name]
    if not found:
        raise LookupError(f"no table called {name!r} was found on the LAN")
    return max(found, key=lambda ad: ad.reachable is True)


def run(args: argparse.Namespace) -> int:
    if args.party is not None:
        return run_party(args)
    try:
        if args.table is None:
            address: str | tuple[str, ...]
            address, port = parse_address(args.connect)
        else:
            ad = asyncio.run(find_table(args.table, args.bind))
            address, port = ad.candidates, ad.port
            note = "" if ad.reachable else " (not reachable: trying every address)"
            print(f"durak bot: {ad.name} is at {ad.address}:{port}{note}", flush=True)
        password = password_option(args.password)
        if args.watch:
            asyncio.run(
                watch_bot(address, port, args.games, name=args.name or "Watcher", password=password)
            )
            return 0
        report = asyncio.run(
            play_bot(
                address,
                port,
                args.level,
                args.games,
                name=args.name,
                password=password,
                seed=args.seed,
                reconnect=None if args.no_reconnect else Backoff(),
                think=args.think,
            )
        )
    except ValueError as exc:
        print(f"durak bot: {exc}")
        return 2
    except LookupError as exc:
        print(f"durak bot: {exc}")
        return 1
    except HostClosed as exc:
        print(f"durak bot: the host closed the connection ({exc.code}): {exc.text}")
        return 1
    except OSError as exc:
        where = args.connect or args.table
        print(f"durak bot: cannot connect to {where}: {exc.strerror or exc}")
        return 1
    for line in report.lines():
        print(line)
    return 0 if report.fair else 1
