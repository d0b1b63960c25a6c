"""``durak party``: run a party night (docs/protocol.md section 17) until Ctrl-C.

One process serves the party's port and every table of each round. The organiser (the
first to join) sets the night up and starts it from their window or a client, or the
command line does: ``--size``, ``--rounds`` or ``--minutes``, ``--no-fill`` and the rules
options set the night, and ``--start-with N`` starts the first round by itself once N
players have joined (a night of bots). The party is saved after every change (the user's
data folder, or ``--save-dir``); ``--resume`` (with the same ``--port``) takes it up again,
the round in play included. The terminal is told each round, each table's result and the
standings after each round.
"""

from __future__ import annotations

import argparse
import asyncio
import threading
from collections.abc import Callable

from client.cli.console import Console, stop_on_signals
from client.cli.options import (
    add_listen_options,
    add_rules_options,
    add_save_options,
    page_news,
    positive_int,
    rules_from_args,
    web_port_option,
)
from client.cli.party_board import add_board_arguments, run_board
from engine.ai import LEVELS, make_bot
from host.party.server import PARTY_PORT, PartyConfig, PartyHost
from host.party.store import PartySaveError, party_file
from host.save import default_save_dir
from host.web import PARTY_WEB_PORT
from protocol import MAX_MINUTES, MAX_ROUNDS, Night, Party

__all__ = ["PartyLog", "add_arguments", "run"]


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= value <= 86400:
        raise argparse.ArgumentTypeError(f"seconds must be 0 to 86400, not {text}")
    return value


def _bounded(lo: int, hi: int, what: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = positive_int(text)
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{what} must be {lo} to {hi}, not {value}")
        return value

    return parse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_board_arguments(parser)
    add_listen_options(parser, "party", "Durak party", PARTY_PORT, PARTY_WEB_PORT)
    parser.add_argument(
        "--size",
        type=_bounded(2, 6, "a table's seats"),
        default=4,
        help="seats a table: 2 to 6 (default 4)",
    )
    length = parser.add_mutually_exclusive_group()
    length.add_argument(
        "--rounds", type=_bounded(1, MAX_ROUNDS, "rounds"), default=None, help="default 3"
    )
    length.add_argument(
        "--minutes",
        type=_bounded(1, MAX_MINUTES, "minutes"),
        default=None,
        help="a night of so many minutes instead of a number of rounds",
    )
    parser.add_argument(
        "--no-fill", action="store_true", help="no AI players at short tables (default: fill)"
    )
    parser.add_argument(
        "--ai", default="normal", help=f"the AI players' level ({', '.join(LEVELS)})"
    )
    parser.add_argument(
        "--start-with",
        type=_bounded(1, 60, "players"),
        default=None,
        metavar="N",
        help="start the first round once N players have joined (default: the organiser starts)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="reproducible seating and AI play (a deal players contribute to stays random)",
    )
    parser.add_argument(
        "--break",
        dest="break_s",
        type=_seconds,
        default=30.0,
        metavar="SECONDS",
        help="between two rounds (default 30)",
    )
    parser.add_argument(
        "--gather",
        type=_seconds,
        default=20.0,
        metavar="SECONDS",
        help="how long a table waits for its players before it deals (default 20)",
    )
    parser.add_argument(
        "--hold",
        type=_seconds,
        default=60.0,
        metavar="SECONDS",
        help="how long a dropped player's seat waits before an AI stand-in plays it (default 60)",
    )
    add_save_options(parser, "party", "the saved party")
    parser.add_argument(
        "--list", action="store_true", help="print the parties announced on the LAN and exit"
    )
    add_rules_options(parser)


def run(args: argparse.Namespace) -> int:
    if args.board is not None:  # ``--board``: show a party instead of running one
        return run_board(args)
    if args.list:
        return list_parties(args.bind)
    try:
        make_bot(args.ai, 0, rules_from_args(args, args.size), 0)
    except ValueError as exc:
        print(f"durak party: {exc}")
        return 2
    if args.resume and (args.no_save or not args.port):
        print(
            "durak party: --resume takes up the party saved for a port: give --port, no --no-save"
        )
        return 2
    save_dir = None if args.no_save else str(args.save_dir or default_save_dir())
    rounds = args.rounds if args.rounds or args.minutes else 3
    rules = rules_from_args(args, args.size)
    config = PartyConfig(
        name=args.name,
        bind=args.bind,
        port=args.port,
        web_port=web_port_option(args),
        setup=Night(rules, rounds, args.minutes, not args.no_fill, args.ai),
        seed=args.seed,
        break_s=args.break_s,
        gather=args.gather,
        hold=args.hold,
        announce=not args.no_announce,
        save_dir=save_dir,
        resume=args.resume,
        start_with=args.start_with,
    )
    try:
        asyncio.run(serve(config))
    except KeyboardInterrupt:
        return 130
    except PartySaveError as exc:
        print(f"durak party: cannot resume: {exc}")
        return 1
    except OSError as exc:
        print(
            f"durak party: cannot listen on {args.bind or 'all'}:{args.port}: {exc.strerror or exc}"
        )
        return 1
    return 0


def list_parties(bind: str) -> int:
    from host.party.discovery import browse_parties

    parties = asyncio.run(browse_parties(bind, 3.0, settle=1.0))
    for ad in parties:
        print(ad.line())
    if not parties:
        print("durak party: no party was found on the LAN")
    return 0


class PartyLog:
    """What the person running the party sees: rounds, results, standings."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say
        self.round = -1
        self.status = ""
        self.done: set[tuple[int, int]] = set()

    def __call__(self, party: Party) -> None:
        names = {p.id: p.name for p in party.players}
        if party.round != self.round and party.status == "playing":
            self.round = party.round
            final = " (the final)" if party.final else ""
            self.say(f"durak party: round {party.round}{final}: {len(party.tables)} tables")
            for table in party.tables:
                seated = ", ".join(names[w] if w is not None else "AI" for w in table.seats)
                self.say(f"durak party:   table {table.table + 1} on port {table.port}: {seated}")
        for table in party.tables:
            key = (party.round, table.table)
            if table.status == "done" and key not in self.done:
                self.done.add(key)
                durak = table.durak
                loser = "a draw" if durak is None else self._who(names, table.seats[durak])
                self.say(f"durak party: round {party.round} table {table.table + 1}: {loser}")
        if party.status != self.status:
            self.status = party.status
            if party.status in ("break", "over"):
                self.say(f"durak party: standings after round {party.round}:")
                for p in party.players:
                    self.say(
                        f"durak party:   {p.rank:>2}. {p.name}: {p.score:+d} ({p.games} games)"
                    )
            if party.status == "over":
                self.say("durak party: the night is over")

    @staticmethod
    def _who(names: dict[int, str], who: int | None) -> str:
        return f"{names[who]} is the Durak" if who is not None else "an AI is the Durak"


async def serve(config: PartyConfig) -> None:
    console = Console()
    stop = asyncio.Event()
    closed = threading.Event()
    undo = stop_on_signals(stop, closed)
    try:
        await _serve_until(config, console.say, stop)
    finally:
        closed.set()
        undo()
        console.close()


async def _serve_until(
    config: PartyConfig, say: Callable[[str], None], stop: asyncio.Event
) -> None:
    host = PartyHost(config)
    await host.start()
    where = f"{config.bind or 'all interfaces'} port {host.port}"
    announced = "not announced" if not config.announce else "announced on the LAN"
    say(f"durak party: {host.night.name!r} on {where}, {announced}")
    if config.save_dir is not None:
        resumed = f", round {host.night.round.number} resumed" if host.night.round else ""
        say(f"durak party: saving the party to {party_file(config.save_dir, host.port)}{resumed}")
    log = PartyLog(say)
    log(host.view())
    say(f"durak party: listening on {config.bind or '0.0.0.0'}:{host.port}")
    if host.web_port is not None:
        say(page_news("durak party", config.bind, host.web_port))
    waiter = asyncio.ensure_future(stop.wait())
    try:
        while not stop.is_set():
            changed = asyncio.ensure_future(host.changed.wait())
            await asyncio.wait({waiter, changed}, return_when=asyncio.FIRST_COMPLETED)
            changed.cancel()
            host.changed.clear()
            log(host.view())
    finally:
        waiter.cancel()
        say("durak party: closing the party")
        await host.stop()
        say("durak party: closed")
