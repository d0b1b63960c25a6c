"""A host in its own thread with its own event loop (for games against the computer).

The game window must not share its loop with the host (measured: the host starved), so
``run_in_thread(config)`` starts one beside it and returns once the port is open.
"""

from __future__ import annotations

import asyncio
import threading

from .config import HostConfig
from .server import Host

__all__ = ["HostHandle", "run_in_thread"]


class HostHandle:
    """A running host: ``.address``, ``.port``; ``stop()`` shuts it down and joins the thread."""

    def __init__(self, config: HostConfig) -> None:
        self.config = config
        self.address = config.bind or "0.0.0.0"
        self.port = 0
        self.host: Host | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._main, name="durak-host", daemon=True)

    def _main(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as exc:  # reported to the caller of run_in_thread
            self._error = exc
            self._ready.set()

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        host = Host(self.config)
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

    def __enter__(self) -> HostHandle:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


def run_in_thread(config: HostConfig) -> HostHandle:
    """Start a host in a new thread and return once it accepts connections."""
    handle = HostHandle(config)
    handle._thread.start()
    handle._ready.wait()
    if handle._error is not None:
        handle._thread.join()
        raise handle._error
    return handle
