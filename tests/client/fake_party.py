"""A stand-in party host on 127.0.0.1 for the window's party link: it speaks the party's
own messages (docs/protocol.md section 17) from the test's script, in a thread of its own,
and keeps what each client sent."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable

from engine import Rules
from protocol import (
    PROTOCOL_VERSION,
    Join,
    Joined,
    Night,
    Party,
    PartyConnection,
    PartyFigures,
    PartyMessage,
    PartyPlayer,
)

Reply = Callable[[PartyMessage], list[PartyMessage | bytes]]
TOKEN = "0123456789abcdef" * 2  # Vera's, in ``joins_vera``'s answer


def a_party() -> Party:
    """A night gathering, with Vera in it."""
    players = (PartyPlayer(0, "Vera", "here", 1, 0, 0, 0, 0, 0, None),)
    return Party(
        "Friday night", "gathering", 0, Night(Rules(players=4), rounds=3), 0, False, None,
        None, None, players, (), PartyFigures(),
    )  # fmt: skip


def joins_vera(message: PartyMessage) -> list[PartyMessage | bytes]:
    """A reply: every ``join`` is Vera's (player 0, ``TOKEN``); nothing else is answered."""
    return [Joined(PROTOCOL_VERSION, 0, TOKEN, a_party())] if isinstance(message, Join) else []


class FakePartyHost:
    """Answers each client message with ``reply(message)`` (messages, or raw bytes)."""

    def __init__(self, reply: Reply) -> None:
        self.reply = reply
        self.got: list[PartyMessage] = []
        self.port = 0
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._writers: list[tuple[asyncio.StreamWriter, PartyConnection]] = []
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)
        self._thread.start()
        self._ready.wait(10)

    def say(self, message: PartyMessage | bytes) -> None:
        """Send ``message`` to every client connected now."""
        assert self._loop is not None
        self._loop.call_soon_threadsafe(self._say, message)

    def _say(self, message: PartyMessage | bytes) -> None:
        for writer, conn in self._writers:
            writer.write(message if isinstance(message, bytes) else conn.send(message))

    def drop(self) -> None:
        """Close every client's connection without a goodbye (the server stays up)."""
        assert self._loop is not None
        self._loop.call_soon_threadsafe(self._drop)

    def _drop(self) -> None:
        for writer, _ in self._writers:
            writer.close()
        self._writers.clear()

    def close(self) -> None:
        if self._loop is not None and self._stop is not None:
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        async with server:
            await self._stop.wait()
            for writer, _ in self._writers:
                writer.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = PartyConnection(host=True)
        self._writers.append((writer, conn))
        with contextlib.suppress(OSError):
            while data := await reader.read(65536):
                conn.receive_data(data)
                while (message := conn.next_message()) is not None:
                    self.got.append(message)
                    for answer in self.reply(message):
                        writer.write(answer if isinstance(answer, bytes) else conn.send(answer))
        writer.close()
