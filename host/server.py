"""The asyncio TCP server: one reader task per client, one table task, the announcement.

Each connection must say ``hello`` within ``handshake_timeout``, may send ``rate`` messages
a second on average (a token bucket of ``rate_burst``) while earlier ones still wait for
the table (a client that waits for each answer is never limited), and the host holds at most
``max_connections`` at once; a connection that breaks a limit is told why and closed,
nobody else notices. Saves are written by one background thread, latest first.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from protocol import (
    BUSY,
    HANDSHAKE_TIMEOUT,
    RATE_LIMITED,
    Connection,
    Goodbye,
    Message,
    ProtocolError,
    Role,
    Room,
    encode,
)

from .announce import Announcer, txt_properties
from .config import HostConfig
from .save import TableSave, save_file
from .table import Gone, Incoming, Stop, Table
from .workers import Workers

__all__ = ["Host", "Session"]

log = logging.getLogger("durak.host")
READ_SIZE = 64 * 1024
LINGER = 1.0  # seconds a connection may stay open after its goodbye


class Session:
    """One client connection: decodes its frames, writes its messages, counts its credit."""

    def __init__(self, writer: asyncio.StreamWriter, config: HostConfig) -> None:
        self.writer = writer
        self.conn = Connection(Role.HOST)
        self.seat: int | None = None
        self.closed = False
        self.max_buffer = config.max_send_buffer
        self.credit = asyncio.Semaphore(config.max_pending)
        self.waiting = 0  # messages of this client the table has not handled yet
        self.said_goodbye = False
        peer = writer.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        self.rate = config.rate
        self.burst = float(config.rate_burst)
        self.tokens = self.burst
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        """Take one message from the token bucket; False once the client sends too fast."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

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
            self.writer.write_eof()
            self.said_goodbye = True
            # The reader lingers a moment (see ``linger``); a peer that keeps the connection
            # open after the goodbye is cut off all the same.
            asyncio.get_running_loop().call_later(LINGER, self.writer.close)
            return
        self.writer.close()

    def release(self) -> None:
        self.waiting -= 1
        self.credit.release()


async def linger(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, seconds: float = LINGER
) -> None:
    """After a goodbye: read and drop what the peer still sends, until it closes or for
    ``seconds`` at most, so that closing with unread data (a TCP reset) cannot destroy the
    goodbye before the peer reads it. Then close."""
    with contextlib.suppress(Exception):
        async with asyncio.timeout(seconds):
            while await reader.read(READ_SIZE):
                pass
    writer.close()
    with contextlib.suppress(Exception):
        await writer.wait_closed()


class Host:
    """A table served on TCP. ``await start()``, then ``await stop()`` (or ``async with``)."""

    def __init__(self, config: HostConfig) -> None:
        self.config = config
        self.executor = ThreadPoolExecutor(config.ai_workers, thread_name_prefix="durak-ai")
        self.workers = Workers(config.ai_workers) if config.ai_processes else None
        self.save_path: Path | None = None  # known once the port is (see _start)
        if config.save_dir is not None and config.port:
            self.save_path = save_file(config.save_dir, config.port)
        self._saver = ThreadPoolExecutor(1, thread_name_prefix="durak-save")
        self._save_lock = threading.Lock()  # guards the next save waiting for the writer
        self._write_lock = threading.Lock()  # one write at a time, never an older over a newer
        self._save_next: tuple[int, TableSave] | None = None
        self._save_number = 0
        self._saved_number = 0
        self.save_errors = 0
        try:
            self.table = Table(
                config,
                executor=self.executor,
                on_room=self._room_changed,
                saver=None if config.save_dir is None else self._save,
                workers=self.workers,
            )
        except BaseException:
            self.executor.shutdown()
            if self.workers is not None:
                self.workers.close()
            self._saver.shutdown()
            raise
        self.sessions: set[Session] = set()
        self._strangers: dict[Session, None] = {}  # connections without a hello, oldest first
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
        if self.config.save_dir is not None:  # (on any free port: the one it got)
            self.save_path = save_file(self.config.save_dir, self.port)
        self._table_task = asyncio.create_task(self.table.run(), name="durak-table")
        if self.config.announce:
            self.announcer = Announcer(self.config.bind, self.port, self.config.name)
            await self.announcer.start(txt_properties(self.table.room()))
        self.table._maybe_autostart()  # an all-AI table starts at once

    def _save(self, saved: TableSave, durable: bool) -> None:
        """Save the table: ``durable`` at once (blocking for one fsync), else by the writer
        thread, which writes only the latest waiting save."""
        self._save_number += 1
        number = self._save_number
        if durable:
            self._write(number, saved)
            return
        with self._save_lock:
            waiting = self._save_next is not None
            self._save_next = (number, saved)
        if not waiting:
            self._saver.submit(self._write_next)

    def _write_next(self) -> None:
        with self._save_lock:
            latest, self._save_next = self._save_next, None
        if latest is not None:
            self._write(*latest)

    def _write(self, number: int, saved: TableSave) -> None:
        if self.save_path is None:
            return
        with self._write_lock:
            if number <= self._saved_number:
                return  # a newer save is on disk already
            try:
                saved.save(self.save_path)
                self._saved_number = number
            except Exception as exc:  # a full disk must not stop the game
                self.save_errors += 1
                log.error("cannot save the table to %s: %s", self.save_path, exc)

    def _room_changed(self, room: Room) -> None:
        if self.announcer is not None:
            self.announcer.update(txt_properties(room))

    async def _serve_client(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        session = Session(writer, self.config)
        cap = self.config.max_connections
        if sum(not s.closed for s in self.sessions) >= cap:
            # Full: push out the oldest connection still without a hello (a stranger that
            # holds a slot) rather than turn away a player who greets at once.
            idle = next((s for s in self._strangers if not s.closed), None)
            if idle is not None:
                idle.close(BUSY, "The host has as many connections as it takes.")
        if sum(not s.closed for s in self.sessions) >= cap or self._stopped.is_set():
            session.close(BUSY, "The host has as many connections as it takes.")
            await linger(reader, writer)
            return
        task = asyncio.current_task()
        assert task is not None
        self.sessions.add(session)
        self._strangers[session] = None
        self.tasks.add(task)
        queue = self.table.queue
        timer = asyncio.get_running_loop().call_later(
            self.config.handshake_timeout, session.close, HANDSHAKE_TIMEOUT, "No hello in time."
        )
        try:
            while not session.closed:
                data = await reader.read(READ_SIZE)
                session.conn.receive_data(data)
                while (message := session.conn.next_message()) is not None:
                    if session in self._strangers:  # its first message: the hello
                        del self._strangers[session]
                        timer.cancel()
                    if session.waiting and not session.allow():
                        session.close(RATE_LIMITED, "Too many messages too fast.")
                        break
                    await session.credit.acquire()
                    session.waiting += 1
                    queue.put_nowait(Incoming(session, message))
                if not data:
                    break
        except ProtocolError as exc:
            log.info("closing %s: %s", session.peer, exc)
            session.close(exc.code, exc.text)
        except (ConnectionError, OSError):
            pass
        finally:
            timer.cancel()
            session.closed = True
            queue.put_nowait(Gone(session))
            if session.said_goodbye:
                await linger(reader, writer)
            writer.close()
            self.sessions.discard(session)
            self._strangers.pop(session, None)
            self.tasks.discard(task)

    async def stop(self, text: str = "The host closed the table.") -> None:
        """Tell every client, stop the table, withdraw the announcement, free everything."""
        if self._stopped.is_set():
            return
        self._stopped.set()
        # No AI starts a new thought from here on: what is still queued for the table is
        # handled without one, and the executor is shut down once the table has stopped.
        self.table.stopping = True
        if self._server is not None:
            self._server.close()
        for session in list(self.sessions):
            session.close("shutdown", text)
        if self._table_task is not None:
            self.table.queue.put_nowait(Stop())
            await self._table_task
        self.table.close()
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
        if self.workers is not None:
            await asyncio.to_thread(self.workers.close)
        self._saver.shutdown(wait=True)

    async def wait_stopped(self) -> None:
        await self._stopped.wait()

    async def __aenter__(self) -> Host:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()
