"""Command-line options shared by several ``durak`` subcommands."""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping

from engine import DECK_SIZES, Rules, RulesError, ThrowInRule
from protocol.fields import MAX_PASSWORD

PASSWORD_ENV = "DURAK_PASSWORD"
PASSWORD_HELP = (
    f"the table's password (or set {PASSWORD_ENV}: a command line can be read by other "
    "users of the machine)"
)


def password_option(given: str | None, environ: Mapping[str, str] = os.environ) -> str | None:
    """The password from ``--password`` or else ``DURAK_PASSWORD`` (None: no password);
    ``ValueError`` if no client could send it."""
    password = given if given is not None else environ.get(PASSWORD_ENV)
    if not password:
        return None
    if len(password) > MAX_PASSWORD or not password.isprintable():
        raise ValueError(f"a password is at most {MAX_PASSWORD} printable characters")
    return password


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """The options of RULES.md, with its defaults."""
    group = parser.add_argument_group("rules")
    group.add_argument("--deck", type=int, choices=DECK_SIZES, default=36, help="deck size")
    group.add_argument(
        "--throw-in",
        choices=[t.value for t in ThrowInRule],
        default="all",
        help="who may add cards: every non-defender, or only the defender's neighbours",
    )
    group.add_argument(
        "--no-first-bout-five",
        action="store_true",
        help="allow 6 cards in the first bout too (default: at most 5)",
    )
    group.add_argument("--transfer", action="store_true", help="Perevodnoy: transfer allowed")
    group.add_argument(
        "--show-trump", action="store_true", help="transfer by showing a trump (with --transfer)"
    )
    group.add_argument(
        "--durak-defends-first",
        action="store_true",
        help="in a series, the previous Durak defends first",
    )


def rules_from_args(args: argparse.Namespace, players: int) -> Rules:
    """The rules the options name; exits with a clear message if they cannot be played."""
    try:
        return Rules(
            players=players,
            deck_size=args.deck,
            throw_in=ThrowInRule(args.throw_in),
            first_bout_five=not args.no_first_bout_five,
            transfer=args.transfer,
            transfer_show_trump=args.show_trump,
            durak_defends_first=args.durak_defends_first,
        )
    except RulesError as exc:
        raise SystemExit(f"durak: {exc}") from None


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def seconds_option(text: str) -> float:
    """A time in seconds from 0 to an hour (a clear error for anything else)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= value <= 3600:  # (NaN fails this too)
        raise argparse.ArgumentTypeError(f"must be 0 to 3600 seconds, not {text}")
    return value


def add_listen_options(
    parser: argparse.ArgumentParser, what: str, name: str, port: int, web_port: int
) -> None:
    """Where a host (``what``: "table" or "party") listens, and under which ``name`` it is
    announced: ``--name``, ``--bind``, ``--port`` (default ``port``), ``--web-port`` and
    ``--no-web`` (the phones' page, ``web_port``), ``--no-announce``."""
    parser.add_argument("--name", default=name, help=f"the {what}'s name on the LAN")
    parser.add_argument(
        "--bind",
        default="",
        metavar="ADDR",
        help="the address to listen on and announce from (default: all; 127.0.0.1: this machine)",
    )
    parser.add_argument("--port", type=int, default=port, help=f"default {port}; 0: any free port")
    add_web_options(parser, web_port)
    parser.add_argument("--no-announce", action="store_true", help="do not announce on the LAN")


def add_save_options(parser: argparse.ArgumentParser, what: str, resumed: str) -> None:
    """Where a host (``what``) is saved after every change: ``--save-dir``, ``--no-save``,
    and ``--resume`` (taking up ``resumed``)."""
    from host.save import default_save_dir

    parser.add_argument(
        "--save-dir",
        default=None,
        metavar="DIR",
        help=f"where the {what} is saved after every change (default: {default_save_dir()})",
    )
    parser.add_argument("--no-save", action="store_true", help=f"do not save the {what}")
    parser.add_argument("--resume", action="store_true", help=f"take up {resumed} again")


def add_web_options(parser: argparse.ArgumentParser, default: int) -> None:
    """The phones' page: ``--web-port`` (``default``; 0: any free port) or ``--no-web``."""
    parser.add_argument(
        "--web-port",
        type=int,
        default=default,
        metavar="P",
        help=f"the page phones play in, in a browser (default {default}; 0: any free port)",
    )
    parser.add_argument(
        "--no-web", action="store_true", help="serve no page for phones (TCP clients only)"
    )


def web_port_option(args: argparse.Namespace) -> int | None:
    return None if args.no_web else int(args.web_port)


def page_news(program: str, bind: str, port: int) -> str:
    """Where phones open the page: every LAN address, and the first one's QR code."""
    from client.qr import qr_text
    from host import lan_addresses

    urls = [f"http://{address}:{port}/" for address in lan_addresses(bind) or ("127.0.0.1",)]
    return (
        f"{program}: phones play in the browser at {' or '.join(urls)}"
        f" (web port {port}): scan the code\n{qr_text(urls[0])}"
    )
