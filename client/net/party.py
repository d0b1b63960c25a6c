"""A window's link to a party's own port (docs/protocol.md section 17), as a player or a
board, and the parties zeroconf finds on the LAN.

``PartyLink`` runs the connection in a daemon thread with its own asyncio loop, as a
table's ``NetSession`` does: what the party host says (``Joined``, ``PartyUpdate``,
``PartyTable``, ``Rejected``) goes to ``inbox`` as it comes, and the end of the link as
one ``Lost`` with its goodbye's code and words. ``setup``, ``start`` and ``leave`` hand
their message to that loop and never block the window. The party's tables are ordinary
tables: a player sits at theirs with ``NetSession(..., token=...)``, a board watches each
with ``NetSession(..., watch=True)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import threading
from dataclasses import dataclass

from client.net.session import Inbox
from engine import Rules
from protocol import (
    PROTOCOL_VERSION,
    Goodbye,
    Join,
    PartyConnection,
    PartyLeave,
    PartyMessage,
    PartySetup,
    PartyStart,
    ProtocolError,
)

__all__ = ["PARTY_PORT", "Lost", "PartyLink"]

PARTY_PORT = 45655  # a party host's port unless told otherwise (section 17)
READ = 65536


@dataclass(frozen=True, slots=True)
class Lost:
    """The link ended: the party's goodbye (``code``, ``text``), or "unreachable" and
    "closed" when there was none."""

    code: str
    text: str


class PartyLink:
    def __init__(
        self,
        address: str,
        port: int,
        name: str,
        *,
        role: str = "play",
        token: str | None = None,
    ) -> None:
        """Join the party at ``address:port`` as ``name`` (``role`` "board": watch it;
        ``token``: come back as the player a previous ``joined`` named)."""
        self.address, self.port = address, port
        self.join = Join(PROTOCOL_VERSION, name, token, role)
        self.inbox: Inbox[PartyMessage | Lost] = Inbox()
        self._refs = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._conn = PartyConnection(host=False)
        self._closing = False
        self._thread = threading.Thread(target=self._main, name="durak-party", daemon=True)
        self._thread.start()

    # --- the window's side ----------------------------------------------------------------

    def setup(
        self, rules: Rules, rounds: int | None, minutes: int | None, fill: bool, ai: str
    ) -> int:
        """The organiser sets the night up; the request's ``ref``."""
        ref = next(self._refs)
        self._send(PartySetup(ref, rules, rounds, minutes, fill, ai))
        return ref

    def start(self) -> int:
        """The organiser starts the first round (or the next, ending a break)."""
        ref = next(self._refs)
        self._send(PartyStart(ref))
        return ref

    def leave(self) -> None:
        """Leave the party: off the next round's seating, the standing kept."""
        self._send(PartyLeave(next(self._refs)))

    def close(self, timeout: float = 2.0) -> None:
        self._closing = True
        loop, writer = self._loop, self._writer
        if loop is not None and writer is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(writer.close)
        self._thread.join(timeout)

    def _send(self, message: PartyMessage) -> None:
        loop, writer = self._loop, self._writer
        if loop is None or writer is None:
            return
        data = self._conn.send(message)
        with contextlib.suppress(RuntimeError):  # the loop has already ended
            loop.call_soon_threadsafe(writer.write, data)

    # --- the network's side (daemon thread) -----------------------------------------------

    def _main(self) -> None:
        asyncio.run(self._run())

    async def _run(self) -> None:
        self._loop = asyncio.get_running_loop()
        try:
            reader, writer = await asyncio.open_connection(self.address, self.port)
        except OSError as exc:
            self.inbox.put(Lost("unreachable", str(exc.strerror or exc)))
            return
        self._writer = writer
        writer.write(self._conn.send(self.join))
        self.inbox.put(await self._read(reader))
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()

    async def _read(self, reader: asyncio.StreamReader) -> Lost:
        """Every message until the end; the end."""
        conn = self._conn
        try:
            while True:
                data = await reader.read(READ)
                conn.receive_data(data)
                while (message := conn.next_message()) is not None:
                    if isinstance(message, Goodbye):
                        return Lost(message.code, message.text)
                    self.inbox.put(message)
                if not data:
                    return Lost("closed", "The party closed the connection.")
        except ProtocolError as exc:
            return Lost(exc.code, exc.text)
        except OSError as exc:
            if self._closing:
                return Lost("closed", "")
            return Lost("closed", str(exc.strerror or exc))
