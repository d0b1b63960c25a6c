"""A client's connection to a host, read by a task of its own: the keepalive of every link
a client keeps, a table's (``client.net.client.NetClient``) and a party's
(``client.net.party.PartyClient``), written once.

The pump reads the host's messages as they come, whatever its owner is busy with (a bot
thinking, a window between frames, a player at their table who reads the party rarely):

- each ``heartbeat`` is answered with ``alive`` at once, so a busy player never looks gone;
- a host not heard from for a third of ``silence`` is probed with a ``ping`` (its ``pong``
  is the pump's, never shown), and a host silent for all of it is taken for gone: the
  connection is cut, as a closed one (docs/protocol.md section 6, the same rule the host
  keeps for its clients);
  (``heartbeat``, ``alive``, ``ping`` and ``pong`` are messages of both families);
- everything else goes to ``take``, and the end of the connection (a goodbye, bad data,
  a lost or silent connection) to ``end`` as one ``HostClosed``, once.

``read`` is the one reader of a stream of frames, for the pump and for each kind's
greeting."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Generic, TypeVar, cast

from protocol import Alive, Endpoint, Goodbye, Heartbeat, Ping, Pong, ProtocolError

__all__ = ["HostClosed", "Pump", "read"]

READ_SIZE = 64 * 1024
PROBES = 16  # pings of ours awaiting a pong, at most (a host that answers none is gone)
M = TypeVar("M")


class HostClosed(Exception):
    """The host ended the connection: ``code`` says why (``shutdown``, ``table_full``...);
    ``goodbye``: the host said so (else the connection was lost, or its data was bad)."""

    def __init__(self, code: str, text: str, goodbye: bool = False) -> None:
        super().__init__(f"{code}: {text}")
        self.code = code
        self.text = text
        self.goodbye = goodbye


async def read(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    endpoint: Endpoint[M],
    quiet: float | None,
) -> M | None:
    """The host's next message; None if no byte came for ``quiet`` seconds (None: wait as
    long as it takes). ``HostClosed`` for a goodbye, bad data or a lost connection (the
    connection closed on this side too)."""
    while True:
        try:
            message = endpoint.next_message()
            if message is None:
                if endpoint.eof:
                    raise HostClosed("closed", "The connection was closed.")
                try:
                    data = await asyncio.wait_for(reader.read(READ_SIZE), quiet)
                except TimeoutError:
                    return None
                endpoint.receive_data(data)
                continue
        except ProtocolError as exc:
            writer.close()
            raise HostClosed(exc.code, f"the host sent bad data: {exc.text}") from None
        except (ConnectionError, OSError):
            writer.close()
            raise HostClosed("closed", "The connection was lost.") from None
        if isinstance(message, Goodbye):
            writer.close()
            raise HostClosed(message.code, message.text, goodbye=True)
        return message


class Pump(Generic[M]):
    """Reads ``endpoint``'s messages from ``reader`` once ``start``ed (see the module's
    text); ``refs`` numbers its probes from the owner's own counter, so a probe's ref is
    never one of the owner's requests. ``silence`` may change while it runs (a room's
    update says so)."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        endpoint: Endpoint[M],
        *,
        silence: float,
        refs: Callable[[], int],
        take: Callable[[M], None],
        end: Callable[[HostClosed], None],
    ) -> None:
        self.reader, self.writer, self.endpoint = reader, writer, endpoint
        self.silence = silence
        self._refs, self._take, self._end = refs, take, end
        self._probes: set[int] = set()
        self._task: asyncio.Task[None] | None = None

    def start(self, name: str) -> None:
        self._task = asyncio.create_task(self._run(), name=name)

    def send(self, message: M) -> None:
        """Write ``message``; nothing once the connection is closing (a request then is
        dropped: after a reconnect, send it again)."""
        if not self.writer.is_closing():
            self.writer.write(self.endpoint.send(message))

    async def close(self) -> None:
        """Stop reading (nothing more is answered or passed on) and close the connection."""
        if self._task is not None:
            self._task.cancel()
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self.writer.wait_closed()

    async def _run(self) -> None:
        while True:
            try:
                message = await read(self.reader, self.writer, self.endpoint, self.silence / 3)
                if message is None:  # quiet for a third of the silence: probe the host
                    self._probe()
                    quiet = self.silence * 2 / 3
                    message = await read(self.reader, self.writer, self.endpoint, quiet)
                if message is None:
                    self.writer.close()
                    raise HostClosed("closed", "The host stopped answering.")
            except HostClosed as exc:
                self._end(exc)
                return
            if isinstance(message, Heartbeat):
                self.send(cast(M, Alive(message.ref)))
            elif isinstance(message, Pong) and message.ref in self._probes:
                self._probes.discard(message.ref)
            else:
                self._take(message)

    def _probe(self) -> None:
        ref = self._refs()
        if len(self._probes) >= PROBES:
            self._probes.clear()
        self._probes.add(ref)
        self.send(cast(M, Ping(ref)))
