"""Watchers on real sockets (127.0.0.1): a table is watched in its lobby, full and in a
game; the room's limit and the host's door bound the watchers; a watcher's game action
and room commands are refused and change nothing; its reactions reach the seats; it can
take a seat that opens in the lobby; when it drops it is simply gone."""

from __future__ import annotations

import argparse
import asyncio
import signal
import subprocess
import sys

import pytest
from test_host import ROOT, expect, serving

from client.cli import bot
from client.cli.bot import BotPlayer
from client.net.client import HostClosed, NetClient
from engine import Take
from host import Host, HostConfig, run_in_thread
from protocol import (
    PROTOCOL_VERSION,
    Ack,
    Connection,
    Emoted,
    Heartbeat,
    Hello,
    Rejected,
    Role,
    RoomUpdate,
    WatcherEmoted,
    Watching,
    WatchSnapshot,
    WatchUpdate,
    Welcome,
    encode,
)


async def watcher(host: Host, name: str = "Wanda", **options: object) -> NetClient:
    return await NetClient.connect("127.0.0.1", host.port, name, watch=True, **options)  # type: ignore[arg-type]


async def player(host: Host, name: str) -> NetClient:
    return await NetClient.connect("127.0.0.1", host.port, name)


async def until(check: object, seconds: float = 30) -> None:
    """Wait (bounded) until ``check()`` is true."""
    async with asyncio.timeout(seconds):
        while not check():  # type: ignore[operator]
            await asyncio.sleep(0.005)


def waits_for_anna(host: Host) -> bool:
    """The game waits for seat 0 alone (its AI opponent has nothing to think about)."""
    state = host.table.state
    return (
        state is not None
        and bool(state.legal_actions(0))
        and not any(slot.thinking for slot in host.table.bots.values())
    )


async def test_a_table_is_watched_in_its_lobby_when_full_and_in_a_game() -> None:
    async with serving(seats=2, ai=("random",), seed=5) as host:
        lobby = await watcher(host)
        assert lobby.watching is not None and lobby.welcome is None
        room = lobby.watching.room
        assert room.status == "lobby" and room.watching == ("Wanda",) and room.watchers == 8
        anna = await player(host, "Anna")  # the table is full now
        full = await watcher(host, "Wanda")  # the same name is told apart
        assert full.watching is not None
        assert full.watching.room.watching == ("Wanda", "Wanda 2")
        assert all(s.kind != "empty" for s in full.watching.room.seats)
        seen = await expect(anna, RoomUpdate, lambda m: len(m.room.watching) == 2)  # type: ignore[attr-defined]
        assert seen is not None
        anna.start()
        first = await expect(lobby, WatchUpdate)
        assert isinstance(first, WatchUpdate) and first.seq == 0
        assert all(getattr(e, "cards", None) is None for e in first.events if hasattr(e, "count"))
        late = await watcher(host, "Late")
        snapshot = await expect(late, WatchSnapshot)
        assert isinstance(snapshot, WatchSnapshot) and snapshot.game == 1
        assert sum(snapshot.view.hand_sizes) > 0
        report = await asyncio.wait_for(BotPlayer(anna, "random", 1, seed=1).play(), 60)
        assert len(report.results) == 1
        for client in (lobby, full, late):  # each watched the game to its end
            ended = await expect(client, WatchUpdate, lambda m: m.view.result is not None)  # type: ignore[attr-defined]
            assert isinstance(ended, WatchUpdate) and ended.view.result == report.results[0]
            await client.close()
        await anna.close()


async def test_the_room_limits_watchers_and_the_ninth_is_refused() -> None:
    async with serving(seats=2) as host:
        eight = [await watcher(host, f"W{i}") for i in range(8)]
        with pytest.raises(HostClosed) as info:
            await watcher(host, "Ninth")
        assert info.value.code == "watchers_full"
        assert len(host.table.audience) == 8
        anna = await player(host, "Anna")  # the watchers never keep a player out
        assert anna.seat == 0
        await eight[0].close()
        await until(lambda: len(host.table.audience) == 7)  # gone at once: no hold
        ninth = await watcher(host, "Ninth")  # a place came free
        assert ninth.watching is not None
        ref = anna.set_options(0, None, watchers=0)  # the owner's option: nobody more
        await expect(anna, Ack, lambda m: m.ref == ref)  # type: ignore[attr-defined]
        with pytest.raises(HostClosed) as info:
            await watcher(host, "Tenth")
        assert info.value.code == "watchers_full" and "no watchers" in info.value.text
        assert len(host.table.audience) == 8  # a lower limit sends nobody away
        for client in (*eight[1:], ninth, anna):
            await client.close()


async def test_watchers_take_the_doors_slots_but_leave_one_for_every_seat() -> None:
    async with serving(seats=2, max_connections=4) as host:
        first, second = await watcher(host, "A"), await watcher(host, "B")
        with pytest.raises(HostClosed) as info:
            await watcher(host, "C")  # two slots are the seats'
        assert info.value.code == "watchers_full"
        anna, boris = await player(host, "Anna"), await player(host, "Boris")
        assert (anna.seat, boris.seat) == (0, 1)
        for client in (first, second, anna, boris):
            await client.close()


async def test_a_watcher_is_refused_every_action_and_changes_nothing() -> None:
    async with serving(seats=2, ai=("random",), seed=9) as host:
        anna = await player(host, "Anna")
        wanda = await watcher(host)
        refs = [wanda.start(), wanda.ready(), wanda.set_seat(1, None), wanda.kick(0)]
        for ref in refs:
            refused = await expect(wanda, Rejected, lambda m, r=ref: m.ref == r)  # type: ignore[attr-defined]
            assert isinstance(refused, Rejected) and refused.reason == "watching"
        assert host.table.state is None and host.table.seats[1].kind == "ai"
        anna.start()
        await expect(wanda, WatchUpdate)
        await until(lambda: waits_for_anna(host))  # nothing moves until Anna does
        assert host.table.log is not None
        before, seq = list(host.table.log.actions), host.table.seq
        for ref in (wanda.act(Take()), wanda.draw(), wanda.kick(0)):
            refused = await expect(wanda, Rejected, lambda m, r=ref: m.ref == r)  # type: ignore[attr-defined]
            assert isinstance(refused, Rejected) and refused.reason == "watching"
        assert host.table.seq == seq and host.table.log.actions == before
        assert host.table.state is not None and host.table.state.result is None
        wanda.emote("ha")  # a reaction is what a watcher may send
        cheer = await expect(anna, WatcherEmoted)
        assert cheer == WatcherEmoted("Wanda", "ha")
        anna.emote("nice")
        back = await expect(wanda, Emoted)
        assert back == Emoted(0, "nice")
        await wanda.close()
        await anna.close()


async def test_a_watcher_takes_a_seat_that_opens_in_the_lobby() -> None:
    async with serving(seats=2) as host:
        anna, boris = await player(host, "Anna"), await player(host, "Boris")
        wanda = await watcher(host)
        ref = wanda.sit()
        refused = await expect(wanda, Rejected, lambda m: m.ref == ref)  # type: ignore[attr-defined]
        assert isinstance(refused, Rejected) and refused.reason == "no_open_seat"
        boris.leave()
        await until(lambda: host.table.seats[1].kind == "empty")
        ref = wanda.sit()
        await expect(wanda, Ack, lambda m: m.ref == ref)  # type: ignore[attr-defined]
        welcome = await expect(wanda, Welcome)
        assert isinstance(welcome, Welcome) and welcome.seat == 1
        assert wanda.seat == 1 and wanda.watching is None
        room = welcome.room
        assert room.seats[1].name == "Wanda" and room.watching == ()
        await wanda.close()  # a player now: the seat's token brings her back
        await until(lambda: host.table.seats[1].kind == "empty")
        again = await NetClient.connect("127.0.0.1", host.port, "Wanda")
        assert again.seat == 1
        ref = again.ready()
        await expect(again, Ack, lambda m: m.ref == ref)  # type: ignore[attr-defined]
        await again.close()
        await anna.close()


async def test_a_seat_cannot_be_taken_during_a_game() -> None:
    async with serving(seats=2, ai=("random",), seed=2) as host:
        anna = await player(host, "Anna")
        wanda = await watcher(host)
        anna.start()
        await expect(wanda, WatchUpdate)
        ref = wanda.sit()
        refused = await expect(wanda, Rejected, lambda m: m.ref == ref)  # type: ignore[attr-defined]
        assert isinstance(refused, Rejected) and refused.reason == "game_running"
        await wanda.close()
        await anna.close()


async def test_a_watchers_password_is_the_tables() -> None:
    async with serving(seats=2, password="secret") as host:
        with pytest.raises(HostClosed) as info:
            await watcher(host, password="wrong")
        assert info.value.code == "bad_password"
        wanda = await watcher(host, password="secret")
        assert wanda.watching is not None and wanda.watching.room.password
        await wanda.close()


def test_durak_host_watchers_sets_the_limit() -> None:
    host = subprocess.Popen(
        [sys.executable, "-m", "client", "host", "--bind", "127.0.0.1", "--port", "0",
         "--no-announce", "--no-save", "--watchers", "1"],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert host.stdout is not None
        port = next(int(line.rsplit(":", 1)[1]) for line in host.stdout if "listening on" in line)

        async def watch() -> tuple[int, str]:
            first = await NetClient.connect("127.0.0.1", port, "One", watch=True)
            assert first.watching is not None
            with pytest.raises(HostClosed) as info:
                await NetClient.connect("127.0.0.1", port, "Two", watch=True)
            await first.close()
            return first.watching.room.watchers, info.value.code

        assert asyncio.run(watch()) == (1, "watchers_full")
    finally:
        host.send_signal(signal.SIGINT if sys.platform != "win32" else signal.SIGTERM)
        host.communicate(timeout=30)


def test_durak_host_refuses_a_watcher_limit_out_of_range() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "client", "host", "--watchers", "65"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and "0 to 64 watchers" in done.stderr


def test_durak_bot_watch_prints_a_game_to_its_end(capsys: pytest.CaptureFixture[str]) -> None:
    config = HostConfig(
        bind="127.0.0.1",
        seats=2,
        ai=("random",) * 2,
        autostart=True,
        announce=False,
        ai_processes=False,
    )
    with run_in_thread(config) as handle:
        parser = argparse.ArgumentParser()
        bot.add_arguments(parser)
        args = parser.parse_args(["--connect", f"127.0.0.1:{handle.port}", "--watch"])
        assert bot.run(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("room 'Durak table'")
    assert any(": -- seat " in line and "attacks seat" in line for line in lines)
    assert "the game is over" in lines[-1] or "a draw" in lines[-1]
    assert not any("dealt 6 cards:" in line for line in lines)  # nobody's cards are shown


async def test_a_watcher_that_answers_nothing_is_dropped() -> None:
    async with serving(seats=2, silence=1.0) as host:
        anna = await player(host, "Anna")
        reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
        writer.write(encode(Hello(PROTOCOL_VERSION, "Mute", role="watch")))  # then nothing
        await expect(anna, RoomUpdate, lambda m: m.room.watching == ("Mute",))  # type: ignore[attr-defined]
        await expect(anna, RoomUpdate, lambda m: m.room.watching == ())  # type: ignore[attr-defined]
        conn = Connection(Role.CLIENT)
        conn.receive_data(await reader.read())  # all it was sent, up to the cut
        sent = []
        while (message := conn.next_message()) is not None:
            sent.append(message)
        assert isinstance(sent[0], Watching) and Heartbeat(1) in sent  # asked before let go
        writer.close()
        await anna.close()
