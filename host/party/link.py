"""One connection to a party host: its codec, who it is (a player, a board, nobody yet),
and how it is written to and closed.

Small on purpose: the party's connections carry a few messages a round, so they need
none of a table's credit, rate or heartbeat machinery (``host.server.Session``). A client
that does not read its messages is cut off once ``MAX_BUFFER`` bytes wait for it; a
goodbye is written, the writing side shut, and the connection closed a moment later, so
that the peer reads the goodbye before the close (``host.server.linger``'s reason).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from protocol import Goodbye, PartyConnection, PartyMessage, party_encode

__all__ = ["MAX_BUFFER", "PartyLink"]

log = logging.getLogger("durak.party")
MAX_BUFFER = 1 << 20
LINGER = 1.0


class PartyLink:
    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        self.conn = PartyConnection(host=True)
        self.player: int | None = None
        self.board = False
        self.closed = False
        peer = writer.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        local = writer.get_extra_info("sockname")
        # Where the client reached us: its tables are on the same address.
        address = str(local[0]) if isinstance(local, tuple) else "127.0.0.1"
        self.local = address.removeprefix("::ffff:")
        if self.local in ("0.0.0.0", "::", ""):
            self.local = "127.0.0.1"

    def send(self, message: PartyMessage) -> None:
        if self.closed or self.writer.is_closing():
            return
        if self.writer.transport.get_write_buffer_size() > MAX_BUFFER:
            log.warning("dropping %s: it does not read its messages", self.peer)
            self.closed = True
            self.writer.transport.abort()
            return
        self.writer.write(party_encode(message))

    def goodbye(self, code: str, text: str) -> None:
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(Exception):
            self.writer.write(party_encode(Goodbye(code, text[:200])))
            self.writer.write_eof()
            asyncio.get_running_loop().call_later(LINGER, self.writer.close)
            return
        self.writer.close()
