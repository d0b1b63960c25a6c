"""``durak host``: serve a table on the network until Ctrl-C (or SIGTERM).

The table is saved after every change (to the user's data folder, or ``--save-dir``; a
game's moves go to its journal, see ``host.journal``); ``--resume`` takes up the saved
table where it was, and its players come back with their seat tokens. A torn or corrupt
save is reported and left where it is; a save folder that cannot be written is reported
once at start-up, and the table is then served without saving.
"""

from __future__ import annotations

import argparse
import asyncio
import threading
from collections.abc import Callable

from client.cli.console import Console, stop_on_signals
from client.cli.options import (
    PASSWORD_HELP,
    add_listen_options,
    add_rules_options,
    add_save_options,
    page_news,
    password_option,
    rules_from_args,
    web_port_option,
)
from engine import Rules
from engine.ai import LEVELS, make_bot
from host import Host, HostConfig
from host.config import LAN_HOLD
from host.save import SaveError, default_save_dir, save_file
from host.web import WEB_PORT
from protocol import MAX_SILENCE_MS, MAX_WATCHERS, MIN_SILENCE_MS, SILENCE_MS, WATCHERS, Room

DEFAULT_PORT = 45654


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= value <= 86400:
        raise argparse.ArgumentTypeError(f"seconds must be 0 to 86400, not {text}")
    return value


def _timer(text: str) -> float:
    value = _seconds(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"more than 0 seconds are needed, not {text}")
    return value


def _silence(text: str) -> float:
    value = _seconds(text)
    if not MIN_SILENCE_MS <= value * 1000 <= MAX_SILENCE_MS:
        raise argparse.ArgumentTypeError(
            f"the silence must be {MIN_SILENCE_MS / 1000:g} to {MAX_SILENCE_MS / 1000:g} seconds"
        )
    return value


def _watchers(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of watchers: {text!r}") from None
    if not 0 <= value <= MAX_WATCHERS:
        raise argparse.ArgumentTypeError(f"a table takes 0 to {MAX_WATCHERS} watchers, not {value}")
    return value


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
    add_listen_options(parser, "table", "Durak table", DEFAULT_PORT, WEB_PORT)
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
    parser.add_argument("--password", default=None, help=PASSWORD_HELP)
    parser.add_argument(
        "--seed", type=int, default=None,
        help="seeds the AI players, and the deals nobody contributes to (tests, benchmarks)",
    )  # fmt: skip
    parser.add_argument(
        "--hold",
        type=_seconds,
        default=LAN_HOLD,
        metavar="SECONDS",
        help="how long a dropped player's seat waits before an AI stand-in plays it "
        f"(default {LAN_HOLD:g})",
    )
    parser.add_argument(
        "--turn-timer",
        type=_timer,
        default=None,
        metavar="SECONDS",
        help="make the default move for a player who does not act in time "
        "(default: none shown; a player is waited on for 60 s)",
    )
    parser.add_argument(
        "--silence",
        type=_silence,
        default=SILENCE_MS / 1000,
        metavar="SECONDS",
        help="a player whose connection answers nothing for this long counts as dropped "
        f"(the heartbeat; default {SILENCE_MS / 1000:g})",
    )
    parser.add_argument(
        "--idle",
        type=_timer,
        default=None,
        metavar="SECONDS",
        help="free the seat of a player who sits in the room that long without being ready "
        "(default: never)",
    )
    parser.add_argument(
        "--watchers",
        type=_watchers,
        default=WATCHERS,
        metavar="N",
        help=f"how many may watch the table without a seat (default {WATCHERS}; 0: nobody)",
    )
    add_save_options(parser, "table", "the saved table (and its game)")
    parser.add_argument(
        "--accept-loss",
        action="store_true",
        help="with --resume: take up a table whose journal is damaged or missing, dropping"
        " what is lost (it is said first)",
    )
    add_rules_options(parser)


def run(args: argparse.Namespace) -> int:
    if len(args.ai) > args.seats:
        print(f"durak host: {len(args.ai)} AI players do not fit {args.seats} seats")
        return 2
    if args.accept_loss and not args.resume:
        print("durak host: --accept-loss goes with --resume")
        return 2
    if args.resume and args.no_save:
        print("durak host: --resume needs the save (drop --no-save)")
        return 2
    if args.resume and not args.port:
        print("durak host: --resume takes up the table saved for a port: give it (--port P)")
        return 2
    try:
        password = password_option(args.password)
    except ValueError as exc:
        print(f"durak host: {exc}")
        return 2
    save_dir = None if args.no_save else str(args.save_dir or default_save_dir())
    saved = None if save_dir is None or not args.port else save_file(save_dir, args.port)
    if saved is not None and not args.resume and saved.exists():
        print(
            f"durak host: a new table replaces the one saved in {saved}"
            " (durak host --resume takes that one up instead)",
            flush=True,
        )
    config = HostConfig(
        name=args.name,
        bind=args.bind,
        port=args.port,
        web_port=web_port_option(args),
        seats=args.seats,
        ai=args.ai,
        autostart=args.autostart,
        password=password,
        rules=rules_from_args(args, args.seats),
        announce=not args.no_announce,
        seed=args.seed,
        hold=args.hold,
        turn_timer=args.turn_timer,
        silence=args.silence,
        idle=args.idle,
        watchers=args.watchers,
        save_dir=save_dir,
        resume=args.resume,
        accept_loss=args.accept_loss,
    )
    try:
        asyncio.run(serve(config))
    except KeyboardInterrupt:  # Ctrl-C before the table was up: nothing to close
        return 130
    except SaveError as exc:
        print(f"durak host: cannot resume: {exc}")
        if saved is not None and saved.exists():
            print("durak host: the file was left as it is")
        return 1
    except OSError as exc:
        print(f"durak host: cannot listen on {args.bind or 'all'}:{args.port}: {exc.strerror}")
        return 1
    return 0


class RoomLog:
    """Prints what the person running the table wants to see in the terminal: games
    starting and ending, and a player dropping out, stood in for and coming back."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say
        self.status = "lobby"
        self.seats: tuple[str, ...] = ()

    def __call__(self, room: Room) -> None:
        if room.status != self.status:
            self.status = room.status
            verb = "started" if room.status == "playing" else "ended"
            self.say(f"durak host: game {room.game} {verb}")
        seats = tuple(seat.status for seat in room.seats)
        if room.status == "playing" and len(seats) == len(self.seats):
            for index, (before, now) in enumerate(zip(self.seats, seats, strict=True)):
                if before != now and room.seats[index].kind == "human":
                    name = room.seats[index].name
                    self.say(f"durak host: seat {index} ({name}) {SEAT_NEWS[now]}")
        self.seats = seats


SEAT_NEWS = {
    "connected": "is connected",
    "away": "dropped out: the seat is held for them",
    "stand_in": "is played by an AI stand-in until they return",
    "empty": "is empty",
    "ai": "is played by an AI",
}


async def serve(config: HostConfig) -> None:
    """Serve until SIGINT/SIGTERM (or, on Windows, Ctrl-Break or the console closing), then
    close cleanly (clients told, announcement gone). What it says goes to the terminal
    from a thread of its own (``client.cli.console``)."""
    console = Console()
    try:
        await _serve(config, console.say)
    finally:
        console.close()


async def _serve(config: HostConfig, say: Callable[[str], None]) -> None:
    stop = asyncio.Event()
    closed = threading.Event()
    undo = stop_on_signals(stop, closed)
    try:
        await _serve_until(config, say, stop)
    finally:
        closed.set()
        undo()


async def _serve_until(config: HostConfig, say: Callable[[str], None], stop: asyncio.Event) -> None:
    host = Host(config)
    host.watchers.append(RoomLog(say))
    await host.start()
    where = f"{config.bind or 'all interfaces'} port {host.port}"
    if not config.announce:
        announced = "not announced"
    else:
        announced = f"announced on {config.bind}" if config.bind else "announced on the LAN"
    say(f"durak host: table {config.name!r} on {where}, {announced}")
    if host.save_problem is not None:
        say(
            f"durak host: the table will NOT be saved: {host.save_problem}"
            " (it tries again every second, and says so once it can)"
        )
    elif config.save_dir is not None:
        resumed = ""
        if config.resume:
            table = host.table
            resumed = f", game {table.game} resumed"
            resumed += f" at move {table.seq}" if table.playing else " (in the room)"
        say(f"durak host: saving the table to {host.save_path}{resumed}")
    for note in host.table.notes:
        say(f"durak host: {note}")
    sizes = host.door.limits
    files = "no limit" if host.file_limit is None else f"a limit of {host.file_limit}"
    say(
        f"durak host: {sizes.limit} connections at most, {sizes.reserve} more for returning"
        f" players ({files} on open files)"
    )
    say(f"durak host: listening on {config.bind or '0.0.0.0'}:{host.port}")
    if host.web_port is not None:
        say(page_news("durak host", config.bind, host.web_port))
    try:
        await stop.wait()
    finally:
        say("durak host: closing the table")
        await host.stop("The host closed the table.")
        say("durak host: closed")
