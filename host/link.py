"""One peer's connection, whatever carries it: a table's player or watcher, a party's
player or board, over TCP or a WebSocket.

A ``Link`` owns what every connection has: its sans-I/O endpoint (the table's
``Connection`` or the party's ``PartyConnection``), its sends (through an ``Outbox``, which
holds a table's sends until what they tell is on disk, and cuts off a peer that does not
read: ``max_buffer`` bytes waiting), its goodbye, its liveness (``check_alive``: the
heartbeat) and its budget of messages (``allow``: a token bucket; ``credit``: how many may
wait to be handled). The doorway (``host.doorway``) feeds it and asks it; the table and the
party only send, close and read who it is (``seat`` and ``watching`` of a ``TableLink``,
``player`` and ``board`` of a ``PartyLink``).

A ``Wire`` is the transport underneath, kept thin: write one encoded message, say how much
waits unsent, abort, and close after a goodbye so that the peer can read it. TCP's is
``TcpWire`` here; the WebSocket's is ``host.web.WsWire``. A wire's ``read`` gives bytes
(``whole`` False: a stream of length-prefixed frames) or one frame's payload a call
(``whole`` True); ``b""`` at the end either way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from protocol import Endpoint, Goodbye, Heartbeat

from .admission import TokenBucket
from .outbox import Outbox

__all__ = ["LINGER", "Link", "LinkLimits", "PartyLink", "TableLink", "TcpWire", "Wire"]

log = logging.getLogger("durak.host")
READ_SIZE = 64 * 1024
LINGER = 1.0  # seconds a connection may stay open after its goodbye


class Wire(Protocol):
    """A link's transport (see the module docstring)."""

    whole: bool  # each read is one frame's payload (a WebSocket), not stream bytes
    peer: str  # "address:port", for the log
    address: str  # the peer's address (what the door and the password throttle count)
    local: str  # our address as the peer reached it

    async def read(self) -> bytes: ...
    def write(self, framed: bytes) -> None: ...
    def buffered(self) -> int: ...
    def abort(self) -> None: ...
    def finish(self, framed: bytes, abrupt: bool) -> None: ...
    async def linger(self) -> None: ...
    async def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class LinkLimits:
    """A link's budget: ``max_buffer`` bytes of sends waiting for a peer that does not read;
    ``rate`` messages a second on average, ``burst`` at once, while earlier ones still wait
    to be handled; ``max_pending`` of them waiting at most."""

    max_buffer: int = 1 << 20
    rate: float = 50.0
    burst: int = 200
    max_pending: int = 32


class Link:
    """One connection (see the module docstring). ``heard``: when it was opened, on the
    heartbeat's clock."""

    def __init__(
        self, wire: Wire, conn: Endpoint[Any], limits: LinkLimits, outbox: Outbox, heard: float
    ) -> None:
        self.wire = wire
        self.conn = conn
        self.outbox = outbox
        self.limits = limits
        self.peer, self.address, self.local = wire.peer, wire.address, wire.local
        self.closed = False
        self.leaving = False  # told goodbye (it may still wait in the outbox)
        self.said_goodbye = False  # a goodbye went out and the peer may still read it
        self.credit = asyncio.Semaphore(limits.max_pending)
        self.waiting = 0  # messages of this link not handled yet
        self.handled = asyncio.Event()  # set while every one of them is handled
        self.handled.set()
        self.bucket = TokenBucket(float(limits.burst), time.monotonic())  # its messages
        self.heard = heard  # when the peer last sent anything (the heartbeat's clock)
        self.probed = False  # a heartbeat went out since we last heard from it
        self.beats = 0

    def allow(self) -> bool:
        """Take one message from the token bucket; False once the peer sends too fast."""
        return self.bucket.take(time.monotonic(), self.limits.rate, self.limits.burst)

    def send(self, message: Any) -> None:
        """Send ``message`` after what the outbox still holds."""
        self.outbox.send(partial(self.send_now, message))

    def send_now(self, message: Any) -> None:
        if self.closed:
            return
        if self.wire.buffered() > self.limits.max_buffer:
            log.warning("dropping %s: it does not read its messages", self.peer)
            self.closed = True
            self.wire.abort()
            return
        self.wire.write(self.outbox.frame(message))

    def close(self, code: str, text: str) -> None:
        """Say goodbye after what the outbox still holds. What the peer sends from now on
        is read and dropped."""
        self.leaving = True
        self.outbox.send(partial(self.goodbye, code, text))

    def goodbye(self, code: str, text: str) -> None:
        """Say goodbye (with a reason code) now and close. A link that never got in (a
        stranger, see ``in_room``) is closed at once; another lingers a moment, so that
        its peer reads the goodbye before the close."""
        if self.closed:
            return
        self.closed = True
        abrupt = not self.in_room
        self.said_goodbye = not abrupt
        with contextlib.suppress(Exception):
            self.wire.finish(self.outbox.frame(Goodbye(code, text[:200])), abrupt)

    @property
    def in_room(self) -> bool:
        """It got in (a seat, a watcher, a party's player or board): its goodbye lingers."""
        return False

    def release(self) -> None:
        """One of its messages is handled."""
        self.waiting -= 1
        self.credit.release()
        if not self.waiting:
            self.handled.set()

    def check_alive(self, now: float, silence: float) -> None:
        """The heartbeat: after a third of ``silence`` without a word from the peer, ask
        (``heartbeat``); after all of it, the peer is gone. Its connection is cut (no
        goodbye: nobody would read it), so the table or the party sees it leave."""
        quiet = now - self.heard
        if quiet >= silence:
            log.info("dropping %s: nothing heard for %.1f s", self.peer, quiet)
            self.closed = True
            self.wire.abort()
        elif quiet >= silence / 3 and not self.probed:
            self.probed = True
            self.beats += 1
            self.send_now(Heartbeat(self.beats))


class TableLink(Link):
    """A table's connection: a seat's, a watcher's, or a stranger's until its hello."""

    def __init__(
        self, wire: Wire, conn: Endpoint[Any], limits: LinkLimits, outbox: Outbox, heard: float
    ) -> None:
        super().__init__(wire, conn, limits, outbox, heard)
        self.seat: int | None = None
        self.watching = False  # a watcher's connection (set by the table)

    @property
    def in_room(self) -> bool:
        return self.seat is not None or self.watching


class PartyLink(Link):
    """A party's connection: a player's, a board's, or a stranger's until its join."""

    def __init__(
        self, wire: Wire, conn: Endpoint[Any], limits: LinkLimits, outbox: Outbox, heard: float
    ) -> None:
        super().__init__(wire, conn, limits, outbox, heard)
        self.player: int | None = None
        self.board = False

    @property
    def in_room(self) -> bool:
        return self.player is not None or self.board


class TcpWire:
    """A link over TCP: stream bytes of length-prefixed frames."""

    whole = False

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        peer = writer.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        self.address = address_of(peer)
        local = writer.get_extra_info("sockname")
        self.local = local_of(local[0] if isinstance(local, tuple) else None)

    async def read(self) -> bytes:
        return await self.reader.read(READ_SIZE)

    def write(self, framed: bytes) -> None:
        self.writer.write(framed)

    def buffered(self) -> int:
        return self.writer.transport.get_write_buffer_size()

    def abort(self) -> None:
        self.writer.transport.abort()

    def finish(self, framed: bytes, abrupt: bool) -> None:
        """Write the last message and close: at once (``abrupt``), or by shutting the
        writing side and closing a moment later (the reader lingers meanwhile: a peer
        that keeps the connection open after the goodbye is cut off all the same)."""
        self.writer.write(framed)
        if abrupt:
            self.writer.transport.abort()
            return
        self.writer.write_eof()
        asyncio.get_running_loop().call_later(LINGER, self.writer.close)

    async def linger(self, seconds: float = LINGER) -> None:
        """After a goodbye: read and drop what the peer still sends, until it closes or for
        ``seconds`` at most, so that closing with unread data (a TCP reset) cannot destroy
        the goodbye before the peer reads it (the doorway closes the wire next)."""
        with contextlib.suppress(Exception):
            async with asyncio.timeout(seconds):
                while await self.reader.read(READ_SIZE):
                    pass

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(Exception):
            await self.writer.wait_closed()


def address_of(peer: object) -> str:
    """The address part of a peer name (an IPv4 peer of a dual-stack socket as IPv4)."""
    if not isinstance(peer, tuple):
        return str(peer)
    address = str(peer[0])
    return address.removeprefix("::ffff:") if "." in address else address


def local_of(address: object) -> str:
    """Our address as a peer reached it (a party's tables are on the same address); a
    wildcard or unknown one as 127.0.0.1."""
    local = str(address or "").removeprefix("::ffff:")
    return "127.0.0.1" if local in ("0.0.0.0", "::", "") else local
