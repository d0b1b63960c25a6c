"""The client end of a connection to a host, on asyncio (the bot, and later the window).

``await NetClient.connect(address, port, name)`` does the handshake and returns a client
that knows its seat, secret token and room; ``await client.receive()`` gives the host's
messages one by one and raises ``HostClosed`` when the host says goodbye or the connection
ends; ``client.act(action)`` and the owner's commands send and return their ``ref``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Callable
from typing import Any

from engine import Action, Rules
from protocol import (
    PROTOCOL_VERSION,
    Act,
    ClientMessage,
    Connection,
    Goodbye,
    Hello,
    HostMessage,
    Ping,
    ProtocolError,
    Role,
    SetRules,
    SetSeat,
    Start,
    Welcome,
)

__all__ = ["HostClosed", "NetClient", "parse_address"]

READ_SIZE = 64 * 1024


class HostClosed(Exception):
    """The host ended the connection: ``code`` says why (``shutdown``, ``table_full``...)."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(f"{code}: {text}")
        self.code = code
        self.text = text


def parse_address(text: str) -> tuple[str, int]:
    """``"HOST:PORT"`` (or ``"[v6]:PORT"``) as a pair; ``ValueError`` if it is not one."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"not HOST:PORT: {text!r}")
    return host.strip("[]"), int(port)


class NetClient:
    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        conn: Connection,
    ) -> None:
        self._reader = reader
        self._writer = writer
        self._conn = conn
        self._refs = itertools.count(1)
        self._closed: HostClosed | None = None
        self.welcome: Welcome | None = None

    @classmethod
    async def connect(
        cls,
        address: str,
        port: int,
        name: str,
        *,
        password: str | None = None,
        token: str | None = None,
        on_payload: Callable[[Any], None] | None = None,
    ) -> NetClient:
        """Connect and greet; raises ``HostClosed`` if the host refuses (with its code)."""
        reader, writer = await asyncio.open_connection(address, port)
        client = cls(reader, writer, Connection(Role.CLIENT, on_payload=on_payload))
        client.send(Hello(PROTOCOL_VERSION, name, password, token))
        try:
            first = await client.receive()
        except BaseException:
            await client.close()
            raise
        if not isinstance(first, Welcome):  # the connection enforces welcome/goodbye first
            await client.close()
            raise HostClosed("bad_message", "the host did not welcome us")
        client.welcome = first
        return client

    @property
    def seat(self) -> int:
        assert self.welcome is not None
        return self.welcome.seat

    @property
    def token(self) -> str:
        assert self.welcome is not None
        return self.welcome.token

    async def receive(self) -> HostMessage:
        """The next message from the host; ``HostClosed`` once it is gone."""
        while True:
            if self._closed is not None:
                raise self._closed
            try:
                message = self._conn.next_message()
                if message is None:
                    if self._conn.eof:
                        self._closed = HostClosed("closed", "The connection was closed.")
                    else:
                        self._conn.receive_data(await self._reader.read(READ_SIZE))
                    continue
            except ProtocolError as exc:
                self._closed = HostClosed(exc.code, f"the host sent bad data: {exc.text}")
                self._writer.close()
                continue
            except (ConnectionError, OSError):
                self._closed = HostClosed("closed", "The connection was lost.")
                continue
            if isinstance(message, Goodbye):
                self._closed = HostClosed(message.code, message.text)
                continue
            return message  # type: ignore[return-value]

    def send(self, message: ClientMessage) -> None:
        self._writer.write(self._conn.send(message))

    def _ref(self) -> int:
        return next(self._refs)

    def act(self, action: Action) -> int:
        ref = self._ref()
        self.send(Act(ref, action))
        return ref

    def start(self) -> int:
        ref = self._ref()
        self.send(Start(ref))
        return ref

    def set_rules(self, rules: Rules) -> int:
        ref = self._ref()
        self.send(SetRules(ref, rules))
        return ref

    def set_seat(self, seat: int, ai: str | None) -> int:
        ref = self._ref()
        self.send(SetSeat(ref, seat, ai))
        return ref

    def ping(self) -> int:
        ref = self._ref()
        self.send(Ping(ref))
        return ref

    async def close(self) -> None:
        self._writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await self._writer.wait_closed()

    async def __aenter__(self) -> NetClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()
