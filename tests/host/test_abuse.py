"""Bad input reaches the host: random bytes, truncated and oversized frames, wrong field
types, unknown message types, actions out of turn or for another seat. Each gets an error
reply or the disconnect of that one client; the table plays on and its state stays valid."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import msgpack
from live import replays, serving

from client.cli.bot_player import play_bot
from client.net.client import HostClosed, NetClient
from engine import Attack, Beat, Card, Reason, ThrowIn
from protocol import PROTOCOL_VERSION, Ack, Pong, Rejected, Update, encode, frame
from protocol.messages import Hello

REASONS = {reason.value for reason in Reason}


async def exchange(port: int, data: bytes, close: bool = False) -> list[dict[str, Any]]:
    """Send raw bytes; collect every frame the host sends back until it closes."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(data)
    if close:
        writer.write_eof()
    replies = []
    try:
        while True:
            head = await asyncio.wait_for(reader.readexactly(4), 30)
            size = int.from_bytes(head, "big")
            replies.append(msgpack.unpackb(await reader.readexactly(size)))
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    writer.close()
    await writer.wait_closed()
    return replies


def hello(name: str = "Mallory") -> bytes:
    return encode(Hello(PROTOCOL_VERSION, name))


async def test_garbage_at_the_door_closes_only_that_connection() -> None:
    async with serving(seats=2, ai=("random",), autostart=True, seed=8) as host:
        game = asyncio.create_task(play_bot("127.0.0.1", host.port, "random", 3))
        while not host.table.playing:
            await asyncio.sleep(0.01)
        rng = random.Random(0)
        cases: list[tuple[bytes, bool, set[str]]] = [
            (rng.randbytes(rng.randrange(1, 200)), True, {"bad_frame", "frame_too_large"})
            for _ in range(20)
        ]
        cases += [
            (hello()[:-3], True, {"bad_frame"}),  # truncated, then the end of the stream
            ((10**9).to_bytes(4, "big"), False, {"frame_too_large"}),  # no payload follows
            (frame(b"\xc1"), False, {"bad_frame"}),  # never used in msgpack
            (frame(msgpack.packb([1, 2, 3])), False, {"bad_message"}),
            (frame(msgpack.packb({"type": "teleport", "ref": 1})), False, {"bad_message"}),
            (frame(msgpack.packb({"type": "ping", "ref": 1})), False, {"hello_expected"}),
            (
                frame(
                    msgpack.packb(
                        {
                            "type": "hello",
                            "version": PROTOCOL_VERSION,
                            "name": 7,
                            "password": None,
                            "token": None,
                        }
                    )
                ),
                False,
                {"bad_message"},
            ),
            (hello(), False, {"table_full", "game_in_progress"}),  # well-formed, no seat free
        ]
        for data, close, codes in cases:
            replies = await exchange(host.port, data, close)
            assert len(replies) <= 1
            if replies:
                assert replies[0]["type"] == "goodbye" and replies[0]["code"] in codes, replies
            else:
                assert "bad_frame" in codes  # random bytes that stay an incomplete frame
        report = await asyncio.wait_for(game, 60)
        assert len(report.results) == 3
        replays(host)


async def test_refused_actions_change_nothing_and_a_bad_message_drops_only_its_sender() -> None:
    async with serving(seats=3, ai=("random",), autostart=True, max_games=1, seed=9) as host:
        mallory = await NetClient.connect("127.0.0.1", host.port, "Mallory")
        good = asyncio.create_task(play_bot("127.0.0.1", host.port, "random", 1))
        refused = 0
        acked: set[int] = set()
        wrong: set[int] = set()
        while refused < 30:
            message = await asyncio.wait_for(mallory.receive(), 30)
            if isinstance(message, Ack):
                assert message.ref not in wrong  # a refused action is never applied
                acked.add(message.ref)
            elif isinstance(message, Rejected):
                assert message.reason in REASONS  # (a legal action may be stale by now)
                assert message.text == Reason(message.reason).text
                refused += message.ref in wrong
            elif isinstance(message, Update) and message.view.result is None:
                view = message.view
                # Cards outside the 36-card deck: never legal, whatever happened meanwhile.
                wrong.add(mallory.act(ThrowIn(Card.parse("2c"))))
                wrong.add(mallory.act(Beat(Card.parse("3d"), Card.parse("2d"))))
                wrong.add(mallory.act(Attack.of("2h", "2s")))
                if view.legal:
                    mallory.act(view.legal[0])
        ref = mallory.ping()
        while not isinstance(reply := await mallory.receive(), Pong):
            pass
        assert reply == Pong(ref)  # still connected after all those refusals
        # An action for another seat: the message has no seat field, so it is malformed.
        act = {"type": "act", "ref": 1, "seat": 0, "action": {"verb": "take"}}
        mallory.pump.writer.write(frame(msgpack.packb(act)))
        try:
            while True:
                await asyncio.wait_for(mallory.receive(), 30)
        except HostClosed as exc:
            assert exc.code == "bad_message"
        await mallory.close()
        # A stand-in plays Mallory's seat to the end of the game (then the seat is free).
        report = await asyncio.wait_for(good, 60)
        assert len(report.results) == 1
        replays(host)
