"""One door for every link (host/doorway.py): a table's port and a party's answer bad
input alike, and the party's port has the table's door and heartbeat: a silent player is
away within the silence, an organiser who vanishes hands the night on, and a flood of idle
connections costs a returning player nothing."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import msgpack
from harness import ManualScheduler
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


async def test_a_party_client_answers_the_heartbeat_and_a_silent_one_is_away() -> None:
    """Over TCP with the party's clock moved by hand: Boris's client (``PartyClient``)
    answers each heartbeat from its own reader and stays; Anna's machine, quiet since its
    join, is away once the silence is up, and Boris organises the night. (The party's side
    to the second: tests/host/test_party_clock.py.)"""
    clock = ManualScheduler()
    async with PartyHost(party(silence=9.0), scheduler=clock) as night:
        reader, writer = await asyncio.open_connection("127.0.0.1", night.port)
        join = {"type": "join", "version": PROTOCOL_VERSION, "name": "Anna", "token": None}
        writer.write(frame(msgpack.packb(join | {"role": "play"})))
        head = await reader.readexactly(4)
        joined = msgpack.unpackb(await reader.readexactly(int.from_bytes(head)))
        boris = await PartyClient.connect("127.0.0.1", night.port, "Boris")
        assert night.view().organiser == joined["player"]
        link = next(link for link in night.links if link.player == boris.player)
        for _ in range(4):  # 14 s: Boris is asked four times and answers each over the wire
            clock.advance(3.5)
            async with asyncio.timeout(10):
                while link.probed:
                    await asyncio.sleep(0)
        async with asyncio.timeout(10):  # Anna's connection, cut at 9 s, ends
            while night.view().organiser != boris.player:
                night.changed.clear()
                await night.changed.wait()
        assert link.beats == 4 and not link.closed
        anna = next(p for p in night.view().players if p.id == joined["player"])
        assert anna.status == "away" and boris.player in night.here()
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
