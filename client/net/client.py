"""The client end of a connection to a host, on asyncio (the bot, and later the window).

``await NetClient.connect(address, port, name)`` does the handshake and returns a client
that knows its seat, secret token and room (with ``watch=True``: a watcher, ``watching``
holds the host's welcome and there is no seat until ``sit()`` is answered by a
``Welcome``); ``await client.receive()`` gives the host's
messages one by one and raises ``HostClosed`` when the host says goodbye or the connection
ends; ``client.act(action)``, ``client.ready()`` and the owner's commands send and return their
``ref``.

With ``reconnect=Backoff(...)`` a lost connection (no goodbye: a crash, a dropped Wi-Fi, a
killed host) is not the end: the client connects again with its seat token, waiting
exponentially longer between tries (with jitter), and ``receive()`` then gives the new
``Welcome`` (answers to requests sent before the drop never come: send them again), then
the host's ``snapshot`` resynchronises the game; ``on_lost``, if set, is called as the
retrying begins. It gives up after ``give_up`` seconds,
or at once if the host refuses the token.

The connection is read by a task of its own (``client.net.pump``, a party connection's
keepalive too), not by ``receive()``: it answers the host's ``heartbeat`` however long the
caller takes between two ``receive()`` calls, and a host that says nothing for the room's
``silence_ms`` (after a ``ping`` probe) counts as a lost connection.

The pump also takes part in each fair deal (docs/protocol.md section 15): it answers the
host's ``commit`` at once with 32 random bytes of ours (unless ``contribute`` is False).
``witness`` (a ``protocol.DealWitness``) sees every message as ``receive()`` gives it, so
once a game's last ``reveal`` has been received ``witness.verdict(game)`` says whether the
deal was the one the commitment and the contributions give. The witness checks a deal by
replaying the whole game (tens of milliseconds): that is the caller's work, never the
pump's, so it delays no other connection read on the same loop.

``round_trips`` holds, for every ``act`` answered by an ``ack``, the seconds from writing
the act to reading its ack, timed by the pump: what the network and the host took, not
how long the caller took to get to the ack (``tests/benchmarks/host_load.py`` reports
them).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from client.net.pump import HostClosed, Pump, read
from engine import Action, Rules
from host.routes import NoAnswer, Unreached, race
from protocol import (
    PROTOCOL_VERSION,
    SILENCE_MS,
    VALUE_BYTES,
    WATCHERS,
    Ack,
    Act,
    BackSoon,
    ClientMessage,
    Commit,
    Connection,
    Contribute,
    DealWitness,
    Draw,
    Emote,
    Hello,
    HostMessage,
    Kick,
    Leave,
    Message,
    Pause,
    Ping,
    Ready,
    Rejected,
    Role,
    RoomUpdate,
    SetOptions,
    SetRules,
    SetSeat,
    Sit,
    Start,
    Watching,
    Welcome,
)

__all__ = ["Backoff", "HostClosed", "NetClient", "come_back", "parse_address", "refused"]

FINAL = frozenset(  # refusals that another try would only repeat
    {
        "bad_token",
        "bad_password",
        "version_mismatch",
        "replaced",
        "game_in_progress",
        "watchers_full",
    }
)
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Backoff:
    """How to reconnect: the n-th wait is ``min(longest, first * 2**n)`` seconds times a
    random factor in [0.5, 1] (jitter, so a room of clients does not retry in step);
    ``give_up`` seconds after the drop the client stops trying."""

    first: float = 0.5
    longest: float = 10.0
    give_up: float = 120.0

    def delay(self, attempt: int, rng: random.Random) -> float:
        wait: float = min(self.longest, self.first * 2.0 ** min(attempt, 30))
        return wait * rng.uniform(0.5, 1.0)


def refused(closed: HostClosed) -> bool:
    """A table's refusal that another try would only repeat (``FINAL``)."""
    return closed.code in FINAL


async def come_back(
    rejoin: Callable[[], Awaitable[T]],
    backoff: Backoff,
    lost: HostClosed,
    final: Callable[[HostClosed], bool],
    rng: random.Random,
) -> T:
    """Try ``rejoin`` (one connection with our token) after waits of ``backoff`` until it
    succeeds: its result. A refusal ``final`` says another try would repeat is raised at
    once; once ``backoff.give_up`` seconds have gone, the last loss is (``lost`` at first).
    The one way back for every link with a token: a table's and a party's, the window's
    (``client.net.loop_link``) and the bots'."""
    give_up = time.monotonic() + backoff.give_up
    attempt = 0
    while True:
        wait = backoff.delay(attempt, rng)
        attempt += 1
        if time.monotonic() + wait > give_up:
            raise lost
        await asyncio.sleep(wait)
        try:
            return await asyncio.wait_for(rejoin(), max(backoff.longest, 5))
        except HostClosed as exc:
            if final(exc):
                raise
            lost = exc
        except (OSError, TimeoutError):
            continue


Link = tuple[asyncio.StreamReader, asyncio.StreamWriter]
Greeted = tuple[asyncio.StreamReader, asyncio.StreamWriter, Connection, Welcome | Watching]


class _NotAHost(HostClosed, NoAnswer):
    """The peer at an address closed, fell silent or did not welcome us: no table there
    (the race tries the table's next address)."""


async def _greet(
    addresses: str | Sequence[str],
    port: int,
    hello: Hello,
    on_payload: Callable[[Any], None] | None,
) -> tuple[str, Greeted]:
    """Connect to the first of ``addresses`` that answers (``host.routes.race``: at once,
    staggered, one hello at a time) and say hello: the address, the connection and the
    host's welcome (a watcher's: ``Watching``). ``HostClosed`` for the host's goodbye (or,
    with one address, the connection lost on the way); ``OSError`` when none answered."""
    candidates = (addresses,) if isinstance(addresses, str) else tuple(addresses)

    async def connect(address: str) -> Link:
        return await asyncio.open_connection(address, port)

    async def say_hello(address: str, link: Link) -> Greeted:
        reader, writer = link
        conn = Connection(Role.CLIENT, on_payload=on_payload)
        writer.write(conn.send(hello))
        try:
            first = await read(reader, writer, conn, SILENCE_MS / 1000)
        except HostClosed as exc:
            if exc.goodbye:
                raise
            raise _NotAHost(exc.code, exc.text) from None
        if first is None:  # a host that takes the connection and says nothing is not there
            raise _NotAHost("closed", "The host did not answer.")
        if not isinstance(first, Welcome | Watching):  # the connection enforces these first
            raise _NotAHost("bad_message", "the host did not welcome us")
        return reader, writer, conn, first

    def close(link: Link) -> None:
        link[1].close()

    try:
        won = await race(candidates, port, connect, say_hello, close)
    except Unreached as exc:
        errors = list(exc.errors.values())
        if len(errors) == 1 and isinstance(errors[0], HostClosed | OSError):
            raise errors[0] from None  # one address: what happened there, as before
        raise
    return won.address, won.result


def parse_address(text: str) -> tuple[str, int]:
    """``"HOST:PORT"`` (or ``"[v6]:PORT"``) as a pair; ``ValueError`` if it is not one."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"not HOST:PORT: {text!r}")
    return host.strip("[]"), int(port)


class NetClient:
    def __init__(self) -> None:
        self.pump: Pump[Message] | None = None  # the connection (``_welcomed`` sets it)
        self._refs = itertools.count(1)
        self._closed: HostClosed | None = None
        self.welcome: Welcome | None = None
        self.watching: Watching | None = None  # a watcher's welcome (until it takes a seat)
        self.reconnect: Backoff | None = None
        self.reconnects = 0  # how many times the connection came back
        self.on_lost: Callable[[], None] | None = None  # told when a reconnect begins
        self.address = ""  # where the host answered
        self._hello: tuple[tuple[str, ...], int, Hello] | None = None
        self._on_payload: Callable[[Any], None] | None = None
        self._rng = random.Random()
        # What the pump read (see ``_take``), for ``receive``; a HostClosed ends it.
        self._inbox: asyncio.Queue[HostMessage | HostClosed] = asyncio.Queue()
        self._contributions: set[int] = set()  # refs of our contributions (answers not shown)
        self.witness = DealWitness()
        self.contribute = True  # answer each commitment with a contribution of ours
        self._ours: dict[int, str] = {}  # game -> our contribution, for the witness
        self.round_trips: list[float] = []  # seconds from each act to its ack (see above)
        self._acts: dict[int, float] = {}  # ref -> when the act was written

    @classmethod
    async def connect(
        cls,
        address: str | Sequence[str],
        port: int,
        name: str,
        *,
        password: str | None = None,
        token: str | None = None,
        on_payload: Callable[[Any], None] | None = None,
        reconnect: Backoff | None = None,
        watch: bool = False,
        look: int | None = None,
    ) -> NetClient:
        """Connect and greet (``watch``: as a watcher) at ``address``, or at the first of
        several (a table's announced addresses) that answers; raises ``HostClosed`` if the
        host refuses (with its code), ``OSError`` if no address answers. ``address`` is
        then the one that did (a reconnect tries it first). ``look``: our badge."""
        role = "watch" if watch else "play"
        hello = Hello(PROTOCOL_VERSION, name, password, token, role, look)
        won, greeted = await _greet(address, port, hello, on_payload)
        client = cls()
        client.address = won
        client.reconnect = reconnect
        others = () if isinstance(address, str) else tuple(a for a in address if a != won)
        client._hello = ((won, *others), port, hello)
        client._on_payload = on_payload
        client._welcomed(greeted)
        return client

    def _welcomed(self, greeted: Greeted) -> None:
        """Take up a greeted connection: its welcome, and its pump started."""
        reader, writer, conn, welcome = greeted
        if isinstance(welcome, Welcome):
            self.welcome = welcome
            self.witness.see(welcome)
        else:
            self.watching = welcome
        self.pump = Pump(
            reader,
            writer,
            conn,
            silence=welcome.room.silence_ms / 1000,
            refs=self._ref,
            take=self._take,
            end=self._inbox.put_nowait,
        )
        self.pump.start("durak-client-pump")

    @property
    def silence(self) -> float:
        """The room's heartbeat silence, in seconds: a host silent this long is gone."""
        return self.pump.silence if self.pump is not None else SILENCE_MS / 1000

    def _take(self, read: Message) -> None:
        """A message the pump read (``client.net.pump``: it answers heartbeats and keeps
        its own probes' pongs): an ack timed, our contributions' answers kept back, a
        commitment answered with our contribution; the rest for ``receive``."""
        message = cast(HostMessage, read)  # (a client's connection reads only these)
        if isinstance(message, Ack | Rejected):
            sent = self._acts.pop(message.ref, None)
            if sent is not None and isinstance(message, Ack):
                self.round_trips.append(time.perf_counter() - sent)
            if message.ref in self._contributions:
                self._contributions.discard(message.ref)  # (the verdict tells if it was used)
                return
        if isinstance(message, Commit) and self.contribute:
            self._contribute(message.game)
        if isinstance(message, RoomUpdate) and self.pump is not None:
            self.pump.silence = message.room.silence_ms / 1000
        elif isinstance(message, Welcome):  # a watcher took a seat
            self.welcome, self.watching = message, None
        self._inbox.put_nowait(message)

    def _contribute(self, game: int) -> None:
        """Our random contribution to the deal of ``game`` (sent as soon as its commitment
        came)."""
        value = secrets.token_hex(VALUE_BYTES)
        ref = self._ref()
        if len(self._contributions) > 16:
            self._contributions.clear()
        self._contributions.add(ref)
        if len(self._ours) > 8:
            self._ours.pop(min(self._ours))
        self._ours[game] = value  # (the witness learns it once it has seen the commit)
        self.send(Contribute(ref, game, value))

    async def _come_back(self, lost: HostClosed) -> Welcome | Watching:
        """Connect again with our token until the host takes us back (a watcher: as a
        watcher again), or we give up."""
        assert self.reconnect is not None
        with contextlib.suppress(Exception):
            await self.close()
        if self.on_lost is not None:
            self.on_lost()
        return await come_back(self.rejoin, self.reconnect, lost, refused, self._rng)

    async def rejoin(self) -> Welcome | Watching:
        """One try at coming back after a lost connection: connect again with our seat's
        token (a watcher: as a watcher again) and take up the new connection; the host's
        welcome. ``HostClosed`` if the host refuses, ``OSError`` if it cannot be reached.
        Answers to requests sent before the drop never come: send them again."""
        assert self._hello is not None
        address, port, hello = self._hello
        if self.welcome is not None:
            hello = Hello(hello.version, hello.name, hello.password, self.token, look=hello.look)
        self.address, greeted = await _greet(address, port, hello, self._on_payload)
        self._inbox = asyncio.Queue()
        self._acts.clear()
        self._welcomed(greeted)
        welcome = greeted[3]
        self.reconnects += 1
        self._closed = None
        return welcome

    @property
    def seat(self) -> int:
        assert self.welcome is not None
        return self.welcome.seat

    @property
    def token(self) -> str:
        assert self.welcome is not None
        return self.welcome.token

    @property
    def waiting(self) -> int:
        """How many messages from the host have come and not been taken yet."""
        return self._inbox.qsize()

    async def receive(self) -> HostMessage:
        """The next message from the host; ``HostClosed`` once it is gone (with
        ``reconnect``: the new ``Welcome`` or ``Watching`` once a lost connection is back)."""
        try:
            return await self._next()
        except HostClosed as exc:
            greeted = self.welcome is not None or self.watching is not None
            if self.reconnect is None or not greeted or exc.code != "closed":
                raise
            return await self._come_back(exc)

    async def _next(self) -> HostMessage:
        if self._closed is not None:
            raise self._closed
        item = await self._inbox.get()
        if isinstance(item, HostClosed):
            self._closed = item
            raise item
        self.witness.see(item)
        if isinstance(item, Commit) and item.game in self._ours:
            self.witness.contributed(item.game, self._ours[item.game])
        return item

    def send(self, message: ClientMessage) -> None:
        """Write ``message`` (once lost, it is dropped: after a reconnect, send it again)."""
        if self.pump is not None:
            self.pump.send(message)

    def _ref(self) -> int:
        return next(self._refs)

    def act(self, action: Action) -> int:
        ref = self._ref()
        self.send(Act(ref, action))
        if len(self._acts) > 64:  # (acts whose answers never came: a lost connection)
            self._acts.clear()
        self._acts[ref] = time.perf_counter()
        return ref

    def start(self) -> int:
        ref = self._ref()
        self.send(Start(ref))
        return ref

    def ready(self, ready: bool = True) -> int:
        """Set (or take back) our ready mark in the lobby: the owner starts once every
        other player is ready."""
        ref = self._ref()
        self.send(Ready(ref, ready))
        return ref

    def draw(self) -> int:
        ref = self._ref()
        self.send(Draw(ref))
        return ref

    def kick(self, seat: int) -> int:
        ref = self._ref()
        self.send(Kick(ref, seat))
        return ref

    def leave(self) -> int:
        """Leave the table for good (in a game an AI plays the seat to its end); the host
        answers ack, then goodbye ``left``."""
        ref = self._ref()
        self.send(Leave(ref))
        return ref

    def pause(self, paused: bool) -> int:
        """Stop the game's clock (alone with the host's AIs), or let it run again."""
        ref = self._ref()
        self.send(Pause(ref, paused))
        return ref

    def back_soon(self, on: bool) -> int:
        """Set (or take back) our seat's "back in a minute" mark, in a game."""
        ref = self._ref()
        self.send(BackSoon(ref, on))
        return ref

    def set_rules(self, rules: Rules) -> int:
        ref = self._ref()
        self.send(SetRules(ref, rules))
        return ref

    def set_seat(self, seat: int, ai: str | None) -> int:
        ref = self._ref()
        self.send(SetSeat(ref, seat, ai))
        return ref

    def set_options(
        self,
        hold: float,
        turn_timer: float | None,
        silence: float = SILENCE_MS / 1000,
        watchers: int = WATCHERS,
        idle: float | None = None,
    ) -> int:
        """The room's hold time, turn timer, heartbeat silence and idle time (None: a
        player may sit unready for ever), in seconds, and how many may watch (the owner, in
        the lobby)."""
        ref = self._ref()
        turn = None if turn_timer is None else max(1, round(turn_timer * 1000))
        idle_ms = None if idle is None else max(1, round(idle * 1000))
        self.send(
            SetOptions(ref, round(hold * 1000), turn, round(silence * 1000), idle_ms, watchers)
        )
        return ref

    def emote(self, code: str) -> None:
        """A quick reaction (one of ``protocol.EMOTES``) for every seat to see."""
        self.send(Emote(code))

    def sit(self) -> int:
        """A watcher takes the first open seat in the lobby: ``ack``, then a ``Welcome``."""
        ref = self._ref()
        self.send(Sit(ref))
        return ref

    def ping(self) -> int:
        ref = self._ref()
        self.send(Ping(ref))
        return ref

    async def close(self) -> None:
        """Close the connection from this side, for good: the pump stops (so nothing
        reconnects and no heartbeat is answered any more) and the host sees the connection
        closed, as when a player quits the window. This is not a dropped connection: to
        see one, lose the connection on the way, as a network would (the host or a relay
        between them cuts it); then, with ``reconnect``, the client comes back by itself."""
        if self.pump is not None:
            await self.pump.close()

    async def __aenter__(self) -> NetClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()
