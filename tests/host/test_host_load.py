"""tests/benchmarks/host_load.py drops its bot as a network would (issue 23: it closed the
bot's client, whose pump then never reconnected, and the run ended ``game_completed=0``):
its relay cuts the connection, and the bot comes back with its token by itself."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from test_host import expect, serving

from client.net.client import Backoff, NetClient
from protocol import Ack, Update, Welcome

BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "host_load.py"


def host_load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("host_load", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = sys.modules["host_load"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def test_the_benchmarks_drop_is_a_lost_connection_the_bot_comes_back_from() -> None:
    async with serving(seats=2, ai=("random",), hold=30, autostart=True, fair_wait=0) as host:
        relay = host_load().Relay(host.port)
        port = await relay.start()
        fast = Backoff(first=0.05, longest=0.2, give_up=30)
        bot = await NetClient.connect("127.0.0.1", port, "Dropped", reconnect=fast)
        seat, token = bot.seat, bot.token
        await expect(bot, Update)  # in a game (in the room a dropped player's seat is free)
        relay.cut()  # as a network loses it: the client closed nothing
        welcome = await expect(bot, Welcome)
        assert isinstance(welcome, Welcome) and welcome.seat == seat and bot.token == token
        assert bot.reconnects == 1 and host.table.seats[seat].link is not None
        await bot.close()
        await relay.close()


async def test_a_round_trip_is_timed_where_the_connection_is_read() -> None:
    """``NetClient.round_trips`` (what host_load.py reports) has an act's round trip as soon
    as its ack is read off the connection, before the caller takes the ack: so what the
    caller does meanwhile (a bot's thinking, other bots' work on the loop) is not in it."""
    async with serving(seats=2, ai=("random",), autostart=True, fair_wait=0) as host:
        bot = await NetClient.connect("127.0.0.1", host.port, "Anna")
        view = (await expect(bot, Update)).view
        while not view.legal:
            view = (await expect(bot, Update)).view
        ref = bot.act(view.legal[0])
        async with asyncio.timeout(30):
            while not bot.round_trips:
                await asyncio.sleep(0.01)  # (the caller is busy: it does not receive)
        ack = await expect(bot, Ack)
        assert isinstance(ack, Ack) and ack.ref == ref and len(bot.round_trips) == 1
        await bot.close()
