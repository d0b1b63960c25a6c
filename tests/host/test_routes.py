"""The joiner's race over a table's addresses (``host.routes``), with fake connectors: the
first address that completes the handshake wins, a dead one costs no more than the stagger
(or nothing, when it fails), one handshake runs at a time so a host reachable twice is
joined once, a table's own refusal ends the race, and the addresses are ranked own subnet
first, link-local last. Then once over loopback: a probe finds the address that listens."""

from __future__ import annotations

import asyncio
import ipaddress

import pytest
from test_host import serving

from client.net.client import HostClosed, NetClient
from host.routes import NoAnswer, Unreached, race, rank, tcp_probe

WAIT = 20  # seconds: a safety net against hanging, not a timing assertion
US = ipaddress.IPv4Interface("10.99.5.2/24")  # the joiner, on the LAN
BRIDGE = ipaddress.IPv4Interface("172.17.0.1/16")  # its container bridge
LOOPBACK = ipaddress.IPv4Interface("127.0.0.1/8")


class Refused(Exception):
    """A table's own answer (as a goodbye ``bad_password`` would be)."""


class Fakes:
    """Connectors whose outcome per address is scripted: ``"ok"``, ``"refused"`` (connect
    fails), ``"hang"`` (connect never completes), ``"silent"`` (connects, then the
    handshake gets no answer: ``NoAnswer``) or ``"no"`` (the table refuses)."""

    def __init__(self, script: dict[str, str]) -> None:
        self.script = script
        self.connected: list[str] = []
        self.greeted: list[str] = []
        self.closed: list[str] = []
        self.greeting = 0  # handshakes running now
        self.most = 0  # the most that ever ran at once
        self.go = asyncio.Event()  # a handshake completes once this is set
        self.go.set()

    async def connect(self, address: str) -> str:
        outcome = self.script[address]
        if outcome == "refused":
            raise ConnectionRefusedError(111, "Connection refused")
        if outcome == "hang":
            await asyncio.Event().wait()
        self.connected.append(address)
        return address

    async def greet(self, address: str, link: str) -> str:
        self.greeting += 1
        self.most = max(self.most, self.greeting)
        try:
            self.greeted.append(address)
            await self.go.wait()
            if self.script[address] == "silent":
                raise NoAnswer("the connection was closed")
            if self.script[address] == "no":
                raise Refused("bad_password")
            return f"welcome from {address}"
        finally:
            self.greeting -= 1

    def close(self, link: str) -> None:
        self.closed.append(link)

    async def race(self, addresses: list[str], **options: float) -> str:
        won = await asyncio.wait_for(
            race(addresses, 4000, self.connect, self.greet, self.close, **options), WAIT
        )
        assert won.result == f"welcome from {won.address}"
        return won.address


def test_own_subnets_come_first_and_link_local_last() -> None:
    announced = ["169.254.7.1", "10.0.0.1", "10.99.5.1", "10.0.0.1", "kitchen.local"]
    assert rank(announced, [US]) == ("10.99.5.1", "10.0.0.1", "kitchen.local", "169.254.7.1")
    # Off every subnet of ours (a mesh VPN's peer): the announced order, link-local last.
    assert rank(["169.254.7.1", "10.0.0.1", "10.99.5.1"], []) == (
        "10.0.0.1",
        "10.99.5.1",
        "169.254.7.1",
    )


def test_an_address_of_our_own_is_tried_only_for_a_table_here() -> None:
    # The host's container bridge has the address of ours: there we would reach ourselves.
    assert rank(["172.17.0.1", "10.99.5.1"], [US, BRIDGE, LOOPBACK]) == ("10.99.5.1",)
    # A table on this machine has only addresses of ours; loopback is never left out.
    assert rank(["172.17.0.1", "10.99.5.2"], [US, BRIDGE]) == ("172.17.0.1", "10.99.5.2")
    assert rank(["127.0.0.2", "127.0.0.1"], [LOOPBACK]) == ("127.0.0.2", "127.0.0.1")


async def test_an_address_that_hangs_does_not_hold_up_the_next() -> None:
    fakes = Fakes({"10.0.0.1": "hang", "10.99.5.1": "ok"})
    assert await fakes.race(["10.0.0.1", "10.99.5.1"], stagger=0.01) == "10.99.5.1"
    assert fakes.connected == ["10.99.5.1"]


async def test_a_failed_address_starts_the_next_at_once() -> None:
    # A stagger longer than the safety net: the second attempt can only have started
    # because the first failed.
    fakes = Fakes({"10.0.0.1": "refused", "10.99.5.1": "ok"})
    assert await fakes.race(["10.0.0.1", "10.99.5.1"], stagger=10 * WAIT) == "10.99.5.1"


async def test_one_handshake_at_a_time_so_a_host_reached_twice_is_joined_once() -> None:
    fakes = Fakes({"192.168.1.5": "ok", "192.168.2.5": "ok"})
    fakes.go.clear()  # both connect while the first handshake is still on its way

    async def connect(address: str) -> str:
        link = await Fakes.connect(fakes, address)
        if len(fakes.connected) == 2:
            fakes.go.set()
        return link

    fakes.connect = connect  # type: ignore[method-assign]
    assert await fakes.race(["192.168.1.5", "192.168.2.5"], stagger=0) == "192.168.1.5"
    assert fakes.connected == ["192.168.1.5", "192.168.2.5"]
    assert (fakes.greeted, fakes.most, fakes.closed) == (["192.168.1.5"], 1, ["192.168.2.5"])


async def test_a_peer_that_is_no_table_hands_the_turn_to_the_next() -> None:
    fakes = Fakes({"172.17.0.1": "silent", "10.99.5.1": "ok"})
    assert await fakes.race(["172.17.0.1", "10.99.5.1"], stagger=0) == "10.99.5.1"
    assert fakes.greeted == ["172.17.0.1", "10.99.5.1"]
    assert fakes.closed == ["172.17.0.1"]


async def test_the_tables_own_refusal_ends_the_race() -> None:
    fakes = Fakes({"10.99.5.1": "no", "10.0.0.1": "hang"})
    with pytest.raises(Refused):
        await fakes.race(["10.99.5.1", "10.0.0.1"], stagger=0)
    assert fakes.closed == ["10.99.5.1"]


async def test_no_address_answering_says_what_each_did() -> None:
    fakes = Fakes({"10.0.0.1": "refused", "10.0.0.2": "silent", "10.0.0.3": "hang"})
    with pytest.raises(Unreached) as caught:
        await fakes.race(["10.0.0.1", "10.0.0.2", "10.0.0.3"], stagger=0, timeout=0.05)
    errors = caught.value.errors
    assert list(errors) == ["10.0.0.1", "10.0.0.2", "10.0.0.3"]
    assert isinstance(errors["10.0.0.1"], ConnectionRefusedError)
    assert isinstance(errors["10.0.0.2"], NoAnswer)
    assert isinstance(errors["10.0.0.3"], TimeoutError)
    assert isinstance(caught.value, OSError)  # (callers that caught OSError still do)
    assert "10.0.0.1:4000 connection refused" in str(caught.value)
    with pytest.raises(Unreached):
        await fakes.race([])


async def test_the_probe_finds_the_address_that_listens_on_loopback() -> None:
    server = await asyncio.start_server(lambda r, w: w.close(), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        # 127.0.0.2 is loopback too, but nothing listens there on this port: refused.
        found = await tcp_probe(["127.0.0.2", "127.0.0.1"], port, timeout=WAIT)
        assert found == "127.0.0.1"
        with pytest.raises(Unreached):
            await tcp_probe(["127.0.0.2"], port, timeout=WAIT)
    finally:
        server.close()
        await server.wait_closed()


async def test_a_client_joins_past_a_peer_that_is_no_table_once() -> None:
    """Over loopback: at 127.0.0.2 something that takes the connection and closes it (no
    Durak host), at 127.0.0.1 the table: the client is seated there, once; and a wrong
    password is the table's answer, not a reason to try elsewhere."""
    async with serving(seats=3, password="pw") as host:
        impostor = await asyncio.start_server(lambda r, w: w.close(), "127.0.0.2", host.port)
        try:
            addresses = ["127.0.0.2", "127.0.0.1"]
            client = await asyncio.wait_for(
                NetClient.connect(addresses, host.port, "Anna", password="pw"), WAIT
            )
            try:
                assert client.address == "127.0.0.1" and client.welcome is not None
                taken = [s.name for s in client.welcome.room.seats if s.kind != "empty"]
                assert taken == ["Anna"]
            finally:
                await client.close()
            with pytest.raises(HostClosed) as refused:
                await asyncio.wait_for(
                    NetClient.connect(addresses, host.port, "Boris", password="no"), WAIT
                )
            assert refused.value.code == "bad_password" and refused.value.goodbye
        finally:
            impostor.close()
            await impostor.wait_closed()
