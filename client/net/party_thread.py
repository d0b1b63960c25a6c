"""A party host beside the game window: ``host.party``'s ``PartyHost`` on an asyncio loop
of its own, in a daemon thread, as ``host.run_in_thread`` runs a table's host (the
window must not share its loop with a host: the host starved, measured there).

"Host a party" in the window starts one, then joins it as its first player (the
organiser); stopping the handle ends the night's tables and the party.
"""

from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from host.party.server import PartyConfig, PartyHost

__all__ = ["PartyHandle", "host_party"]


class PartyHandle:
    """A running party host: ``port``; ``stop()`` ends it and joins its thread."""

    def __init__(self, config: PartyConfig) -> None:
        self.config = config
        self.port = 0
        self.host: PartyHost | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._main, name="durak-party-host", daemon=True)

    def _main(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as exc:  # reported to the caller of host_party
            self._error = exc
            self._ready.set()

    async def _serve(self) -> None:
        from host.party.server import PartyHost

        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        host = PartyHost(self.config)
        await host.start()
        self.host, self.port = host, host.port
        self._ready.set()
        try:
            await self._stop.wait()
        finally:
            await host.stop()

    def stop(self, timeout: float = 10.0) -> None:
        if self._loop is not None and self._stop is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout)


def host_party(config: PartyConfig) -> PartyHandle:
    """Start a party host in a new thread; return once it takes connections (or raise
    what stopped it: ``OSError`` for a port in use)."""
    handle = PartyHandle(config)
    handle._thread.start()
    handle._ready.wait()
    if handle._error is not None:
        handle._thread.join()
        raise handle._error
    return handle
