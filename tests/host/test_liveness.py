"""The heartbeat on real processes and sockets (127.0.0.1): a player whose client hangs
(SIGSTOP) is dropped as if its connection had closed — away, held, then played by a stand-in
— and comes back to its seat when it wakes; a client whose caller is busy still answers;
a host that falls silent is noticed by its clients, which reconnect."""

from __future__ import annotations

import asyncio
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import ManualScheduler
from live import expect, serving

from client.net.client import Backoff, NetClient
from client.net.remote import NetSession
from client.net.session import Closed, Reconnecting, Seated
from engine import Rules, Series
from host import HostConfig, run_in_thread
from protocol import (
    PROTOCOL_VERSION,
    Ack,
    Connection,
    Heartbeat,
    Hello,
    Role,
    Room,
    RoomUpdate,
    SeatInfo,
    Welcome,
    encode,
)

TOKEN = "0123456789abcdef" * 2
ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
DURAK = [sys.executable, "-m", "client"]


class Lines:
    """A process's stdout, read by a thread, so a test can wait for a line."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self.seen: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def wait_for(self, text: str, seconds: float = 60) -> str:
        """The first line from now on that contains ``text``."""
        while True:
            line = self._lines.get(timeout=seconds)
            if line is None:
                raise AssertionError(f"the process ended before {text!r}; it said {self.seen}")
            self.seen.append(line)
            if text in line:
                return line


def popen(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([*DURAK, *args], cwd=ROOT, env=ENV, stdout=subprocess.PIPE, text=True)


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[str]]]:
    procs: list[subprocess.Popen[str]] = []
    yield procs
    for proc in procs:
        if proc.poll() is None:
            if sys.platform != "win32":
                os.kill(proc.pid, signal.SIGCONT)
            proc.kill()
        proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="SIGSTOP/SIGCONT are POSIX signals")
def test_a_hung_bot_is_dropped_held_stood_in_for_and_comes_back(
    processes: list[subprocess.Popen[str]],
) -> None:
    host = popen("host", "--bind", "127.0.0.1", "--port", "0", "--no-announce", "--seats", "3",
                 "--ai", "easy", "--autostart", "--no-save", "--silence", "1.5",
                 "--hold", "2", "--seed", "5")  # fmt: skip
    processes.append(host)
    out = Lines(host)
    port = out.wait_for("listening on").rsplit(":", 1)[1]
    for name in ("Anna", "Boris"):
        processes.append(popen("bot", "--connect", f"127.0.0.1:{port}", "--games", "99",
                               "--name", name))  # fmt: skip
    boris = processes[-1]
    out.wait_for("game 1 started")

    # Boris's laptop sleeps: his connection stays open but he answers nothing.
    os.kill(boris.pid, signal.SIGSTOP)
    out.wait_for("(Boris) dropped out")
    os.kill(boris.pid, signal.SIGCONT)  # he wakes within the hold: back to his seat
    assert "(Boris) is connected" in out.wait_for("(Boris)")
    out.wait_for(" started")  # the next game (his seat stayed his)

    # He sleeps through the hold: an AI plays his seat and the game ends.
    os.kill(boris.pid, signal.SIGSTOP)
    out.wait_for("(Boris) dropped out")
    out.wait_for("(Boris) is played by an AI stand-in")
    ended = out.wait_for(" ended")
    started = [line for line in out.seen if line.endswith(" started")]
    assert ended == started[-1].replace("started", "ended")  # the game he slept through
    assert "(Anna)" not in " ".join(out.seen)  # Anna never looked gone


@pytest.mark.slow
def test_a_busy_window_still_answers_the_heartbeat() -> None:
    """The window's network thread answers heartbeats while its frame is busy (here: a
    frame that takes four times the silence and drains nothing)."""
    config = HostConfig(seats=2, ai=("random",), silence=1.0, announce=False)
    with run_in_thread(config) as handle:
        session = NetSession("127.0.0.1", handle.port, "Anna")
        time.sleep(4)
        assert handle.host is not None
        seats = handle.host.table.room().seats
        assert seats[0].kind == "human" and seats[0].status == "connected"
        kinds = []
        while not session.inbox.empty():
            kinds.append(type(session.inbox.get()))
        assert Seated in kinds and Reconnecting not in kinds and Closed not in kinds
        session.close()
        assert session.join(10)


async def test_a_client_that_answers_nothing_is_dropped() -> None:
    """On the host's clock, moved by hand: a third of the silence asks both players; the
    one who answers stays, the one who says nothing is cut once all of it has passed."""
    clock = ManualScheduler()
    async with serving(clock, seats=2, silence=1.0) as host:
        anna = await NetClient.connect("127.0.0.1", host.port, "Anna")
        reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
        writer.write(encode(Hello(PROTOCOL_VERSION, "Mute")))  # then it says nothing more
        await expect(anna, RoomUpdate, lambda m: m.room.seats[1].kind == "human")  # type: ignore[attr-defined]
        [annas] = [s for s in host.links if s.seat == 0]
        clock.advance(0.5)  # both are asked
        async with asyncio.timeout(30):
            while annas.probed:  # Anna's client answers (it has not been dropped since)
                await asyncio.sleep(0.01)
        clock.advance(0.7)  # a whole silence since the mute one's hello, not since Anna's
        room = await expect(anna, RoomUpdate, lambda m: m.room.seats[1].kind == "empty")  # type: ignore[attr-defined]
        assert isinstance(room, RoomUpdate) and room.room.seats[0].status == "connected"
        conn = Connection(Role.CLIENT)
        conn.receive_data(await reader.read())  # all it was sent, up to the cut
        sent = [conn.next_message() for _ in range(3)]
        assert isinstance(sent[0], Welcome) and Heartbeat(1) in sent  # asked before let go
        writer.close()
        await anna.close()


async def test_the_owner_sets_the_silence() -> None:
    async with serving(seats=2) as host:
        owner = await NetClient.connect("127.0.0.1", host.port, "Olga")
        assert owner.welcome is not None and owner.welcome.room.silence_ms == 12000
        ref = owner.set_options(0, None, silence=0.7)
        await expect(owner, Ack, lambda m: m.ref == ref)  # type: ignore[attr-defined]
        room = await expect(owner, RoomUpdate)
        assert isinstance(room, RoomUpdate) and room.room.silence_ms == 700
        assert host.table.silence == 0.7 and owner.silence == 0.7  # both ends go by it
        await owner.close()


async def test_a_silent_host_is_noticed_and_the_client_reconnects() -> None:
    """A host that welcomes and then says nothing (hung, or its machine asleep): the
    client probes it, gives it up after the room's silence and connects again."""
    hellos: list[Hello] = []
    room = Room("Quiet", "lobby", 0, (SeatInfo("human", "Anna", connected=True),
                SeatInfo("empty")), Rules(players=2), False, False, Series.new(2), 0,
                silence_ms=600)  # fmt: skip

    async def silent_host(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Connection(Role.HOST)
        conn.receive_data(await reader.read(4096))
        hello = conn.next_message()
        assert isinstance(hello, Hello)
        hellos.append(hello)
        writer.write(encode(Welcome(PROTOCOL_VERSION, 0, TOKEN, room)))
        while await reader.read(4096):  # it reads the probes, and answers nothing
            pass
        writer.close()

    server = await asyncio.start_server(silent_host, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        anna = await NetClient.connect("127.0.0.1", port, "Anna", reconnect=Backoff(0.05, 0.2, 30))
        welcome = await asyncio.wait_for(anna.receive(), 30)
        assert isinstance(welcome, Welcome) and anna.reconnects == 1
        assert hellos[1].token == TOKEN  # it came back for its seat
        await anna.close()
