"""Helpers for the tests that run a host on real sockets (127.0.0.1, port 0, no
announcement): a host that is stopped and checked afterwards, a client's next message of a
kind, and a check that every finished game replays to its result.

``LOCAL``'s AI seats think in threads (``ai_processes=False``): a worker process's start
(a Python start and the engine's import, at a lower priority) cost a socket test 1 s or
more on a loaded machine, and none of these tests is about where the AI thinks. The
worker processes have tests of their own (test_workers.py), and a few end-to-end tests
(``durak bot`` clients, the ``durak host`` commands) run the host as shipped."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

from client.net.client import NetClient
from host import Host, HostConfig, Table
from host.scheduler import Scheduler

__all__ = ["LOCAL", "ROOT", "expect", "replays", "serving"]

LOCAL = HostConfig(bind="127.0.0.1", port=0, announce=False, ai_processes=False)
ROOT = Path(__file__).resolve().parents[2]  # the source tree (``durak host`` runs there)


@asynccontextmanager
async def serving(scheduler: Scheduler | None = None, **options: object) -> AsyncIterator[Host]:
    """A host on 127.0.0.1; on leaving, stopped, and checked to have had no internal error.
    (``scheduler``: its time, if not the loop's; see harness.py's ``ManualScheduler``.)"""
    host = Host(replace(LOCAL, **options), scheduler=scheduler)  # type: ignore[arg-type]
    await host.start()
    try:
        yield host
    finally:
        await host.stop()
        assert host.table.errors == 0
        assert not host.links and not host.doorway.tasks


async def expect(client: NetClient, kind: type, where: Callable[[object], bool] = bool) -> object:
    """The next message of ``kind`` satisfying ``where`` (others are skipped)."""
    while True:
        message = await asyncio.wait_for(client.receive(), 30)
        if isinstance(message, kind) and where(message):
            return message


def replays(source: Host | Table) -> None:
    """Every finished game (of a host's table, or a table's) replays from its log to the
    result the series recorded."""
    table = source.table if isinstance(source, Host) else source
    for game_log in table.logs:
        state = game_log.replay()
        assert state.is_over and state.result is not None
