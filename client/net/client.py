"""The client end of a connection to a host, on asyncio (the bot, and later the window).

``await NetClient.connect(address, port, name)`` does the handshake and returns a client
that knows its seat, secret token and room; ``await client.receive()`` gives the host's
messages one by one and raises ``HostClosed`` when the host says goodbye or the connection
ends; ``client.act(action)``, ``client.ready()`` and the owner's commands send and return their
``ref``.

With ``reconnect=Backoff(...)`` a lost connection (no goodbye: a crash, a dropped Wi-Fi, a
killed host) is not the end: the client connects again with its seat token, waiting
exponentially longer between tries (with jitter), and ``receive()`` then gives the new
``Welcome`` (answers to requests sent before the drop never come: send them again), then
the host's ``snapshot`` resynchronises the game; ``on_lost``, if set, is called as the
retrying begins. It gives up after ``give_up`` seconds,
or at once if the host refuses the token.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine import Action, Rules
from protocol import (
    PROTOCOL_VERSION,
    Act,
    ClientMessage,
    Connection,
    Emote,
    Goodbye,
    Hello,
    HostMessage,
    Ping,
    ProtocolError,
    Ready,
    Role,
    SetOptions,
    SetRules,
    SetSeat,
    Start,
    Welcome,
)

__all__ = ["Backoff", "HostClosed", "NetClient", "parse_address"]

READ_SIZE = 64 * 1024
FINAL = frozenset(  # refusals that another try would only repeat
    {"bad_token", "bad_password", "version_mismatch", "replaced", "game_in_progress"}
)


@dataclass(frozen=True, slots=True)
class Backoff:
    """How to reconnect: the n-th wait is ``min(longest, first * 2**n)`` seconds times a
    random factor in [0.5, 1] (jitter, so a room of clients does not retry in step);
    ``give_up`` seconds after the drop the client stops trying."""

    first: float = 0.5
    longest: float = 10.0
    give_up: float = 120.0

    def delay(self, attempt: int, rng: random.Random) -> float:
        wait: float = min(self.longest, self.first * 2.0 ** min(attempt, 30))
        return wait * rng.uniform(0.5, 1.0)


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
        self.reconnect: Backoff | None = None
        self.reconnects = 0  # how many times the connection came back
        self.on_lost: Callable[[], None] | None = None  # told when a reconnect begins
        self._hello: tuple[str, int, Hello] | None = None
        self._on_payload: Callable[[Any], None] | None = None
        self._rng = random.Random()

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
        reconnect: Backoff | None = None,
    ) -> NetClient:
        """Connect and greet; raises ``HostClosed`` if the host refuses (with its code)."""
        hello = Hello(PROTOCOL_VERSION, name, password, token)
        client = await cls._greet(address, port, hello, on_payload)
        client.reconnect = reconnect
        client._hello = (address, port, hello)
        client._on_payload = on_payload
        return client

    @classmethod
    async def _greet(
        cls, address: str, port: int, hello: Hello, on_payload: Callable[[Any], None] | None
    ) -> NetClient:
        reader, writer = await asyncio.open_connection(address, port)
        client = cls(reader, writer, Connection(Role.CLIENT, on_payload=on_payload))
        client.send(hello)
        try:
            first = await client._next()
        except BaseException:
            await client.close()
            raise
        if not isinstance(first, Welcome):  # the connection enforces welcome/goodbye first
            await client.close()
            raise HostClosed("bad_message", "the host did not welcome us")
        client.welcome = first
        return client

    async def _come_back(self, lost: HostClosed) -> Welcome:
        """Connect again with our token until the host takes us back (or we give up)."""
        assert self._hello is not None and self.reconnect is not None
        address, port, hello = self._hello
        hello = Hello(hello.version, hello.name, hello.password, self.token)
        backoff = self.reconnect
        give_up = time.monotonic() + backoff.give_up
        attempt = 0
        with contextlib.suppress(Exception):
            await self.close()
        if self.on_lost is not None:
            self.on_lost()
        while True:
            wait = backoff.delay(attempt, self._rng)
            attempt += 1
            if time.monotonic() + wait > give_up:
                raise lost
            await asyncio.sleep(wait)
            try:
                fresh = await asyncio.wait_for(
                    self._greet(address, port, hello, self._on_payload), max(backoff.longest, 5)
                )
            except HostClosed as exc:
                if exc.code in FINAL:
                    raise
                lost = exc
                continue
            except (OSError, TimeoutError):
                continue
            self._reader, self._writer, self._conn = fresh._reader, fresh._writer, fresh._conn
            assert fresh.welcome is not None
            self.welcome = fresh.welcome
            self.reconnects += 1
            self._closed = None
            return fresh.welcome

    @property
    def seat(self) -> int:
        assert self.welcome is not None
        return self.welcome.seat

    @property
    def token(self) -> str:
        assert self.welcome is not None
        return self.welcome.token

    async def receive(self) -> HostMessage:
        """The next message from the host; ``HostClosed`` once it is gone (with
        ``reconnect``: the new ``Welcome`` once a lost connection is back)."""
        try:
            return await self._next()
        except HostClosed as exc:
            if self.reconnect is None or self.welcome is None or exc.code != "closed":
                raise
            return await self._come_back(exc)

    async def _next(self) -> HostMessage:
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
                self._writer.close()
                continue
            if isinstance(message, Goodbye):
                self._closed = HostClosed(message.code, message.text)
                continue
            return message  # type: ignore[return-value]

    def send(self, message: ClientMessage) -> None:
        if self._writer.is_closing():
            return  # lost: the request is dropped (after a reconnect, send it again)
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

    def ready(self, ready: bool = True) -> int:
        """Set (or take back) our ready mark in the lobby: the owner starts once every
        other player is ready."""
        ref = self._ref()
        self.send(Ready(ref, ready))
        return ref

    def set_rules(self, rules: Rules) -> int:
        ref = self._ref()
        self.send(SetRules(ref, rules))
        return ref

    def set_seat(self, seat: int, ai: str | None) -> int:
        ref = self._ref()
        self.send(SetSeat(ref, seat, ai))
        return ref

    def set_options(self, hold: float, turn_timer: float | None) -> int:
        """The room's hold time and turn timer, in seconds (the owner, in the lobby)."""
        ref = self._ref()
        turn = None if turn_timer is None else max(1, round(turn_timer * 1000))
        self.send(SetOptions(ref, round(hold * 1000), turn))
        return ref

    def emote(self, code: str) -> None:
        """A quick reaction (one of ``protocol.EMOTES``) for every seat to see."""
        self.send(Emote(code))

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
