"""The client's end of a party connection (docs/protocol.md section 17): join, keep the
latest party, send the organiser's requests, hear of each round's table.

Asyncio and the protocol's ``PartyConnection``; no pygame, so the ``durak bot --party``
player, ``durak conformance --party`` and the window's party screens share it. The party
connection carries a few messages a round; the games themselves are played at the tables
it names, over ``client.net.client.NetClient``.

The connection's own task (``client.net.pump``, a table connection's keepalive too) reads
the party host's messages as they come, whatever the caller of ``receive`` is busy with (a
player at their table reads the party rarely): it answers each ``heartbeat`` at once, so a
player at a table never looks gone to the party, and a party host silent for the
protocol's silence (after a ``ping``) counts as a lost connection, joined again with our
token (``client.net.party_link``), as a dropped one is.
"""

from __future__ import annotations

import asyncio
import itertools

from engine import Rules
from protocol import (
    PROTOCOL_VERSION,
    SILENCE_MS,
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
    UnplayableRules,
)

from .pump import HostClosed, Pump, read

__all__ = ["PartyClient"]

JOIN_TIMEOUT = 12.0  # seconds to wait for ``joined`` (the host gives us 10 to join)
Greeted = tuple[asyncio.StreamReader, asyncio.StreamWriter, PartyConnection, Joined]


class PartyClient:
    """A joined party connection. ``party`` is the latest party map; ``player`` and
    ``token`` are ours (None for a board)."""

    def __init__(
        self, address: str, port: int, join: Join, greeted: Greeted, silence: float
    ) -> None:
        self._where = (address, port)
        self._silence = silence
        self._join = join  # what we said to join (a rejoin says it again, with our token)
        self._refs = itertools.count(1)
        self._take(greeted)

    def _take(self, greeted: Greeted) -> None:
        """Take up a joined connection: its ``joined``, and its pump started."""
        reader, writer, conn, joined = greeted
        self.player = joined.player
        self.token = joined.token
        self.party: Party = joined.party
        self._inbox: asyncio.Queue[PartyMessage | HostClosed] = asyncio.Queue()
        self._pump = Pump(
            reader,
            writer,
            conn,
            silence=self._silence,
            refs=self._refs.__next__,
            take=self._inbox.put_nowait,
            end=self._inbox.put_nowait,
        )
        self._pump.start("durak-party-pump")

    @classmethod
    async def connect(
        cls,
        address: str,
        port: int,
        name: str,
        *,
        token: str | None = None,
        board: bool = False,
        silence: float = SILENCE_MS / 1000,
    ) -> PartyClient:
        """Join the party at ``address:port``; ``HostClosed`` if it refuses (its code),
        ``OSError`` if it cannot be reached. A party host silent for ``silence`` seconds
        (after a ``ping``) is taken for gone."""
        join = Join(PROTOCOL_VERSION, name, token, "board" if board else "play")
        return cls(address, port, join, await _greet(address, port, join), silence)

    async def rejoin(self) -> Joined:
        """One try at joining again after a lost connection, with our token (a board: as a
        board), taking up the new connection; the party's ``joined``. ``HostClosed`` if the
        party refuses, ``OSError`` if it cannot be reached."""
        join = self._join
        token = self.token or join.token
        greeted = await _greet(*self._where, Join(join.version, join.name, token, join.role))
        await self._pump.close()  # (the lost connection's, if it was not closed yet)
        self._take(greeted)
        return greeted[3]

    async def receive(self) -> PartyMessage:
        """The next message (a ``party`` also updates ``party``); ``HostClosed`` once the
        party host said goodbye or the connection ended."""
        message = await self._inbox.get()
        if isinstance(message, HostClosed):
            self._inbox.put_nowait(message)  # (every later call is told the same)
            raise message
        if isinstance(message, PartyUpdate):
            self.party = message.party
        return message

    def _send(self, message: PartyMessage) -> None:
        self._pump.send(message)

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
        await self._pump.close()


async def _greet(address: str, port: int, join: Join) -> Greeted:
    """Connect and say ``join``: the connection and the party's ``joined`` (``HostClosed``
    for its goodbye)."""
    reader, writer = await asyncio.open_connection(address, port)
    conn = PartyConnection(host=False)
    try:
        writer.write(conn.send(join))
        first = await read(reader, writer, conn, JOIN_TIMEOUT)
    except BaseException:
        writer.close()
        raise
    if first is None:
        writer.close()
        raise HostClosed("closed", "The party host did not answer.")
    assert isinstance(first, Joined)  # (the connection lets nothing else come first)
    return reader, writer, conn, first
