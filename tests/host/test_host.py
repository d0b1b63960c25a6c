"""The host on real sockets (127.0.0.1, port 0, no announcement): games of 2-6 seats from
lobby to result, the owner's commands, reconnecting, refusals, AI thinking off the loop,
a clean shutdown, the in-thread host and the ``durak host`` / ``durak bot`` commands."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

import msgpack
import pytest

from client.cli.bot import play_bot
from client.net.client import HostClosed, NetClient
from engine import Rules, SeatView
from engine.ai import LEVELS, PARAMETERS, RandomBot
from host import Host, HostConfig, Table, run_in_thread
from host.scheduler import LoopScheduler
from protocol import (
    PROTOCOL_VERSION,
    Ack,
    Emote,
    Emoted,
    Hello,
    Pong,
    Rejected,
    RoomUpdate,
    SetRules,
    Snapshot,
    UnplayableRules,
    Update,
    encode,
    frame,
)

ROOT = Path(__file__).resolve().parents[2]
LOCAL = HostConfig(bind="127.0.0.1", port=0, announce=False)


@asynccontextmanager
async def serving(**options: object) -> AsyncIterator[Host]:
    """A host on 127.0.0.1; on leaving, stopped, and checked to have had no internal error."""
    host = Host(replace(LOCAL, **options))  # type: ignore[arg-type]
    await host.start()
    try:
        yield host
    finally:
        await host.stop()
        assert host.table.errors == 0
        assert not host.sessions and not host.tasks


async def expect(client: NetClient, kind: type, where: Callable[[object], bool] = bool) -> object:
    """The next message of ``kind`` satisfying ``where`` (others are skipped)."""
    while True:
        message = await asyncio.wait_for(client.receive(), 30)
        if isinstance(message, kind) and where(message):
            return message


def replays(host: Host) -> None:
    """Every finished game replays from its log to the result the series recorded."""
    for game_log in host.table.logs:
        state = game_log.replay()
        assert state.is_over and state.result is not None


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
async def test_games_from_lobby_to_result(seats: int) -> None:
    """Bot clients join; the first owns the room and starts each game (no autostart)."""
    humans = max(1, seats // 2)
    ai = ("random",) * (seats - humans)
    async with serving(seats=seats, ai=ai, seed=seats) as host:
        reports = await asyncio.wait_for(
            asyncio.gather(
                *(play_bot("127.0.0.1", host.port, "random", 3, seed=i) for i in range(humans))
            ),
            60,
        )
        for seat, report in enumerate(reports):
            assert report.seat == seat and len(report.results) == 3
            assert all(len(r.places) == seats for r in report.results)
        assert host.table.game == 3
        assert host.table.series.games == 3  # the series is kept across rematches
        assert [r.results for r in reports[1:]] == [reports[0].results] * (humans - 1)
        replays(host)


async def test_autostart_runs_headless_tables() -> None:
    async with serving(seats=4, ai=("random", "random"), autostart=True, seed=3) as host:
        reports = await asyncio.gather(
            *(play_bot("127.0.0.1", host.port, "random", 5, seed=i) for i in range(2))
        )
        assert all(len(r.results) == 5 for r in reports)
        replays(host)


async def test_an_all_ai_table_plays_its_games() -> None:
    async with serving(seats=3, ai=("random",) * 3, autostart=True, max_games=4) as host:
        while len(host.table.logs) < 4:
            await asyncio.sleep(0.01)
        replays(host)


async def test_the_owner_sets_rules_and_seats_and_starts() -> None:
    async with serving(seats=2) as host:
        owner = await NetClient.connect("127.0.0.1", host.port, "Olga")
        guest = await NetClient.connect("127.0.0.1", host.port, "Gleb")
        assert owner.welcome is not None and owner.welcome.room.owner == 0
        ref = guest.start()
        rejected = await expect(guest, Rejected)
        assert rejected == Rejected(ref, "not_owner", rejected.text)  # type: ignore[attr-defined]

        rules = Rules(players=3, deck_size=52, transfer=True)
        ref = owner.set_rules(rules)
        assert await expect(owner, Ack) == Ack(ref, None)
        room = await expect(guest, RoomUpdate, lambda m: m.room.rules == rules)  # type: ignore[attr-defined]
        assert [s.kind for s in room.room.seats] == ["human", "human", "empty"]  # type: ignore[attr-defined]

        # Rules that cannot be dealt (24 cards, 6 players) are refused, not a protocol error:
        # the owner keeps the seat and the room its rules.
        options = {**rules.to_dict(), "players": 6, "deck_size": 24}
        owner.send(SetRules(40, UnplayableRules(tuple(options.items()), "(the host says why)")))
        rejected = await expect(owner, Rejected)
        assert (rejected.ref, rejected.reason) == (40, "bad_rules")  # type: ignore[attr-defined]
        assert host.table.rules == rules and len(host.table.seats) == 3

        ref = owner.start()
        assert (await expect(owner, Rejected)).reason == "seats_empty"  # type: ignore[attr-defined]
        ref = owner.set_seat(2, "no-such-level")
        assert (await expect(owner, Rejected)).reason == "unknown_level"  # type: ignore[attr-defined]
        ref = owner.set_seat(1, "random")
        assert (await expect(owner, Rejected)).reason == "seat_taken"  # type: ignore[attr-defined]
        ref = owner.set_seat(2, "random")
        assert await expect(owner, Ack) == Ack(ref, None)
        ref = guest.ready()
        assert await expect(guest, Ack) == Ack(ref, None)

        ref = owner.start()
        assert await expect(owner, Ack) == Ack(ref, None)
        update = await expect(guest, Update)
        assert update.seq == 0 and update.view.rules == rules  # type: ignore[attr-defined]
        owner.set_rules(Rules(players=3))
        assert (await expect(owner, Rejected)).reason == "game_running"  # type: ignore[attr-defined]
        await owner.close()
        await guest.close()


async def test_the_start_waits_for_the_other_players_ready_marks() -> None:
    async with serving(seats=3, ai=("random",)) as host:
        owner = await NetClient.connect("127.0.0.1", host.port, "Olga")
        guest = await NetClient.connect("127.0.0.1", host.port, "Gleb")
        ref = owner.start()
        rejected = await expect(owner, Rejected)
        assert rejected == Rejected(ref, "not_ready", "Every other player must be ready first.")
        ref = guest.ready()
        assert await expect(guest, Ack) == Ack(ref, None)
        room = await expect(owner, RoomUpdate, lambda m: m.room.seats[1].ready)  # type: ignore[attr-defined]
        assert [s.ready for s in room.room.seats] == [False, True, True]  # type: ignore[attr-defined]
        ref = owner.start()
        assert await expect(owner, Ack) == Ack(ref, None)
        await expect(guest, Update)
        ref = guest.ready(False)
        rejected = await expect(guest, Rejected)
        assert (rejected.ref, rejected.reason) == (ref, "game_running")  # type: ignore[attr-defined]
        await owner.close()
        await guest.close()


@pytest.mark.parametrize("level", sorted(LEVELS))
async def test_every_ai_level_plays_a_game_at_the_host(level: str) -> None:
    """Each level of ``engine.ai.LEVELS`` (levels added later appear here by themselves)."""
    spec = f"{level}:0.02" if level in PARAMETERS else level  # (hard's: a time budget)
    async with serving(seats=2, ai=(spec,), autostart=True, max_games=1, seed=2) as host:
        report = await asyncio.wait_for(play_bot("127.0.0.1", host.port, "random", 1), 120)
        assert len(report.results) == 1
        room = report.room
        assert room is not None and room.seats[1].kind == "ai" and room.seats[1].level == spec
        replays(host)


async def test_a_dropped_player_returns_with_the_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LEVELS, "gated", GatedBot)  # the stand-in holds the game still
    GatedBot.gate.clear()
    GatedBot.thinking.clear()
    async with serving(
        seats=3, ai=("random", "random"), stand_in="gated", seed=5, ai_processes=False
    ) as host:
        first = await NetClient.connect("127.0.0.1", host.port, "Olga")
        first.start()
        await expect(first, Update)
        token, seat = first.token, first.seat
        await first.close()  # a stand-in plays on meanwhile
        try:
            back = await NetClient.connect("127.0.0.1", host.port, "Olga", token=token)
            assert back.seat == seat
            snapshot = await expect(back, Snapshot)
            assert snapshot.view.seat == seat  # type: ignore[attr-defined]
            with pytest.raises(HostClosed) as info:
                await NetClient.connect("127.0.0.1", host.port, "Newcomer")
            assert info.value.code == "game_in_progress"
            with pytest.raises(HostClosed) as info:
                await NetClient.connect("127.0.0.1", host.port, "Thief", token="f" * 32)
            assert info.value.code == "bad_token"
            await back.close()
        finally:
            GatedBot.gate.set()


async def test_refusals_at_the_door() -> None:
    async with serving(seats=2, ai=("random",), password="sesame") as host:
        with pytest.raises(HostClosed) as info:
            await NetClient.connect("127.0.0.1", host.port, "Anna", password="wrong")
        assert info.value.code == "bad_password"
        anna = await NetClient.connect("127.0.0.1", host.port, "Anna", password="sesame")
        with pytest.raises(HostClosed) as info:
            await NetClient.connect("127.0.0.1", host.port, "Boris", password="sesame")
        assert info.value.code == "table_full"
        await anna.close()


async def test_a_version_mismatch_gets_a_clear_goodbye() -> None:
    async with serving(seats=2) as host:
        reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
        hello = {"type": "hello", "version": PROTOCOL_VERSION + 1, "name": "Future", "x": 1}
        writer.write(frame(msgpack.packb(hello)))
        size = int.from_bytes(await reader.readexactly(4), "big")
        goodbye = msgpack.unpackb(await reader.readexactly(size))
        assert goodbye["type"] == "goodbye" and goodbye["code"] == "version_mismatch"
        assert f"version {PROTOCOL_VERSION}" in goodbye["text"]
        assert f"version {PROTOCOL_VERSION + 1}" in goodbye["text"]
        assert await reader.read() == b""
        writer.close()
        await writer.wait_closed()


class GatedBot(RandomBot):
    """A bot that thinks until the test lets it go (a stand-in for a slow, hard AI). It
    is this test process's own level, so its tables think in threads (``ai_processes``)."""

    gate = threading.Event()
    thinking = threading.Event()

    def decide(self, view: SeatView):  # type: ignore[no-untyped-def]
        GatedBot.thinking.set()
        GatedBot.gate.wait(10)
        return super().decide(view)


async def test_the_host_answers_while_an_ai_thinks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LEVELS, "gated", GatedBot)
    GatedBot.gate.clear()
    GatedBot.thinking.clear()
    async with serving(seats=2, ai=("gated",), seed=1, ai_processes=False) as host:
        client = await NetClient.connect("127.0.0.1", host.port, "Anna")
        heard: asyncio.Queue[object] = asyncio.Queue()

        async def play() -> None:  # plays its seat until the AI has to think
            while True:
                message = await client.receive()
                heard.put_nowait(message)
                thinking = GatedBot.thinking.is_set()
                if isinstance(message, Update) and message.view.legal and not thinking:
                    client.act(message.view.legal[0])

        player = asyncio.create_task(play())
        client.start()
        assert await asyncio.to_thread(GatedBot.thinking.wait, 30)
        ref = client.ping()
        while not isinstance(reply := await asyncio.wait_for(heard.get(), 30), Pong):
            pass
        assert reply == Pong(ref) and not GatedBot.gate.is_set()  # the AI is still thinking
        GatedBot.gate.set()
        while not isinstance(await asyncio.wait_for(heard.get(), 30), Update):
            pass  # the AI's move arrives once it has decided
        player.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await player
        await client.close()


async def test_shutdown_tells_every_client() -> None:
    host = Host(replace(LOCAL, seats=3, ai=("random",)))
    await host.start()
    clients = [await NetClient.connect("127.0.0.1", host.port, n) for n in ("A", "B")]
    clients[1].ready()
    await expect(clients[1], Ack)
    clients[0].start()
    await expect(clients[1], Update)
    await host.stop()
    for client in clients:
        with pytest.raises(HostClosed) as info:
            while True:
                await client.receive()
        assert info.value.code == "shutdown"
        await client.close()
    assert host.table.errors == 0


class CountingExecutor(ThreadPoolExecutor):
    """The host's AI executor, noting for every job whether the table was stopping."""

    def __init__(self, table: Table) -> None:
        super().__init__(2, thread_name_prefix="durak-ai-test")
        self.table = table
        self.asked_while_stopping = 0

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[no-untyped-def]
        self.asked_while_stopping += self.table.stopping
        return super().submit(fn, *args, **kwargs)


def no_errors_logged(caplog: pytest.LogCaptureFixture) -> bool:
    return not [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]


async def test_a_stop_mid_game_asks_no_ai_to_think(caplog: pytest.LogCaptureFixture) -> None:
    """Stopping while AI seats play: decisions still in flight are handled, no AI is asked
    again, and nothing is logged as an error."""
    caplog.set_level(logging.INFO)
    host = Host(replace(LOCAL, seats=4, ai=("normal",) * 4, autostart=True, seed=5))
    host.executor.shutdown()
    scheduler = host.table.scheduler
    assert isinstance(scheduler, LoopScheduler)
    host.executor = scheduler.executor = counting = CountingExecutor(host.table)
    await host.start()
    while host.table.seq < 12:  # mid-game: AI seats are thinking
        await asyncio.sleep(0.001)
    await host.stop()
    assert host.table.stopping and host.table.errors == 0
    assert counting.asked_while_stopping == 0
    assert no_errors_logged(caplog)


async def test_an_executor_shut_down_under_the_table_is_no_error(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The AI executor refusing work while the game goes on (as when the window's process
    exits before its host has stopped): the table stops asking, without a traceback."""
    caplog.set_level(logging.INFO)
    monkeypatch.setitem(LEVELS, "gated", GatedBot)
    GatedBot.gate.clear()
    GatedBot.thinking.clear()
    async with serving(
        seats=3, ai=("gated",) * 3, autostart=True, seed=4, ai_processes=False
    ) as host:
        assert await asyncio.to_thread(GatedBot.thinking.wait, 30)
        seq = host.table.seq
        host.executor.shutdown(wait=False)
        GatedBot.gate.set()  # the decision in flight arrives; the next AI cannot be asked
        while host.table.seq == seq:
            await asyncio.sleep(0.001)
        assert host.table.stopping and host.table.errors == 0
    assert no_errors_logged(caplog)
    assert any("stop thinking" in r.getMessage() for r in caplog.records)


def test_a_host_in_its_own_thread() -> None:
    before = threading.active_count()
    handle = run_in_thread(HostConfig(seats=2, ai=("random",), announce=False, autostart=True))
    assert handle.address == "127.0.0.1"

    async def play() -> None:
        report = await play_bot("127.0.0.1", handle.port, "random", 2)
        assert len(report.results) == 2

    asyncio.run(play())
    handle.stop()
    assert not handle._thread.is_alive()
    assert threading.active_count() == before


@pytest.mark.slow
def test_the_host_and_bot_commands() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    host = subprocess.Popen(
        [sys.executable, "-m", "client", "host", "--bind", "127.0.0.1", "--port", "0",
         "--seats", "3", "--ai", "random", "--autostart", "--no-announce", "--no-save",
         "--seed", "4"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert host.stdout is not None
        line = next(line for line in host.stdout if "listening on" in line)
        address = line.rsplit(" ", 1)[1].strip()
        bots = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "client",
                    "bot",
                    "--connect",
                    address,
                    "--games",
                    "2",
                    "--level",
                    "random",
                    "--seed",
                    str(i),
                ],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                text=True,
            )
            for i in range(2)
        ]
        for bot in bots:
            out, _ = bot.communicate(timeout=60)
            assert bot.returncode == 0, out
            assert "game 2:" in out and "2 games:" in out
            assert out.count("; deal verified") == 2  # it checked both deals (section 15)
    finally:
        host.send_signal(signal.SIGINT)
        rest, _ = host.communicate(timeout=30)
    assert host.returncode == 0
    assert "closed" in rest


def test_bad_command_lines() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-m", "client", "bot", "--connect", "nowhere", "--games", "1"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert run.returncode == 2 and "HOST:PORT" in run.stdout
    run = subprocess.run(
        [sys.executable, "-m", "client", "host", "--seats", "2", "--ai", "random,random,random",
         "--bind", "127.0.0.1", "--no-announce", "--no-save"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert run.returncode == 2


@pytest.mark.slow
async def test_a_client_that_does_not_read_is_dropped_and_the_table_goes_on() -> None:
    async with serving(seats=3, max_send_buffer=1 << 14) as host:
        owner = await NetClient.connect("127.0.0.1", host.port, "Olga")
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", host.port))
        _, writer = await asyncio.open_connection(sock=sock)
        writer.write(encode(Hello(PROTOCOL_VERSION, "Sleepy")))  # then it never reads
        await expect(owner, RoomUpdate, lambda m: m.room.seats[1].kind == "human")  # type: ignore[attr-defined]
        level = "random"
        for _ in range(20000):  # every change of the room is sent to everyone
            ref = owner.set_seat(2, level)
            await expect(owner, Ack, lambda m, ref=ref: m.ref == ref)  # type: ignore[attr-defined]
            if host.table.seats[1].kind == "empty":
                break  # Sleepy was dropped: its seat is free again
            level = None if level else "random"
        assert host.table.seats[1].kind == "empty"
        ref = owner.ping()
        assert await expect(owner, Pong) == Pong(ref)
        await owner.close()
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()


async def test_leaving_the_lobby_frees_the_seat_and_passes_the_room_on() -> None:
    async with serving(seats=3) as host:
        first = await NetClient.connect("127.0.0.1", host.port, "Olga")
        second = await NetClient.connect("127.0.0.1", host.port, "Gleb")
        await first.close()
        room = await expect(second, RoomUpdate, lambda m: m.room.seats[0].kind == "empty")  # type: ignore[attr-defined]
        assert room.room.owner == second.seat == 1  # type: ignore[attr-defined]
        third = await NetClient.connect("127.0.0.1", host.port, "Vera")
        assert third.seat == 0 and third.welcome is not None and third.welcome.room.owner == 1
        await second.close()
        await third.close()


async def test_a_port_in_use_is_an_error_and_leaves_nothing_behind() -> None:
    async with serving(seats=2) as host:
        other = Host(replace(LOCAL, port=host.port))
        with pytest.raises(OSError):
            await other.start()
        assert not other.tasks and other._table_task is None


async def _until_pong(client: NetClient) -> list[Emoted]:
    """The emotes the host relays to ``client`` before it answers a ping sent now."""
    ref = client.ping()
    seen: list[Emoted] = []
    while True:
        message = await asyncio.wait_for(client.receive(), 30)
        if isinstance(message, Emoted):
            seen.append(message)
        elif isinstance(message, Pong) and message.ref == ref:
            return seen


async def test_an_emote_is_relayed_to_every_seat_and_a_flood_is_dropped() -> None:
    async with serving(seats=3) as host:
        now = [100.0]
        host.table.clock = lambda: now[0]  # the table's clock stands still: no timing
        anna = await NetClient.connect("127.0.0.1", host.port, "Anna")
        gleb = await NetClient.connect("127.0.0.1", host.port, "Gleb")
        for code in ("nice", "oops", "ha", "hurry", "nice"):  # a flood within the gap
            anna.send(Emote(code))
        assert await _until_pong(anna) == [Emoted(0, "nice")]
        assert await _until_pong(gleb) == [Emoted(0, "nice")]
        gleb.send(Emote("well_played"))  # another seat has a gap of its own
        assert await _until_pong(gleb) == [Emoted(1, "well_played")]
        now[0] += 2.5  # and once the gap has passed, Anna may react again
        anna.send(Emote("ha"))
        assert await _until_pong(anna) == [Emoted(1, "well_played"), Emoted(0, "ha")]
        assert await _until_pong(gleb) == [Emoted(0, "ha")]
        await anna.close()
        await gleb.close()


def test_a_password_comes_from_the_option_or_the_environment_and_must_be_sendable() -> None:
    from client.cli.options import password_option

    assert password_option("open sesame", {}) == "open sesame"
    assert password_option(None, {"DURAK_PASSWORD": "from env"}) == "from env"
    assert password_option("given", {"DURAK_PASSWORD": "from env"}) == "given"
    assert password_option(None, {}) is None and password_option("", {}) is None
    for bad in ("x" * 65, "tab\there"):
        with pytest.raises(ValueError, match="at most 64 printable"):
            password_option(bad, {})
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DURAK_PASSWORD": "y" * 65}
    run = subprocess.run(
        [sys.executable, "-m", "client", "host", "--bind", "127.0.0.1", "--port", "0",
         "--no-announce", "--no-save"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert run.returncode == 2 and "printable characters" in run.stdout
