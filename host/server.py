"""The asyncio TCP server: one reader task per client, one table task, the announcement."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from concurrent.futures import ThreadPoolExecutor

from protocol import Connection, Goodbye, Message, ProtocolError, Role, Room, encode

from .announce import Announcer, txt_properties
from .config import HostConfig
from .table import Gone, Incoming, Stop, Table

__all__ = ["Host", "Session"]

log = logging.getLogger("durak.host")
READ_SIZE = 64 * 1024


class Session:
    """One client connection: decodes its frames, writes its messages, counts its credit."""

    def __init__(self, writer: asyncio.StreamWriter, config: HostConfig) -> None:
        self.writer = writer
        self.conn = Connection(Role.HOST)
        self.seat: int | None = None
        self.closed = False
        self.max_buffer = config.max_send_buffer
        self.credit = asyncio.Semaphore(config.max_pending)
        peer = writer.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)

    def send(self, message: Message) -> None:
        if self.closed:
            return
        if self.writer.transport.get_write_buffer_size() > self.max_buffer:
            log.warning("dropping %s: it does not read its messages", self.peer)
            self.closed = True
            self.writer.transport.abort()
            return
        self.writer.write(encode(message))

    def close(self, code: str, text: str) -> None:
        """Say goodbye (with a reason code) and close; the reader then sees the end."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(Exception):
            self.writer.write(encode(Goodbye(code, text[:200])))
        self.writer.close()

    def release(self) -> None:
        self.credit.release()


class Host:
    """A table served on TCP. ``await start()``, then ``await stop()`` (or ``async with``)."""

    def __init__(self, config: HostConfig) -> None:
        self.config = config
        self.executor = ThreadPoolExecutor(config.ai_workers, thread_name_prefix="durak-ai")
        self.table = Table(config, executor=self.executor, on_room=self._room_changed)
        self.sessions: set[Session] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.announcer: Announcer | None = None
        self._server: asyncio.Server | None = None
        self._table_task: asyncio.Task[None] | None = None
        self._stopped = asyncio.Event()
        self.port = 0

    @property
    def address(self) -> str:
        return self.config.bind or "0.0.0.0"

    async def start(self) -> None:
        try:
            await self._start()
        except BaseException:
            await self.stop()
            raise

    async def _start(self) -> None:
        self._server = await asyncio.start_server(
            self._serve_client, host=self.config.bind or None, port=self.config.port
        )
        self.port = self._server.sockets[0].getsockname()[1]
        self._table_task = asyncio.create_task(self.table.run(), name="durak-table")
        if self.config.announce:
            self.announcer = Announcer(self.config.bind, self.port, self.config.name)
            await self.announcer.start(txt_properties(self.table.room()))
        self.table._maybe_autostart()  # an all-AI table starts at once

    def _room_changed(self, room: Room) -> None:
        if self.announcer is not None:
            self.announcer.update(txt_properties(room))

    async def _serve_client(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        session = Session(writer, self.config)
        task = asyncio.current_task()
        assert task is not None
        self.sessions.add(session)
        self.tasks.add(task)
        queue = self.table.queue
        try:
            while not session.closed:
                data = await reader.read(READ_SIZE)
                session.conn.receive_data(data)
                while (message := session.conn.next_message()) is not None:
                    await session.credit.acquire()
                    queue.put_nowait(Incoming(session, message))
                if not data:
                    break
        except ProtocolError as exc:
            log.info("closing %s: %s", session.peer, exc)
            session.close(exc.code, exc.text)
        except (ConnectionError, OSError):
            pass
        finally:
            session.closed = True
            writer.close()
            queue.put_nowait(Gone(session))
            self.sessions.discard(session)
            self.tasks.discard(task)

    async def stop(self, text: str = "The host closed the table.") -> None:
        """Tell every client, stop the table, withdraw the announcement, free everything."""
        if self._stopped.is_set():
            return
        self._stopped.set()
        if self._server is not None:
            self._server.close()
        for session in list(self.sessions):
            session.close("shutdown", text)
        if self._table_task is not None:
            self.table.queue.put_nowait(Stop())
            await self._table_task
        if self.tasks:
            _, pending = await asyncio.wait(set(self.tasks), timeout=2)
            for task in pending:
                task.cancel()
            if pending:
                await asyncio.wait(pending)
        if self._server is not None:
            await self._server.wait_closed()
        if self.announcer is not None:
            await self.announcer.close()
        self.executor.shutdown(wait=True, cancel_futures=True)

    async def wait_stopped(self) -> None:
        await self._stopped.wait()

    async def __aenter__(self) -> Host:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()
