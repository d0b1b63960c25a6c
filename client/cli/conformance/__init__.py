"""``durak conformance HOST:PORT``: check that a host does what docs/protocol.md says.

It connects to the host as several clients (raw frames, so that it can also send what a
good client never would) and checks, one by one, the framing and decoding rules, the
handshake, every lobby command and its refusals, the ready marks, emotes, watchers (no
hand, no action, the limit), a whole game (the order of messages, seq numbers, trimmed
events, the bout limit, transfers, the end), the fair deal (a commitment before each deal,
refused malformed contributions, the reveal after the game, and a deal every seat
verifies) and drops, returns, stand-ins and the turn timer. Each check prints one line;
the last line is ``N passed, M failed``. Exit status 0 only if every check passed.

The host must be fresh: a table in the lobby with nobody seated, no autostart, no
password (or give it with ``--password``), and the host AI level ``random``, as a plain
``durak host --bind 127.0.0.1 --no-announce --no-save`` is. The suite changes that
table's rules and options and plays games at it: do not point it at a table in use.

The suite is a package with one module per section of the document (``framing``,
``handshake``, ``lobby``, ``watchers``, ``game``, ``fairdeal``, ``drops``) on a small core:
``peer`` (one connection), ``session`` (the steps every section takes), ``report`` (the
lines and the exit status) and ``runner`` (the order). ``client_check`` checks a client.
"""

from client.cli.conformance.client_check import ClientCheck
from client.cli.conformance.command import add_arguments, run
from client.cli.conformance.report import Check
from client.cli.conformance.runner import Suite

__all__ = ["Check", "ClientCheck", "Suite", "add_arguments", "run"]
