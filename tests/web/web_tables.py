"""A table for the browser tests: a host in the test's own process on 127.0.0.1 (no
announcement), its web door on any free port, serving the page as installed
(assets/web/static). Its AI seats think in threads: where the AI thinks is not what these
tests are about (tests/host/live.py says why that saves seconds). A party likewise: a
party host whose page and tables' pages are on free ports."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace

from browser import LAN_NAME

from engine import Rules
from host import Host, HostConfig
from host.party.server import PartyConfig, PartyHost
from protocol import Night, Party, Room

__all__ = ["SHORT", "OpenTable", "WebParty", "WebTable", "web_party", "web_table"]

LOCAL = HostConfig(bind="127.0.0.1", port=0, web_port=0, announce=False, ai_processes=False)
SHORT = Rules(deck_size=24)  # two players' game in half the moves of a 36-card deck


@dataclass(frozen=True)
class WebTable:
    """A running host and the page's address under the LAN name."""

    host: Host

    @property
    def url(self) -> str:
        return f"http://{LAN_NAME}:{self.host.web_port}/"

    def room(self) -> Room:
        return self.host.table.room()

    async def until(self, what: Callable[[Room], bool], timeout: float = 20.0) -> Room:
        """The room once ``what`` holds for it (looked at every 50 ms)."""
        async with asyncio.timeout(timeout):
            while not what(room := self.room()):
                await asyncio.sleep(0.05)
        return room


@asynccontextmanager
async def web_table(**options: object) -> AsyncIterator[WebTable]:
    """A host with ``options`` (HostConfig's fields); on leaving, stopped, and checked to
    have had no internal error."""
    host = Host(replace(LOCAL, **options))  # type: ignore[arg-type]
    await host.start()
    try:
        yield WebTable(host)
    finally:
        await host.stop()
        assert host.table.errors == 0


@dataclass(frozen=True)
class WebParty:
    """A running party host and its page's address under the LAN name."""

    host: PartyHost

    @property
    def url(self) -> str:
        return f"http://{LAN_NAME}:{self.host.web_port}/"

    def party(self) -> Party:
        return self.host.view()

    async def until(self, what: Callable[[Party], bool], timeout: float = 20.0) -> Party:
        """The party once ``what`` holds for it (looked at every 50 ms)."""
        async with asyncio.timeout(timeout):
            while not what(party := self.party()):
                await asyncio.sleep(0.05)
        return party


@asynccontextmanager
async def web_party(setup: Night, **options: object) -> AsyncIterator[WebParty]:
    """A party of the night ``setup`` with ``options`` (PartyConfig's fields), its page
    and its tables' pages on free ports; stopped on leaving."""
    config = PartyConfig(
        name="Friday", web_port=0, setup=setup, announce=False, ai_processes=False, fair_wait=0.5
    )
    host = PartyHost(replace(config, **options))  # type: ignore[arg-type]
    await host.start()
    try:
        yield WebParty(host)
    finally:
        await host.stop()


OpenTable = Callable[..., Awaitable[WebTable]]  # the ``tables`` fixture (conftest.py)
