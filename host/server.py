"""The asyncio TCP server: one reader task per client, one table task, the announcement.

Each connection must say ``hello`` within ``handshake_timeout``, may send ``rate`` messages
a second on average (a token bucket of ``rate_burst``) while earlier ones still wait for
the table (a client that waits for each answer is never limited), and the host holds at most
``max_connections`` at once; a connection that breaks a limit is told why and closed,
nobody else notices. Saves and the journal are written by one thread of their own
(``host.journal.DiskWriter``); the save folder is checked at start-up, and when the table
cannot be saved there ``save_problem`` says why (once) and the table goes on unsaved.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

from protocol import (
    BUSY,
    HANDSHAKE_TIMEOUT,
    RATE_LIMITED,
    Alive,
    Connection,
    Goodbye,
    Heartbeat,
    Hello,
    Message,
    ProtocolError,
    Role,
    Room,
    encode,
)

from .announce import Announcer, txt_properties
from .config import HostConfig
from .journal import DiskWriter, check_folder
from .outbox import Outbox
from .save import save_file
from .table import Gone, Incoming, Stop, Table

__all__ = ["Host", "Session"]

log = logging.getLogger("durak.host")
READ_SIZE = 64 * 1024
LINGER = 1.0  # seconds a connection may stay open after its goodbye


class Session:
    """One client connection: decodes its frames, writes its messages, counts its credit."""

    def __init__(self, writer: asyncio.StreamWriter, config: HostConfig, outbox: Outbox) -> None:
        self.writer = writer
        self.outbox = outbox  # the table's sends wait there for the disk
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
        self.heard = self.stamp  # when the client last sent us anything
        self.probed = False  # a heartbeat went out since we last heard from it
        self.beats = 0

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
        self.outbox.send(partial(self._send, message))

    def _send(self, message: Message) -> None:
        if self.closed:
            return
        if self.writer.transport.get_write_buffer_size() > self.max_buffer:
            log.warning("dropping %s: it does not read its messages", self.peer)
            self.closed = True
            self.writer.transport.abort()
            return
        self.writer.write(encode(message))

    def close(self, code: str, text: str) -> None:
        """The table's goodbye: after what the table sent before it (see ``outbox``)."""
        self.outbox.send(partial(self.goodbye, code, text))

    def goodbye(self, code: str, text: str) -> None:
        """Say goodbye (with a reason code) and close at once; the reader then sees the end."""
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

    def check_alive(self, now: float, silence: float) -> None:
        """The heartbeat: after a third of ``silence`` without a word from the client, ask
        (``heartbeat``); after all of it, the client is gone. Its connection is cut (no
        goodbye: nobody would read it), so the table sees it leave as if it had closed."""
        quiet = now - self.heard
        if quiet >= silence:
            log.info("dropping %s: nothing heard for %.1f s", self.peer, quiet)
            self.closed = True
            self.writer.transport.abort()
        elif quiet >= silence / 3 and not self.probed:
            self.probed = True
            self.beats += 1
            self._send(Heartbeat(self.beats))


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
        self.save_path: Path | None = None  # known once the port is (see _start)
        self.save_problem: str | None = None  # why the table is not saved, if it is not
        try:
            self.table = Table(
                config,
                executor=self.executor,
                on_room=self._room_changed,
            )
        except BaseException:
            self.executor.shutdown()
            raise
        self.sessions: set[Session] = set()
        self._strangers: dict[Session, None] = {}  # connections without a hello, oldest first
        self.tasks: set[asyncio.Task[None]] = set()
        self.announcer: Announcer | None = None
        self._server: asyncio.Server | None = None
        self._table_task: asyncio.Task[None] | None = None
        self._watch_task: asyncio.Task[None] | None = None
        self._stopped = asyncio.Event()
        self.port = 0
        self.watchers: list[Callable[[Room], None]] = []  # told the room whenever it changes

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
            loop = asyncio.get_running_loop()
            problem = await loop.run_in_executor(None, check_folder, self.save_path.parent)
            if problem is None:
                self.table.disk = DiskWriter(self.save_path, loop)
                if not self.config.resume:  # a new table: an old game's journal must go
                    self.table.disk.end()
            else:
                self.save_problem = problem
                log.warning("the table will not be saved: %s", problem)
        self._table_task = asyncio.create_task(self.table.run(), name="durak-table")
        self._watch_task = asyncio.create_task(self._watch(), name="durak-heartbeat")
        if self.config.announce:
            self.announcer = Announcer(self.config.bind, self.port, self.config.name)
            await self.announcer.start(txt_properties(self.table.room()))
        self.table._maybe_autostart()  # an all-AI table starts at once

    async def _watch(self) -> None:
        """Check every seated connection's heartbeat a few times per ``silence`` (the room's
        option, which the owner may change). Strangers have the handshake timeout instead."""
        while True:
            silence = self.table.silence
            await asyncio.sleep(min(1.0, silence / 6))
            now = time.monotonic()
            for session in list(self.sessions):
                if session.seat is not None and not session.closed:
                    session.check_alive(now, self.table.silence)

    def _room_changed(self, room: Room) -> None:
        if self.announcer is not None:
            self.announcer.update(txt_properties(room))
        for watcher in self.watchers:
            watcher(room)

    async def _serve_client(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        session = Session(writer, self.config, self.table.outbox)
        cap = self.config.max_connections
        if sum(not s.closed for s in self.sessions) >= cap:
            # Full: push out the oldest connection still without a hello (a stranger that
            # holds a slot) rather than turn away a player who greets at once.
            idle = next((s for s in self._strangers if not s.closed), None)
            if idle is not None:
                idle.goodbye(BUSY, "The host has as many connections as it takes.")
        if sum(not s.closed for s in self.sessions) >= cap or self._stopped.is_set():
            session.goodbye(BUSY, "The host has as many connections as it takes.")
            await linger(reader, writer)
            return
        task = asyncio.current_task()
        assert task is not None
        self.sessions.add(session)
        self._strangers[session] = None
        self.tasks.add(task)
        queue = self.table.queue
        timer = asyncio.get_running_loop().call_later(
            self.config.handshake_timeout, session.goodbye, HANDSHAKE_TIMEOUT, "No hello in time."
        )
        try:
            while not session.closed:
                data = await reader.read(READ_SIZE)
                session.heard, session.probed = time.monotonic(), False
                session.conn.receive_data(data)
                while (message := session.conn.next_message()) is not None:
                    if session in self._strangers:  # its first message: the hello
                        del self._strangers[session]
                        timer.cancel()
                    if session.waiting and not session.allow():
                        session.goodbye(RATE_LIMITED, "Too many messages too fast.")
                        break
                    if isinstance(message, Alive):
                        continue  # it answered a heartbeat: hearing from it was the point
                    checked = None
                    if isinstance(message, Hello):  # (a slow check waits here, not the table)
                        checked = await self.table.check_password(message.password)
                    await session.credit.acquire()
                    session.waiting += 1
                    queue.put_nowait(Incoming(session, message, checked))
                if not data:
                    break
        except ProtocolError as exc:
            log.info("closing %s: %s", session.peer, exc)
            session.goodbye(exc.code, exc.text)
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
        if self._watch_task is not None:
            self._watch_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch_task
        for session in list(self.sessions):
            session.goodbye("shutdown", text)
        if self._table_task is not None:
            self.table.queue.put_nowait(Stop())
            await self._table_task
        self.table.close()
        await self.table.outbox.drain()
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
        if self.table.disk is not None:
            await asyncio.get_running_loop().run_in_executor(None, self.table.disk.close)

    async def wait_stopped(self) -> None:
        await self._stopped.wait()

    async def __aenter__(self) -> Host:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()
