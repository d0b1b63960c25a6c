"""One connection to the host as the suite's bots see it: raw frames out (so that a check
can send what a good client never would), the host's messages in, each decoded by the
protocol's own strict codec, and the waits every check is built from (the next message,
one of a kind, everything up to a pong)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import secrets
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import msgpack  # type: ignore[import-untyped]

from client.cli.conformance.report import Failed
from protocol import (
    PROTOCOL_VERSION,
    VALUE_BYTES,
    ClientMessage,
    Connection,
    Contribute,
    DealWitness,
    Goodbye,
    Hello,
    Message,
    Ping,
    Pong,
    ProtocolError,
    Role,
    Room,
    RoomUpdate,
    Update,
    Watching,
    Welcome,
    encode,
    frame,
)

T = TypeVar("T")
WAIT = 5.0  # seconds to wait for an answer the document promises


class Peer:
    """One connection to the host: frames out, the host's messages in, each decoded and
    checked by the protocol's own strict codec (a message that fails it is recorded)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.conn = Connection(Role.CLIENT)
        self.inbox: asyncio.Queue[Message | None] = asyncio.Queue()
        self.invalid: list[str] = []  # host messages the document does not allow
        self.refs = itertools.count(1)
        self.seat = -1
        self.token = ""
        self.room: Room | None = None  # the last room the host sent (as it arrived)
        self.hook: Callable[[Message], None] | None = None  # sees each message taken
        self.witness = DealWitness()  # what this seat saw of each deal (section 15)
        self.task = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, host: str, port: int) -> Peer:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), WAIT)
        return cls(reader, writer)

    async def _read(self) -> None:
        try:
            while data := await self.reader.read(65536):
                self.conn.receive_data(data)
                while (message := self.conn.next_message()) is not None:
                    if isinstance(message, RoomUpdate | Welcome | Watching):
                        self.room = message.room
                    self.inbox.put_nowait(message)
        except ProtocolError as exc:
            self.invalid.append(exc.text)
        except (ConnectionError, OSError):
            pass
        self.inbox.put_nowait(None)

    def raw(self, data: bytes) -> None:
        self.writer.write(data)

    def send(self, message: ClientMessage) -> None:
        self.writer.write(encode(message))

    def send_map(self, data: Any) -> None:
        self.writer.write(frame(msgpack.packb(data, use_bin_type=True)))

    def ref(self) -> int:
        return next(self.refs)

    def deliver(self, message: Message | None) -> Message | None:
        """A message taken from the inbox, shown to the deal's witness and ``hook`` first."""
        if message is not None:
            self.witness.see(message)
            if self.hook is not None:
                self.hook(message)
        return message

    def contribute(self, game: int) -> int:
        """Our random contribution to the deal of ``game``; its ref."""
        value = secrets.token_hex(VALUE_BYTES)
        ref = self.ref()
        self.witness.contributed(game, value)
        self.send(Contribute(ref, game, value))
        return ref

    async def next(self, timeout: float = WAIT) -> Message | None:
        """The next message; None once the host closed the connection."""
        try:
            return self.deliver(await asyncio.wait_for(self.inbox.get(), timeout))
        except TimeoutError:
            raise Failed(f"no message from the host within {timeout:g} s") from None

    async def wait_for(
        self, kind: type[T], test: Callable[[T], bool] = lambda _: True, timeout: float = WAIT
    ) -> T:
        """Skip messages until one of ``kind`` that passes ``test``."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            message = await self.next(max(0.0, end - loop.time()))
            if message is None:
                raise Failed(f"the host closed the connection while we waited for {kind.__name__}")
            if isinstance(message, kind) and test(message):
                return message

    async def sync(self) -> list[Message]:
        """Ping, and every message that came before the pong (section 5: an answer comes
        after every message caused by earlier requests)."""
        ref = self.ref()
        self.send(Ping(ref))
        seen: list[Message] = []
        while True:
            message = await self.next()
            if message is None:
                raise Failed("the host closed the connection")
            if isinstance(message, Pong) and message.ref == ref:
                return seen
            seen.append(message)

    async def ask(self, make: Callable[[int], ClientMessage]) -> list[Message]:
        """Send a request with a fresh ref; every message up to a ping after it (what came
        before the request is read and left out first)."""
        await self.sync()
        self.send(make(self.ref()))
        return await self.sync()

    async def end(self, timeout: float = WAIT) -> Goodbye | None:
        """Read until the host's goodbye (None: it closed without one)."""
        loop = asyncio.get_running_loop()
        limit = loop.time() + timeout
        while (message := await self.next(max(0.0, limit - loop.time()))) is not None:
            if isinstance(message, Goodbye):
                return message
        return None

    async def hello(self, name: str, password: str | None, token: str | None = None) -> Welcome:
        self.send(Hello(PROTOCOL_VERSION, name, password, token))
        first = await self.next()
        if isinstance(first, Goodbye):
            raise Failed(f"hello was refused: {first.code} ({first.text})")
        if not isinstance(first, Welcome):
            raise Failed(f"the first answer to hello was {type(first).__name__}, not welcome")
        self.seat, self.token = first.seat, first.token
        return first

    async def watch(self, name: str, password: str | None) -> Watching:
        """Say hello as a watcher (section 16): the host's ``watching``."""
        self.send(Hello(PROTOCOL_VERSION, name, password, None, "watch"))
        first = await self.next()
        if isinstance(first, Goodbye):
            raise Failed(f"the watcher's hello was refused: {first.code} ({first.text})")
        if not isinstance(first, Watching):
            raise Failed(f"the first answer to a watcher was {type(first).__name__}")
        return first

    async def close(self) -> None:
        """Leave without a goodbye (a client just closes)."""
        self.writer.close()
        with contextlib.suppress(Exception):
            await self.writer.wait_closed()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.task, WAIT)
        self.task.cancel()


def kinds(messages: Iterable[Message | None]) -> str:
    """The messages' types, leaving out game updates (they come whenever an AI acts)."""
    return ", ".join(type(m).__name__ for m in messages if not isinstance(m, Update))


def answers(messages: Iterable[Message]) -> list[Message]:
    return [m for m in messages if not isinstance(m, Update)]
