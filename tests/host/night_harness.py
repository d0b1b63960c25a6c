"""A party night without sockets or waiting: the real ``PartyHost`` on a manual clock.

``NightHarness(config)`` makes a ``PartyHost`` whose scheduler is a ``ManualScheduler``
(tests/host/harness.py: its timers, the heartbeat and the tables' timers move only when the
test says) and whose round tables open in this process (``InProcessTables``: real
``Table``s with the party's policy, their AI seats thinking inline). A guest's connection
is a ``MemoryWire`` served by the party's own doorway, so a guest's messages take the path
every link takes (the door, the heartbeat, the codec); a guest answers each heartbeat at
once unless it is ``mute``. At the tables, the guests sit down with the token their
``party_table`` gave and play through ``FakeLink``s, as in the table's harness.
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import replace
from pathlib import Path

import msgpack
from harness import FakeLink, ManualScheduler

from host import HostConfig
from host.admission import Pool
from host.party.server import PartyConfig, PartyHost
from host.policy import TablePolicy
from host.table import Incoming, Table
from protocol import (
    PROTOCOL_VERSION,
    Act,
    Alive,
    Goodbye,
    Heartbeat,
    Hello,
    Join,
    Party,
    PartyConnection,
    PartyMessage,
    PartyTable,
    PartyUpdate,
    party_message_to_wire,
)

__all__ = ["EPOCH", "Guest", "InProcessTables", "MemoryWire", "NightHarness"]

EPOCH = 1_780_000_000.0  # the wall clock's reading when the harness's clock reads 0


class MemoryWire:
    """A link's wire in memory: whole frames in (``inbox``), framed bytes out, decoded as a
    party client reads them (``received``)."""

    whole = True

    def __init__(self, address: str) -> None:
        self.address, self.peer, self.local = address, f"{address}:40000", "10.0.0.1"
        self.inbox: asyncio.Queue[bytes] = asyncio.Queue()
        self.client = PartyConnection(host=False)
        self.received: list[PartyMessage] = []
        self.ended = False
        self.mute = False  # a guest whose laptop went to sleep: no answer to the heartbeat

    def put(self, message: PartyMessage) -> None:
        self.inbox.put_nowait(msgpack.packb(party_message_to_wire(message)))

    async def read(self) -> bytes:
        return await self.inbox.get()

    def write(self, framed: bytes) -> None:
        self.client.receive_data(framed)
        while (message := self.client.next_message()) is not None:
            self.received.append(message)
            if isinstance(message, Heartbeat) and not self.mute:
                self.put(Alive(message.ref))

    def buffered(self) -> int:
        return 0

    def abort(self) -> None:
        self._end()

    def finish(self, framed: bytes, abrupt: bool) -> None:
        self.write(framed)
        self._end()

    def _end(self) -> None:
        if not self.ended:
            self.ended = True
            self.inbox.put_nowait(b"")

    async def linger(self) -> None:
        return None

    async def close(self) -> None:
        return None


class Guest:
    """A party player's connection in the harness."""

    def __init__(self, name: str, wire: MemoryWire, task: asyncio.Task[None]) -> None:
        self.name, self.wire, self.task = name, wire, task
        self.refs = itertools.count(1)
        self.seated: dict[int, FakeLink] = {}  # its link at each round's table

    def send(self, message: PartyMessage) -> None:
        self.wire.put(message)

    @property
    def received(self) -> list[PartyMessage]:
        return self.wire.received

    @property
    def party(self) -> Party:
        """The party as this guest was shown it last."""
        for message in reversed(self.received):
            if isinstance(message, PartyUpdate):
                return message.party
            if hasattr(message, "party"):
                party: Party = message.party
                return party
        raise AssertionError(f"{self.name} was never shown the party")

    @property
    def table(self) -> PartyTable | None:
        """The table this guest was told to go to last."""
        tables = [m for m in self.received if isinstance(m, PartyTable)]
        return tables[-1] if tables else None

    @property
    def goodbye(self) -> Goodbye | None:
        return next((m for m in self.received if isinstance(m, Goodbye)), None)


class InProcessTable:
    """A round's table in this process, as a party host sees an open table."""

    def __init__(self, table: Table, port: int) -> None:
        self.table, self.port = table, port
        self.web_port: int | None = None
        self.save_path: Path | None = None
        self.links: list[FakeLink] = []
        self.stopped = False

    async def stop(self, text: str) -> None:
        for link in self.links:
            if link.closed is None:
                link.close("shutdown", text)
        self.table.close()
        self.stopped = True


class InProcessTables:
    """Opens a night's tables in this process on the harness's clock (a ``TableOpener``)."""

    def __init__(self, scheduler: ManualScheduler) -> None:
        self.scheduler = scheduler
        self.ports = itertools.count(47000)
        self.opened: list[InProcessTable] = []

    def start(self) -> None:
        return None

    async def open(self, config: HostConfig, policy: TablePolicy) -> InProcessTable:
        table = Table(config, scheduler=self.scheduler, policy=policy)
        table.open()
        opened = InProcessTable(table, config.port or next(self.ports))
        self.opened.append(opened)
        return opened

    async def close(self) -> None:
        return None

    def running(self) -> list[InProcessTable]:
        return [t for t in self.opened if not t.stopped]


class NightHarness:
    """A party night on a manual clock (see the module docstring)."""

    def __init__(self, config: PartyConfig) -> None:
        self.scheduler = ManualScheduler()
        self.tables = InProcessTables(self.scheduler)
        self.party = PartyHost(
            replace(config, announce=False, web_port=None),
            clock=lambda: EPOCH + self.scheduler.clock,
            scheduler=self.scheduler,
            opener=self.tables,
        )
        self.guests: list[Guest] = []
        self.addresses = itertools.count(2)

    async def start(self, heartbeat: bool = True) -> None:
        await self.party.begin()
        if heartbeat:
            self.party.doorway.beat()
        await self.settle()

    async def stop(self) -> None:
        await self.party.stop()

    async def connect(self, name: str) -> Guest:
        """A new connection through the party's door (not yet joined)."""
        wire = MemoryWire(f"10.0.0.{next(self.addresses)}")
        key = object()
        admit = self.party.doorway.arrive(key, wire.address)
        assert admit is not None and admit.pool is Pool.OPEN
        task = asyncio.get_running_loop().create_task(self.party.doorway.serve(key, wire, admit))
        guest = Guest(name, wire, task)
        self.guests.append(guest)
        return guest

    async def join(self, name: str, token: str | None = None) -> Guest:
        """A guest joins the night (or comes back with ``token``)."""
        guest = await self.connect(name)
        guest.send(Join(PROTOCOL_VERSION, name, token))
        await self.settle()
        return guest

    async def settle(self) -> None:
        """Let everything under way finish: the guests' messages handled, the tables' items
        and AI answers, what the party started (a round seated, a score saved)."""
        for _ in range(100_000):
            progress = False
            for opened in self.tables.running():
                queue = opened.table.queue
                while not queue.empty():
                    opened.table.handle(queue.get_nowait())
                    progress = True
            progress |= self.scheduler.deliver()
            await asyncio.sleep(0)
            progress |= await self.party.settled()
            busy = any(not g.wire.inbox.empty() for g in self.guests if not g.task.done())
            handling = any(not link.handled.is_set() for link in self.party.links)
            if not (progress or busy or handling):
                return
        raise AssertionError("the night never settles")

    async def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass: each timer due meanwhile fires in order, and everything
        settles after each."""
        until = self.scheduler.clock + seconds
        while (timer := self.scheduler.next_due(until)) is not None:
            timer.callback()
            await self.settle()
        self.scheduler.clock = until
        await self.settle()

    def table_of(self, told: PartyTable) -> InProcessTable:
        return next(t for t in self.tables.running() if t.port == told.port)

    async def sit_down(self, guest: Guest) -> FakeLink:
        """``guest`` goes to the table its ``party_table`` named, with the token it gave."""
        told = guest.table
        assert told is not None, f"{guest.name} has no table"
        opened = self.table_of(told)
        link = FakeLink(guest.name)
        opened.links.append(link)
        guest.seated[told.round] = link
        opened.table.handle(Incoming(link, Hello(PROTOCOL_VERSION, guest.name, None, told.token)))
        await self.settle()
        return link

    async def play_round(self, guests: list[Guest], most: float = 600.0) -> None:
        """Each of ``guests`` sits down at its table (if not yet there) and plays its first
        legal action at every turn until every table of the round has finished its game
        (the clock moves when a game waits on nobody here: the gathering, a hold)."""
        links = []
        for guest in guests:
            told = guest.table
            seated = None if told is None else guest.seated.get(told.round)
            links.append(seated or await self.sit_down(guest))
        started = self.scheduler.clock
        while any(t.table.playing or t.table.game == 0 for t in self.tables.running()):
            moved = False
            for link in links:
                view = link.view
                opened = next(t for t in self.tables.running() if link in t.links)
                if opened.table.playing and view is not None and view.legal:
                    act = Act(next(link.refs), view.legal[0])
                    opened.table.handle(Incoming(link, act))
                    await self.settle()
                    moved = True
            if not moved:
                pending = self.scheduler.pending()
                assert pending, "the round waits on nobody and no timer runs"
                await self.advance(pending[0] - self.scheduler.clock)
            assert self.scheduler.clock - started <= most, "the round never ends"
