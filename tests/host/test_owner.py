"""The owner runs the room, on real sockets (127.0.0.1): a kicked player's seat is freed and
their token is gone (in a game an AI plays the seat to the end), any seat goes to an AI at
any time, a player can leave a game for good, an unready player is freed after the room's
idle time, and the owner can end a game as a draw. Clients that always take end in a draw."""

from __future__ import annotations

import asyncio
import collections
import itertools
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_host import serving

from client.net.client import HostClosed, NetClient
from engine import GameEnded, GameResult, Pass, Take
from host import Host
from protocol import (
    Ack,
    ClientMessage,
    Draw,
    HostMessage,
    Kick,
    Leave,
    Rejected,
    Replace,
    RoomUpdate,
    SetOptions,
    Snapshot,
    Update,
)

ROOT = Path(__file__).resolve().parents[2]
REFS = itertools.count(1000)


async def until(check: Callable[[], bool], seconds: float = 30) -> None:
    async with asyncio.timeout(seconds):
        while not check():
            await asyncio.sleep(0.01)


def first_legal(view: Any) -> Any:
    return view.legal[0]


def always_take(view: Any) -> Any:
    """A colluder: the defender always takes, everyone else passes when they may."""
    for action in (Take(), Pass()):
        if action in view.legal:
            return action
    return view.legal[0]


class Player:
    """A client whose messages a test reads in order: what a wait skips is kept for later."""

    def __init__(self, client: NetClient) -> None:
        self.client = client
        self.backlog: collections.deque[HostMessage] = collections.deque()

    @property
    def token(self) -> str:
        return self.client.token

    async def next(self) -> HostMessage:
        if self.backlog:
            return self.backlog.popleft()
        return await asyncio.wait_for(self.client.receive(), 60)

    async def wait(self, where: Callable[[HostMessage], bool]) -> HostMessage:
        """The first message satisfying ``where``; the ones before it are kept."""
        skipped: list[HostMessage] = []
        while not where(message := await self.next()):
            skipped.append(message)
        self.backlog.extendleft(reversed(skipped))
        return message

    async def ask(self, make: Callable[[int], ClientMessage]) -> Ack | Rejected:
        """Send a request with a fresh ref; its answer."""
        ref = next(REFS)
        self.client.send(make(ref))
        answer = await self.wait(lambda m: isinstance(m, Ack | Rejected) and m.ref == ref)
        assert isinstance(answer, Ack | Rejected)
        return answer

    async def goodbye(self) -> str:
        """Read until the host says goodbye; its code."""
        with pytest.raises(HostClosed) as closed:
            while True:
                await self.next()
        return closed.value.code

    async def play_game(self, policy: Callable[[Any], Any] = first_legal) -> GameResult:
        """Play with ``policy`` until a game ends; its result. It acts on the latest view
        once it has read what was kept, one action at a time."""
        view, inflight = None, None
        while True:
            message = await self.next()
            if isinstance(message, Ack | Rejected) and message.ref == inflight:
                inflight = None
            elif isinstance(message, Update | Snapshot):
                view = message.view
                if isinstance(message, Update):
                    for event in message.events:
                        if isinstance(event, GameEnded):
                            return event.result
            if inflight is None and view is not None and view.legal and not self.backlog:
                inflight = self.client.act(policy(view))

    async def close(self) -> None:
        await self.client.close()


async def seated(host: Host, *names: str) -> list[Player]:
    return [Player(await NetClient.connect("127.0.0.1", host.port, name)) for name in names]


async def test_the_owner_kicks_a_squatter_out_of_the_lobby() -> None:
    async with serving(seats=3) as host:
        anna, boris = await seated(host, "Anna", "Boris")  # Boris never says he is ready
        token = boris.token
        refused = await boris.ask(lambda ref: Kick(ref, 0))
        assert isinstance(refused, Rejected) and refused.reason == "not_owner"
        assert isinstance(await anna.ask(lambda ref: Kick(ref, 1)), Ack)
        assert await boris.goodbye() == "kicked"
        room = await anna.wait(
            lambda m: isinstance(m, RoomUpdate) and m.room.seats[1].kind == "empty"
        )
        assert isinstance(room, RoomUpdate)
        with pytest.raises(HostClosed) as again:  # the token went with the seat
            await NetClient.connect("127.0.0.1", host.port, "Boris", token=token)
        assert again.value.code == "bad_token"
        cleo = await NetClient.connect("127.0.0.1", host.port, "Cleo")
        assert cleo.welcome is not None and cleo.welcome.seat == 1
        await cleo.close()
        await anna.close()


async def test_a_player_kicked_from_a_game_is_played_by_an_ai_to_its_end() -> None:
    async with serving(seats=3, ai=("random",), autostart=True, max_games=1, hold=60) as host:
        anna, boris = await seated(host, "Anna", "Boris")
        await until(lambda: host.table.playing)
        token = boris.token
        assert isinstance(await anna.ask(lambda ref: Kick(ref, 1)), Ack)
        assert await boris.goodbye() == "kicked"
        assert host.table.seats[1].kind == "ai" and 1 in host.table.bots
        with pytest.raises(HostClosed) as again:
            await NetClient.connect("127.0.0.1", host.port, "Boris", token=token)
        assert again.value.code == "bad_token"
        result = await anna.play_game()  # nobody waits for Boris: the AI plays his seat
        assert len(result.places) == 3
        await until(lambda: not host.table.playing)
        assert host.table.seats[1].kind == "empty"  # after the game the seat is free
        assert host.table.seats[2].kind == "ai"  # (the table's own AI stays)
        await anna.close()


async def test_the_owner_gives_a_seat_to_an_ai_in_the_middle_of_a_game() -> None:
    async with serving(seats=3, ai=("random",), autostart=True, max_games=1) as host:
        anna, boris = await seated(host, "Anna", "Boris")
        await until(lambda: host.table.playing)
        refused = await anna.ask(lambda ref: Replace(ref, 1, "grandmaster"))
        assert isinstance(refused, Rejected) and refused.reason == "unknown_level"
        assert isinstance(await anna.ask(lambda ref: Replace(ref, 1, "easy")), Ack)
        assert await boris.goodbye() == "kicked"
        assert isinstance(await anna.ask(lambda ref: Replace(ref, 2, "easy")), Ack)
        await anna.play_game()
        await until(lambda: not host.table.playing)
        seats = host.table.room().seats
        assert [(s.kind, s.level) for s in seats[1:]] == [("ai", "easy"), ("ai", "easy")]
        await anna.close()


async def test_a_player_leaves_a_game_for_good() -> None:
    async with serving(seats=3, ai=("random",), autostart=True, max_games=1, hold=60) as host:
        anna, boris = await seated(host, "Anna", "Boris")
        await until(lambda: host.table.playing)
        assert isinstance(await boris.ask(lambda ref: Leave(ref)), Ack)
        assert await boris.goodbye() == "left"
        room = await anna.wait(lambda m: isinstance(m, RoomUpdate) and m.room.seats[1].kind == "ai")
        assert isinstance(room, RoomUpdate) and room.room.seats[1].status == "ai"
        await anna.play_game()  # the game does not wait the hold for him: an AI plays on
        await until(lambda: not host.table.playing)
        assert host.table.seats[1].kind == "empty"
        await anna.close()


async def test_the_owner_leaving_a_game_hands_the_room_on() -> None:
    async with serving(seats=3, ai=("random",), autostart=True, max_games=1) as host:
        anna, boris = await seated(host, "Anna", "Boris")
        await until(lambda: host.table.playing)
        assert isinstance(await anna.ask(lambda ref: Leave(ref)), Ack)
        assert await anna.goodbye() == "left"
        assert host.table.owner == 1
        await boris.play_game()
        await boris.close()


async def test_an_unready_player_is_freed_after_the_rooms_idle_time() -> None:
    async with serving(seats=4) as host:
        anna, boris, cleo = await seated(host, "Anna", "Boris", "Cleo")
        cleo.client.ready()
        await until(lambda: host.table.seats[2].ready)
        assert isinstance(await anna.ask(lambda ref: SetOptions(ref, 0, None, idle_ms=200)), Ack)
        room = await anna.wait(lambda m: isinstance(m, RoomUpdate) and m.room.idle_ms == 200)
        assert isinstance(room, RoomUpdate)
        assert await boris.goodbye() == "idle"  # never ready
        await until(lambda: host.table.seats[1].kind == "empty")
        # The owner (whose start is their readiness) and a ready player stay; a player who
        # takes the mark back is watched again.
        assert [s.kind for s in host.table.seats] == ["human", "empty", "human", "empty"]
        cleo.client.ready(False)
        assert await cleo.goodbye() == "idle"
        assert host.table.seats[0].link is not None
        await anna.close()


async def test_the_owner_ends_a_game_as_a_draw_for_everyone() -> None:
    async with serving(seats=3, ai=("random",), autostart=True, max_games=1) as host:
        anna, boris = await seated(host, "Anna", "Boris")
        await until(lambda: host.table.playing)
        refused = await boris.ask(lambda ref: Draw(ref))
        assert isinstance(refused, Rejected) and refused.reason == "not_owner"
        assert isinstance(await anna.ask(lambda ref: Draw(ref)), Ack)
        results = await asyncio.gather(anna.play_game(), boris.play_game())
        assert results[0] == results[1] and results[0].durak is None
        await until(lambda: not host.table.playing)
        assert host.table.series.draws == 1
        refused = await anna.ask(lambda ref: Draw(ref))
        assert isinstance(refused, Rejected) and refused.reason == "no_game"
        await anna.close()
        await boris.close()


async def test_colluding_clients_that_always_take_end_in_a_draw() -> None:
    async with serving(seats=3, autostart=True, max_games=1, seed=5) as host:
        clients = await seated(host, "Anna", "Boris", "Cleo")
        results = await asyncio.wait_for(
            asyncio.gather(*(c.play_game(always_take) for c in clients)), 120
        )
        assert all(r == results[0] for r in results) and results[0].durak is None
        await until(lambda: not host.table.playing)
        assert host.table.series.draws == 1
        for client in clients:
            await client.close()


def test_durak_host_idle_frees_an_unready_player() -> None:
    host = subprocess.Popen(
        [sys.executable, "-m", "client", "host", "--bind", "127.0.0.1", "--port", "0",
         "--no-announce", "--no-save", "--seats", "3", "--idle", "0.3"],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert host.stdout is not None
        port = next(int(line.rsplit(":", 1)[1]) for line in host.stdout if "listening on" in line)

        async def join() -> tuple[int | None, str]:
            anna = await NetClient.connect("127.0.0.1", port, "Anna")
            boris = Player(await NetClient.connect("127.0.0.1", port, "Boris"))
            code = await boris.goodbye()
            assert anna.welcome is not None
            idle_ms = anna.welcome.room.idle_ms
            await anna.close()
            return idle_ms, code

        assert asyncio.run(join()) == (300, "idle")
    finally:
        host.send_signal(signal.SIGINT if sys.platform != "win32" else signal.SIGTERM)
        host.communicate(timeout=30)
