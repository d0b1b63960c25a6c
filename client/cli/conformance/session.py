"""What every section of the suite does with the host under test: open connections (and
close them all at the end), join as a player, send what must be refused and read the
goodbye or the refusal, wait for the room to settle. The sections share one ``Session``
so that every connection is closed and its invalid messages reported, whichever section
opened it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgpack  # type: ignore[import-untyped]

from client.cli.conformance.peer import Peer, answers
from client.cli.conformance.report import Record
from protocol import PROTOCOL_VERSION, ClientMessage, Room, RoomUpdate, SetSeat, frame

LEVEL = "random"  # a host AI level every host of this document knows


class Session:
    """One run against the host at ``host:port``; checks go to ``record``."""

    def __init__(self, host: str, port: int, password: str | None, record: Record) -> None:
        self.host, self.port, self.password = host, port, password
        self.record = record
        self.peers: list[Peer] = []

    async def peer(self) -> Peer:
        peer = await Peer.open(self.host, self.port)
        self.peers.append(peer)
        return peer

    async def join(self, name: str) -> Peer:
        peer = await self.peer()
        await peer.hello(name, self.password)
        return peer

    async def refused(
        self,
        name: str,
        data: bytes,
        code: str,
        *,
        greet: bool = False,
        eof: bool = False,
        text: Iterable[str] = (),
    ) -> None:
        """On a fresh connection (greeted first if ``greet``) send ``data``: the host must
        answer goodbye ``code`` and close."""
        peer = await self.peer()
        try:
            if greet:
                await peer.hello("Probe", self.password)
            peer.raw(data)
            if eof:
                peer.writer.write_eof()
            goodbye = await peer.end()
        finally:
            await peer.close()
        got = "no goodbye" if goodbye is None else f"{goodbye.code} ({goodbye.text})"
        ok = goodbye is not None and goodbye.code == code
        if ok and goodbye is not None:
            ok = all(t in goodbye.text for t in text)
        self.record.check(name, ok, f"expected goodbye {code}, got {got}")

    async def refusal(
        self, peer: Peer, what: str, make: Callable[[int], ClientMessage], code: str
    ) -> None:
        seen = await peer.ask(make)
        got = [getattr(m, "reason", type(m).__name__) for m in answers(seen)]
        self.record.check(
            f"{what} is rejected {code} and changes nothing", got == [code], repr(got)
        )

    def hello_map(self, **fields: Any) -> dict[str, Any]:
        data = {
            "type": "hello",
            "version": PROTOCOL_VERSION,
            "name": "Probe",
            "password": self.password,
            "token": None,
            "role": "play",
            "look": None,
        }
        data.update(fields)
        return data

    def invalid(self) -> list[str]:
        """The host messages, on every connection, that the document does not allow."""
        return [text for p in self.peers for text in p.invalid]

    async def close(self) -> None:
        for peer in self.peers:
            await peer.close()


def packed(data: Any) -> bytes:
    return frame(msgpack.packb(data, use_bin_type=True))


async def settle(peer: Peer, test: Callable[[Room], bool]) -> None:
    """Wait until the room ``peer`` last heard passes ``test``, then drain to a pong."""
    if peer.room is None or not test(peer.room):
        await peer.wait_for(RoomUpdate, lambda m: test(m.room))
    await peer.sync()


def clear_seat(seat: int, ref: int) -> SetSeat:
    return SetSeat(ref, seat, None)


def fill_seat(seat: int, ref: int) -> SetSeat:
    return SetSeat(ref, seat, LEVEL)
