"""One connection with a token, on an asyncio loop of its own in a daemon thread: the core
of the window's seat at a table (``client.net.remote.NetSession``) and of its link to a
party (``client.net.party_link.PartyLink``).

The window must never wait on the network (its frames would stall; a host sharing the
window's loop starved, ``host.thread``), so a ``LoopLink`` runs its connection in a thread
of its own and the window only reads ``inbox``, an ``Inbox`` that wakes it (``listen``)
on every put. The link connects (its kind's ``connect``, then ``joined``), hands the kind
every message (``received``) until the connection ends, and then:

- a connection lost without a goodbye, after it was joined, is joined again with its
  token (the wire's ``rejoin``: what each kind sends to come back) after waits of its
  ``Backoff``, through ``client.net.client.come_back``, the bots' way back too; the kind
  hears ``dropped`` as the tries begin and ``rejoined`` with the new welcome once back;
- anything else (a goodbye, bad data, a refusal ``final`` says another try would repeat,
  the tries given up) is the end, told once to ``ended``;
- a connection never made is ``ended`` at once, with the ``OSError`` that stopped it.

The kinds differ only in their message family and what their welcome says; the
heartbeats are answered by each wire's own reader (its pump), whatever the window does.
``call`` hands the window's work to the loop; ``stop`` ends the link without a word to the
kind (the window left), the connection closed in the background.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

from client.net.client import Backoff, HostClosed, come_back
from client.net.session import Inbox

__all__ = ["Kind", "LoopLink", "Wire"]

M = TypeVar("M")


class Wire(Protocol):
    """A joined connection (``client.net.client.NetClient``, ``client.net.party.PartyClient``)."""

    async def receive(self) -> object:
        """The next message; ``HostClosed`` once the connection ended."""
        ...

    async def rejoin(self) -> object:
        """One try at joining again with our token; the welcome (``HostClosed``,
        ``OSError`` if not)."""
        ...

    async def close(self) -> None: ...


W = TypeVar("W", bound=Wire)


class Kind(Protocol[W]):
    """What a kind of link adds to the core: how it connects, and what it makes of each
    message, of a drop, of coming back and of the end (each put in the link's inbox)."""

    async def connect(self) -> W: ...

    def joined(self, wire: W) -> None:
        """The first connection is joined."""

    def received(self, message: object) -> None:
        """A message the wire received."""

    def dropped(self) -> None:
        """The connection dropped: the tries to come back begin."""

    def rejoined(self, welcome: object) -> None:
        """The connection is back (``welcome``: the wire's ``rejoin``)."""

    def ended(self, end: HostClosed | OSError, after_drop: bool) -> None:
        """The link ended for good (``after_drop``: trying to come back after a drop)."""


class LoopLink(Generic[W, M]):
    """Runs a ``Kind``'s connection in a daemon thread called ``name``; a drop comes
    back with ``backoff`` (None: never), a refusal ``final`` says is for good ends it."""

    def __init__(
        self,
        kind: Kind[W],
        name: str,
        backoff: Backoff | None,
        final: Callable[[HostClosed], bool],
    ) -> None:
        self.kind = kind
        self.backoff, self.final = backoff, final
        self.inbox: Inbox[M] = Inbox()
        self.wire: W | None = None  # the connection, once joined
        self.loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._stopped = False
        self._rng = random.Random()
        self.thread = threading.Thread(target=self._main, name=name, daemon=True)

    def start(self) -> None:
        self.thread.start()

    # --- the window's side ----------------------------------------------------------------

    def call(self, work: Callable[[W], object]) -> None:
        """Do ``work`` with the connection on its loop (nothing while there is none)."""
        loop, wire = self.loop, self.wire
        if loop is None or wire is None:
            return
        with contextlib.suppress(RuntimeError):  # the loop has already ended
            loop.call_soon_threadsafe(work, wire)

    def stop(self) -> None:
        """End the link without waiting: the connection closes in the background."""
        self._stopped = True
        loop, stop = self.loop, self._stop
        if loop is not None and stop is not None and self.thread.is_alive():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(stop.set)

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the thread to end; True if it has."""
        self.thread.join(timeout)
        return not self.thread.is_alive()

    # --- the network's side (daemon thread) -----------------------------------------------

    def _main(self) -> None:
        asyncio.run(self._run())

    async def _run(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        try:
            wire = await self.kind.connect()
        except (HostClosed, OSError) as exc:
            self.kind.ended(exc, after_drop=False)
            return
        if self._stopped:  # stopped while we were connecting
            await wire.close()
            return
        self.wire = wire
        self.kind.joined(wire)
        serving = asyncio.ensure_future(self._serve(wire))
        stopping = asyncio.ensure_future(self._stop.wait())
        await asyncio.wait([serving, stopping], return_when=asyncio.FIRST_COMPLETED)
        for task in (serving, stopping):
            task.cancel()
        with contextlib.suppress(Exception):
            await wire.close()

    async def _serve(self, wire: W) -> None:
        """Every message to the kind; a drop joined again, until the end."""
        after_drop = False
        while True:
            try:
                while True:
                    self.kind.received(await wire.receive())
            except HostClosed as exc:
                lost = exc
            if self.backoff is None or lost.goodbye or lost.code != "closed":
                self.kind.ended(lost, after_drop)
                return
            after_drop = True
            with contextlib.suppress(Exception):
                await wire.close()
            self.kind.dropped()
            try:
                welcome = await come_back(wire.rejoin, self.backoff, lost, self.final, self._rng)
            except HostClosed as exc:
                self.kind.ended(exc, after_drop)
                return
            self.kind.rejoined(welcome)
