"""The suite's order: the sections of docs/protocol.md one after another against one
host, each building on the table the one before left (the owner from the handshake, the
second player from the lobby, the watcher for the game). A section that cannot go on
stops the run with one failed check naming it; the game-long rules and the validity of
every host message are reported after whatever ran."""

from __future__ import annotations

import asyncio
import contextlib
from types import TracebackType
from typing import TextIO

from client.cli.conformance.drops import drops
from client.cli.conformance.framing import framing
from client.cli.conformance.game import Games, game
from client.cli.conformance.handshake import handshake
from client.cli.conformance.lobby import leaving, lobby
from client.cli.conformance.peer import WAIT
from client.cli.conformance.public import EVENT_KINDS, VERBS
from client.cli.conformance.report import SKIPPED, Check, Failed, Record
from client.cli.conformance.session import Session
from client.cli.conformance.watchers import watching


class Stopped(Exception):
    """A section could not go on; its failure is recorded, and no section runs after it."""


class Section:
    """``with Section(record, name):`` a section's steps; a step that cannot go on (no
    answer, or the host unreachable) becomes one failed check and ``Stopped``."""

    def __init__(self, record: Record, name: str) -> None:
        self.record, self.name = record, name

    def __enter__(self) -> None:
        return None

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if isinstance(exc, Failed):
            self.record.check(f"{self.name}: every step was answered", False, f"{exc}; {SKIPPED}")
            raise Stopped from None
        if isinstance(exc, ConnectionError | OSError):
            self.record.check(f"{self.name}: the host stayed reachable", False, f"{exc}; {SKIPPED}")
            raise Stopped from None


class Suite:
    """The checks, run in order against one host; ``run`` returns each outcome."""

    def __init__(
        self,
        host: str,
        port: int,
        password: str | None = None,
        out: TextIO | None = None,
        *,
        timeouts: bool = False,
    ) -> None:
        self.record = Record(out)
        self.session = Session(host, port, password, self.record)
        self.games = Games(self.session)
        self.timeouts = timeouts  # also wait out the 10 s handshake timeout

    async def run(self) -> list[Check]:
        """Every check in order; ``OSError`` if the host cannot be reached at all."""
        s = self.session
        _, writer = await asyncio.wait_for(asyncio.open_connection(s.host, s.port), WAIT)
        writer.close()
        with contextlib.suppress(Stopped):
            await self.sections()
        self.record.invariants()
        invalid = s.invalid()
        self.record.check(
            "every message of the host is valid under sections 1, 2 and 4",
            not invalid,
            "; ".join(invalid[:3]),
        )
        await s.close()
        missing = sorted((set(EVENT_KINDS) | set(VERBS)) - self.games.updates.seen)
        self.record.note(f"the games did not show {', '.join(missing) or 'nothing'}")
        return self.record.results

    async def sections(self) -> None:
        s, games = self.session, self.games
        with Section(self.record, "framing"):
            await framing(s)
        with Section(self.record, "handshake"):
            anna = await handshake(s, timeouts=self.timeouts)
        with Section(self.record, "lobby"):
            boris = await lobby(s, anna)
        with Section(self.record, "watching"):
            wanda = await watching(s, anna)
        with Section(self.record, "game"):
            await game(games, anna, boris, wanda)
        with Section(self.record, "drops"):
            await drops(games, anna, boris)
        with Section(self.record, "leaving"):
            await leaving(s, anna)
