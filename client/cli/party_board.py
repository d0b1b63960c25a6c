"""``durak party --board [HOST:PORT]``: a party's board in the window, full screen, for a
TV or a projector (docs/protocol.md section 17; the board is client/screens/party/).

It joins the party as a board and watches every table of the round, from any machine on
the LAN. Without an address it looks for parties on the LAN for up to 3 seconds (on
``--bind``'s interface; a second after the last one answered): the one party found is
shown, several are listed to choose from, and with none it tries this machine's. The
window's size has an option of its own (``--window``): ``durak party --size`` is a
table's seats.
"""

from __future__ import annotations

import argparse
import sys

__all__ = ["add_board_arguments", "run_board"]

SETTLE = 1.0  # seconds of quiet after a party answered: no other is coming (see discovery)


def add_board_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--board",
        nargs="?",
        const="",
        default=None,
        metavar="HOST:PORT",
        help="show a party's board full screen instead of running one (default: the LAN's)",
    )
    parser.add_argument("--window", default=None, metavar="WxH", help="the board in a window")
    parser.add_argument("--board-frames", type=int, default=None, help=argparse.SUPPRESS)


def run_board(args: argparse.Namespace) -> int:
    from client.net.party_link import PartyLink, party_address

    try:
        address, port = party_address(args.board or _the_party(args.bind))
    except LookupError as exc:
        print(f"durak party --board: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"durak party --board: {exc}: give HOST:PORT", file=sys.stderr)
        return 2
    if args.window is not None:
        w, _, h = args.window.lower().partition("x")
        if not (w.isdecimal() and h.isdecimal() and int(w) >= 320 and int(h) >= 240):
            print(f"durak party --window: not WxH: {args.window!r}", file=sys.stderr)
            return 2
    from client import app as window
    from client.screens.party.feed import NetFeed, net_joiner

    link = PartyLink(address, port, "Board", board=True)
    feed = NetFeed(link, "Board", net_joiner(), watch=True)
    shown = argparse.Namespace(
        invite=None,
        watch=False,
        bind=None,
        size=args.window,
        fullscreen=None if args.window else True,
        mute=True,
        frames=args.board_frames,
    )
    return window.run(shown, first=("party_board", {"feed": feed}))


def _the_party(bind: str) -> str:
    """The address of the one party announced on the LAN, this machine's when there is
    none; ``LookupError`` listing them when there are several."""
    import asyncio

    from host.party import PARTY_PORT, browse_parties

    found = asyncio.run(browse_parties(bind, 3.0, settle=SETTLE))
    if not found:
        return f"127.0.0.1:{PARTY_PORT}"
    if len(found) > 1:
        lines = "\n".join("  " + ad.line() for ad in found)
        raise LookupError(f"{len(found)} parties on the LAN: give one's HOST:PORT\n{lines}")
    return f"{found[0].address}:{found[0].port}"
