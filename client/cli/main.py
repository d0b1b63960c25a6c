"""The ``durak`` command: the game, and the tools around it (``durak simulate`` ...).

Each subcommand lives in its own module with ``add_arguments(parser)`` and ``run(args)``;
the module is imported only when its command runs, so ``durak simulate`` never loads
pygame and every command starts quickly. To add a command, add a line to ``COMMANDS``.
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version

# name -> (module, one-line help). The first entry is what a bare ``durak`` runs.
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("client.app", "open the game window (the default)"),
    "demo": ("client.cli.demo", "play one headless demo game and narrate it"),
    "simulate": ("client.cli.simulate", "play random-legal games headless and summarise them"),
    "host": ("client.cli.host", "serve a table on the network"),
    "party": ("client.cli.party", "run a party night: rounds across several tables"),
    "list": ("client.cli.list_tables", "list the tables on the LAN and exit"),
    "bot": ("client.cli.bot", "join a table as a headless AI player"),
    "arena": ("client.cli.arena", "let two AI levels play duplicate deals and measure them"),
    "conformance": ("client.cli.conformance", "check a host against docs/protocol.md"),
    "replay": ("client.cli.replay", "watch a kept game again in the window"),
    "review": ("client.cli.review", "the coach: how each of your decisions in a kept game went"),
}
DEFAULT = "play"
DISTRIBUTION = "lan-durak"  # the name in pyproject.toml, which holds the one version number


def _usage() -> str:
    lines = ["usage: durak [COMMAND] [options]", "       durak --version", "", "commands:"]
    lines += [f"  {name:<10} {text}" for name, (_, text) in COMMANDS.items()]
    lines += ["", f"Without a command, durak runs '{DEFAULT}'. 'durak COMMAND --help' for more."]
    return "\n".join(lines)


def _version() -> str:
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "(unknown: not installed)"


def sturdy_stdio() -> None:
    """Output that can never stop the program. Under pythonw or a windowed app on Windows
    there are no standard streams (None): they go to the null device. Piped or redirected
    on Windows they use the ANSI code page with strict errors, where the first "♣" of a
    card, or a table's name outside the code page, raised UnicodeEncodeError (``durak
    demo`` died, ``durak host`` skipped a save): characters the stream cannot encode are
    written as "?" instead."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115
        elif isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors="replace")


def main(argv: Sequence[str] | None = None) -> int:
    if getattr(sys, "frozen", False):
        # The standalone app: an AI worker process (started with ``spawn``) is the app
        # itself, run with multiprocessing's arguments. This runs the worker and exits;
        # without it the worker would open a window of its own, and its workers theirs.
        import multiprocessing

        multiprocessing.freeze_support()
    sturdy_stdio()
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("-h", "--help"):
        print(_usage())
        return 0
    if args and args[0] in ("-V", "--version"):
        from engine.compiled import engine_kind

        print(f"durak {_version()} (engine: {engine_kind()})")
        return 0
    if args and args[0] in COMMANDS:
        name = args.pop(0)
    elif args and not args[0].startswith("-") and "://" not in args[0]:
        print(f"durak: unknown command {args[0]!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    else:
        name = DEFAULT
    module_name, text = COMMANDS[name]
    module = importlib.import_module(module_name)
    parser = argparse.ArgumentParser(prog=f"durak {name}", description=text)
    module.add_arguments(parser)
    try:
        result: int = module.run(parser.parse_args(args))
    except BrokenPipeError:  # e.g. `durak demo | head`: the reader left, which is fine
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return result
