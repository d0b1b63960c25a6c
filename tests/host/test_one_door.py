"""One door for every link (host/doorway.py): a table's port and a party's answer bad
input alike, and the party's port has the table's door and heartbeat: a silent player is
away within the silence, an organiser who vanishes hands the night on, and a flood of idle
connections costs a returning player nothing."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import msgpack
from live import serving

from client.net.party import PartyClient
from engine import Rules
from host.party.server import PartyConfig, PartyHost
from protocol import PROTOCOL_VERSION, Night, frame


def party(**changes: object) -> PartyConfig:
    base = {
        "setup": Night(Rules(players=4), rounds=1),
        "seed": 3,
        "announce": False,
        "ai_processes": False,
    } | changes
    return PartyConfig(**base)  # type: ignore[arg-type]


async def frames_until_closed(
    reader: asyncio.StreamReader, seconds: float = 10
) -> list[dict[str, Any]]:
    found = []
    with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
        async with asyncio.timeout(seconds):
            while True:
                head = await reader.readexactly(4)
                found.append(msgpack.unpackb(await reader.readexactly(int.from_bytes(head))))
    return found


def ping(ref: int) -> bytes:
    return frame(msgpack.packb({"type": "ping", "ref": ref}))


async def pings_then_a_frame_too_large(port: int, first: dict[str, Any]) -> list[str]:
    """The first message, then two pings and an over-long length prefix in one write."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(frame(msgpack.packb(first)))
    writer.write(ping(1) + ping(2) + (70_000).to_bytes(4, "big"))
    found = await frames_until_closed(reader)
    writer.close()
    return [f["type"] if f["type"] != "goodbye" else f"goodbye {f['code']}" for f in found]


async def test_frames_before_an_over_long_prefix_are_answered_first_on_either_port() -> None:
    """docs/protocol.md section 1: the frames before a refused prefix are read and answered
    first. The table's port gave only the goodbye (its pongs were still on their way
    through the table's queue when the goodbye closed the connection)."""
    hello = {
        "type": "hello",
        "version": PROTOCOL_VERSION,
        "name": "Anna",
        "password": None,
        "token": None,
        "role": "play",
        "look": None,
    }
    async with serving(seats=2) as host:
        table = await pings_then_a_frame_too_large(host.port, hello)
    assert table[0] == "welcome"
    assert table[-3:] == ["pong", "pong", "goodbye frame_too_large"]
    join = {"type": "join", "version": PROTOCOL_VERSION, "name": "Anna", "token": None}
    async with PartyHost(party()) as night:
        answered = await pings_then_a_frame_too_large(night.port, join | {"role": "play"})
    assert answered[0] == "joined"
    assert answered[-3:] == ["pong", "pong", "goodbye frame_too_large"]


async def test_a_silent_party_player_is_away_and_the_organiser_hands_the_night_on() -> None:
    """A laptop that drops off the Wi-Fi without closing its connection: the party asks
    (heartbeat), then takes it for gone within the silence, and the next player here
    organises the night."""
    async with PartyHost(party(silence=0.9)) as night:
        reader, writer = await asyncio.open_connection("127.0.0.1", night.port)
        join = {"type": "join", "version": PROTOCOL_VERSION, "name": "Anna", "token": None}
        writer.write(frame(msgpack.packb(join | {"role": "play"})))
        head = await reader.readexactly(4)
        joined = msgpack.unpackb(await reader.readexactly(int.from_bytes(head)))
        boris = await PartyClient.connect("127.0.0.1", night.port, "Boris")
        assert night.view().organiser == joined["player"]
        # Anna's machine goes quiet (it reads nothing and answers nothing) ...
        async with asyncio.timeout(10):
            while night.view().organiser == joined["player"]:
                await night.changed.wait()
                night.changed.clear()
        # ... and Boris, whose client answers every heartbeat, runs the night now
        assert night.view().organiser == boris.player
        anna = next(p for p in night.view().players if p.id == joined["player"])
        assert anna.status == "away"
        await asyncio.sleep(1.5)  # more than the silence: Boris stays
        assert boris.player in night.here()
        await boris.close()
        writer.close()


async def test_idle_connections_on_the_party_port_do_not_lock_a_player_out() -> None:
    """140 connections that never join (more than the party's slots): the door pushes
    out the idlest address's strangers, so a player coming back with a token gets in."""
    async with PartyHost(party()) as night:
        anna = await PartyClient.connect("127.0.0.1", night.port, "Anna")
        token = anna.token
        await anna.close()
        idle = []
        for _ in range(140):
            with contextlib.suppress(OSError):
                idle.append(await asyncio.open_connection("127.0.0.1", night.port))
        back = await PartyClient.connect("127.0.0.1", night.port, "Anna", token=token)
        assert back.player == anna.player
        await back.close()
        for _, writer in idle:
            writer.close()
