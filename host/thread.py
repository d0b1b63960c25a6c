"""A host in its own thread with its own event loop (for games against the computer, and
for a party hosted from the window).

The game window must not share its loop with a host (measured: the host starved), so
``run_in_thread(config)`` starts a table's host beside it and returns once the port is
open; ``ServerThread`` does the same for any server that starts, stops and has a port
(``client.net.party_thread`` runs a party's host with it).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Generic, Protocol, Self, TypeVar

from .config import HostConfig
from .server import Host

__all__ = ["HostHandle", "ServerThread", "run_in_thread"]


class Server(Protocol):
    @property
    def port(self) -> int: ...

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


S = TypeVar("S", bound=Server)


class ServerThread(Generic[S]):
    """A server made by ``make`` on a loop of its own in a daemon thread: ``.host`` and
    ``.port`` once ``started``; ``stop()`` shuts it down and joins the thread."""

    def __init__(self, make: Callable[[], S], name: str) -> None:
        self.make = make
        self.port = 0
        self.host: S | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._main, name=name, daemon=True)

    def started(self) -> Self:
        """Start the thread; return once the server takes connections (or raise what
        stopped it: ``OSError`` for a port in use)."""
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            self._thread.join()
            raise self._error
        return self

    def _main(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as exc:  # reported to the caller of ``started``
            self._error = exc
            self._ready.set()

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        host = self.make()
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

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


class HostHandle(ServerThread[Host]):
    """A running table host: ``.address``, ``.port``, ``.host``."""

    def __init__(self, config: HostConfig) -> None:
        super().__init__(lambda: Host(config), "durak-host")
        self.config = config
        self.address = config.bind or "0.0.0.0"


def run_in_thread(config: HostConfig) -> HostHandle:
    """Start a host in a new thread and return once it accepts connections."""
    return HostHandle(config).started()
