"""The asyncio TCP server: one accept loop, one reader task per client, one table task,
the announcement.

The accept loop asks the door (``host.admission``) about every new connection before it
costs more than its socket: a connection beyond the door's slots is told ``busy`` and closed
at once, and the door keeps the host's open files below its limit (raised at start where
the OS allows). A connection over its address's rate waits in the door's reserve, where only
a seat's token is let in, so a seated player gets back in during a flood. Each connection
must then say ``hello`` within ``handshake_timeout``, may send ``rate`` messages a second on
average (a token bucket of ``rate_burst``) while earlier ones still wait for the table (a
client that waits for each answer is never limited); a connection that breaks a limit is
told why and closed, nobody else notices. A connection without a seat is closed right after
its goodbye; a player's or a watcher's lingers a moment so that the goodbye is read.
Watchers take the door's slots like players, but the table lets in only as many as leave a
slot for every seat (``Audience.door_room``). A seated (or watching) connection
that falls silent gets a heartbeat, then is cut (``Session.check_alive``); the heartbeat
keeps the table's time (its ``Scheduler``), so a test can move it by hand. Saves and the
journal are written by one thread of their own (``host.disk.DiskWriter``); the save
folder is checked at start-up, and when the table cannot be saved there ``save_problem``
says why (once) and the table goes on unsaved; a write that fails later sets it too. Either
way ``room.unsaved`` says so, and the writer tries again every ``save_retry`` seconds (one)
until it can save.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import socket
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

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

from .admission import (
    Door,
    Pool,
    Verdict,
    open_files,
    raise_file_limit,
    slots_for,
    throttled_text,
)
from .announce import Announcer, txt_properties
from .config import HostConfig
from .disk import DiskWriter
from .journal import check_folder
from .outbox import Outbox
from .save import save_file
from .scheduler import Handle, LoopScheduler, Scheduler
from .table import Gone, Incoming, Show, Stop, Table
from .workers import AiPool, Workers

__all__ = ["Host", "Session"]

log = logging.getLogger("durak.host")
READ_SIZE = 64 * 1024
LINGER = 1.0  # seconds a player's connection may stay open after its goodbye
BACKLOG = 64  # connections the OS queues before the accept loop takes them
BUSY_TEXT = "The host has as many connections as it takes."


class Session:
    """One client connection: decodes its frames, writes its messages, counts its credit."""

    def __init__(
        self, writer: asyncio.StreamWriter, config: HostConfig, outbox: Outbox, heard: float
    ) -> None:
        self.writer = writer
        self.outbox = outbox  # the table's sends wait there for the disk
        self.conn = Connection(Role.HOST)
        self.seat: int | None = None
        self.watching = False  # a watcher's connection (set by the table)
        self.closed = False
        self.leaving = False  # the table said goodbye (it may wait in the outbox)
        self.max_buffer = config.max_send_buffer
        self.credit = asyncio.Semaphore(config.max_pending)
        self.waiting = 0  # messages of this client the table has not handled yet
        self.handled = asyncio.Event()  # set while the table has handled all of them
        self.handled.set()
        self.said_goodbye = False
        peer = writer.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)
        self.address = address_of(peer)
        self.rate = config.rate
        self.burst = float(config.rate_burst)
        self.tokens = self.burst
        self.stamp = time.monotonic()  # (the token bucket's)
        self.heard = heard  # when the client last sent us anything (the heartbeat's clock)
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
        self.writer.write(self.outbox.frame(message))

    def close(self, code: str, text: str) -> None:
        """The table's goodbye: after what the table sent before it (see ``outbox``). What
        the client sends from now on is read and dropped."""
        self.leaving = True
        self.outbox.send(partial(self.goodbye, code, text))

    def goodbye(self, code: str, text: str) -> None:
        """Say goodbye (with a reason code) and close; the reader then sees the end. A
        connection that never had a seat nor watched is closed at once (its goodbye is all
        it was sent)."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(Exception):
            self.writer.write(encode(Goodbye(code, text[:200])))
            if self.seat is None and not self.watching:
                self.writer.transport.abort()
                return
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
        if not self.waiting:
            self.handled.set()

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


def address_of(peer: object) -> str:
    """The address part of a peer name (an IPv4 peer of a dual-stack socket as IPv4)."""
    if not isinstance(peer, tuple):
        return str(peer)
    address = str(peer[0])
    return address.removeprefix("::ffff:") if "." in address else address


# accept() errors that mean the machine is out of something, worth a pause; any other is
# one connection's (a client that reset before it was taken: WinError 64 on Windows)
EXHAUSTED = {
    code
    for name in ("EMFILE", "ENFILE", "ENOBUFS", "ENOMEM", "WSAEMFILE", "WSAENOBUFS")
    if (code := getattr(errno, name, None)) is not None
}


def listening_socket(bind: str, port: int) -> socket.socket:
    """A listening TCP socket on ``bind`` (``""``: every interface, IPv6 too where the OS
    has dual-stack sockets). The port is this table's alone: on Windows another program
    may bind a port in use with SO_REUSEADDR and take the players' connections (their
    passwords and tokens) unless the listener holds it with SO_EXCLUSIVEADDRUSE; elsewhere
    SO_REUSEADDR lets a restarted host take its port back at once and refuses a second
    listener."""
    if not bind:
        dual = socket.has_dualstack_ipv6()
        family = socket.AF_INET6 if dual else socket.AF_INET
        return _listen(family, ("", port), dual)
    family, _, _, _, address = socket.getaddrinfo(
        bind, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    return _listen(family, (str(address[0]), int(address[1])), False)


def _listen(family: int, address: tuple[str, int], dualstack: bool) -> socket.socket:
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        if sys.platform == "win32":
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_EXCLUSIVEADDRUSE, 1)
        else:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if dualstack:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(address)
        sock.listen(BACKLOG)
    except BaseException:
        sock.close()
        raise
    return sock


def refuse(conn: socket.socket, code: str, text: str) -> None:
    """Turn a connection away at the door: its goodbye, if the socket takes it, then closed."""
    with contextlib.suppress(OSError):
        conn.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            conn.recv(READ_SIZE)  # a hello already here: read, so closing sends no reset
        conn.send(encode(Goodbye(code, text)))
    conn.close()


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
    """A table served on TCP. ``await start()``, then ``await stop()`` (or ``async with``).
    ``scheduler``: the table's and the heartbeat's time and the AI's executor (by default
    the running loop's and the AI's threads). ``ai``: an executor and AI workers lent by the
    caller (a party's, shared by its tables and closed by it), instead of the table's own."""

    def __init__(
        self, config: HostConfig, *, scheduler: Scheduler | None = None, ai: AiPool | None = None
    ) -> None:
        self.config = config
        self._own_ai = ai is None
        if ai is None:
            executor = ThreadPoolExecutor(config.ai_workers, thread_name_prefix="durak-ai")
            ai = AiPool(executor, Workers(config.ai_workers) if config.ai_processes else None)
        self.executor, self.workers = ai.executor, ai.workers
        self.scheduler = scheduler or LoopScheduler(self.executor)
        # Password checks (scrypt, on a resumed table): one thread for newcomers' (after the
        # throttle), one for returning players', apart from the AI's and from each other.
        self._guesses = ThreadPoolExecutor(1, thread_name_prefix="durak-password")
        self._holders = ThreadPoolExecutor(1, thread_name_prefix="durak-seat-password")
        self.save_path: Path | None = None  # known once the port is (see _start)
        self.save_problem: str | None = None  # why the table is not saved, if it is not
        self.file_limit = raise_file_limit()
        sizes = slots_for(config.max_connections, self.file_limit, open_files(), config.seats)
        self.door: Door[socket.socket] = Door(
            replace(
                sizes,
                rate=config.connect_rate,
                burst=config.connect_burst,
                hello_timeout=config.handshake_timeout,
                reserve_timeout=config.reserve_timeout,
            )
        )
        try:
            self.table = self.make_table(
                config,
                scheduler=self.scheduler,
                on_room=self._room_changed,
                workers=self.workers,
                # Watchers take the door's slots like players, but always leave one a seat.
                door_room=max(0, self.door.limits.limit - config.seats),
            )
        except BaseException:
            if self._own_ai:
                self.executor.shutdown()
                if self.workers is not None:
                    self.workers.close()
            raise
        self.sessions: set[Session] = set()
        self._entering: dict[socket.socket, Session | None] = {}  # not None once set up
        self.tasks: set[asyncio.Task[None]] = set()
        self.announcer: Announcer | None = None
        self._listener: socket.socket | None = None
        self._accepting: asyncio.Task[None] | None = None
        self._table_task: asyncio.Task[None] | None = None
        self._beat: Handle | None = None  # the heartbeat's next look at the connections
        self._stopped = asyncio.Event()
        self.port = 0
        self.watchers: list[Callable[[Room], None]] = []  # told the room whenever it changes

    def make_table(self, config: HostConfig, **parts: Any) -> Table:
        """The table this host serves (a party's table is a ``Table`` of its own kind:
        ``host.party.tables``)."""
        return Table(config, **parts)

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
        self._listener = listening_socket(self.config.bind, self.config.port)
        self._listener.setblocking(False)
        self.port = self._listener.getsockname()[1]
        self._accepting = asyncio.create_task(self._accept(self._listener), name="durak-door")
        disk = None
        if self.config.save_dir is not None:  # (on any free port: the one it got)
            self.save_path = save_file(self.config.save_dir, self.port)
            loop = asyncio.get_running_loop()
            problem = await loop.run_in_executor(None, check_folder, self.save_path.parent)
            if problem is not None:  # (the writer tries all the same, and says when it can)
                self.save_problem = problem
                log.warning("the table will not be saved until it can be: %s", problem)
            disk = DiskWriter(
                self.save_path,
                loop,
                on_problem=self._disk_news,
                problem=problem,
                retry=self.config.save_retry,
            )
            if not self.config.resume:  # a new table: an old game's journal must go
                disk.end()
        # (an all-AI table starts its first game as soon as its task runs)
        self._table_task = asyncio.create_task(self.table.run(disk), name="durak-table")
        self._next_beat()
        if self.config.announce:
            self.announcer = Announcer(self.config.bind, self.port, self.config.name)
            await self.announcer.start(txt_properties(self.table.room()))

    def _next_beat(self) -> None:
        self._beat = self.scheduler.later(min(1.0, self.table.silence / 6), self._heartbeat)

    def _heartbeat(self) -> None:
        """Check every seated or watching connection's heartbeat, a few times per
        ``silence`` (the room's option, which the owner may change). Strangers have the
        handshake timeout instead."""
        now = self.scheduler.now()
        for session in list(self.sessions):
            if (session.seat is not None or session.watching) and not session.closed:
                session.check_alive(now, self.table.silence)
        self._next_beat()

    def _disk_news(self, problem: str | None) -> None:
        """The disk began failing (``problem``) or works again (None): the room says so."""
        self.save_problem = problem
        self.table.queue.put_nowait(Show())

    def _room_changed(self, room: Room) -> None:
        if self.announcer is not None:
            self.announcer.update(txt_properties(room))
        for watcher in self.watchers:
            watcher(room)

    async def _accept(self, listener: socket.socket) -> None:
        """Take each new connection and ask the door about it before anything else."""
        loop = asyncio.get_running_loop()
        while True:
            try:
                conn, peer = await loop.sock_accept(listener)
            except OSError as exc:
                if exc.errno in EXHAUSTED:  # (the door keeps headroom below the file limit)
                    log.warning("cannot accept a connection: %s", exc)
                    await asyncio.sleep(0.1)
                continue
            admit = None if self._stopped.is_set() else self.door.arrive(conn, address_of(peer))
            if admit is None:
                refuse(conn, BUSY, BUSY_TEXT)
                continue
            if admit.evict is not None:
                self._push_out(admit.evict)
            with contextlib.suppress(OSError):  # (asyncio sets it only on sockets it made)
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._entering[conn] = None
            task = asyncio.create_task(self._serve_socket(conn, admit.pool, admit.timeout))
            self.tasks.add(task)
            await asyncio.sleep(0)  # the connections' tasks run between two accepts

    def _push_out(self, conn: socket.socket) -> None:
        """Close a stranger the door pushed out (once it is set up, if it is not yet)."""
        session = self._entering.get(conn)
        if session is not None:
            session.goodbye(BUSY, BUSY_TEXT)
        elif conn in self._entering:
            del self._entering[conn]  # its task sees it gone and closes it

    async def _serve_socket(self, conn: socket.socket, pool: Pool, timeout: float) -> None:
        """Set up a connection the door let in and serve it; its slot is free at the end."""
        task = asyncio.current_task()
        assert task is not None
        loop = asyncio.get_running_loop()
        try:
            reader = asyncio.StreamReader()
            protocol = asyncio.StreamReaderProtocol(reader)
            try:
                transport, _ = await loop.connect_accepted_socket(lambda: protocol, sock=conn)
            except OSError:
                conn.close()
                return
            writer = asyncio.StreamWriter(transport, protocol, reader, loop)
            session = Session(writer, self.config, self.table.outbox, self.scheduler.now())
            pushed_out = conn not in self._entering
            self._entering[conn] = session
            if pushed_out:
                session.goodbye(BUSY, BUSY_TEXT)
            await self._serve_client(reader, writer, session, conn, pool, timeout)
        finally:
            self._entering.pop(conn, None)
            self.door.leave(conn)
            self.tasks.discard(task)

    async def _serve_client(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        session: Session,
        conn: socket.socket,
        pool: Pool,
        timeout: float,
    ) -> None:
        self.sessions.add(session)
        queue = self.table.queue
        # A stranger in the reserve that says nothing is told busy, as one whose hello has
        # no token is: the host is flooded, and a player may come back later.
        late = (
            (BUSY, BUSY_TEXT) if pool is Pool.RESERVE else (HANDSHAKE_TIMEOUT, "No hello in time.")
        )
        timer = asyncio.get_running_loop().call_later(timeout, session.goodbye, *late)
        greeted = False
        try:
            while not session.closed:
                data = await reader.read(READ_SIZE)
                session.heard, session.probed = self.scheduler.now(), False
                if session.leaving:  # after the table's goodbye: read and dropped, unread
                    if not data:
                        break
                    continue
                session.conn.receive_data(data)
                while (message := session.conn.next_message()) is not None:
                    if session.leaving:
                        break
                    if not greeted:  # its first message: the hello
                        greeted = True
                        timer.cancel()
                        self.door.greeted(conn)
                        if (  # the reserve lets in only players coming back to their seats
                            pool is Pool.RESERVE
                            and isinstance(message, Hello)
                            and message.token is None
                        ):
                            session.goodbye(BUSY, BUSY_TEXT)
                            break
                    if session.waiting and not session.allow():
                        session.goodbye(RATE_LIMITED, "Too many messages too fast.")
                        break
                    if isinstance(message, Alive):
                        continue  # it answered a heartbeat: hearing from it was the point
                    checked = None
                    if isinstance(message, Hello):  # (checked here: the table does not wait)
                        verdict = await self._password(session.address, message)
                        if verdict is not None and verdict.wait > 0:
                            session.goodbye("throttled", throttled_text(verdict.wait))
                            break
                        checked = None if verdict is None else verdict.ok
                    await session.credit.acquire()
                    if session.closed:  # told goodbye meanwhile: what follows is dropped
                        session.credit.release()
                        break
                    session.waiting += 1
                    session.handled.clear()
                    queue.put_nowait(Incoming(session, message, checked))
                    if isinstance(message, Hello):
                        # What follows a hello waits for its answer: a refused one's (a
                        # junk client's thousands of pings) never reaches the table.
                        await session.handled.wait()
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
            with contextlib.suppress(Exception):
                await writer.wait_closed()
            self.sessions.discard(session)

    async def _password(self, address: str, hello: Hello) -> Verdict | None:
        """A hello's password, decided before the table sees the hello (None: the table
        refuses the hello before its password, or checks it itself, where that is quick).
        A newcomer's passes the throttle first (``PasswordThrottle.begin``: no check at all
        when it says no); a returning player's, only once the seat's token is right, and in
        a thread of its own: so a storm of guesses neither holds up the loop (scrypt runs
        in a thread) nor a player coming back."""
        table, password = self.table, self.table.gate.password
        if password is None:
            return None
        loop = asyncio.get_running_loop()
        if hello.token is not None:
            if password.plain is not None or table.roster.holder(hello.token) is None:
                return None
            ok = await loop.run_in_executor(self._holders, password.check, hello.password or "")
            return Verdict(ok)
        if hello.role == "play" and table.roster.no_seat(table.playing) is not None:
            return None
        throttle = table.throttle
        verdict = throttle.begin(address, hello.password)
        if verdict is not None or hello.password is None:
            return verdict or Verdict(False)
        if password.plain is not None:
            return throttle.end(address, password.check(hello.password))
        try:
            ok = await loop.run_in_executor(self._guesses, password.check, hello.password)
        except BaseException:
            throttle.end(address, False)
            raise
        return throttle.end(address, ok)

    async def stop(self, text: str = "The host closed the table.") -> None:
        """Tell every client, stop the table, withdraw the announcement, free everything."""
        if self._stopped.is_set():
            return
        self._stopped.set()
        # No AI starts a new thought from here on: what is still queued for the table is
        # handled without one, and the executor is shut down once the table has stopped.
        self.table.stop_thinking()
        if self._accepting is not None:
            self._accepting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._accepting
        if self._listener is not None:
            self._listener.close()
        if self._beat is not None:
            self._beat.cancel()
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
        if self.announcer is not None:
            await self.announcer.close()
        if self._own_ai:
            self.executor.shutdown(wait=True, cancel_futures=True)
        for passwords in (self._guesses, self._holders):
            passwords.shutdown(wait=True, cancel_futures=True)
        if self.workers is not None and self._own_ai:
            await asyncio.to_thread(self.workers.close)
        if self.table.disk is not None:
            await asyncio.get_running_loop().run_in_executor(None, self.table.disk.close)

    async def wait_stopped(self) -> None:
        await self._stopped.wait()

    async def __aenter__(self) -> Host:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()
