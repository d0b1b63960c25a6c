"""Watchers, on the socket-free harness: a table is watched in its lobby, full and in a
game; the room's limit bounds the watchers; a watcher's game action and room commands are
refused and change nothing; its reactions reach the seats; it can take a seat that opens
in the lobby; when it drops it is simply gone. On real sockets (127.0.0.1): the host's
door bounds them too, ``durak host --watchers``, ``durak bot --watch`` and a watcher that
answers nothing."""

from __future__ import annotations

import argparse
import asyncio
import random

import pytest
from harness import Harness, ManualScheduler, command_line
from live import serving

from client.cli import bot
from client.cli.main import main
from client.net.client import HostClosed, NetClient
from engine import Take
from host import Host, HostConfig, run_in_thread
from host.audience import SHOW_AFTER
from protocol import (
    PROTOCOL_VERSION,
    Ack,
    Act,
    Connection,
    Contribute,
    Draw,
    Emote,
    Emoted,
    Heartbeat,
    Hello,
    Kick,
    Leave,
    Ready,
    Rejected,
    Role,
    RoomUpdate,
    SetOptions,
    SetSeat,
    Sit,
    Start,
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


def test_a_table_is_watched_in_its_lobby_when_full_and_in_a_game() -> None:
    pair = Harness(HostConfig(seats=2, ai=("random",), seed=5, announce=False, fair_wait=0))
    lobby = pair.join("Wanda", role="watch")
    assert lobby.watching and not lobby.of(Welcome)
    room = lobby.last(Watching).room
    assert room.status == "lobby" and room.watching == ("Wanda",) and room.watchers == 8
    anna = pair.join("Anna")  # the table is full now
    full = pair.join("Wanda", role="watch")  # the same name is told apart
    assert full.last(Watching).room.watching == ("Wanda", "Wanda 2")
    assert all(s.kind != "empty" for s in full.last(Watching).room.seats)
    pair.advance(SHOW_AFTER)  # the players see the watchers a moment later
    assert len(anna.room.watching) == 2
    pair.command(anna, lambda ref: Start(ref))
    first = lobby.of(WatchUpdate)[0]
    assert first.seq == 0
    assert all(getattr(e, "cards", None) is None for e in first.events if hasattr(e, "count"))
    late = pair.join("Late", role="watch")
    snapshot = late.last(WatchSnapshot)
    assert snapshot.game == 1 and sum(snapshot.view.hand_sizes) > 0
    rng = random.Random(1)
    [result] = pair.play_game([anna], lambda view: rng.choice(view.legal))
    for client in (lobby, full, late):  # each watched the game to its end
        ended = client.last(WatchUpdate)
        assert ended.view.result == result


def test_the_room_limits_watchers_and_the_ninth_is_refused() -> None:
    pair = Harness(HostConfig(seats=2, announce=False))
    eight = [pair.join(f"W{i}", role="watch") for i in range(8)]
    ninth = pair.join("Ninth", role="watch")
    assert ninth.closed == "watchers_full"
    assert len(pair.table.audience) == 8
    anna = pair.join("Anna")  # the watchers never keep a player out
    assert anna.seat == 0
    pair.gone(eight[0])
    assert len(pair.table.audience) == 7  # gone at once: no hold
    ninth = pair.join("Ninth", role="watch")  # a place came free
    assert ninth.watching and ninth.closed is None
    assert isinstance(pair.command(anna, lambda ref: SetOptions(ref, 0, None, watchers=0)), Ack)
    tenth = pair.join("Tenth", role="watch")  # the owner's option: nobody more
    assert tenth.closed == "watchers_full" and "no watchers" in tenth.closed_text
    assert len(pair.table.audience) == 8  # a lower limit sends nobody away


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


def test_a_watcher_is_refused_every_action_and_changes_nothing() -> None:
    pair = Harness(HostConfig(seats=2, ai=("random",), seed=9, announce=False, fair_wait=0))
    table = pair.table
    anna = pair.join("Anna")
    wanda = pair.join("Wanda", role="watch")
    for make in (Start, lambda ref: Ready(ref, True), lambda ref: SetSeat(ref, 1, None),
                 lambda ref: Kick(ref, 0)):  # fmt: skip
        refused = pair.command(wanda, make)
        assert isinstance(refused, Rejected) and refused.reason == "watching"
    assert table.state is None and table.seats[1].kind == "ai"
    pair.command(anna, lambda ref: Start(ref))
    assert wanda.of(WatchUpdate)
    assert anna.view is not None and anna.view.legal  # the game waits for Anna alone
    assert table.log is not None
    before, seq = list(table.log.actions), table.seq
    for make in (lambda ref: Act(ref, Take()), Draw, lambda ref: Kick(ref, 0)):
        refused = pair.command(wanda, make)
        assert isinstance(refused, Rejected) and refused.reason == "watching"
    assert table.seq == seq and table.log.actions == before
    assert table.state is not None and table.state.result is None
    pair.send(wanda, Emote("ha"))  # a reaction is what a watcher may send
    assert anna.last(WatcherEmoted) == WatcherEmoted("Wanda", "ha")
    pair.send(anna, Emote("nice"))
    assert wanda.last(Emoted) == Emoted(0, "nice")


def test_a_watcher_takes_a_seat_that_opens_in_the_lobby() -> None:
    pair = Harness(HostConfig(seats=2, announce=False))
    anna, boris = pair.join("Anna"), pair.join("Boris")
    wanda = pair.join("Wanda", role="watch")
    refused = pair.command(wanda, Sit)
    assert isinstance(refused, Rejected) and refused.reason == "no_open_seat"
    pair.command(boris, Leave)
    assert pair.table.seats[1].kind == "empty"
    assert isinstance(pair.command(wanda, Sit), Ack)
    welcome = wanda.last(Welcome)
    assert welcome.seat == 1 and wanda.seat == 1 and not wanda.watching
    room = welcome.room
    assert room.seats[1].name == "Wanda" and room.watching == ()
    pair.gone(wanda)  # a player now: her seat in the lobby is free again
    assert pair.table.seats[1].kind == "empty"
    again = pair.join("Wanda")
    assert again.seat == 1
    assert isinstance(pair.command(again, lambda ref: Ready(ref, True)), Ack)
    assert anna.closed is None


def test_a_watcher_who_sits_down_wears_the_badge_their_hello_chose() -> None:
    pair = Harness(HostConfig(seats=3, announce=False))
    anna = pair.join("Anna", look=2)
    wanda = pair.join("Wanda", role="watch", look=6)
    pair.join("Walter", role="watch")  # (chose none)
    assert isinstance(pair.command(wanda, Sit), Ack)
    assert [s.look for s in wanda.last(Welcome).room.seats] == [2, 6, None]
    assert [s.look for s in anna.last(RoomUpdate).room.seats] == [2, 6, None]


def test_every_request_is_answered_a_watchers_contribution_and_a_players_sit() -> None:
    """A watcher's contribution to a deal and a seated player's sit were left unanswered:
    each gets its refusal now, and neither changes the table."""
    pair = Harness(HostConfig(seats=2, ai=("random",), announce=False, fair_wait=5))
    anna = pair.join("Anna")
    wanda = pair.join("Wanda", role="watch")
    refused = pair.command(anna, Sit)
    assert isinstance(refused, Rejected) and refused.reason == "seated"
    assert anna.seat == 0 and pair.table.seats[0].name == "Anna"
    pair.command(anna, lambda ref: Start(ref))
    deal = pair.table.pending
    assert deal is not None  # the deal waits for Anna's contribution
    refused = pair.command(wanda, lambda ref: Contribute(ref, deal.game, "ab" * 32))
    assert isinstance(refused, Rejected) and refused.reason == "watching"
    assert pair.table.pending is deal and deal.values == {}  # nothing counted


def test_a_seat_cannot_be_taken_during_a_game() -> None:
    pair = Harness(HostConfig(seats=2, ai=("random",), seed=2, announce=False, fair_wait=0))
    anna = pair.join("Anna")
    wanda = pair.join("Wanda", role="watch")
    pair.command(anna, lambda ref: Start(ref))
    assert wanda.of(WatchUpdate)
    refused = pair.command(wanda, Sit)
    assert isinstance(refused, Rejected) and refused.reason == "game_running"


def test_a_watchers_password_is_the_tables() -> None:
    pair = Harness(HostConfig(seats=2, password="secret", announce=False))
    assert pair.join("Wanda", password="wrong", role="watch").closed == "bad_password"
    wanda = pair.join("Wanda", password="secret", role="watch")
    assert wanda.watching and wanda.last(Watching).room.password


def test_durak_host_watchers_sets_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """``durak host --watchers`` (its ``main``, in this process) gives the table its limit."""
    pair = Harness(command_line(monkeypatch, "--watchers", "1"))
    first, second = pair.join("One", role="watch"), pair.join("Two", role="watch")
    assert first.last(Watching).room.watchers == 1 and first.closed is None
    assert second.closed == "watchers_full"


def test_durak_host_refuses_a_watcher_limit_out_of_range(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit:  # (the ``durak`` command's ``main``, in here)
        main(["host", "--watchers", "65"])
    assert exit.value.code == 2 and "0 to 64 watchers" in capsys.readouterr().err


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
    """Watchers have the heartbeat too, on the host's clock (moved by hand)."""
    clock = ManualScheduler()
    async with serving(clock, seats=2, silence=1.0) as host:
        reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
        writer.write(encode(Hello(PROTOCOL_VERSION, "Mute", role="watch")))  # then nothing
        async with asyncio.timeout(30):
            while not host.table.audience:
                await asyncio.sleep(0.01)
        clock.advance(1.2)  # asked after a third of the silence, cut after all of it
        conn = Connection(Role.CLIENT)
        conn.receive_data(await asyncio.wait_for(reader.read(), 30))  # all up to the cut
        sent = []
        while (message := conn.next_message()) is not None:
            sent.append(message)
        assert isinstance(sent[0], Watching) and Heartbeat(1) in sent  # asked before let go
        async with asyncio.timeout(30):
            while host.table.audience:  # the table saw it go
                await asyncio.sleep(0.01)
        writer.close()


class CountingDisk:
    """A disk that only counts the saves it is handed (the lobby rewrites its save file)."""

    problem = None

    def __init__(self) -> None:
        self.saves = 0

    def save(self, saved: object) -> int:
        self.saves += 1
        return 0


def test_watchers_coming_and_going_reach_the_players_coalesced_and_no_save() -> None:
    """A churn of watchers sent every player a room update (and rewrote the save) for each
    coming and going: now one update shows them all a moment later, and the save, which
    holds no watcher, is left alone."""
    pair = Harness(HostConfig(seats=2, announce=False))
    anna = pair.join("Anna")
    disk = CountingDisk()
    pair.table.disk = disk  # type: ignore[assignment]
    before = len(anna.of(RoomUpdate))
    for n in range(30):
        pair.gone(pair.join(f"W{n}", role="watch"))
    vera = pair.join("Vera", role="watch")
    assert vera.last(Watching).room.watching == ("Vera",)  # her own welcome at once
    assert len(anna.of(RoomUpdate)) == before
    pair.advance(SHOW_AFTER)
    updates = anna.of(RoomUpdate)[before:]
    assert [u.room.watching for u in updates] == [("Vera",)]
    assert disk.saves == 0
    pair.gone(vera)
    pair.advance(SHOW_AFTER)
    assert anna.room.watching == () and disk.saves == 0
