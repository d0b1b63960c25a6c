"""``durak party --board [HOST:PORT]``: a party's board in the window, full screen, for a
TV or a projector (docs/protocol.md section 17; the board is client/screens/party/).

It joins the party as a board and watches every table of the round, from any machine on
the LAN; without an address it shows the party on this machine. The window's options
have names of their own here (``--window``, ``--windowed``): ``durak party --size`` is a
table's seats.
"""

from __future__ import annotations

import argparse
import sys

__all__ = ["add_board_arguments", "run_board"]


def add_board_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--board",
        nargs="?",
        const="127.0.0.1",
        default=None,
        metavar="HOST:PORT",
        help="show a party's board full screen instead of running one (default: this machine's)",
    )
    parser.add_argument("--window", default=None, metavar="WxH", help="the board in a window")
    parser.add_argument("--board-frames", type=int, default=None, help=argparse.SUPPRESS)


def run_board(args: argparse.Namespace) -> int:
    from client.net.party_link import PartyLink, party_address

    try:
        address, port = party_address(args.board)
    except ValueError as exc:
        print(f"durak party --board: {exc}: give HOST:PORT", file=sys.stderr)
        return 2
    if args.window is not None:
        w, _, h = args.window.lower().partition("x")
        if not (w.isdecimal() and h.isdecimal() and int(w) >= 320 and int(h) >= 240):
            print(f"durak party --window: not WxH: {args.window!r}", file=sys.stderr)
            return 2
    from client import app as window
    from client.net.session import AI_NAMES
    from client.screens.party.feed import NetFeed, net_joiner

    link = PartyLink(address, port, "Board", board=True)
    feed = NetFeed(link, "Board", net_joiner(AI_NAMES), watch=True)
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
