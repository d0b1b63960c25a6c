"""The client's end of a party connection (docs/protocol.md section 17): join, keep the
latest party, send the organiser's requests, hear of each round's table.

Asyncio and the protocol's ``PartyConnection``; no pygame, so the ``durak bot --party``
player, ``durak conformance --party`` and the window's party screens share it. The party
connection carries a few messages a round; the games themselves are played at the tables
it names, over ``client.net.client.NetClient``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools

from engine import Rules
from protocol import (
    PROTOCOL_VERSION,
    Goodbye,
    Join,
    Joined,
    Party,
    PartyConnection,
    PartyLeave,
    PartyMessage,
    PartySetup,
    PartyStart,
    PartyUpdate,
    Ping,
    ProtocolError,
    UnplayableRules,
)

from .client import HostClosed

__all__ = ["PartyClient"]

READ_SIZE = 64 * 1024
JOIN_TIMEOUT = 12.0  # seconds to wait for ``joined`` (the host gives us 10 to join)


class PartyClient:
    """A joined party connection. ``party`` is the latest party map; ``player`` and
    ``token`` are ours (None for a board)."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        conn: PartyConnection,
        joined: Joined,
    ) -> None:
        self._reader = reader
        self._writer = writer
        self._conn = conn
        self.player = joined.player
        self.token = joined.token
        self.party: Party = joined.party
        self._refs = itertools.count(1)
        self._queue: list[PartyMessage] = []

    @classmethod
    async def connect(
        cls, address: str, port: int, name: str, *, token: str | None = None, board: bool = False
    ) -> PartyClient:
        """Join the party at ``address:port``; ``HostClosed`` if it refuses (its code),
        ``OSError`` if it cannot be reached."""
        reader, writer = await asyncio.open_connection(address, port)
        conn = PartyConnection(host=False)
        try:
            role = "board" if board else "play"
            writer.write(conn.send(Join(PROTOCOL_VERSION, name, token, role)))
            async with asyncio.timeout(JOIN_TIMEOUT):
                first = await _read(reader, conn)
        except BaseException:
            writer.close()
            raise
        if isinstance(first, Goodbye):
            writer.close()
            raise HostClosed(first.code, first.text, goodbye=True)
        assert isinstance(first, Joined)  # (the connection lets nothing else come first)
        return cls(reader, writer, conn, first)

    async def receive(self) -> PartyMessage:
        """The next message (a ``party`` also updates ``party``); ``HostClosed`` once the
        party host said goodbye or the connection ended."""
        message = self._queue.pop(0) if self._queue else await _read(self._reader, self._conn)
        if isinstance(message, Goodbye):
            raise HostClosed(message.code, message.text, goodbye=True)
        if isinstance(message, PartyUpdate):
            self.party = message.party
        return message

    def _send(self, message: PartyMessage) -> None:
        self._writer.write(self._conn.send(message))

    def set_up(
        self,
        rules: Rules | UnplayableRules,
        rounds: int | None,
        minutes: int | None,
        fill: bool,
        ai: str,
    ) -> int:
        """The organiser's setup (``UnplayableRules``: rules as asked for, which the party
        host will refuse; for checks)."""
        ref = next(self._refs)
        self._send(PartySetup(ref, rules, rounds, minutes, fill, ai))
        return ref

    def start(self) -> int:
        ref = next(self._refs)
        self._send(PartyStart(ref))
        return ref

    def leave(self) -> int:
        ref = next(self._refs)
        self._send(PartyLeave(ref))
        return ref

    def ping(self) -> int:
        ref = next(self._refs)
        self._send(Ping(ref))
        return ref

    async def close(self) -> None:
        self._writer.close()
        with contextlib.suppress(Exception):
            await self._writer.wait_closed()


async def _read(reader: asyncio.StreamReader, conn: PartyConnection) -> PartyMessage:
    while True:
        try:
            message = conn.next_message()
        except ProtocolError as exc:
            raise HostClosed(exc.code, exc.text) from None
        if message is not None:
            return message
        try:
            data = await reader.read(READ_SIZE)
        except (ConnectionError, OSError) as exc:
            raise HostClosed("closed", str(exc) or "the connection was lost") from None
        if not data:
            raise HostClosed("closed", "The party host closed the connection.")
        try:
            conn.receive_data(data)
        except ProtocolError as exc:
            raise HostClosed(exc.code, exc.text) from None
