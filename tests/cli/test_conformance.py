"""The conformance suite (``durak conformance``) against a real ``durak host`` on
127.0.0.1: our host passes every check, a host that breaks the document is caught, and the
reference client ``durak bot`` plays whole games the host never refuses."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path

import pytest

from client.cli.bot_player import play_bot
from client.cli.conformance import Check, ClientCheck, Suite, handshake
from client.cli.conformance.report import Record
from client.cli.conformance.session import Session
from client.cli.main import main
from client.net.client import NetClient
from host import Host, HostConfig
from host.admission import Admit, Door, Pool
from host.table import Table
from protocol import Ack, Ready, Rejected, RoomUpdate, Update, Welcome

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def durak(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "client", *args],
        cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip


@pytest.mark.slow
def test_durak_host_passes_every_check_of_durak_conformance() -> None:
    host = subprocess.Popen(
        [sys.executable, "-m", "client", "host", "--bind", "127.0.0.1", "--port", "0",
         "--no-announce", "--no-save"],
        cwd=ROOT, env=ENV, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert host.stdout is not None
        line = next(line for line in host.stdout if "listening on" in line)
        address = line.rsplit(" ", 1)[1].strip()
        run = durak("conformance", address)
    finally:
        if sys.platform == "win32":
            host.kill()
        else:
            host.send_signal(signal.SIGINT)
        host.communicate(timeout=30)
    lines = run.stdout.splitlines()
    failed = [line for line in lines if line.startswith("FAIL")]
    assert run.returncode == 0 and not failed, "\n".join(failed) or run.stderr
    summary = re.fullmatch(r"(\d+) passed, 0 failed", lines[-1])
    passed = [line for line in lines if line.startswith("ok ")]
    assert summary is not None and int(summary[1]) == len(passed) >= 100


def test_a_bad_address_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    """In this process (two ``durak`` processes took 1.8 s; the slow test above runs the
    command as a program)."""
    assert main(["conformance", "nowhere"]) == 2
    assert "HOST:PORT" in capsys.readouterr().err
    assert main(["conformance", "127.0.0.1:1"]) == 2  # nothing listens there
    assert "cannot reach" in capsys.readouterr().err


async def _suite_against(config: HostConfig) -> list[Check]:
    async with Host(config) as host:
        return await Suite("127.0.0.1", host.port).run()


@pytest.mark.slow
def test_a_table_with_a_password_passes_too() -> None:
    """With ``--password`` the suite also checks that a missing or wrong one is refused."""
    config = HostConfig(
        bind="127.0.0.1", port=0, announce=False, save_dir=None, password="pw", ai_processes=False
    )

    async def body() -> list[Check]:
        async with Host(config) as host:
            return await Suite("127.0.0.1", host.port, "pw").run()

    results = asyncio.run(body())
    assert [r for r in results if not r.passed] == []
    assert {"a hello with the password None is bad_password", "room.password says whether "
            "hello needs one"} <= {r.name for r in results}  # fmt: skip


@pytest.mark.slow
def test_a_host_that_breaks_the_document_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A host that relays every emote (the document drops one within 2 s of the last) and
    sends the room after every ready in the lobby (the document: only when a mark
    changed) fails exactly the checks of those rules."""

    def emote_always(self: Table, index: int, code: str) -> None:
        from protocol import Emoted

        self._broadcast(Emoted(index, code))

    original = Table._command

    def ready_and_room(self: Table, link: object, message: object) -> None:
        original(self, link, message)  # type: ignore[arg-type]
        if isinstance(message, Ready) and not self.playing:
            self._room_changed()

    monkeypatch.setattr(Table, "_emote", emote_always)
    monkeypatch.setattr(Table, "_command", ready_and_room)
    config = HostConfig(bind="127.0.0.1", port=0, announce=False, save_dir=None, ai_processes=False)
    results = asyncio.run(_suite_against(config))
    failed = {r.name for r in results if not r.passed}
    assert failed == {
        "a second emote within 2 seconds is dropped without a word",
        "ready is ack (seq nil), then room with the mark, to everyone",
        "ready that changes no mark is ack alone",
    }, [(r.name, r.detail) for r in results if not r.passed]
    assert len(results) >= 100


BEYOND = "beyond 60 new connections at once, a hello without a token is told busy"


class DoorClock:
    """The clock of a host's door, in a test: it stands still while a burst of connections
    comes in, so the door's count of new connections refills only when the test says. It
    moves on 10 s before a burst (a connection when no stranger waits: the count is
    full), and by ``stall`` seconds before the burst's ``at``-th connection."""

    def __init__(self, at: int = 0, stall: float = 0.0, burst: int | None = None) -> None:
        self.now, self.at, self.stall, self.burst = 0.0, at, stall, burst
        self.bursts: list[list[Pool | None]] = []  # where each connection of each burst went

    def install(self, door: Door[object]) -> None:
        """Keep ``door``'s time (and give it a count of ``burst`` if one is set)."""
        if self.burst is not None:
            door.limits = replace(door.limits, burst=self.burst)
        arrive = door.arrive

        def arriving(key: object, address: str) -> Admit[object] | None:
            if door.strangers(Pool.OPEN) == 0:
                self.now += 10
                self.bursts.append([])
            if len(self.bursts[-1]) + 1 == self.at:
                self.now += self.stall
            admit = arrive(key, address)
            self.bursts[-1].append(None if admit is None else admit.pool)
            return admit

        door.clock = lambda: self.now
        door.arrive = arriving  # type: ignore[method-assign]


async def _handshake_against(clock: DoorClock) -> Check:
    """The handshake section against a host whose door keeps ``clock``'s time: its check
    of the reserve."""
    config = HostConfig(bind="127.0.0.1", port=0, announce=False, save_dir=None, ai_processes=False)
    async with Host(config) as host:
        clock.install(host.door)  # type: ignore[arg-type]
        s = Session("127.0.0.1", host.port, None, Record())
        try:
            await handshake.handshake(s)
        finally:
            await s.close()
    return next(r for r in s.record.results if r.name == BEYOND)


@pytest.mark.slow
def test_a_host_that_stalls_at_the_end_of_a_burst_passes_the_reserve_check() -> None:
    """The count refills while a burst comes in, so a host that stalls a moment lets a
    later connection in though earlier ones went to the reserve. Here the stall (0.1 s,
    two connections' worth) comes just before the burst's 63rd connection: a hello on
    the newest alone may be welcomed. The check says hello on the newest three, and the
    host, which keeps to the document, passes."""
    clock = DoorClock(at=63, stall=0.1)
    check = asyncio.run(_handshake_against(clock))
    assert check.passed, check.detail
    burst = max(clock.bursts, key=len)
    assert burst[:60] == [Pool.OPEN] * 60
    assert burst[60:63] == [Pool.RESERVE, Pool.RESERVE, Pool.OPEN]  # the 63rd let in


@pytest.mark.slow
def test_a_host_without_a_reserve_for_a_burst_is_caught() -> None:
    """A host that lets in any number of new connections at once welcomes the newest of
    every burst (or tells them the table is full): the check fails, after its tries."""
    check = asyncio.run(_handshake_against(DoorClock(burst=1000)))
    assert not check.passed
    assert check.detail == "try 3: the newest 3 were answered Welcome, table_full, table_full"


@pytest.mark.slow
def test_a_host_that_deals_from_a_seed_of_its_own_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A host that commits, takes the contributions and reveals them honestly, but deals
    from another seed, fails the check that every seat verifies the deal, and only it."""
    import host.game
    from engine import new_game

    monkeypatch.setattr(
        host.game, "new_game", lambda rules, seed, previous: new_game(rules, seed ^ 1, previous)
    )

    async def no_burst(session: object, anna: object) -> None:  # (not what this test is about)
        return None

    monkeypatch.setattr(handshake, "busy", no_burst)
    config = HostConfig(bind="127.0.0.1", port=0, announce=False, save_dir=None, ai_processes=False)
    results = asyncio.run(_suite_against(config))
    failed = [r for r in results if not r.passed]
    assert [r.name.split(":")[0] for r in failed] == [
        "after each game every seat verifies the deal"
    ]
    assert "update 0" in failed[0].detail or "the deal" in failed[0].detail


def test_the_reference_bot_plays_whole_games_without_a_refused_action() -> None:
    """``durak bot`` against a host AI: every message it sends is one the host accepts (a
    protocol error would close its connection), and it plays whole games. At two seats
    nothing else can change the bout between a view and the bot's answer to it, so a bot
    that follows section 8 is never refused either."""
    config = HostConfig(
        bind="127.0.0.1",
        port=0,
        announce=False,
        save_dir=None,
        seats=2,
        ai=("random",),
        seed=3,
        ai_processes=False,
    )

    async def body() -> None:
        async with Host(config) as host:
            report = await play_bot("127.0.0.1", host.port, "normal", 3, seed=5)
            assert len(report.results) == 3 and report.rejected == 0
            assert host.table.errors == 0

    asyncio.run(body())


async def _client_check(client: Callable[[int], Awaitable[object]], games: int) -> list[Check]:
    """Serve ``ClientCheck`` on a free port and run ``client`` against it."""
    bound: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    check = asyncio.create_task(ClientCheck(0, games).run(bound.set_result))
    await client(await bound)
    return await asyncio.wait_for(check, 30)


async def _by_the_book(port: int, games: int) -> None:
    """A client that does what section 8 says: one action at a time, chosen on the update
    an ack names, and as the owner it starts every game."""
    rng = random.Random(3)
    client = await NetClient.connect("127.0.0.1", port, "Book")
    assert client.welcome is not None
    room, ended, inflight = client.welcome.room, 0, None
    now, awaited = (0, -1), (0, -1)  # (game, seq) of the latest update, of the last ack
    view, started = None, -1  # the room's game count when we last sent start
    try:
        while ended < games:
            if room.status == "lobby" and room.owner == client.seat and started != room.game:
                inflight, started = client.start(), room.game
            elif view is not None and view.legal and inflight is None and now >= awaited:
                inflight = client.act(rng.choice(view.legal))
            message = await client.receive()
            if isinstance(message, RoomUpdate | Welcome):
                room = message.room
            elif isinstance(message, Update):
                view, now = message.view, (message.game, message.seq)
                ended += any(e.__class__.__name__ == "GameEnded" for e in message.events)
            elif isinstance(message, Ack | Rejected) and message.ref == inflight:
                inflight = None
                if isinstance(message, Ack) and message.seq is not None:
                    awaited = (now[0], message.seq)
    finally:
        await client.close()


@pytest.mark.slow
def test_a_client_that_follows_section_8_passes_the_client_check() -> None:
    results = asyncio.run(_client_check(lambda port: _by_the_book(port, 2), 2))
    assert [r for r in results if not r.passed] == []
    names = {r.name.split(" (")[0] for r in results}
    assert "the client acts only with a legal action of a view it was sent" in names
    assert "after an ack the client acts only on the update with the ack's seq" in names


def test_the_reference_bot_passes_the_client_check() -> None:
    results = asyncio.run(
        _client_check(lambda port: play_bot("127.0.0.1", port, "random", 2, seed=1), 2)
    )
    assert [r for r in results if not r.passed] == []
