"""A party over loopback: twelve bot clients play a night of three rounds at tables of
four with AI fills, and the standings are checked against the games' results; bad input
on the party's port is refused and changes nothing."""

from __future__ import annotations

import asyncio
import contextlib
import threading

import msgpack
import pytest

from client.cli.party_bot import PartyReport, play_party
from client.net.client import HostClosed
from client.net.party import PartyClient
from engine import Rules
from host import Host
from host.party import Game, standings
from host.party.round_tables import HostOpener
from host.party.server import PartyConfig, PartyHost
from protocol import (
    PROTOCOL_VERSION,
    Goodbye,
    Join,
    Night,
    PartyConnection,
    PartyUpdate,
    Rejected,
    UnplayableRules,
    frame,
    party_encode,
)


def config(**changes: object) -> PartyConfig:
    base = {
        "setup": Night(Rules(players=4), rounds=3),
        "seed": 26,
        "break_s": 1.0,
        "gather": 10.0,
        "hold": 10.0,
        "linger": 1.0,
        "announce": False,
        "ai_processes": False,
        "fair_wait": 0.5,
    } | changes
    return PartyConfig(**base)  # type: ignore[arg-type]


@pytest.mark.slow
def test_twelve_bots_play_a_night_and_the_standings_follow_their_games() -> None:
    """Ten bots start the night (three tables: 4, 3 and 3 players, two AI fills); two more
    join during round 1 and play rounds 2 and 3 (three full tables), and one of the ten
    leaves the party after round 2 (round 3: 11 players, one AI fill)."""

    async def night() -> tuple[list[PartyReport], PartyHost]:
        host = PartyHost(config(start_with=10))
        await host.start()
        try:
            first = [
                asyncio.create_task(
                    play_party(
                        "127.0.0.1",
                        host.port,
                        f"Bot {i}",
                        seed=i,
                        leave_after=2 if i == 9 else None,
                    )
                )
                for i in range(10)
            ]
            while host.night.round is None:
                await asyncio.sleep(0.02)
            late = [
                asyncio.create_task(play_party("127.0.0.1", host.port, f"Late {i}", seed=20 + i))
                for i in range(2)
            ]
            reports = await asyncio.wait_for(asyncio.gather(*first, *late), 90)
        finally:
            await host.stop()
        return reports, host

    reports, host = asyncio.run(night())
    party = host.view()
    assert party.status == "over" and party.round == 3 and party.final
    rounds = {game.round: [] for game in host.night.games}  # type: dict[int, list[Game]]
    for game in host.night.games:
        rounds[game.round].append(game)
    assert sorted(rounds) == [1, 2, 3]
    assert [sum(who is None for g in rounds[r] for who in g.seats) for r in (1, 2, 3)] == [2, 0, 1]
    # Every bot's own view of its games, scored independently of the party host:
    by_name = {p.name: p for p in party.players}
    played: list[Game] = []
    for report in reports:
        me = by_name[report.name]
        wins = losses = 0
        rounds_played = 2 if report.name.startswith("Late") or report.name == "Bot 9" else 3
        assert len(report.results) == rounds_played
        for table in report.tables:
            seat, result = report.results[table.round]
            assert table.names[seat] == report.name
            won = result.places[seat] == 1 and not all(p == 1 for p in result.places)
            wins += won
            losses += result.durak == seat
            seats = tuple(str(by_name[n].id) if n else None for n in table.names)
            played.append(Game(table.round, table.table, seats, result))
        assert (me.games, me.wins, me.losses) == (len(report.results), wins, losses)
        assert report.unfair == 0  # every deal verified at every table
        assert report.told == 0  # every result seen at the table itself
    # The same games as the bots saw them, ranked by the scoring rules, rank the same:
    assert by_name["Bot 9"].status == "left" and by_name["Bot 9"].table is None
    unique = {(g.round, g.table): g for g in played}
    assert len(unique) == 9
    ranked = standings([str(p) for p in range(12)], list(unique.values()))
    assert [int(s.player) for s in ranked] == [p.id for p in party.players]
    assert [s.rank for s in ranked] == [p.rank for p in party.players]


@pytest.mark.slow
def test_the_nights_ai_thinks_in_one_pool_started_with_the_party() -> None:
    """Every round's tables play their AI seats in the party's threads and worker
    processes, all started with the party: no table starts one of its own at its first AI
    move (a thread's start held up the other tables' moves: tests/benchmarks/party_load.py)."""

    def ai_threads() -> set[int | None]:
        return {t.ident for t in threading.enumerate() if t.name.startswith("durak-ai")}

    async def night() -> tuple[PartyHost, set[object], list[int | None], list[int | None]]:
        setup = Night(Rules(players=4), rounds=2)
        host = PartyHost(config(setup=setup, start_with=3, ai_processes=True))
        await host.start()
        opener = host.tables.opener
        assert isinstance(opener, HostOpener)
        pool = opener.ai
        assert pool is not None and pool.workers is not None
        started = [p.pid for p in pool.workers.processes()]
        threads = ai_threads()
        lent: set[object] = set()
        try:
            bots = [
                asyncio.create_task(play_party("127.0.0.1", host.port, f"Bot {i}", seed=i))
                for i in range(3)
            ]
            while not all(bot.done() for bot in bots):
                for table in host.tables.hosts.values():
                    assert isinstance(table, Host)
                    lent.add((table.executor is pool.executor, table.workers is pool.workers))
                await asyncio.sleep(0.01)
            await asyncio.wait_for(asyncio.gather(*bots), 90)
            assert ai_threads() == threads
            return host, lent, started, [p.pid for p in pool.workers.processes()]
        finally:
            await host.stop()

    host, lent, started, ended = asyncio.run(night())
    assert host.night.status == "over" and len(host.night.games) == 2
    assert all(None in game.seats for game in host.night.games)  # an AI played each game
    assert lent == {(True, True)} and len(started) >= 1 and ended == started


async def raw(port: int, *payloads: bytes) -> list[object]:
    """Send ``payloads`` on a fresh party connection; what came back, to the close."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    conn = PartyConnection(host=False)
    for payload in payloads:
        writer.write(payload)
    out: list[object] = []
    with contextlib.suppress(ConnectionError):
        while data := await asyncio.wait_for(reader.read(65536), 5):
            conn.receive_data(data)
            while (message := conn.next_message()) is not None:
                out.append(message)
    writer.close()
    return out


def test_bad_input_on_the_party_port_is_refused_clearly_and_changes_nothing() -> None:
    async def check() -> None:
        async with PartyHost(config()) as host:
            anna = await PartyClient.connect("127.0.0.1", host.port, "Anna")
            before = host.night.to_dict()
            join = Join(PROTOCOL_VERSION, "Oleg")
            cases = [
                (frame(b"\xc1"), "bad_frame"),
                ((2**20).to_bytes(4, "big"), "frame_too_large"),
                (frame(msgpack.packb({"type": "party_start", "ref": 1})), "bad_message"),
                (party_encode(Join(4, "Old")), "version_mismatch"),
                (party_encode(join) + frame(msgpack.packb({"type": "join"})), "bad_message"),
                (party_encode(Join(PROTOCOL_VERSION, "Board", "0" * 32, "board")), "bad_token"),
                (party_encode(Join(PROTOCOL_VERSION, "Oleg", "f" * 32)), "bad_token"),
                (party_encode(Join(PROTOCOL_VERSION, "anna")), "name_taken"),
            ]
            for payload, code in cases:
                answer = await raw(host.port, payload)
                goodbye = answer[-1]
                assert isinstance(goodbye, Goodbye) and goodbye.code == code, (code, answer)
                assert goodbye.text and "Traceback" not in goodbye.text
            # Oleg's join before his bad message stands; nothing else changed.
            assert [p.name for p in host.night.players] == ["Anna", "Oleg"]
            assert host.night.to_dict()["games"] == before["games"] == []
            # A player who is not the organiser is refused and the party goes on.
            vera = await PartyClient.connect("127.0.0.1", host.port, "Vera")
            ref = vera.start()
            answer = await vera.receive()
            while not isinstance(answer, Rejected):
                answer = await vera.receive()
            assert (answer.ref, answer.reason) == (ref, "not_organiser")
            assert host.night.status == "gathering"
            asked = Rules(players=4).to_dict() | {"players": 6, "deck_size": 24}
            ref = anna.set_up(UnplayableRules(tuple(asked.items()), ""), 2, None, True, "normal")
            answer = await anna.receive()
            while not isinstance(answer, Rejected):
                answer = await anna.receive()
            assert answer.reason == "bad_rules" and "cannot be played" in answer.text
            await anna.close()
            await vera.close()

    asyncio.run(check())


def test_a_board_watches_and_a_player_leaves_and_comes_back() -> None:
    async def check() -> None:
        async with PartyHost(config()) as host:
            board = await PartyClient.connect("127.0.0.1", host.port, "TV", board=True)
            assert board.player is None and board.token is None
            anna = await PartyClient.connect("127.0.0.1", host.port, "Anna")
            message = await board.receive()
            assert isinstance(message, PartyUpdate) and message.party.players[0].name == "Anna"
            assert message.party.organiser == anna.player
            ref = board.start()
            answer = await board.receive()
            assert isinstance(answer, Rejected) and (answer.ref, answer.reason) == (ref, "board")
            token = anna.token
            anna.leave()
            with pytest.raises(HostClosed) as gone:
                while True:
                    await anna.receive()
            assert gone.value.code == "left"
            assert host.view().players[0].status == "left"
            assert token is not None
            again = await PartyClient.connect("127.0.0.1", host.port, "Anna", token=token)
            assert again.player == 0 and again.party.players[0].status == "here"
            await again.close()
            await board.close()

    asyncio.run(check())
