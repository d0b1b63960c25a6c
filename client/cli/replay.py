"""``durak replay FILE``: watch a kept game again in the window, on the real table."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from client import app as window
from client.net.gamefile import GameFile, GameFileError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="a kept game (see 'Past games' in the window)")
    parser.add_argument("--size", default=None, help="window size, e.g. 1280x720")
    parser.add_argument("--fullscreen", action="store_true", default=None, help="full screen")
    parser.add_argument("--mute", action="store_true", help="no sound")
    parser.add_argument("--frames", type=int, default=None, help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    try:
        game = GameFile.load(args.file)
    except GameFileError as exc:
        print(f"durak replay: {exc}", file=sys.stderr)
        return 2
    args.invite = args.bind = None
    return window.run(args, first=("replay", {"game": game}))
