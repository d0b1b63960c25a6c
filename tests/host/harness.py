"""A socket-free host for tests, in the manner of h11's ``ConnectionPair``.

``Harness(config)`` makes a real ``Table`` whose links are ``FakeLink``s (each keeps what
the table sent it) and whose scheduler is a ``ManualScheduler``: a clock that moves only
when the test says (``advance``) and an executor that runs an AI's thinking inline, its
answer queued for the table as the real executor's would be. A test feeds a message
(``send``), lets the table handle everything that follows (``settle``: the AI players'
answers, what they lead to), moves the clock (timers fire in the order they fall due) and
reads what each link was sent. Nothing waits on real time and no socket is opened.
A ``ManualScheduler`` also keeps a real ``Host``'s time (``Host(config, scheduler=...)``:
the heartbeat, the table's timers) for a socket test that moves it by hand.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from client.cli import host as host_cli
from client.cli.main import main
from engine import Action, GameEnded, GameResult, SeatView
from host import HostConfig
from host.table import Gone, Incoming, Table
from protocol import (
    PROTOCOL_VERSION,
    Ack,
    Act,
    Connection,
    Hello,
    Message,
    Rejected,
    Role,
    RoomUpdate,
    Snapshot,
    Update,
    Welcome,
)

__all__ = ["FakeLink", "Harness", "ManualScheduler", "command_line"]

M = TypeVar("M")


def command_line(monkeypatch: pytest.MonkeyPatch, *options: str) -> HostConfig:
    """The table ``durak host`` makes of ``options`` (its ``main``, in this process, on
    127.0.0.1 with neither announcement nor save), for a ``Harness`` to run."""
    configs: list[HostConfig] = []

    async def serve(config: HostConfig) -> None:
        configs.append(config)

    monkeypatch.setattr(host_cli, "serve", serve)
    command = ["host", "--bind", "127.0.0.1", "--port", "0", "--no-announce", "--no-save"]
    assert main([*command, *options]) == 0
    [config] = configs
    return config


class FakeLink:
    """A client connection that keeps every message the table sends it, as a client would
    read it: each goes through the host's end of a ``protocol.Connection`` (what a host may
    send) and the client's (the bytes decode, in an order a client accepts), so a message
    that could not cross the wire fails the test. ``wire=False``: kept as sent (for a
    table a test has set up by hand, whose players were never welcomed)."""

    def __init__(self, name: str = "", address: str = "127.0.0.1", wire: bool = True) -> None:
        self.name = name
        self.wire = (Connection(Role.HOST), Connection(Role.CLIENT)) if wire else None
        self.seat: int | None = None
        self.watching = False
        self.address = address
        self.sent: list[Message] = []
        self.closed: str | None = None  # the goodbye's code, once the table closed it
        self.closed_text = ""
        self.released = 0  # messages the table has handled (it releases each one)
        self.gone = False  # the table was told the connection is gone
        self.refs = itertools.count(1000)
        self.played = 0  # the game results ``Harness.play_game`` has given for this link

    def send(self, message: Message) -> None:
        if self.closed is not None:  # (a closed session drops what comes after its goodbye)
            return
        if self.wire is not None:
            host, client = self.wire
            client.receive_data(host.send(message))
            read = client.next_message()
            assert read == message, f"{message!r} reads as {read!r}"
        self.sent.append(message)

    def close(self, code: str, text: str) -> None:
        self.closed, self.closed_text = code, text

    def release(self) -> None:
        self.released += 1

    def of(self, kind: type[M]) -> list[M]:
        """Every message of ``kind`` sent so far, in order."""
        return [m for m in self.sent if isinstance(m, kind)]

    def last(self, kind: type[M] | Any) -> Any:
        """The latest message of ``kind`` (a class or a union of them)."""
        return next(m for m in reversed(self.sent) if isinstance(m, kind))

    @property
    def room(self) -> Any:
        """The room as this link heard it last."""
        return self.last(RoomUpdate).room

    @property
    def token(self) -> str:
        """The seat's token its welcome gave."""
        return str(self.last(Welcome).token)

    @property
    def view(self) -> SeatView | None:
        """The game as this link saw it last (None: no game yet)."""
        message = next((m for m in reversed(self.sent) if isinstance(m, Update | Snapshot)), None)
        return None if message is None else message.view

    def results(self) -> list[GameResult]:
        """The result of every game this link saw end."""
        return [e.result for m in self.of(Update) for e in m.events if isinstance(e, GameEnded)]


class _Timer:
    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualScheduler:
    """A clock that stands still until ``advance``, and an inline executor whose answers
    wait in ``answers`` until ``deliver`` (as the loop would run the callbacks later)."""

    def __init__(self) -> None:
        self.clock = 0.0
        self._timers: list[tuple[float, int, _Timer]] = []
        self._order = itertools.count()
        self.answers: list[Callable[[], None]] = []
        self.refuse = False  # the executor is shut down: ``run`` raises RuntimeError
        self.jobs = 0  # how many jobs were run

    def now(self) -> float:
        return self.clock

    def later(self, delay: float, callback: Callable[[], None]) -> _Timer:
        timer = _Timer(callback)
        heapq.heappush(self._timers, (self.clock + max(0.0, delay), next(self._order), timer))
        return timer

    def run(
        self, job: Callable[[], Any], done: Callable[[Any, BaseException | None], None]
    ) -> None:
        if self.refuse:
            raise RuntimeError("cannot schedule new futures after shutdown")
        self.jobs += 1
        try:
            result, error = job(), None
        except Exception as exc:
            result, error = None, exc
        self.answers.append(lambda: done(result, error))

    def deliver(self) -> bool:
        """Hand back every answer waiting; False if there was none."""
        answers, self.answers = self.answers, []
        for answer in answers:
            answer()
        return bool(answers)

    def pending(self) -> list[float]:
        """When the timers still running fall due."""
        return sorted(due for due, _, t in self._timers if not t.cancelled)

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass: each timer that falls due meanwhile fires, in order (for a
        host whose own tasks take what they post; ``Harness.advance`` settles its table)."""
        until = self.clock + seconds
        while (timer := self.next_due(until)) is not None:
            timer.callback()
        self.clock = until

    def next_due(self, until: float) -> _Timer | None:
        """Move the clock to the first timer due by ``until`` and take it (None: none)."""
        while self._timers and self._timers[0][0] <= until:
            due, _, timer = heapq.heappop(self._timers)
            if not timer.cancelled:
                self.clock = max(self.clock, due)
                return timer
        return None


class Harness:
    """A table, its fake links and its manual time. Every ``send`` settles the table."""

    def __init__(self, config: HostConfig, **table: Any) -> None:
        self.scheduler = ManualScheduler()
        self.table = Table(config, scheduler=self.scheduler, **table)
        self.links: list[FakeLink] = []

    def settle(self, limit: int = 100_000) -> None:
        """Handle what is queued and every AI answer it leads to, until the table is idle.
        A connection the table closed is then gone (as the host's reader reports it)."""
        queue = self.table.queue
        for _ in range(limit):
            for link in self.links:
                if link.closed is not None and not link.gone:
                    link.gone = True
                    queue.put_nowait(Gone(link))
            if queue.empty() and not self.scheduler.deliver():
                return
            while not queue.empty():
                self.table.handle(queue.get_nowait())
        raise AssertionError("the table never settles")

    def handle(self, item: Any) -> None:
        self.table.handle(item)
        self.settle()

    def send(self, link: FakeLink, message: Message, password_ok: bool | None = None) -> None:
        self.table.handle(Incoming(link, message, password_ok))
        link.release()
        self.settle()

    def ask(self, link: FakeLink, message: Message) -> Any:
        """Send a command; the table's answer to it (its ack or rejection)."""
        self.send(link, message)
        return link.last(Ack | Rejected)

    def join(
        self,
        name: str,
        password: str | None = None,
        token: str | None = None,
        role: str = "play",
        address: str = "127.0.0.1",
        look: int | None = None,
    ) -> FakeLink:
        """A new connection that says hello (it may be refused: see ``closed``)."""
        link = FakeLink(name, address)
        self.links.append(link)
        self.send(link, Hello(PROTOCOL_VERSION, name, password, token, role, look))
        return link

    def gone(self, link: FakeLink) -> None:
        """The connection closed (or was cut)."""
        link.gone = True
        self.handle(Gone(link))

    def command(self, link: FakeLink, make: Callable[[int], Message]) -> Any:
        """Send the command ``make`` builds with a fresh ref; the table's answer to it."""
        ref = next(link.refs)
        self.send(link, make(ref))
        return next(
            m for m in reversed(link.sent) if isinstance(m, Ack | Rejected) and m.ref == ref
        )

    def play_game(
        self, links: list[FakeLink], policy: Callable[[SeatView], Action] | None = None
    ) -> list[GameResult]:
        """Each of ``links`` plays (``policy``, the first legal action by default) until
        it sees a game end (the next result it was not given yet, as a client reading its
        messages in order would); each one's result. A game that waits on nobody of them
        lets the clock run (a hold, a turn timer)."""
        choose = policy or (lambda view: view.legal[0])
        for _ in range(100_000):
            done = [len(link.results()) > link.played or link.closed for link in links]
            if all(done):
                open_links = [link for link in links if not link.closed]
                for link in open_links:
                    link.played += 1
                return [link.results()[link.played - 1] for link in open_links]
            for link, finished in zip(links, done, strict=True):
                view = link.view
                if not finished and view is not None and view.legal:
                    self.send(link, Act(next(link.refs), choose(view)))
                    break
            else:
                if not self.scheduler.pending():
                    raise AssertionError("the game waits on nobody and no timer runs")
                self.advance(self.scheduler.pending()[0] - self.scheduler.clock)
        raise AssertionError("the game never ends")

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass: each timer that falls due meanwhile fires, in order, and
        the table settles after each."""
        until = self.scheduler.clock + seconds
        while (timer := self.scheduler.next_due(until)) is not None:
            timer.callback()
            self.settle()
        self.scheduler.clock = until
