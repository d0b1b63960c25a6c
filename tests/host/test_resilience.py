"""Drops, returns and restarts on real sockets (127.0.0.1): a dropped seat is held, then a
stand-in plays it, and its player takes it back with the right hand; a host killed
mid-bout resumes from its save and the clients come back with their tokens; a corrupt
save is refused and left alone; the turn timer; the handshake timeout, the rate limit and
the connection cap."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest
from harness import FakeLink, Harness
from live import expect, replays, serving

from client.cli.bot import play_bot
from client.cli.main import main as durak
from client.net.client import Backoff, HostClosed, NetClient
from engine import (
    Attack,
    Card,
    GameLog,
    GameState,
    Pass,
    Phase,
    Rules,
    Series,
    Take,
    ThrowIn,
    new_game,
    observe,
)
from host import HostConfig
from host.game import Game, default_move
from host.save import SavedSeat, SaveError, TableSave, encode, save_file
from host.table import Incoming, Seat, TurnUp
from protocol import (
    PROTOCOL_VERSION,
    Ack,
    Act,
    Hello,
    Ping,
    Pong,
    Ready,
    Rejected,
    RoomUpdate,
    SetOptions,
    Snapshot,
    Start,
    Welcome,
)
from protocol import (
    encode as encode_message,
)

ROOT = Path(__file__).resolve().parents[2]
FAST = Backoff(first=0.05, longest=0.3, give_up=60)


async def until(check: Callable[[], bool], seconds: float = 30) -> None:
    async with asyncio.timeout(seconds):
        while not check():
            await asyncio.sleep(0.005)


def test_a_dropped_seat_is_held_then_stood_in_for_then_taken_back() -> None:
    pair = Harness(HostConfig(seats=3, ai=("random",), hold=0.3, seed=11, announce=False))
    table, rng = pair.table, random.Random(1)

    def statuses(link: FakeLink) -> list[tuple[str, ...]]:
        return [tuple(s.status for s in m.room.seats) for m in link.of(RoomUpdate)]

    anna, boris = pair.join("Anna"), pair.join("Boris")
    token = anna.token
    pair.command(boris, lambda ref: Ready(ref, True))
    assert table.seats[1].ready
    pair.command(anna, lambda ref: Start(ref))
    pair.advance(table.config.fair_wait)  # (nobody contributes: the deal is the seed's)
    while table.seq < 4:  # both play random legal actions for a while
        link = next(k for k in (anna, boris) if k.view is not None and k.view.legal)
        pair.send(link, Act(next(link.refs), rng.choice(link.view.legal)))  # type: ignore[union-attr]
    pair.gone(anna)  # Anna's laptop sleeps mid-bout: the connection just breaks
    assert statuses(boris)[-1][0] == "away"
    pair.advance(0.3)  # Boris waits from now on, so the game cannot end meanwhile
    assert statuses(boris)[-1][0] == "stand_in"
    assert table.state is not None and 0 in table.bots
    back = pair.join("Anna", token=token)
    assert back.seat == 0 and back.last(Welcome).room.seats[0].status == "connected"
    snapshot = back.last(Snapshot)
    game_log = table.log
    assert game_log is not None
    at_snapshot = GameLog(
        game_log.rules, game_log.seed, game_log.previous, game_log.actions[: snapshot.seq]
    ).replay()
    assert snapshot.view.hand == at_snapshot.hand(0)  # the right hand, as it was then
    assert statuses(boris)[-1][0] == "connected"
    pair.play_game([back, boris], lambda view: rng.choice(view.legal))
    assert not table.playing and table.series.games == 1
    replays(table)


@pytest.mark.slow
def test_a_host_killed_mid_bout_resumes_and_the_game_finishes(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    base = [sys.executable, "-m", "client", "host", "--bind", "127.0.0.1", "--no-announce",
            "--seats", "3", "--ai", "random", "--hold", "0.3",
            "--save-dir", str(tmp_path)]  # fmt: skip
    hosts: list[subprocess.Popen[str]] = []

    def start(*extra: str) -> int:
        proc = subprocess.Popen(
            [*base, *extra], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
        )
        hosts.append(proc)
        assert proc.stdout is not None
        line = next(line for line in proc.stdout if "listening on" in line)
        return int(line.rsplit(":", 1)[1])

    def kill(proc: subprocess.Popen[str]) -> None:
        if sys.platform == "win32":
            proc.kill()
        else:
            os.kill(proc.pid, signal.SIGKILL)

    async def play(port: int) -> list[Any]:
        killed = asyncio.Event()

        def watch(payload: Any) -> None:  # kill the host once a game is well under way
            if (
                not killed.is_set()
                and payload.get("type") == "update"
                and payload.get("seq", 0) >= 12
            ):
                killed.set()
                kill(hosts[0])

        first = asyncio.create_task(
            play_bot("127.0.0.1", port, "random", 1, seed=1, on_payload=watch, reconnect=FAST)
        )
        await asyncio.sleep(0)  # the first to join owns the room (and starts the game)
        second = asyncio.create_task(
            play_bot("127.0.0.1", port, "random", 1, seed=2, reconnect=FAST)
        )
        await killed.wait()
        await asyncio.get_running_loop().run_in_executor(None, hosts[0].wait)
        assert start("--port", str(port), "--resume") == port
        return list(await asyncio.wait_for(asyncio.gather(first, second), 60))

    try:
        port = start("--port", "0", "--seed", "9")
        reports = asyncio.run(play(port))
        hosts[-1].send_signal(signal.SIGTERM) if sys.platform != "win32" else hosts[-1].kill()
        hosts[-1].wait(30)
    finally:
        for proc in hosts:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()
    assert all(r.reconnects >= 1 for r in reports)
    assert reports[0].results == reports[1].results and len(reports[0].results) == 1
    saved = TableSave.load(save_file(tmp_path, port))
    assert saved.current is None and saved.last is not None and saved.series.games == 1
    state = saved.last.replay()  # the whole game, from before the kill to its end
    assert state.result == reports[0].results[0]
    accounted = sum(len(state.hand(s)) for s in range(state.players))
    accounted += state.stock_size + observe_discard(state) + 2 * len(state.table)
    assert accounted == saved.rules.deck_size  # every card is somewhere, once


def observe_discard(state: GameState) -> int:
    return observe(state, 0).discard_size


SAVED_PORT = 45999  # a port the saves of these tests belong to (never listened on)


def _a_save(tmp_path: Path) -> bytes:
    rules = Rules(players=2)
    game = GameLog(rules, 5)
    state = game.start()
    for _ in range(6):
        seat = next(s for s in range(2) if state.legal_actions(s))
        action = state.legal_actions(seat)[0]
        state.apply(seat, action)
        game.actions.append((seat, action))
    saved = TableSave(
        "Kitchen",
        rules,
        (SavedSeat("human", "Anna", None, "a" * 64), SavedSeat("ai", "Random", "random", None)),
        0,
        Series.new(2),
        1,
        game,
        None,
    )
    path = save_file(tmp_path, SAVED_PORT)
    saved.save(path)
    assert TableSave.load(path) == saved
    return path.read_bytes()


@pytest.mark.parametrize("damage", ["torn", "flipped", "foreign", "empty", "bad_action"])
def test_a_corrupt_save_is_a_clear_error_and_stays_in_place(
    tmp_path: Path, damage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _a_save(tmp_path)
    if damage == "torn":
        bad = good[: len(good) // 2]
    elif damage == "flipped":
        at = good.index(b'"Kitchen"') + 2
        bad = good[:at] + b"X" + good[at + 1 :]
    elif damage == "foreign":
        bad = b'{"format": "something-else", "version": 1}'
    elif damage == "empty":
        bad = b""
    else:  # whole and checksummed, but its actions do not replay
        table = json.loads(good)["table"]
        table["current"]["actions"][0] = [1, "take"]
        bad = encode(table)
    path = save_file(tmp_path, SAVED_PORT)
    path.write_bytes(bad)
    with pytest.raises(SaveError, match=path.name):
        TableSave.load(path)
    code = durak(["host", "--bind", "127.0.0.1", "--port", str(SAVED_PORT), "--no-announce",
                  "--save-dir", str(tmp_path), "--resume"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 1 and "cannot resume" in out and str(path) in out
    assert path.read_bytes() == bad  # left in place, untouched
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary files either


def test_the_default_move_takes_leads_low_or_passes() -> None:
    state = new_game(Rules(players=3), 4)
    attacker = state.attacker
    lead = default_move(state, attacker)
    trump = state.trump
    lowest = min(state.hand(attacker), key=lambda c: (c.suit == trump, c.rank, c.suit))
    assert lead is not None and lead.cards == (lowest,)  # type: ignore[union-attr]
    state.apply(attacker, lead)
    assert default_move(state, state.defender).verb == "take"  # type: ignore[union-attr]


def _cards(text: str) -> list[Card]:
    return [Card.parse(word) for word in text.split()]


def _bout_table(kinds: tuple[str, ...]) -> tuple[Harness, FakeLink]:
    """A 3-seat table at a stacked deal where seat 0 (a human, on the link returned) leads
    6s at seat 1; seat 2 could only throw in its sixes."""
    pair = Harness(HostConfig(seats=3, announce=False))
    table, first = pair.table, FakeLink("P0", wire=False)
    hands = [_cards("6s 7c 8c 9c Tc Jc"), _cards("Ks Qd Jd Td 9d 8d"), _cards("6c 6d Qc Kc Ac 7s")]
    state = GameState.from_deal(Rules(players=3), hands, _cards("7d Ah"))
    table.seats = [Seat(kind, f"P{i}", "random" if kind == "ai" else None, f"{i:032}")
                   for i, kind in enumerate(kinds)]  # fmt: skip
    table.seats[0].link, first.seat = first, 0

    play = Game(1, state, GameLog(state.rules, 0), None, table.uses, [[], [], []])
    play.add_bots({i: "random" for i, kind in enumerate(kinds) if kind == "ai"})
    table.play, table.game = play, 1
    assert state.phase is Phase.LEAD and state.attacker == 0 and state.defender == 1
    return pair, first


def test_the_default_move_never_throws_in() -> None:
    state = _bout_table(("human",) * 3)[0].table.state
    assert state is not None
    state.apply(0, Attack.of("6s"))
    assert any(isinstance(a, ThrowIn) for a in state.legal_actions(2))  # it could throw in...
    assert default_move(state, 2) is None  # ...but the game is not waiting on it
    assert default_move(state, 0) is None  # (nothing to do at all)
    assert default_move(state, 1) == Take()
    state.apply(1, Take())  # now everyone may still add, and the game waits for their pass
    assert default_move(state, 2) == Pass() and default_move(state, 0) == Pass()


def test_the_turn_timer_plays_only_for_seats_the_game_waits_on() -> None:
    # The defender is an AI still thinking: the timer does nothing (it used to throw in for
    # the human who could only add cards).
    pair, first = _bout_table(("human", "ai", "human"))
    table = pair.table  # (handled without settling: the AI's answer stays on its way)
    table.handle(Incoming(first, Act(1, Attack.of("6s"))))
    assert table.bots[1].thinking
    table.handle(TurnUp(table.game, table.seq))
    assert table.log is not None and table.log.actions == [(0, Attack.of("6s"))]
    # All humans: the defender takes; the others were not waited on, so the next time-out
    # passes for them (never a throw-in), and then the next attacker leads its lowest card.
    pair, first = _bout_table(("human",) * 3)
    table = pair.table
    pair.send(first, Act(1, Attack.of("6s")))
    pair.handle(TurnUp(table.game, table.seq))
    assert table.log is not None and table.log.actions[1:] == [(1, Take())]
    pair.handle(TurnUp(table.game, table.seq))
    assert table.log.actions[2:] == [(0, Pass()), (2, Pass())]
    state = table.state
    assert state is not None and state.phase is Phase.LEAD and state.attacker == 2
    pair.handle(TurnUp(table.game, table.seq))
    (seat, lead), *rest = table.log.actions[4:]
    assert seat == 2 and not rest and isinstance(lead, Attack) and len(lead.cards) == 1
    assert lead.cards[0].rank == 6 and lead.cards[0].suit != state.trump
    assert not any(isinstance(a, ThrowIn) for _, a in table.log.actions)


def test_the_turn_timer_plays_for_a_player_who_does_not_act() -> None:
    pair = Harness(HostConfig(seats=2, ai=("random",), turn_timer=0.02, seed=3, announce=False))
    idle = pair.join("Idle")
    pair.command(idle, lambda ref: Start(ref))  # and then never acts: the timer plays for it
    while pair.table.series.games < 1:
        assert pair.scheduler.pending(), "the game waits for the idle player for ever"
        pair.advance(pair.scheduler.pending()[0] - pair.scheduler.clock)
    assert idle.results() and pair.table.errors == 0
    replays(pair.table)


async def raw_replies(port: int, data: bytes) -> list[dict[str, Any]]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(data)
    replies = []
    try:
        while True:
            head = await asyncio.wait_for(reader.readexactly(4), 30)
            replies.append(msgpack.unpackb(await reader.readexactly(int.from_bytes(head, "big"))))
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    writer.close()
    with contextlib.suppress(ConnectionError):
        await writer.wait_closed()
    return replies


async def test_silence_at_the_door_floods_and_crowds_are_turned_away() -> None:
    options: dict[str, Any] = {"handshake_timeout": 0.2, "rate": 5.0, "rate_burst": 10}
    async with serving(seats=4, max_connections=3, **options) as host:
        player = await NetClient.connect("127.0.0.1", host.port, "Anna")
        silent = await raw_replies(host.port, b"")  # connects and says nothing
        assert [r["code"] for r in silent] == ["handshake_timeout"]
        ping = encode_message(Ping(1))
        hello = encode_message(Hello(PROTOCOL_VERSION, "Flood"))
        flood = await raw_replies(host.port, hello + ping * 2000)
        assert flood[-1]["type"] == "goodbye" and flood[-1]["code"] == "rate_limited"
        # Two strangers that never say hello fill the host (with Anna). A player who greets
        # pushes the oldest stranger out; once everyone has greeted, the next is refused.
        strangers = [await asyncio.open_connection("127.0.0.1", host.port) for _ in range(2)]
        await until(lambda: len(host.links) == 3)
        boris = await NetClient.connect("127.0.0.1", host.port, "Boris")
        reader, writer = strangers[0]
        head = await asyncio.wait_for(reader.readexactly(4), 30)
        goodbye = msgpack.unpackb(await reader.readexactly(int.from_bytes(head, "big")))
        assert goodbye["code"] == "busy"
        cleo = await NetClient.connect("127.0.0.1", host.port, "Cleo")
        await until(lambda: sum(not s.closed for s in host.links) == 3)
        with pytest.raises(HostClosed) as refused:
            await NetClient.connect("127.0.0.1", host.port, "Dan")
        assert refused.value.code == "busy"
        for _, writer in strangers:
            writer.close()
        await boris.close()
        await cleo.close()
        ref = player.ping()  # Anna noticed none of it
        assert await expect(player, Pong) == Pong(ref)
        assert isinstance(player.welcome, Welcome)
        await player.close()


def test_the_owner_sets_the_hold_and_the_turn_timer() -> None:
    pair = Harness(HostConfig(seats=2, hold=60, announce=False))
    owner, guest = pair.join("Olga"), pair.join("Gleb")
    assert owner.last(Welcome).room.hold_ms == 60000
    refused = pair.command(guest, lambda ref: SetOptions(ref, 1000, None))
    assert refused == Rejected(refused.ref, "not_owner", "Only the owner of the room can do that.")
    assert isinstance(pair.command(owner, lambda ref: SetOptions(ref, 500, 20000)), Ack)
    room = guest.room
    assert room.turn_ms == 20000 and room.hold_ms == 500
    assert pair.table.hold == 0.5 and pair.table.turn_timer == 20
    pair.command(guest, lambda ref: Ready(ref, True))
    assert pair.table.seats[1].ready
    pair.command(owner, lambda ref: Start(ref))
    pair.advance(pair.table.config.fair_wait)
    assert pair.table.playing
    rejected = pair.command(owner, lambda ref: SetOptions(ref, 1000, None))
    assert isinstance(rejected, Rejected) and rejected.reason == "game_running"


async def test_a_peer_that_stays_after_its_goodbye_is_cut_off() -> None:
    async with serving(seats=2, password="pw") as host:
        reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
        writer.write(encode_message(Hello(PROTOCOL_VERSION, "Eve")))
        head = await asyncio.wait_for(reader.readexactly(4), 30)
        goodbye = msgpack.unpackb(await reader.readexactly(int.from_bytes(head, "big")))
        assert goodbye["code"] == "bad_password"
        await until(lambda: not host.links)  # Eve keeps her end open: the host lets go
        writer.close()


def test_each_port_has_its_own_save_so_two_tables_keep_theirs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert save_file(tmp_path, 45654) != save_file(tmp_path, 45655)
    assert save_file(tmp_path, 45654) == save_file(str(tmp_path), 45654)
    with pytest.raises(ValueError, match="by its port"):
        save_file(tmp_path, 0)
    code = durak(["host", "--bind", "127.0.0.1", "--port", "0", "--no-announce",
                  "--save-dir", str(tmp_path), "--resume"])  # fmt: skip
    assert code == 2 and "--port P" in capsys.readouterr().out
