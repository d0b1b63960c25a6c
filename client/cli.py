"""The ``durak`` command: the game, and the tools around it (``durak simulate`` ...).

Each subcommand's module is imported only when it runs, so ``durak simulate`` never loads
pygame and ``durak`` starts quickly.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from engine import Rules, RulesError, ThrowInRule


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """The options of RULES.md, with its defaults."""
    group = parser.add_argument_group("rules")
    group.add_argument("--deck", type=int, choices=(24, 36, 52), default=36, help="deck size")
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="durak", description="The card game Durak.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    demo = commands.add_parser("demo", help="play one headless demo game and print it")
    demo.add_argument("--players", type=int, default=3)
    demo.add_argument("--seed", type=int, default=None)
    add_rules_options(demo)

    simulate = commands.add_parser("simulate", help="play random-legal games and summarise")
    simulate.add_argument("--players", type=int, default=2, help="2 to 6")
    simulate.add_argument("--games", type=positive_int, default=1000)
    simulate.add_argument("--seed", type=int, default=0)
    add_rules_options(simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "simulate":
        from .simulate import run_simulate

        return run_simulate(args)
    if args.command is None:
        print(
            "durak: the game window is not built yet; playing a headless demo game instead.\n",
            file=sys.stderr,
        )
        args = build_parser().parse_args(["demo", *([] if argv is None else argv)])
    from .demo import run_demo

    return run_demo(args)
