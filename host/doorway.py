"""One way in for every link: a table's and a party's, over TCP or a WebSocket.

A ``Doorway`` serves one ``Service`` (a table's host or a party's) and applies the same
admission policy to every connection, whatever carries it:

- **The door** (``host.admission.Door``): every new connection asks for a slot before it
  costs more than its socket. Beyond the door's slots it is told ``busy`` and closed at
  once; over its address's rate it waits in the reserve, where only a returning player (a
  token in the first message: ``Service.returning``) gets in.
- **The handshake**: the first message (a table's ``hello``, a party's ``join``) within the
  admitted timeout, else the link is told why and closed.
- **Rate and credit**: a link may send ``rate`` messages a second on average (a burst of
  ``burst``) while earlier ones still wait to be handled, and at most ``max_pending`` wait;
  a client that waits for each answer is never limited.
- **The heartbeat**: a link that got in (``Link.in_room``) and falls silent is asked, then
  cut (``Link.check_alive``), on the service's ``silence``, a few times per silence. The
  heartbeat keeps the service's time (its ``Scheduler``), so a test can move it by hand.
- **Bad input**: a malformed frame is answered, after what the service still owes for the
  frames before it, with the error's goodbye; the link closes, nobody else notices.

The transports only read (``Wire.read``) and write: TCP's accept loop is here (``accept``),
the WebSocket's handler in ``host.web``; both end in the one serve loop (``serve``). The
service hands each message on (``deliver``: the table queues it, the party handles it at
once) and releases it when handled (``Link.release``), and hears of each link's end
(``gone``).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import socket
import sys
from collections.abc import Callable, Coroutine, Hashable
from functools import partial
from typing import Any, Generic, Protocol, TypeVar

from protocol import BUSY, HANDSHAKE_TIMEOUT, RATE_LIMITED, Alive, Goodbye, ProtocolError, encode

from .admission import Admit, Door, DoorLimits, Pool
from .link import Link, TcpWire, Wire, address_of
from .scheduler import Handle, Scheduler

__all__ = ["Doorway", "Service", "listening_socket"]

log = logging.getLogger("durak.host")
READ_SIZE = 64 * 1024
BACKLOG = 64  # connections the OS queues before the accept loop takes them
ANSWERED = 1.0  # seconds a bad frame's goodbye waits for the answers to the frames before it
L = TypeVar("L", bound=Link)


class Service(Protocol[L]):
    """What a doorway serves: a table's host or a party's."""

    @property
    def silence(self) -> float:
        """Seconds of silence after which a link that got in is taken for gone."""
        ...

    def new_link(self, wire: Wire, heard: float) -> L:
        """The link of this service's kind for a connection the door let in."""
        ...

    def returning(self, first: Any) -> bool:
        """Whether a link's first message comes back to a place (the reserve's test)."""
        ...

    async def deliver(self, link: L, message: Any) -> None:
        """Hand ``message`` on; ``link.release()`` once it is handled."""
        ...

    def gone(self, link: L) -> None:
        """``link`` has ended (closed by either side, or cut)."""
        ...


# accept() errors that mean the machine is out of something, worth a pause; any other is
# one connection's (a client that reset before it was taken: WinError 64 on Windows)
EXHAUSTED = {
    code
    for name in ("EMFILE", "ENFILE", "ENOBUFS", "ENOMEM", "WSAEMFILE", "WSAENOBUFS")
    if (code := getattr(errno, name, None)) is not None
}


class Doorway(Generic[L]):
    """Every connection of one service (see the module docstring). ``busy_text``: what a
    connection turned away is told; ``late_text``: what one without its first message in
    time is told."""

    def __init__(
        self,
        service: Service[L],
        limits: DoorLimits,
        scheduler: Scheduler,
        *,
        busy_text: str,
        late_text: str,
    ) -> None:
        self.service = service
        self.door: Door[Hashable] = Door(limits)
        self.scheduler = scheduler
        self.busy_text, self.late_text = busy_text, late_text
        self.links: set[L] = set()
        self._entering: dict[Hashable, L | None] = {}  # let in; None until set up
        self._aborts: dict[Hashable, Callable[[], None]] = {}  # how to close one not set up
        self.tasks: set[asyncio.Task[None]] = set()
        self.closing = False
        self._accepting: list[asyncio.Task[None]] = []
        self._beat: Handle | None = None

    # --- coming in ---------------------------------------------------------------------

    def arrive(
        self, key: Hashable, address: str, abort: Callable[[], None] | None = None
    ) -> Admit[Hashable] | None:
        """Ask the door about a new connection ``key`` (None: refuse it now). ``abort``
        closes it if the door pushes it out before it is a link (a web page's GET)."""
        admit = None if self.closing else self.door.arrive(key, address)
        if admit is not None:
            if admit.evict is not None:
                self._push_out(admit.evict)
            self._entering[key] = None
            if abort is not None:
                self._aborts[key] = abort
        return admit

    def _push_out(self, key: Hashable) -> None:
        """Close a stranger the door pushed out (once it is set up, if it is not yet)."""
        link = self._entering.get(key)
        if link is not None:
            link.goodbye(BUSY, self.busy_text)
        elif key in self._entering:
            del self._entering[key]  # its serve sees it gone and closes it
            abort = self._aborts.pop(key, None)
            if abort is not None:
                abort()

    def listen(self, listener: socket.socket) -> None:
        """Take TCP connections from ``listener`` (non-blocking) until ``close``."""
        listener.setblocking(False)
        task = asyncio.create_task(self._accept(listener), name="durak-door")
        self._accepting.append(task)

    async def _accept(self, listener: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                conn, peer = await loop.sock_accept(listener)
            except OSError as exc:
                if exc.errno in EXHAUSTED:  # (the door keeps headroom below the file limit)
                    log.warning("cannot accept a connection: %s", exc)
                    await asyncio.sleep(0.1)
                continue
            admit = self.arrive(conn, address_of(peer))
            if admit is None:
                refuse(conn, encode(Goodbye(BUSY, self.busy_text)))
                continue
            with contextlib.suppress(OSError):  # (asyncio sets it only on sockets it made)
                conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.spawn(self._serve_socket(conn, admit))
            await asyncio.sleep(0)  # the connections' tasks run between two accepts

    def spawn(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(job)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _serve_socket(self, conn: socket.socket, admit: Admit[Hashable]) -> None:
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        protocol = asyncio.StreamReaderProtocol(reader)
        try:
            transport, _ = await loop.connect_accepted_socket(lambda: protocol, sock=conn)
        except OSError:
            conn.close()
            self.left(conn)
            return
        writer = asyncio.StreamWriter(transport, protocol, reader, loop)
        await self.serve(conn, TcpWire(reader, writer), admit)

    def left(self, key: Hashable) -> None:
        """``key``'s connection is closed: its slot is free."""
        self._entering.pop(key, None)
        self._aborts.pop(key, None)
        self.door.leave(key)

    # --- the one serve loop ------------------------------------------------------------

    async def serve(self, key: Hashable, wire: Wire, admit: Admit[Hashable]) -> None:
        """Serve a connection the door let in (``arrive``) until it ends; its slot is free
        at the end."""
        link = self.service.new_link(wire, self.scheduler.now())
        pushed_out = key not in self._entering
        self._entering[key] = link
        self.links.add(link)
        try:
            if pushed_out:
                link.goodbye(BUSY, self.busy_text)
            # A stranger in the reserve that says nothing is told busy, as one whose first
            # message comes back to no place: the host is flooded, a player may come later.
            late = (BUSY, self.busy_text) if admit.pool is Pool.RESERVE else None
            code, text = late or (HANDSHAKE_TIMEOUT, self.late_text)
            timer = self.scheduler.later(admit.timeout, partial(link.goodbye, code, text))
            try:
                await self._read(key, link, admit.pool, timer)
            finally:
                timer.cancel()
        finally:
            link.closed = True
            self.links.discard(link)
            self.service.gone(link)
            if link.said_goodbye:
                await wire.linger()
            await wire.close()
            self.left(key)

    async def _read(self, key: Hashable, link: L, pool: Pool, timer: Handle) -> None:
        wire, conn = link.wire, link.conn
        greeted = False
        try:
            while not link.closed:
                data = await wire.read()
                link.heard, link.probed = self.scheduler.now(), False
                if link.leaving:  # after its goodbye: read and dropped, unread
                    if not data:
                        return
                    continue
                if wire.whole and data:
                    conn.receive_frame(data)
                else:
                    conn.receive_data(data)
                while (message := conn.next_message()) is not None:
                    if link.leaving:
                        break
                    first = not greeted
                    if first:
                        greeted = True
                        timer.cancel()
                        self.door.greeted(key)
                        if pool is Pool.RESERVE and not self.service.returning(message):
                            link.goodbye(BUSY, self.busy_text)
                            return
                    if link.waiting and not link.allow():
                        link.goodbye(RATE_LIMITED, "Too many messages too fast.")
                        return
                    if isinstance(message, Alive):
                        continue  # it answered a heartbeat: hearing from it was the point
                    await link.credit.acquire()
                    if link.closed:  # told goodbye meanwhile: what follows is dropped
                        link.credit.release()
                        return
                    link.waiting += 1
                    link.handled.clear()
                    await self.service.deliver(link, message)
                    if first:
                        # What follows the first message waits for its answer: a refused
                        # one's (a junk client's thousands of pings) never reaches the
                        # service.
                        await link.handled.wait()
                if not data:
                    return
        except ProtocolError as exc:
            log.info("closing %s: %s", link.peer, exc)
            await self._bad_input(link, exc)
        except (ConnectionError, OSError):
            pass

    async def _bad_input(self, link: L, exc: ProtocolError) -> None:
        """The frames before a bad one are answered first (a table's answers may wait in
        its outbox), then the error's goodbye goes out."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(ANSWERED):
                await link.handled.wait()
                link.close(exc.code, exc.text)
                await link.outbox.drain()
        link.goodbye(exc.code, exc.text)  # (nothing if the outbox said it)

    # --- the heartbeat -----------------------------------------------------------------

    def beat(self) -> None:
        """Start the heartbeat (until ``close``)."""
        self._beat = self.scheduler.later(min(1.0, self.service.silence / 6), self._heartbeat)

    def _heartbeat(self) -> None:
        """Check every link that got in, a few times per ``silence`` (a table's owner may
        change it). Strangers have the handshake timeout instead."""
        now, silence = self.scheduler.now(), self.service.silence
        for link in list(self.links):
            if link.in_room and not link.closed:
                link.check_alive(now, silence)
        self.beat()

    # --- going -------------------------------------------------------------------------

    async def stop_accepting(self) -> None:
        """Turn every newcomer away and stop the heartbeat."""
        self.closing = True
        for task in self._accepting:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._beat is not None:
            self._beat.cancel()

    def goodbye_all(self, code: str, text: str) -> None:
        for link in list(self.links):
            link.goodbye(code, text)

    async def wait_served(self, seconds: float) -> None:
        """Wait for the links' tasks to end (they read their goodbyes), ``seconds`` at most;
        then cut those still open."""
        if not self.tasks:
            return
        _, pending = await asyncio.wait(set(self.tasks), timeout=seconds)
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.wait(pending)


def listening_socket(bind: str, port: int) -> socket.socket:
    """A listening TCP socket on ``bind`` (``""``: every interface, IPv6 too where the OS
    has dual-stack sockets). The port is this host's alone: on Windows another program
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


def refuse(conn: socket.socket, goodbye: bytes) -> None:
    """Turn a connection away at the door: its goodbye, if the socket takes it, then closed."""
    with contextlib.suppress(OSError):
        conn.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            conn.recv(READ_SIZE)  # a first message already here: read, so closing sends no reset
        conn.send(goodbye)
    conn.close()
