"""A table served on TCP (and, with a web port, to browsers): the table's task, its
doorway, the announcement, the disk.

Every connection comes in through the table's ``host.doorway.Doorway``: the door and its
reserve, the handshake timeout, the rate and credit, the heartbeat on the table's time.
The table's own part of that is here (``Host`` is the doorway's ``Service``): a link is a
``TableLink``; a hello's password is checked before the table sees the hello (scrypt in a
thread of its own, a newcomer's through the password throttle); every message then goes to
the table's queue, and the table releases it. A connection without a seat is closed right
after its goodbye; a player's or a watcher's lingers a moment so that the goodbye is read.
Watchers take the door's slots like players, but the table lets in only as many as leave a
slot for every seat (``Audience.door_room``). The door keeps the host's open files below
their limit (raised at start where the OS allows). Saves and the journal are written by one
thread of their own (``host.disk.DiskWriter``); the save folder is checked at start-up, and
when the table cannot be saved there ``save_problem`` says why (once) and the table goes on
unsaved; a write that fails later sets it too. Either way ``room.unsaved`` says so, and the
writer tries again every ``save_retry`` seconds (one) until it can save.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

from protocol import PROTOCOL_VERSION, Connection, Hello, Role, Room

from .admission import Verdict, open_files, raise_file_limit, slots_for, throttled_text
from .announce import Announcer, txt_properties
from .config import HostConfig
from .disk import DiskWriter
from .doorway import Doorway, listening_socket
from .journal import check_folder
from .link import LinkLimits, TableLink, Wire
from .save import save_file
from .scheduler import LoopScheduler, Scheduler
from .table import Gone, Incoming, Show, Stop, Table
from .web import WebDoor
from .workers import AiPool, Workers

__all__ = ["Host"]

log = logging.getLogger("durak.host")
BUSY_TEXT = "The host has as many connections as it takes."


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
        self.limits = LinkLimits(
            config.max_send_buffer, config.rate, config.rate_burst, config.max_pending
        )
        self.doorway: Doorway[TableLink] = Doorway(
            self,
            replace(
                sizes,
                rate=config.connect_rate,
                burst=config.connect_burst,
                hello_timeout=config.handshake_timeout,
                reserve_timeout=config.reserve_timeout,
            ),
            self.scheduler,
            busy_text=BUSY_TEXT,
            late_text="No hello in time.",
        )
        self.door = self.doorway.door
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
        self.announcer: Announcer | None = None
        self.web: WebDoor | None = None  # the phones' page, with a web port
        self._listener: socket.socket | None = None
        self._table_task: asyncio.Task[None] | None = None
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

    @property
    def links(self) -> set[TableLink]:
        """Every open connection (strangers included)."""
        return self.doorway.links

    async def start(self) -> None:
        try:
            await self._start()
        except BaseException:
            await self.stop()
            raise

    async def _start(self) -> None:
        self._listener = listening_socket(self.config.bind, self.config.port)
        self.port = self._listener.getsockname()[1]
        self.doorway.listen(self._listener)
        if self.config.web_port is not None:
            self.web = WebDoor(self.doorway, self._about)
            await self.web.start(self.config.bind, self.config.web_port)
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
        self.doorway.beat()
        if self.config.announce:
            self.announcer = Announcer(self.config.bind, self.port, self.config.name)
            await self.announcer.start(self._txt(self.table.room()))

    def _disk_news(self, problem: str | None) -> None:
        """The disk began failing (``problem``) or works again (None): the room says so."""
        self.save_problem = problem
        self.table.queue.put_nowait(Show())

    @property
    def web_port(self) -> int | None:
        """The phones' page's port (None: no page)."""
        return None if self.web is None else self.web.port

    def _about(self) -> dict[str, Any]:
        """What the page is at (its ``door.json``)."""
        return {"kind": "table", "protocol": PROTOCOL_VERSION, "name": self.config.name}

    def _txt(self, room: Room) -> dict[str, str]:
        properties = txt_properties(room)
        if self.web is not None:
            properties["web"] = str(self.web.port)
        return properties

    def _room_changed(self, room: Room) -> None:
        if self.announcer is not None:
            self.announcer.update(self._txt(room))
        for watcher in self.watchers:
            watcher(room)

    # --- the doorway's service ---------------------------------------------------------

    @property
    def silence(self) -> float:
        return self.table.silence

    def new_link(self, wire: Wire, heard: float) -> TableLink:
        return TableLink(wire, Connection(Role.HOST), self.limits, self.table.outbox, heard)

    def returning(self, first: Any) -> bool:
        """The reserve lets in only players coming back to their seats."""
        return isinstance(first, Hello) and first.token is not None

    async def deliver(self, link: TableLink, message: Any) -> None:
        """To the table's queue; a hello's password checked first (the table does not
        wait for it)."""
        checked = None
        if isinstance(message, Hello):
            verdict = await self._password(link.address, message)
            if verdict is not None and verdict.wait > 0:
                link.goodbye("throttled", throttled_text(verdict.wait))
                link.release()
                return
            checked = None if verdict is None else verdict.ok
        self.table.queue.put_nowait(Incoming(link, message, checked))

    def gone(self, link: TableLink) -> None:
        self.table.queue.put_nowait(Gone(link))

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

    # --- going -------------------------------------------------------------------------

    async def stop(self, text: str = "The host closed the table.") -> None:
        """Tell every client, stop the table, withdraw the announcement, free everything."""
        if self._stopped.is_set():
            return
        self._stopped.set()
        # No AI starts a new thought from here on: what is still queued for the table is
        # handled without one, and the executor is shut down once the table has stopped.
        self.table.stop_thinking()
        await self.doorway.stop_accepting()
        if self._listener is not None:
            self._listener.close()
        self.doorway.goodbye_all("shutdown", text)
        if self._table_task is not None:
            self.table.queue.put_nowait(Stop())
            await self._table_task
        self.table.close()
        await self.table.outbox.drain()
        await self.doorway.wait_served(2)
        if self.web is not None:
            await self.web.stop()
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
