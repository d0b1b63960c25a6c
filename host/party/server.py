"""The party host: one asyncio process that runs a night of rounds (docs/protocol.md
section 17). It listens on a port of its own for the party's messages, announces the party
(``_durak-party._tcp.local.``), and each round opens the round's tables as ordinary
``host.server.Host``s on ports of their own (``host.party.tables``), tells each player
their table, scores each game as it ends and seats the next round after a break.

The night itself (players, setup, rounds, results) is ``host.party.night``'s; this module
owns the connections, the timers and the disk, and ``host.party.round_tables`` the
tables. A request is handled at once on
the loop (the night's methods never wait); what must be on disk before the client hears
of it (a new player's token, a round's tables, a game's score) is saved first
(``host.party.store``, a thread of its own). So a ``kill -9`` at any moment loses nothing
a client was told: ``--resume`` reloads the night, takes each table of the round in play
up from its own save (``host.resume``; a table killed before it ever saved opens again,
its seats held by the same derived tokens), scores a game that ended after the party's
last write from its table's save, and every player comes back with their token. A save
the disk refuses (a full disk) is tried again every ``save_retry`` seconds, ``unsaved``
(``party.unsaved``) saying so meanwhile, and the finished tables' files are kept until a
save that scored their games is on disk (``RoundTables.saved_through``).

Its time is a ``host.scheduler.Scheduler``'s, as a table's is (the break, a save's retry, a
finished table's linger, the heartbeat and the handshake timeout of its doorway), and how a
round's tables open is a ``TableOpener``'s: so a test runs a whole night in this process
on a manual clock, without sockets or waiting (tests/host/night_harness.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import socket
import time
from collections.abc import Callable, Coroutine
from functools import partial
from typing import Any

from protocol import (
    PROTOCOL_VERSION,
    Join,
    Joined,
    Party,
    PartyAck,
    PartyConnection,
    PartyLeave,
    PartyMessage,
    PartySetup,
    PartyStart,
    PartyTable,
    PartyUpdate,
    Ping,
    Pong,
    Rejected,
    party_encode,
)
from protocol.names import refusal as name_refusal

from ..admission import DoorLimits, open_files, raise_file_limit, slots_for
from ..announce import Announcer
from ..doorway import Doorway, listening_socket
from ..link import LinkLimits, PartyLink, Wire
from ..outbox import Outbox
from ..policy import Finished
from ..scheduler import Handle, LoopScheduler, Scheduler, Timers
from ..web import WebDoor
from .config import PARTY_PORT, SERVICE_TYPE, PartyConfig
from .night import NightState, TableSlot
from .round_tables import RoundTables, TableOpener
from .store import PartySaveError, PartyStore, party_file, tables_folder

__all__ = ["PARTY_PORT", "SERVICE_TYPE", "PartyConfig", "PartyHost", "PartySaveError"]

log = logging.getLogger("durak.party")
Job = Callable[[], Coroutine[None, None, None]]  # a step of the party's, started later
MAX_BOARDS = 16
MAX_LINKS = 128  # open connections: 60 players, 16 boards, and room for strangers
# A party's links carry a few messages a round, each handled at once: a small buffer
# suffices, and rate and credit as a table's.
LINK_LIMITS = LinkLimits(max_buffer=1 << 20, rate=50.0, burst=100, max_pending=8)
LINK_LINGER = 1.0  # seconds a closing party waits for its connections to read their goodbye
REFUSALS = {
    "not_organiser": "Only the organiser can do that.",
    "started": "The night has begun: its setup is fixed.",
    "bad_rules": "Those rules cannot be played together.",
    "unknown_level": "There is no such AI level.",
    "board": "A board only watches the party.",
}


class PartyHost:
    """``await start()``, then ``await stop()`` (or ``async with``)."""

    def __init__(
        self,
        config: PartyConfig,
        clock: Callable[[], float] = time.time,
        *,
        scheduler: Scheduler | None = None,
        opener: TableOpener | None = None,
    ) -> None:
        """``clock``: the wall clock (the night's times are shown to clients);
        ``scheduler``: the timers and the heartbeat (``host.scheduler``; the running loop's
        by default); ``opener``: how a round's tables are opened (``Host``s on ports of their
        own by default). A test gives both, and runs a night without sockets or waiting."""
        self.config = config
        self.clock = clock
        self.scheduler = scheduler or LoopScheduler()
        seed = config.seed if config.seed is not None else random.SystemRandom().getrandbits(32)
        self.night = NightState(
            config.name[:63] or "Durak party", config.setup, seed, config.break_s
        )
        self.outbox = Outbox(party_encode)  # (nothing held: the party's sends go at once)
        sizes = slots_for(MAX_LINKS, raise_file_limit(), open_files(), 60 + MAX_BOARDS)
        self.doorway: Doorway[PartyLink] = Doorway(
            self,
            DoorLimits(
                limit=sizes.limit,
                reserve=sizes.reserve,
                hard=sizes.hard,
                hello_timeout=config.handshake_timeout,
            ),
            self.scheduler,
            busy_text="The party host has as many connections as it takes.",
            late_text="No join in time.",
        )
        self.tables = RoundTables(config, self._result, opener)
        self.store: PartyStore | None = None
        self.port = config.port  # the one bound once started (a free one for 0)
        self.announcer: Announcer | None = None
        self.changed = asyncio.Event()  # set whenever the party changes (tests wait on it)
        self._listener: socket.socket | None = None
        self.web: WebDoor | None = None  # the phones' page, with a web port
        self._tasks: set[asyncio.Task[None]] = set()
        self._jobs: Timers[Job] = Timers(self.scheduler, lambda job: self._spawn(job()))
        self._timer: Handle | None = None
        self._starting = False
        self._saved: asyncio.Future[None] | None = None
        self.unsaved: str | None = None  # why the party's newest state is not on disk
        self._retry: Handle | None = None  # the next try of a failed save
        self._joining = asyncio.Lock()  # one new player at a time (undone if unsaved)

    # --- starting and stopping --------------------------------------------------------

    async def start(self) -> None:
        try:
            await self._start()
        except BaseException:
            await self.stop()
            raise

    async def _start(self) -> None:
        sock = listening_socket(self.config.bind, self.config.port)
        self.port = sock.getsockname()[1]
        await self.begin()
        self._listener = sock
        self.doorway.listen(sock)
        self.doorway.beat()
        if self.config.web_port is not None:
            self.web = WebDoor(self.doorway, self._about)
            await self.web.start(self.config.bind, self.config.web_port)
        if self.config.announce:
            self.announcer = Announcer(
                self.config.bind, self.port, self.night.name, service_type=SERVICE_TYPE
            )
            await self.announcer.start(self._txt())

    async def begin(self) -> None:
        """The night begins (``start`` calls it once its port is known): the tables' AI,
        the save, or the night taken up from it. A test without sockets calls it alone."""
        self.tables.start()
        if self.config.save_dir is not None:
            self.store = PartyStore(party_file(self.config.save_dir, self.port))
            self.tables.folder = tables_folder(self.config.save_dir, self.port)
            if self.config.resume:
                self.night = self.store.load()
        elif self.config.resume:
            raise ValueError("resume needs save_dir")
        if self.config.resume:
            await self._resume_round()
        else:
            await self._save()

    async def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._jobs.cancel()
        await self.doorway.stop_accepting()
        if self._retry is not None:
            self._retry.cancel()
        if self._listener is not None:
            self._listener.close()
        self.doorway.goodbye_all("shutdown", "The party host is closing.")
        await self.doorway.wait_served(LINK_LINGER)  # each reads its goodbye, or is cut
        if self.web is not None:
            await self.web.stop()
        await self.tables.stop("The party host is closing.")
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=2)
        if self.announcer is not None:
            await self.announcer.close()
            self.announcer = None
        if self._saved is not None and not self._saved.cancelled():
            with contextlib.suppress(Exception):
                await self._saved
        if self.store is not None:
            self.store.close()

    async def __aenter__(self) -> PartyHost:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    # --- the party as it is shown ------------------------------------------------------

    def here(self) -> set[int]:
        return {link.player for link in self.links if link.player is not None}

    def view(self) -> Party:
        party = self.night.view(self.clock(), self.here())
        return dataclasses.replace(party, unsaved=self.unsaved is not None)

    @property
    def web_port(self) -> int | None:
        """The phones' page's port (None: no page)."""
        return None if self.web is None else self.web.port

    def _about(self) -> dict[str, Any]:
        """What the page is at (its ``door.json``)."""
        return {"kind": "party", "protocol": PROTOCOL_VERSION, "name": self.night.name}

    def _txt(self) -> dict[str, str]:
        night = self.night
        web = {} if self.web is None else {"web": str(self.web.port)}
        return web | {
            "name": night.name,
            "version": str(PROTOCOL_VERSION),
            "status": night.status,
            "round": str(night.round.number if night.round else 0),
            "players": str(len(night.players)),
            "size": str(night.setup.rules.players),
        }

    def _show(self) -> None:
        """Everyone is sent the party as it is now."""
        update = PartyUpdate(self.view())
        for link in self.links:
            if link.player is not None or link.board:
                link.send(update)
        if self.announcer is not None:
            self.announcer.update(self._txt())
        self.changed.set()

    def _save(self) -> asyncio.Future[None]:
        """The night to disk (done at once without a save folder)."""
        if self.store is None:
            done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            done.set_result(None)
            return done
        saved = self._saved = self.store.save(self.night)
        saved.add_done_callback(partial(self._said, self.store.generation))
        return saved

    def _said(self, generation: int, saved: asyncio.Future[None]) -> None:
        """A save that failed is said once (the log, and ``party.unsaved`` to everyone, so
        the organiser's window shows it, as a table's owner's does) and tried again every
        ``save_retry`` seconds until the disk takes it. Once one is on disk, the closed
        tables' kept files go; once the newest is, ``unsaved`` is false again."""
        if saved.cancelled() or self.store is None:
            return
        failed = saved.exception()
        if failed is None:
            self.tables.saved_through()
            if generation == self.store.generation and self.unsaved is not None:
                log.warning("the party is saved again")
                self.unsaved = None
                if self._retry is not None:
                    self._retry.cancel()
                    self._retry = None
                self._show()
            return
        if self.unsaved is None:
            self.unsaved = self.store.problem or str(failed)
            log.error("%s; trying again every %g s", self.unsaved, self.config.save_retry)
            self._show()
        if self._retry is None:
            self._retry = self.scheduler.later(self.config.save_retry, self._save_again)

    def _save_again(self) -> None:
        self._retry = None
        if self.unsaved is not None:
            self._save()

    async def _saved_or_say(self) -> bool:
        """Save and wait for it; False if the disk refused it (``_said`` says why). The
        save itself is shielded: a request cut short (its link's task cancelled as the
        host stops) must not cancel the write under it."""
        try:
            await asyncio.shield(self._save())
        except OSError:
            return False
        return True

    # --- connections ------------------------------------------------------------------

    @property
    def links(self) -> set[PartyLink]:
        """Every open connection (strangers included)."""
        return self.doorway.links

    @property
    def silence(self) -> float:
        return self.config.silence

    def new_link(self, wire: Wire, heard: float) -> PartyLink:
        return PartyLink(wire, PartyConnection(host=True), LINK_LIMITS, self.outbox, heard)

    def returning(self, first: object) -> bool:
        """The reserve lets in only players coming back to the party."""
        return isinstance(first, Join) and first.token is not None

    async def deliver(self, link: PartyLink, message: PartyMessage) -> None:
        """Handled at once (the night's methods never wait; saves are awaited)."""
        try:
            await self._message(link, message)
        finally:
            link.release()

    def gone(self, link: PartyLink) -> None:
        if link.player is not None:
            self._show()  # they are away now

    async def _message(self, link: PartyLink, message: PartyMessage) -> None:
        if isinstance(message, Join):
            await self._join(link, message)
        elif isinstance(message, Ping):
            link.send(Pong(message.ref))
        elif isinstance(message, PartySetup | PartyStart | PartyLeave):
            if link.board:
                self._reject(link, message.ref, "board")
            elif isinstance(message, PartyLeave):
                await self._leave(link, message)
            elif link.player != self.night.organiser(self.here()):
                self._reject(link, message.ref, "not_organiser")
            elif isinstance(message, PartySetup):
                await self._set_up(link, message)
            else:
                await self._start_asked(link, message)

    def _reject(self, link: PartyLink, ref: int, code: str, text: str | None = None) -> None:
        link.send(Rejected(ref, code, text or REFUSALS[code]))

    async def _join(self, link: PartyLink, join: Join) -> None:
        night = self.night
        if join.role == "board":
            if join.token is not None:
                link.goodbye("bad_token", "A board joins without a token.")
            elif sum(1 for other in self.links if other.board) >= MAX_BOARDS:
                link.goodbye("boards_full", "The party has as many boards as it takes.")
            else:
                link.board = True
                link.send(Joined(PROTOCOL_VERSION, None, None, self.view()))
            return
        if join.token is None:
            async with self._joining:  # (so the player undone is the one joined last)
                joined = night.join(join.name)
                if isinstance(joined, str):
                    text = (
                        name_refusal(join.name)
                        or {
                            "name_taken": "Another player of the party has a name that reads so.",
                            "party_full": "The party has as many players as it takes.",
                        }[joined]
                    )
                    link.goodbye(joined, text)
                    return
                player, token = joined
                if not await self._saved_or_say():  # (a token must not be handed out, then lost)
                    night.unjoin(player)
                    link.goodbye("shutdown", "The party cannot be saved now.")
                    return
        else:
            found = night.holder(join.token)
            if found is None:
                link.goodbye("bad_token", "That token is no player's of this party.")
                return
            player, token = found, join.token
            for other in list(self.links):
                if other is not link and other.player == player.id:
                    other.player = None
                    other.goodbye("replaced", "You joined again from another connection.")
            if player.left:
                player.left = False
                self._save()
        if link.closed:
            return
        link.player = player.id
        link.send(Joined(PROTOCOL_VERSION, player.id, token, self.view()))
        slot = night.table_of(player.id)
        if slot is not None:
            link.send(self._party_table(link, slot))
        self._show()
        wanted = self.config.start_with
        if night.status == "gathering" and wanted is not None and len(night.players) >= wanted:
            self._spawn(self.start_round())

    async def _leave(self, link: PartyLink, leave: PartyLeave) -> None:
        if link.player is None:
            return
        self.night.players[link.player].left = True
        await self._saved_or_say()
        link.send(PartyAck(leave.ref))
        link.player = None
        link.goodbye("left", "You left the party.")
        self._show()

    async def _set_up(self, link: PartyLink, setup: PartySetup) -> None:
        refusal = self.night.set_up(setup.rules, setup.rounds, setup.minutes, setup.fill, setup.ai)
        if refusal is not None:
            text = getattr(setup.rules, "reason", None) if refusal == "bad_rules" else None
            self._reject(
                link, setup.ref, refusal, text and f"Those rules cannot be played: {text}."
            )
            return
        await self._saved_or_say()
        link.send(PartyAck(setup.ref))
        self._show()

    async def _start_asked(self, link: PartyLink, start: PartyStart) -> None:
        refusal = self.night.start_refusal()
        if refusal is None and self._starting:
            refusal = ("round_running", "The round is being seated.")
        if refusal is not None:
            self._reject(link, start.ref, *refusal)
            return
        link.send(PartyAck(start.ref))
        await self.start_round()

    # --- rounds -----------------------------------------------------------------------

    def _party_table(self, link: PartyLink, slot: TableSlot) -> PartyTable:
        night = self.night
        assert night.round is not None and link.player is not None
        number = night.round.number
        names = tuple(None if who is None else night.players[who].name for who in slot.seats)
        token = night.table_token(number, slot.index, link.player)
        seat = slot.seats.index(link.player)
        host = self.tables.hosts.get((number, slot.index))
        web_port = None if host is None else host.web_port
        return PartyTable(number, slot.index, link.local, slot.port, token, seat, names, web_port)

    async def start_round(self) -> None:
        """Seat and open the next round, if it may start now. A break that ends with too
        few players to seat waits for the organiser (``next_ms`` is nil then)."""
        if self._starting:
            return
        if self.night.start_refusal() is not None:
            if self.night.status == "break" and self.night.next_at is not None:
                self.night.next_at = None
                self._show()
            return
        self._starting = True
        try:
            await self.tables.close_all(self._saved)
            self._kept_saved()
            night, now = self.night, self.clock()
            seating = night.seat_next(now)
            slots = [
                TableSlot(i, 0, tuple(None if w is None else int(w) for w in seats))
                for i, seats in enumerate(seating.tables)
            ]
            for slot in slots:
                await self.tables.open(night, seating.round, slot, resume=False)
            night.open_round(seating, [slot.port for slot in slots], now)
            await self._saved_or_say()
        finally:
            self._starting = False
        for link in self.links:
            seated = None if link.player is None else night.table_of(link.player)
            if seated is not None:
                link.send(self._party_table(link, seated))
        self._show()

    def _result(self, number: int, table: int, finished: Finished) -> None:
        """A table's game ended: scored now, shown once the score is on disk."""
        night = self.night
        if night.round is None or night.round.number != number:
            return
        now = self.clock()
        over = night.record(
            table, finished.result, finished.actions, finished.seconds, finished.out_after, now
        )
        self._spawn(self._scored(number, table, over))

    async def _scored(self, number: int, table: int, over: bool) -> None:
        await self._saved_or_say()
        self._show()
        if (number, table) in self.tables.hosts:
            saved = self._saved
            self._later(self.config.linger, lambda: self._close_table(number, table, saved))
        if over and self.night.status == "break":
            self._arm_break()

    async def _close_table(
        self, number: int, table: int, saved: asyncio.Future[None] | None
    ) -> None:
        await self.tables.close(number, table, saved)
        self._kept_saved()

    def _kept_saved(self) -> None:
        """A table closed after its result's save failed keeps its files; if a later save
        is on disk already (nothing is unsaved now), they go now, not with the next one."""
        if self.unsaved is None:
            self.tables.saved_through()

    def _arm_break(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        assert self.night.next_at is not None
        delay = max(0.0, self.night.next_at - self.clock())
        self._timer = self.scheduler.later(delay, self._break_over)

    def _break_over(self) -> None:
        self._timer = None
        if self.night.status == "break":
            self._spawn(self.start_round())

    def _later(self, delay: float, job: Job) -> None:
        self._jobs.later(delay, job)

    def _spawn(self, job: Coroutine[None, None, None]) -> None:
        task = asyncio.get_running_loop().create_task(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settled(self) -> bool:
        """Wait until nothing the party started is still running (a round being seated, a
        score being saved, a table closing): for a test that moves the clock by hand. True
        if something was."""
        waited = False
        while self._tasks or (self._saved is not None and not self._saved.done()):
            waited = True
            if self._tasks:
                await asyncio.wait(set(self._tasks))
            if self._saved is not None:
                await asyncio.wait([self._saved])  # (a refusal is ``_said``'s, not ours)
        return waited

    async def _resume_round(self) -> None:
        """Take up the round in play (each unfinished table from its save) or the break."""
        night = self.night
        current = night.round
        if night.status == "playing" and current is not None:
            for slot in current.tables:
                if slot.game is not None:
                    continue
                await self.tables.open(night, current.number, slot, self.tables.saved(slot))
        elif night.status == "break":
            self._arm_break()
