"""The tables of a party's rounds: each opened as an ordinary table on a port of its own (a
``host.server.Host`` with the party's policy, ``host.party.tables``), its seats held for
the round's players by their derived tokens, closed once the party has its result on
disk (and its save files then removed: the party's save holds the game from there on).
While the party's save fails (a full disk) a closed table's files are kept, until a party
save is on disk: a ``kill -9`` meanwhile, and ``--resume`` scores the game from them. Their
AI seats think in one pool for the night (``host.workers.AiPool``), started with the
party: a table's own pool started a thread and a process at its first AI decision, and
the thread's start held up the other tables' moves.

A party's tables are saved in a folder beside the party's save (``store.tables_folder``),
one save and journal per table port as any table's; a table the party takes up again
after a restart is resumed from there when its save exists, and otherwise opened afresh on
its port with the same seats and tokens (the party was killed before it saved).

How a table is opened is a ``TableOpener``'s: ``HostOpener`` (a ``Host`` on a port of its
own, its AI seats in the night's pool) for the party host; a test gives one that opens
tables in-process on its manual clock (tests/host/night_harness.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Protocol

from .. import durable
from ..config import HostConfig
from ..credentials import hash_token
from ..journal import journal_file
from ..policy import Finished, Reserved, TablePolicy
from ..save import save_file
from ..server import Host
from ..workers import AiPool
from .config import PartyConfig
from .night import NightState, TableSlot
from .tables import party_policy

__all__ = ["HostOpener", "OpenTable", "RoundTables", "TableOpener"]

OnResult = Callable[[int, int, Finished], None]  # (round, table, its game)
AI_THREADS = 8  # AI decisions waited for at once, over every table
AI_PROCESSES = min(4, os.cpu_count() or 2)  # worker processes (more than the cores: no gain)


class OpenTable(Protocol):
    """A round's table, open (a ``Host``, or a test's table in-process)."""

    @property
    def port(self) -> int: ...
    @property
    def web_port(self) -> int | None: ...
    @property
    def save_path(self) -> Path | None: ...
    async def stop(self, text: str) -> None: ...


class TableOpener(Protocol):
    """How a night's tables are opened: ``start`` before the first, ``open`` each with its
    config and the party's policy, ``close`` once the night is over."""

    def start(self) -> None: ...
    async def open(self, config: HostConfig, policy: TablePolicy) -> OpenTable: ...
    async def close(self) -> None: ...


class HostOpener:
    """Each table a ``Host`` on a port of its own, its AI seats thinking in the night's one
    pool (``ai``: every thread and worker process, started with the night)."""

    def __init__(self, processes: bool) -> None:
        self.processes = processes
        self.ai: AiPool | None = None

    def start(self) -> None:
        self.ai = AiPool.start(AI_THREADS, AI_PROCESSES if self.processes else None)

    async def open(self, config: HostConfig, policy: TablePolicy) -> Host:
        assert self.ai is not None, "start() first"
        host = Host(config, ai=self.ai, policy=policy)
        await host.start()
        return host

    async def close(self) -> None:
        if self.ai is not None:
            await asyncio.to_thread(self.ai.close)
            self.ai = None


class RoundTables:
    """The open tables, by (round, table index). ``folder``: where they are saved (None:
    not saved); ``opener``: how they are opened (``HostOpener`` by default)."""

    def __init__(
        self, config: PartyConfig, on_result: OnResult, opener: TableOpener | None = None
    ) -> None:
        self.config = config
        self.on_result = on_result
        self.opener = opener or HostOpener(config.ai_processes)
        self.folder: Path | None = None
        self.hosts: dict[tuple[int, int], OpenTable] = {}
        self.stopping: set[asyncio.Future[None]] = set()  # the tables being closed now
        self.kept: list[Path] = []  # closed tables' saves whose results are on no party save

    def start(self) -> None:
        """The night begins: its tables' AI is started now (``TableOpener.start``)."""
        self.opener.start()

    def saved(self, slot: TableSlot) -> bool:
        """Whether the table of ``slot`` has a save to resume."""
        return self.folder is not None and save_file(self.folder, slot.port).exists()

    def config_for(
        self, night: NightState, number: int, slot: TableSlot, resume: bool
    ) -> HostConfig:
        config = self.config
        ai = tuple(night.setup.ai for who in slot.seats if who is None)
        return HostConfig(
            name=f"{night.name} · round {number} · table {slot.index + 1}"[:63],
            bind=config.bind,
            port=slot.port,
            web_port=None if config.web_port is None else 0,
            seats=len(slot.seats),
            ai=ai,
            autostart=True,
            max_games=1,
            rules=night.setup.rules,
            announce=config.announce,
            seed=None if config.seed is None else table_seed(night.seed, number, slot.index),
            hold=config.hold,
            turn_timer=config.turn_timer,
            ai_processes=config.ai_processes,
            save_dir=None if self.folder is None else str(self.folder),
            resume=resume,
            fair_wait=config.fair_wait,
        )

    @staticmethod
    def tokens(night: NightState, number: int, slot: TableSlot) -> list[str]:
        """Each seat's table token (derived, so the same after a restart; "" for AI)."""
        return [
            "" if who is None else night.table_token(number, slot.index, who) for who in slot.seats
        ]

    async def open(
        self, night: NightState, number: int, slot: TableSlot, resume: bool
    ) -> OpenTable:
        """Open the table of ``slot`` (``resume``: from its save); ``slot.port`` is its port."""
        reserved = [
            None if who is None else Reserved(night.players[who].name, hash_token(token))
            for who, token in zip(slot.seats, self.tokens(night, number, slot), strict=True)
        ]
        host = await self.opener.open(
            self.config_for(night, number, slot, resume),
            party_policy(
                reserved,
                lambda finished: self.on_result(number, slot.index, finished),
                self.config.gather,
            ),
        )
        slot.port = host.port
        self.hosts[number, slot.index] = host
        return host

    async def close(self, number: int, table: int, saved: Awaitable[None] | None) -> None:
        """Close a table; once ``saved`` (the party's save of its result) is on disk, its
        own save files go (if that save failed they are kept: ``saved_through``)."""
        host = self.hosts.pop((number, table), None)
        if host is None:
            return
        # Shielded: the party host closing meanwhile waits for this stop (``stop``) rather
        # than cancel it half done.
        stopping = asyncio.ensure_future(host.stop("The party's round is over: this table closes."))
        self.stopping.add(stopping)
        stopping.add_done_callback(self.stopping.discard)
        await asyncio.shield(stopping)
        if host.save_path is None or saved is None:
            return
        try:
            await saved
        except Exception:
            self.kept.append(host.save_path)  # its result is only in the table's save
            return
        _remove(host.save_path)

    def saved_through(self) -> None:
        """A party save is on disk: the kept tables' results are in it (every save asked
        for after a table's result was scored holds it, and they are written in order), so
        their files go."""
        while self.kept:
            _remove(self.kept.pop())

    async def close_all(self, saved: Awaitable[None] | None) -> None:
        for number, table in list(self.hosts):
            await self.close(number, table, saved)

    async def stop(self, text: str) -> None:
        """Close every table at once (the party host is closing: the saves stay)."""
        for key in list(self.hosts):
            host = self.hosts.pop(key, None)  # (a table closing meanwhile is gone already)
            if host is not None:
                await host.stop(text)
        if self.stopping:
            await asyncio.wait(set(self.stopping))
        await self.opener.close()


def _remove(save_path: Path) -> None:
    for path in (save_path, journal_file(save_path)):
        with contextlib.suppress(OSError):
            durable.unlink(path)


def table_seed(seed: int, number: int, table: int) -> int:
    """A table's seed, from the party's, its round and its index."""
    return random.Random(f"party-table:{seed}:{number}:{table}").getrandbits(32)
