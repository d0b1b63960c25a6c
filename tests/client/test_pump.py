"""The keepalive every client connection shares (client.net.pump), seen on a party's: a
party host that falls silent (its laptop asleep, the TCP connection still open) is probed
and then taken for lost, as a table's host is; one that answers is kept, its heartbeats
answered and the probes' pongs never shown."""

from __future__ import annotations

import asyncio

import pytest
from fake_party import FakePartyHost

from client.net.party import PartyClient
from client.net.pump import HostClosed
from engine import Rules
from protocol import (
    PROTOCOL_VERSION,
    Alive,
    Heartbeat,
    Join,
    Joined,
    Night,
    Party,
    PartyFigures,
    PartyMessage,
    PartyPlayer,
    PartyUpdate,
    Ping,
    Pong,
)

TOKEN = "0123456789abcdef" * 2
SILENCE = 0.6  # seconds: the client's silence, short for the test


def a_party() -> Party:
    players = (PartyPlayer(0, "Vera", "here", 1, 0, 0, 0, 0, 0, None),)
    return Party(
        "Friday night", "gathering", 0, Night(Rules(players=4), rounds=3), 0, False, None,
        None, None, players, (), PartyFigures(),
    )  # fmt: skip


def asleep(message: PartyMessage) -> list[PartyMessage | bytes]:
    """A party host that joined us and then went to sleep: it answers nothing more."""
    return [Joined(PROTOCOL_VERSION, 0, TOKEN, a_party())] if isinstance(message, Join) else []


def awake(message: PartyMessage) -> list[PartyMessage | bytes]:
    """A party host with nothing to say but answering every ping."""
    if isinstance(message, Ping):
        return [Pong(message.ref)]
    return asleep(message)


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

    party = FakePartyHost(asleep)
    try:
        asyncio.run(scenario(party))
    finally:
        party.close()


def test_a_party_host_that_answers_is_kept_and_its_heartbeat_answered() -> None:
    async def scenario(party: FakePartyHost) -> None:
        client = await PartyClient.connect("127.0.0.1", party.port, "Vera", silence=SILENCE)
        try:
            # Four silences with nothing to say but pongs: still joined, no pong shown.
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(client.receive(), 4 * SILENCE)
            party.say(Heartbeat(7))
            update = PartyUpdate(a_party())
            party.say(update)
            assert await asyncio.wait_for(client.receive(), 5) == update
        finally:
            await client.close()
        assert Alive(7) in party.got
        assert sum(isinstance(m, Ping) for m in party.got) >= 3  # probed, answered each time

    party = FakePartyHost(awake)
    try:
        asyncio.run(scenario(party))
    finally:
        party.close()
