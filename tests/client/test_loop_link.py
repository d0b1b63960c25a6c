"""The one loop thread the window's table seat (``NetSession``) and party link
(``PartyLink``) run on (client.net.loop_link): a connection lost without a goodbye comes
back with its token through the same way back for both kinds, a goodbye or a refusal
for good ends it once, and a connection never made ends at once."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Iterator
from types import UnionType
from typing import Any

import pytest
from fake_party import TOKEN, FakePartyHost, a_party, joins_vera

import client.net.loop_link as loop_link
from client.net.client import Backoff, HostClosed, NetClient, come_back, refused
from client.net.loop_link import LoopLink
from client.net.party import PartyClient
from client.net.party_link import Lost, PartyLink
from client.net.remote import NetSession
from client.net.session import Reconnecting, Seated, Snapshot
from host import HostConfig, run_in_thread
from protocol import (
    PROTOCOL_VERSION,
    Join,
    Joined,
)

QUICK = Backoff(first=0.01, longest=0.01, give_up=5.0)

Script = list[str | HostClosed]  # what each connection receives, then how it ends


class FakeWire:
    """A connection that receives its script's messages, then ends as the script says;
    each ``rejoin`` takes up the next script (or raises what ``tries`` says)."""

    def __init__(self, scripts: list[Script], tries: list[BaseException | None]) -> None:
        self.scripts, self.tries = scripts, tries
        self.script = scripts.pop(0)
        self.rejoins = 0
        self.closed = 0

    async def receive(self) -> str:
        if not self.script:
            await asyncio.Event().wait()  # nothing more: the link waits until stopped
        item = self.script.pop(0)
        if isinstance(item, HostClosed):
            raise item
        return item

    async def rejoin(self) -> str:
        self.rejoins += 1
        failed = self.tries.pop(0) if self.tries else None
        if failed is not None:
            raise failed
        self.script = self.scripts.pop(0)
        return f"welcome {self.rejoins}"

    async def close(self) -> None:
        self.closed += 1


class Told:
    """A kind that writes down what the link told it."""

    def __init__(self, wire: FakeWire | OSError) -> None:
        self.wire = wire
        self.said: list[str] = []

    async def connect(self) -> FakeWire:
        if isinstance(self.wire, OSError):
            raise self.wire
        return self.wire

    def joined(self, wire: FakeWire) -> None:
        self.said.append("opened")

    def received(self, message: object) -> None:
        self.said.append(str(message))

    def dropped(self) -> None:
        self.said.append("lost")

    def rejoined(self, welcome: object) -> None:
        self.said.append(str(welcome))

    def ended(self, end: HostClosed | OSError, after_drop: bool) -> None:
        code = end.code if isinstance(end, HostClosed) else "unreachable"
        self.said.append(f"ended {code}{' after a drop' if after_drop else ''}")


def run(told: Told, final: Callable[[HostClosed], bool] = refused) -> list[str]:
    link: LoopLink[Any, str] = LoopLink(told, "durak-test", QUICK, final)
    link.start()
    assert link.join(timeout=10)
    return told.said


def drop() -> HostClosed:
    return HostClosed("closed", "The connection was lost.")


def bye(code: str) -> HostClosed:
    return HostClosed(code, "Goodbye.", goodbye=True)


def test_a_drop_comes_back_after_failed_tries_and_goes_on() -> None:
    wire = FakeWire([["a", drop()], ["b", drop()], ["c", bye("shutdown")]], [OSError(), None])
    said = run(Told(wire))
    assert said == [
        "opened", "a", "lost", "welcome 2", "b", "lost", "welcome 3", "c",
        "ended shutdown after a drop",
    ]  # fmt: skip
    assert wire.rejoins == 3 and wire.closed == 3  # (each lost connection, and the last)


def test_a_goodbye_or_bad_data_ends_the_link_without_a_try() -> None:
    for end in (bye("shutdown"), HostClosed("bad_message", "the host sent bad data")):
        wire = FakeWire([["a", end]], [])
        assert run(Told(wire)) == ["opened", "a", f"ended {end.code}"]
        assert wire.rejoins == 0


def test_a_refusal_for_good_ends_the_tries_and_a_passing_one_does_not() -> None:
    wire = FakeWire([[drop()], []], [bye("table_full"), bye("bad_token")])
    assert run(Told(wire)) == ["opened", "lost", "ended bad_token after a drop"]
    assert wire.rejoins == 2  # table_full may pass; a seat not held will not
    wire = FakeWire([[drop()]], [bye("table_full")])
    assert run(Told(wire), final=lambda closed: True) == [
        "opened", "lost", "ended table_full after a drop"
    ]  # fmt: skip


def test_a_connection_never_made_ends_at_once() -> None:
    assert run(Told(ConnectionRefusedError(111, "refused"))) == ["ended unreachable"]


def test_stopping_tells_the_kind_nothing_and_closes_the_connection() -> None:
    wire = FakeWire([["a"]], [])
    told = Told(wire)
    link: LoopLink[Any, str] = LoopLink(told, "durak-test", QUICK, refused)
    link.start()
    for _ in range(500):
        if told.said == ["opened", "a"]:
            break
        link.join(timeout=0.01)
    link.stop()
    assert link.join(timeout=10)
    assert told.said == ["opened", "a"] and wire.closed == 1


# --- the two kinds, each dropped for real ---------------------------------------------------


@pytest.fixture
def ways_back(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The kind of each wire the loop link's way back was taken for."""
    taken: list[str] = []
    real = come_back

    async def spy(
        rejoin: Callable[[], Awaitable[Any]],
        backoff: Backoff,
        lost: HostClosed,
        final: Callable[[HostClosed], bool],
        rng: random.Random,
    ) -> Any:
        taken.append(type(getattr(rejoin, "__self__", None)).__name__)
        return await real(rejoin, backoff, lost, final, rng)

    monkeypatch.setattr(loop_link, "come_back", spy)
    yield taken


def next_of(inbox: Any, kind: type | UnionType, timeout: float = 20.0) -> Any:
    """The next message of ``kind`` in ``inbox`` (the ones before it dropped)."""
    while True:
        message = inbox.get(timeout=timeout)
        if isinstance(message, kind):
            return message


@pytest.mark.slow
def test_a_dropped_table_seat_and_party_link_come_back_the_same_way(
    ways_back: list[str],
) -> None:
    config = HostConfig(
        seats=2, ai=("random",), bind="127.0.0.1", announce=False, hold=30.0, ai_processes=False
    )
    with run_in_thread(config) as handle:
        session = NetSession("127.0.0.1", handle.port, "Anna", start=True)
        try:
            assert isinstance(next_of(session.inbox, Seated), Seated)
            next_of(session.inbox, Snapshot)
            wire, loop = session.link.wire, session.link.loop
            assert isinstance(wire, NetClient) and loop is not None
            token = wire.token
            loop.call_soon_threadsafe(wire.pump.writer.transport.abort)  # the Wi-Fi drops
            next_of(session.inbox, Reconnecting)
            next_of(session.inbox, Snapshot)  # back, resynchronised
            assert wire.reconnects == 1 and wire.token == token  # the same seat
        finally:
            session.close()
        assert session.join(timeout=15)
    party = FakePartyHost(joins_vera)
    link = PartyLink("127.0.0.1", party.port, "Vera")
    try:
        assert next_of(link.inbox, Joined).token == TOKEN
        party.drop()
        assert next_of(link.inbox, Joined | Lost) == Joined(PROTOCOL_VERSION, 0, TOKEN, a_party())
        assert party.got[-1] == Join(PROTOCOL_VERSION, "Vera", TOKEN, "play")
        assert isinstance(link.link.wire, PartyClient)
    finally:
        link.close()
        party.close()
    assert ways_back == ["NetClient", "PartyClient"]
