"""``durak conformance --client PORT``: the suite the other way round, for a client under
test. A real host serves the table behind a relay that reads both directions, so that
what the client sends is held against sections 3, 4 and 8 while the host plays it as it
would any client."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TextIO

from client.cli.conformance.peer import WAIT
from client.cli.conformance.report import Check, Record
from client.cli.conformance.session import LEVEL
from engine import GameEnded, SeatView
from host import Host, HostConfig
from protocol import (
    PROTOCOL_VERSION,
    Ack,
    Act,
    Commit,
    Connection,
    Contribute,
    Goodbye,
    Hello,
    Message,
    ProtocolError,
    Rejected,
    Role,
    Room,
    RoomUpdate,
    Snapshot,
    Start,
    Update,
    Welcome,
    encode,
    is_value,
)

ACK_GAP = 0.02  # seconds the client check holds back what follows an ack


class ClientCheck:
    """The other way round: a table for a client under test, which checks what the client
    sends against sections 3, 4 and 8. The table is a real host (one seat for the client,
    one host AI) behind a relay on ``127.0.0.1:port`` that reads both directions: the
    client's hello and every message must be valid, it acts only with a legal action of
    a view it was sent, one action at a time, after an ack only once it has the update of
    that seq (the relay holds back what follows an ack for ``ACK_GAP``, as a slow network
    may), and as the room's owner it starts each game. It stops when the client leaves
    (or stops answering for ``WAIT`` * 2 seconds); by then it should have played
    ``games`` games."""

    def __init__(self, port: int, games: int, out: TextIO | None = None) -> None:
        self.port, self.games = port, games
        self.record = Record(out)
        self.views: list[SeatView] = []  # every view sent since the client's last answer
        self.seq = -1  # the latest update or snapshot sent to the client
        self.inflight: int | None = None  # the ref of the client's action being answered
        self.awaited: int | None = None  # an ack's seq whose update the client must see
        self.room: Room | None = None
        self.seat = -1
        self.ended = 0
        self.started: set[int] = set()  # the game numbers the client's start began
        self.commits: set[int] = set()  # the games whose commitment the client was sent
        self.contributed: set[int] = set()  # the games the client contributed to
        self.done = asyncio.Event()
        self.seen_hello = False

    async def run(self, ready: Callable[[int], None] | None = None) -> list[Check]:
        """Serve until the games are played; ``ready`` is told the port once it listens."""
        config = HostConfig(seats=2, ai=(LEVEL,), announce=False, save_dir=None, hold=0)
        async with Host(config) as host:
            server = await asyncio.start_server(
                lambda r, w: self.relay(r, w, host.port), "127.0.0.1", self.port
            )
            async with server:
                if ready is not None:
                    ready(server.sockets[0].getsockname()[1])
                await self.done.wait()
        self.record.check("the client said hello", self.seen_hello, "it never did")
        self.record.check(
            f"the client played {self.games} games to their end",
            self.ended >= self.games,
            f"{self.ended} ended",
        )
        self.record.check(
            "the client contributed to every deal it was sent the commitment of",
            bool(self.commits) and self.commits <= self.contributed,
            f"{len(self.contributed)} of {len(self.commits)}",
        )
        self.record.check(
            "as the room's owner the client started every game",
            len(self.started) >= min(self.ended + 1, self.games),
            f"it started {len(self.started)} of {self.ended} games",
        )
        self.record.invariants()
        return self.record.results

    async def relay(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host_port: int
    ) -> None:
        if self.seen_hello:  # one client at a time: a second connection is a reconnect
            self.views, self.inflight, self.awaited = [], None, None
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", host_port)
        from_client, from_host = Connection(Role.HOST), Connection(Role.CLIENT)

        async def upstream() -> None:  # the client's bytes go on as they are
            with contextlib.suppress(ConnectionError, OSError):
                while data := await asyncio.wait_for(reader.read(65536), WAIT * 2):
                    from_client.receive_data(data)
                    while (message := from_client.next_message()) is not None:
                        self.client_said(message)
                    up_writer.write(data)
            up_writer.close()

        async def downstream() -> None:  # the host's messages one by one, an ack held back
            with contextlib.suppress(ConnectionError, OSError):
                while data := await up_reader.read(65536):
                    from_host.receive_data(data)
                    while (message := from_host.next_message()) is not None:
                        self.host_said(message)
                        writer.write(encode(message))
                        if isinstance(message, Ack):  # the update comes a moment later
                            await writer.drain()
                            await asyncio.sleep(ACK_GAP)
            writer.close()

        try:
            await asyncio.gather(upstream(), downstream())
        except ProtocolError as exc:
            self.record.check("every message of the client is valid", False, exc.text)
        except TimeoutError:
            if self.ended < self.games:  # (after its games a client may just wait)
                self.record.check(
                    "the client answered in time", False, f"silent for {WAIT * 2:g} s"
                )
        finally:
            up_writer.close()
            writer.close()
            self.done.set()

    def client_said(self, message: Message) -> None:
        if isinstance(message, Hello):
            self.seen_hello = True
            self.record.invariant(
                "the client's hello names this protocol version",
                message.version == PROTOCOL_VERSION,
                repr(message.version),
            )
        elif isinstance(message, Start):
            if self.room is not None:
                self.started.add(self.room.game + 1)
        elif isinstance(message, Contribute):
            self.record.invariant(
                "the client contributes to a deal once, after its commitment, with 64 "
                "lower-case hex digits",
                message.game in self.commits
                and message.game not in self.contributed
                and is_value(message.value),
                f"game {message.game}: {message.value!r}",
            )
            self.contributed.add(message.game)
        elif isinstance(message, Act):
            self.record.invariant(
                "the client sends one action at a time (it waits for ack or rejected)",
                self.inflight is None,
                f"act {message.ref} while {self.inflight} waited",
            )
            self.record.invariant(
                "after an ack the client acts only on the update with the ack's seq",
                self.awaited is None or self.seq >= self.awaited,
                f"acted at seq {self.seq} before update {self.awaited}",
            )
            self.record.invariant(
                "the client acts only with a legal action of a view it was sent",
                any(message.action in view.legal for view in self.views),
                repr(message.action),
            )
            self.inflight, self.views = message.ref, self.views[-1:]

    def host_said(self, message: Message) -> None:
        if isinstance(message, Welcome):
            self.seat, self.room = message.seat, message.room
        elif isinstance(message, RoomUpdate):
            self.room = message.room
        elif isinstance(message, Commit):
            self.commits.add(message.game)
        elif isinstance(message, Update | Snapshot):
            self.seq = message.seq
            self.views.append(message.view)
            if self.awaited is not None and self.seq >= self.awaited:
                self.awaited = None
            if isinstance(message, Update) and any(
                isinstance(e, GameEnded) for e in message.events
            ):
                self.ended += 1
        elif isinstance(message, Ack | Rejected) and message.ref == self.inflight:
            self.inflight = None
            self.record.invariant(
                "the host accepts every action of the client",
                isinstance(message, Ack),
                f"refused {getattr(message, 'reason', '')}",
            )
            if isinstance(message, Ack) and message.seq is not None and message.seq > self.seq:
                self.awaited = message.seq
        elif isinstance(message, Goodbye) and not self.done.is_set():
            self.record.check("the host never said goodbye to the client", False, message.code)
