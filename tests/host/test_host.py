"""The host: games of 2-6 seats from lobby to result, an all-AI table, the owner's
commands, the ready marks, every AI level and the emotes on the socket-free harness
(tests/host/harness.py); end to end on real sockets (127.0.0.1, port 0, no announcement):
``durak bot`` clients' games, reconnecting, refusals, AI thinking off the loop, a clean
shutdown, the in-thread host and the ``durak host`` / ``durak bot`` commands."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import signal
import socket
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import msgpack
import pytest
from harness import FakeLink, Harness
from live import LOCAL, expect, replays, serving

from client.cli.bot import play_bot
from client.cli.main import main
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
    Ready,
    Rejected,
    RoomUpdate,
    SetRules,
    SetSeat,
    Snapshot,
    Start,
    UnplayableRules,
    Update,
    Welcome,
    encode,
    frame,
)

ROOT = Path(__file__).resolve().parents[2]


def rematches(pair: Harness, links: list[FakeLink], games: int, seed: int) -> list[list[Any]]:
    """``links`` play ``games`` games: the owner starts each once the others are ready (as
    ``durak bot`` does); every link's results."""
    rng = random.Random(seed)
    for _ in range(games):
        owner = next(link for link in links if link.seat == pair.table.owner)
        for link in links:
            if link is not owner:
                assert isinstance(pair.command(link, lambda ref: Ready(ref, True)), Ack)
        assert isinstance(pair.command(owner, lambda ref: Start(ref)), Ack)
        pair.play_game(links, lambda view: rng.choice(view.legal))
    return [link.results() for link in links]


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_games_from_lobby_to_result(seats: int) -> None:
    """Players join; the first owns the room and starts each game (no autostart)."""
    humans = max(1, seats // 2)
    ai = ("random",) * (seats - humans)
    pair = Harness(replace(LOCAL, seats=seats, ai=ai, seed=seats))
    links = [pair.join(f"Bot {i}") for i in range(humans)]
    results = rematches(pair, links, 3, seats)
    for seat, (link, seen) in enumerate(zip(links, results, strict=True)):
        assert link.seat == seat and len(seen) == 3
        assert all(len(r.places) == seats for r in seen)
    assert pair.table.game == 3
    assert pair.table.series.games == 3  # the series is kept across rematches
    assert results[1:] == [results[0]] * (humans - 1)
    replays(pair.table)


async def test_bot_clients_play_games_over_sockets() -> None:
    """End to end: ``durak bot`` clients join; the first owns the room and starts each game
    (its AI seat thinks in a worker process, as a shipped host's do)."""
    async with serving(seats=3, ai=("random",), seed=3, ai_processes=True) as host:
        reports = await asyncio.wait_for(
            asyncio.gather(
                *(play_bot("127.0.0.1", host.port, "random", 2, seed=i) for i in range(2))
            ),
            60,
        )
        for seat, report in enumerate(reports):
            assert report.seat == seat and len(report.results) == 2
        assert host.table.series.games == 2 and reports[0].results == reports[1].results
        replays(host.table)


async def test_bots_that_think_play_their_game_through() -> None:
    """Bots that think before each action (``--think``), and think again whenever the
    game goes on meanwhile, still play their game to its end."""
    async with serving(seats=3, ai=("random",), seed=5) as host:
        reports = await asyncio.wait_for(
            asyncio.gather(
                *(
                    play_bot("127.0.0.1", host.port, "random", 1, seed=i, think=0.01)
                    for i in range(2)
                )
            ),
            60,
        )
    assert [len(report.results) for report in reports] == [1, 1]


def test_autostart_runs_headless_tables() -> None:
    pair = Harness(replace(LOCAL, seats=4, ai=("random", "random"), autostart=True, seed=3))
    links = [pair.join(f"Bot {i}") for i in range(2)]
    rng = random.Random(3)
    for _ in range(5):
        pair.play_game(links, lambda view: rng.choice(view.legal))
    assert all(len(link.results()) == 5 for link in links)
    replays(pair.table)


def test_an_all_ai_table_plays_its_games() -> None:
    pair = Harness(replace(LOCAL, seats=3, ai=("random",) * 3, autostart=True, max_games=4))
    pair.table.open()  # (as the host's table task does first)
    pair.settle()
    assert len(pair.table.logs) == 4 and not pair.table.playing  # and no fifth game
    replays(pair.table)


def test_the_owner_sets_rules_and_seats_and_starts() -> None:
    pair = Harness(replace(LOCAL, seats=2))
    owner, guest = pair.join("Olga"), pair.join("Gleb")
    assert owner.last(Welcome).room.owner == 0
    rejected = pair.command(guest, lambda ref: Start(ref))
    assert rejected == Rejected(rejected.ref, "not_owner", rejected.text)

    rules = Rules(players=3, deck_size=52, transfer=True)
    answer = pair.command(owner, lambda ref: SetRules(ref, rules))
    assert isinstance(answer, Ack) and answer.seq is None
    room = guest.room
    assert room.rules == rules and [s.kind for s in room.seats] == ["human", "human", "empty"]

    # Rules that cannot be dealt (24 cards, 6 players) are refused, not a protocol error:
    # the owner keeps the seat and the room its rules.
    options = {**rules.to_dict(), "players": 6, "deck_size": 24}
    pair.send(owner, SetRules(40, UnplayableRules(tuple(options.items()), "(the host says why)")))
    rejected = owner.last(Rejected)
    assert (rejected.ref, rejected.reason) == (40, "bad_rules") and owner.closed is None
    assert pair.table.rules == rules and len(pair.table.seats) == 3

    assert pair.command(owner, lambda ref: Start(ref)).reason == "seats_empty"
    assert (
        pair.command(owner, lambda ref: SetSeat(ref, 2, "no-such-level")).reason == "unknown_level"
    )
    assert pair.command(owner, lambda ref: SetSeat(ref, 1, "random")).reason == "seat_taken"
    assert isinstance(pair.command(owner, lambda ref: SetSeat(ref, 2, "random")), Ack)
    assert isinstance(pair.command(guest, lambda ref: Ready(ref, True)), Ack)

    assert isinstance(pair.command(owner, lambda ref: Start(ref)), Ack)
    pair.advance(pair.table.config.fair_wait)  # (nobody contributes: the deal is the seed's)
    update = guest.of(Update)[0]
    assert update.seq == 0 and update.view.rules == rules
    refused = pair.command(owner, lambda ref: SetRules(ref, Rules(players=3)))
    assert refused.reason == "game_running"


def test_the_start_waits_for_the_other_players_ready_marks() -> None:
    pair = Harness(replace(LOCAL, seats=3, ai=("random",)))
    owner, guest = pair.join("Olga"), pair.join("Gleb")
    rejected = pair.command(owner, lambda ref: Start(ref))
    assert rejected == Rejected(
        rejected.ref, "not_ready", "Every other player must be ready first."
    )
    assert isinstance(pair.command(guest, lambda ref: Ready(ref, True)), Ack)
    assert [s.ready for s in owner.room.seats] == [False, True, True]
    assert isinstance(pair.command(owner, lambda ref: Start(ref)), Ack)
    pair.advance(pair.table.config.fair_wait)
    assert guest.of(Update)
    rejected = pair.command(guest, lambda ref: Ready(ref, False))
    assert rejected.reason == "game_running"


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_ai_level_plays_a_game_at_the_host(level: str) -> None:
    """Each level of ``engine.ai.LEVELS`` (levels added later appear here by themselves)."""
    spec = f"{level}:0.02" if level in PARAMETERS else level  # (hard's: a time budget)
    config = replace(LOCAL, seats=2, ai=(spec,), autostart=True, max_games=1, seed=2)
    pair = Harness(config, workers=None)
    player = pair.join("Bot")
    rng = random.Random(1)
    assert len(pair.play_game([player], lambda view: rng.choice(view.legal))) == 1
    room = player.room
    assert room.seats[1].kind == "ai" and room.seats[1].level == spec
    assert pair.table.errors == 0
    replays(pair.table)


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

    async def told(client: NetClient) -> str:
        """The code of the goodbye the client reads (it then closes, as a client does)."""
        with pytest.raises(HostClosed) as info:
            while True:
                await client.receive()
        await client.close()
        return info.value.code

    *codes, _ = await asyncio.gather(*(told(c) for c in clients), host.stop())
    assert codes == ["shutdown", "shutdown"]
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
    config = HostConfig(seats=2, ai=("random",), announce=False, autostart=True)
    handle = run_in_thread(replace(config, ai_processes=False))  # (see test_workers.py)
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


def test_bad_command_lines(capsys: pytest.CaptureFixture[str]) -> None:
    """Through the ``durak`` command's ``main``, in this process (``python -m client`` is
    ``raise SystemExit(main())``; test_the_host_and_bot_commands runs the real processes)."""
    assert main(["bot", "--connect", "nowhere", "--games", "1"]) == 2
    assert "HOST:PORT" in capsys.readouterr().out
    command = ["host", "--seats", "2", "--ai", "random,random,random", "--bind", "127.0.0.1"]
    assert main([*command, "--no-announce", "--no-save"]) == 2
    assert "do not fit 2 seats" in capsys.readouterr().out


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


def test_leaving_the_lobby_frees_the_seat_and_passes_the_room_on() -> None:
    pair = Harness(replace(LOCAL, seats=3))
    first, second = pair.join("Olga"), pair.join("Gleb")
    pair.gone(first)
    room = second.room
    assert room.seats[0].kind == "empty" and room.owner == second.seat == 1
    third = pair.join("Vera")
    assert third.seat == 0 and third.last(Welcome).room.owner == 1


async def test_a_port_in_use_is_an_error_and_leaves_nothing_behind() -> None:
    async with serving(seats=2) as host:
        other = Host(replace(LOCAL, port=host.port))
        with pytest.raises(OSError):
            await other.start()
        assert not other.doorway.tasks and other._table_task is None


def test_an_emote_is_relayed_to_every_seat_and_a_flood_is_dropped() -> None:
    pair = Harness(replace(LOCAL, seats=3))  # (its clock stands still unless advanced)
    anna, gleb = pair.join("Anna"), pair.join("Gleb")
    read = {anna: len(anna.sent), gleb: len(gleb.sent)}

    def emotes(link: FakeLink) -> list[Emoted]:
        """The emotes relayed to ``link`` since it last looked."""
        new, read[link] = link.sent[read[link] :], len(link.sent)
        return [m for m in new if isinstance(m, Emoted)]

    for code in ("nice", "oops", "ha", "hurry", "nice"):  # a flood within the gap
        pair.send(anna, Emote(code))
    assert emotes(anna) == [Emoted(0, "nice")]
    assert emotes(gleb) == [Emoted(0, "nice")]
    pair.send(gleb, Emote("well_played"))  # another seat has a gap of its own
    assert emotes(gleb) == [Emoted(1, "well_played")]
    pair.advance(2.5)  # and once the gap has passed, Anna may react again
    pair.send(anna, Emote("ha"))
    assert emotes(anna) == [Emoted(1, "well_played"), Emoted(0, "ha")]
    assert emotes(gleb) == [Emoted(0, "ha")]


def test_a_password_comes_from_the_option_or_the_environment_and_must_be_sendable(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from client.cli.options import password_option

    assert password_option("open sesame", {}) == "open sesame"
    assert password_option(None, {"DURAK_PASSWORD": "from env"}) == "from env"
    assert password_option("given", {"DURAK_PASSWORD": "from env"}) == "given"
    assert password_option(None, {}) is None and password_option("", {}) is None
    for bad in ("x" * 65, "tab\there"):
        with pytest.raises(ValueError, match="at most 64 printable"):
            password_option(bad, {})
    with pytest.MonkeyPatch.context() as patch:  # (the ``durak`` command, as above)
        patch.setenv("DURAK_PASSWORD", "y" * 65)
        code = main(["host", "--bind", "127.0.0.1", "--port", "0", "--no-announce", "--no-save"])
    assert code == 2 and "printable characters" in capsys.readouterr().out
