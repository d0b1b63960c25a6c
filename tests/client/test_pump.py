"""The keepalive every client connection shares (client.net.pump), seen on a party's: a
party host that falls silent (its laptop asleep, the TCP connection still open) is probed
and then taken for lost, as a table's host is; one that answers is kept, its heartbeats
answered and the probes' pongs never shown."""

from __future__ import annotations

import asyncio

import pytest
from fake_party import FakePartyHost, a_party, joins_vera

from client.net.party import PartyClient
from client.net.pump import HostClosed
from protocol import (
    Alive,
    Heartbeat,
    Join,
    PartyMessage,
    PartyUpdate,
    Ping,
    Pong,
)

SILENCE = 0.6  # seconds: the client's silence, short for the test
PATIENT = 1.2  # seconds: a silence a loaded machine's pong always comes within


def awake(message: PartyMessage) -> list[PartyMessage | bytes]:
    """A party host with nothing to say but answering every ping."""
    if isinstance(message, Ping):
        return [Pong(message.ref)]
    return joins_vera(message)


def test_a_party_host_gone_silent_is_probed_then_taken_for_lost() -> None:
    async def scenario(party: FakePartyHost) -> None:
        client = await PartyClient.connect("127.0.0.1", party.port, "Vera", silence=SILENCE)
        try:
            with pytest.raises(HostClosed) as lost:
                await asyncio.wait_for(client.receive(), 10 * SILENCE)
        finally:
            await client.close()
        # Lost without a goodbye: the party link joins again with the token (as for a drop).
        assert lost.value.code == "closed" and not lost.value.goodbye
        assert [type(m) for m in party.got] == [Join, Ping]  # one probe, then given up

    party = FakePartyHost(joins_vera)  # then asleep: nothing answered
    try:
        asyncio.run(scenario(party))
    finally:
        party.close()


def test_a_party_host_that_answers_is_kept_and_its_heartbeat_answered() -> None:
    async def scenario(party: FakePartyHost) -> None:
        client = await PartyClient.connect("127.0.0.1", party.port, "Vera", silence=PATIENT)
        try:
            # Three silences with nothing to say but pongs: still joined, no pong shown.
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(client.receive(), 3 * PATIENT)
            party.say(Heartbeat(7))
            update = PartyUpdate(a_party())
            party.say(update)
            assert await asyncio.wait_for(client.receive(), 5) == update
            ref = client.ping()  # answered after the alive: the host has read it by then
            assert await asyncio.wait_for(client.receive(), 5) == Pong(ref)
        finally:
            await client.close()
        assert Alive(7) in party.got
        assert sum(isinstance(m, Ping) for m in party.got) >= 4  # probed, answered each time

    party = FakePartyHost(awake)
    try:
        asyncio.run(scenario(party))
    finally:
        party.close()
