"""AI seats think in worker processes, outside the host's process and its event loop.

``Workers(size)`` is a pool of ``size`` processes, started with the ``spawn`` method on
every platform (so Linux behaves as Windows and macOS do) and at a lower priority than
the host and the game window, which must stay responsive while an AI thinks. Each worker
holds the bots of some AI seats and their memory of the game. ``workers.bot(level, seat,
rules, seed)`` gives the table a ``RemoteBot``: a ``Bot`` whose ``see`` only notes the
seat's events and whose ``decide`` sends what is new, with the seat's view, to its worker
and waits for the answer. The table calls it from its executor's threads, which only
wait (the GIL is free); the bot's time budget is measured inside the worker, where it
thinks.

A worker that dies (killed, out of memory), or that has not answered ``stuck`` seconds
after the bot's own time budget ran out (hung, stopped), is replaced by a new process (whose
start, up to ``STARTING`` seconds on a busy machine, is not counted against it): the
next decision of each of its seats rebuilds that seat's bot there from the same level and
seed and every event the seat was told, and the seat plays on. Messages between the host
and its workers are pickled; both ends are this program.

Workers that cannot start at all (``ATTEMPTS`` new processes in a row never said they
run: a system that refuses new processes, a security tool that blocks them) would cost
every AI decision three failed starts and end in a random move; the pool gives up on
processes instead and its seats think in the host's process, in the executor's threads,
each rebuilt from every event it was told (``RemoteBot``). A worker that dies while it
thinks is no reason for that: the decision that killed it could take the host down.

A table has a pool of its own. A party lends one ``AiPool`` to all its tables, started
with the night (``warm``): a table's first AI decision made its pool start a thread and
a process, and the thread's start held the host's loop (25 ms on a loaded machine) while
the other tables played, every round (``tests/benchmarks/party_load.py``).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import multiprocessing
import os
import signal
import sys
import threading
import weakref
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnProcess

from engine import Action, Event, Rules, SeatView
from engine.ai import Bot, make_bot

__all__ = ["AiPool", "NoStart", "RemoteBot", "WorkerLost", "Workers"]

log = logging.getLogger("durak.host")

NICE = 5  # how much lower the workers' priority is (POSIX nice increment)
ATTEMPTS = 3  # workers a decision may try before the seat's failure is reported
STUCK = 30.0  # seconds past a bot's budget without an answer: the worker is taken for dead
STARTING = 60.0  # seconds a new worker may take to start (Python's start on a busy machine)


class WorkerLost(Exception):
    """The worker process died (or its pipe broke, or it hung) before it answered."""


class NoStart(WorkerLost):
    """A new worker process never said it runs: it could not start."""


@dataclass(frozen=True, slots=True)
class Build:
    """Make the bot ``key`` in the worker (a new seat, or one rebuilt after a loss)."""

    key: int
    level: str
    seat: int
    rules: Rules
    seed: int


@dataclass(frozen=True, slots=True)
class Decide:
    """Tell the bot ``key`` the seat's new events, then ask it for an action."""

    key: int
    events: tuple[Event, ...]
    view: SeatView


@dataclass(frozen=True, slots=True)
class Forget:
    """The table dropped these bots (their game ended, a player came back)."""

    keys: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Started:
    """A new worker's first word: it runs, so its answers may be waited for."""


@dataclass(frozen=True, slots=True)
class Decided:
    action: Action | None
    error: str = ""  # the bot's exception, when it failed to decide


def worker_niceness() -> int | None:
    """A worker's POSIX niceness: ``NICE`` below this process's (None: not on this OS)."""
    if sys.platform == "win32":
        return None
    return int(os.getpriority(os.PRIO_PROCESS, 0)) + NICE


def lower_priority(pid: int, niceness: int | None) -> None:
    """Let the host and the window go first when the cores are busy. POSIX: process ``pid``
    (0: this one) to ``niceness``, which the host sets as soon as a worker is started (so
    that its start, Python and the engine importing, already yields) and the worker again
    (the same value) once it runs. Windows: a worker lowers its own class when it runs."""
    if sys.platform == "win32":
        if pid == 0:
            import ctypes

            below_normal = 0x00004000  # BELOW_NORMAL_PRIORITY_CLASS
            kernel32 = ctypes.windll.kernel32
            kernel32.SetPriorityClass(kernel32.GetCurrentProcess(), below_normal)
        return
    if niceness is not None:
        with contextlib.suppress(OSError):  # (only ever lowered: no privilege needed)
            os.setpriority(os.PRIO_PROCESS, pid, niceness)


def serve(conn: Connection, niceness: int | None = None) -> None:
    """A worker process: build, tell and ask its bots until the host closes the pipe (or
    is gone). A Ctrl-C is the host's to handle: the worker ignores it (it shares the
    terminal's process group) and ends when the host closes it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    lower_priority(0, niceness)
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        conn.send(Started())
        _serve(conn)


def _serve(conn: Connection) -> None:
    bots: dict[int, Bot] = {}
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        if isinstance(request, Build):
            with contextlib.suppress(ValueError):  # (checked by the host first) Decide says
                bots[request.key] = make_bot(
                    request.level, request.seat, request.rules, request.seed
                )
        elif isinstance(request, Forget):
            for key in request.keys:
                bots.pop(key, None)
        elif isinstance(request, Decide):
            try:
                bot = bots[request.key]
                for event in request.events:
                    bot.see(event)
                answer = Decided(bot.decide(request.view))
            except Exception as exc:  # reported to the table, which plays a legal move
                answer = Decided(None, repr(exc))
            conn.send(answer)


class Worker:
    """One worker process and the host's end of its pipe (one request at a time)."""

    def __init__(self, name: str) -> None:
        context = multiprocessing.get_context("spawn")
        niceness = worker_niceness()
        ours, theirs = context.Pipe()
        self.process: SpawnProcess = context.Process(
            target=serve, args=(theirs, niceness), name=name, daemon=True
        )
        with _sigint_ignored():
            self.process.start()
        if self.process.pid is not None:
            lower_priority(self.process.pid, niceness)
        theirs.close()
        self.conn = ours
        self.lock = threading.Lock()  # held for a whole request, answer included
        self.built: set[int] = set()  # the bots living in this worker
        self.started = False  # it said so (a new process's start is no thinking time)
        # Bots to drop with the next request: noted by any thread without waiting for
        # ``lock`` (a decision may hold it for seconds; the host's loop must not wait).
        self.forgotten: list[int] = []
        self._forgotten_lock = threading.Lock()

    def decide(self, bot: RemoteBot, view: SeatView) -> Decided:
        with self.lock:
            if not self.started:
                self._wait_started()
            try:
                with self._forgotten_lock:
                    gone, self.forgotten = tuple(self.forgotten), []
                if gone:
                    self.conn.send(Forget(gone))
                    self.built.difference_update(gone)
                if bot.key not in self.built:
                    self.conn.send(Build(bot.key, bot.level, bot.seat, bot.rules, bot.seed))
                    self.built.add(bot.key)
                    bot.told = 0
                self.conn.send(Decide(bot.key, tuple(bot.events[bot.told :]), view))
                if not self.conn.poll(bot.patience):
                    raise WorkerLost(f"{self.process.name} did not answer")
                answer: Decided = self.conn.recv()
            except (EOFError, OSError) as exc:
                raise WorkerLost(self.process.name) from exc
            bot.told = len(bot.events)
            return answer

    def _wait_started(self) -> None:
        try:
            started = self.conn.poll(STARTING) and isinstance(self.conn.recv(), Started)
        except (EOFError, OSError):
            started = False
        if not started:
            raise NoStart(f"{self.process.name} did not start")
        self.started = True

    def forget(self, key: int) -> None:
        with self._forgotten_lock:
            self.forgotten.append(key)

    def close(self, timeout: float) -> None:
        self.conn.close()  # the worker sees the end of its pipe and returns
        self.process.join(timeout)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored while a worker process starts (from the main thread, where signals
    are set): the new process inherits that (POSIX, through its exec; Python then installs
    no handler of its own), so a Ctrl-C meant for the host does not interrupt the worker's
    start-up (its imports, before ``serve`` ignores it) with a traceback. A Ctrl-C in the
    few milliseconds of the start itself is lost: pressed again, it stops the host."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.SIG_DFL if old is None else old)


class RemoteBot(Bot):
    """The table's handle on a bot that lives in a worker process."""

    def __init__(
        self, workers: Workers, key: int, level: str, seat: int, rules: Rules, seed: int
    ) -> None:
        super().__init__(seat, rules, seed)
        self.workers = workers
        self.key, self.level, self.seed = key, level, seed
        budget = getattr(make_bot(level, seat, rules, seed), "budget", None)  # (checks level)
        self.patience = (budget or 0.0) + workers.stuck  # seconds to wait for an answer
        self.events: list[Event] = []  # every event of the seat, to rebuild the bot from
        self.told = 0  # how many of them its current worker's bot has seen
        self.here: Bot | None = None  # the bot in this process, once no worker can start
        self.here_told = 0

    def see(self, event: Event) -> None:
        self.events.append(event)

    def decide(self, view: SeatView) -> Action:
        for _ in range(ATTEMPTS):
            if self.workers.broken:
                return self._decide_here(view)
            try:
                worker = self.workers.worker_for(self.key)
            except NoStart:
                continue
            try:
                answer = worker.decide(self, view)
            except WorkerLost as exc:
                log.warning(
                    "AI worker %s died or hung; a new one takes seat %d",
                    worker.process.name,
                    self.seat,
                )
                self.workers.replace(worker, started=not isinstance(exc, NoStart))
                continue
            self.workers.unstarted = 0
            if answer.action is None:
                raise RuntimeError(f"the AI of seat {self.seat} failed: {answer.error}")
            return answer.action
        if self.workers.broken:
            return self._decide_here(view)
        raise WorkerLost(f"AI workers died {ATTEMPTS} times in a row")

    def _decide_here(self, view: SeatView) -> Action:
        """The decision made in this process (no worker can start): the seat's bot built
        here from the same level and seed, told every event the seat was told."""
        if self.here is None:
            self.here = make_bot(self.level, self.seat, self.rules, self.seed)
        for event in self.events[self.here_told :]:
            self.here.see(event)
        self.here_told = len(self.events)
        return self.here.decide(view)


class Workers:
    """A pool of ``size`` worker processes, each started when first needed; a bot lives
    in worker ``key % size`` (its key: one number a bot, so that the AI seats of the
    tables sharing a pool spread over it). ``close()`` ends them."""

    def __init__(self, size: int, *, stuck: float = STUCK) -> None:
        if size < 1:
            raise ValueError("at least one AI worker")
        self.size = size
        self.stuck = stuck
        self._workers: list[Worker | None] = [None] * size
        self._keys = itertools.count(1)
        self._lock = threading.Lock()
        self._closed = False
        self._started = itertools.count(1)  # names the processes: durak-ai-1, durak-ai-2...
        self.spawned = 0  # worker processes started so far
        self.unstarted = 0  # new workers in a row that never said they run

    def bot(self, level: str, seat: int, rules: Rules, seed: int) -> RemoteBot:
        """A bot of ``level`` for ``seat`` (``ValueError`` for an unknown level, at once)."""
        bot = RemoteBot(self, next(self._keys), level, seat, rules, seed)
        weakref.finalize(bot, self._forget, bot.key)
        return bot

    def worker_for(self, key: int) -> Worker:
        with self._lock:
            if self._closed:
                raise RuntimeError("the AI workers are closed")
            index = key % self.size
            worker = self._workers[index]
            if worker is None:
                name = f"durak-ai-{next(self._started)}"
                try:
                    worker = self._workers[index] = Worker(name)
                except OSError as exc:  # the system refused the process
                    self._unstarted_one()
                    raise NoStart(f"{name} did not start: {exc}") from exc
                self.spawned += 1
            return worker

    @property
    def broken(self) -> bool:
        """No new worker could start ``ATTEMPTS`` times in a row: the bots think here."""
        return self.unstarted >= ATTEMPTS

    def replace(self, lost: Worker, started: bool = True) -> None:
        """Put a new process in the place of ``lost`` (unless that happened already);
        ``started``: False for one that never said it runs."""
        with self._lock:
            for index, worker in enumerate(self._workers):
                if worker is lost:
                    self._workers[index] = None  # started again on the next decision
            if not started:
                self._unstarted_one()
        lost.close(timeout=1.0)

    def _unstarted_one(self) -> None:
        self.unstarted += 1
        if self.unstarted == ATTEMPTS:
            log.error(
                "AI worker processes cannot start (%d in a row): the AI seats think in"
                " the host's process",
                ATTEMPTS,
            )

    def processes(self) -> Sequence[SpawnProcess]:
        """The worker processes running now (for tests and benchmarks)."""
        with self._lock:
            return [w.process for w in self._workers if w is not None]

    def _forget(self, key: int) -> None:
        """A ``RemoteBot`` was dropped: its worker (if it still runs) lets the bot go."""
        worker = self._workers[key % self.size]  # (one read: no lock, which may be held)
        if worker is not None:
            worker.forget(key)

    def close(self, timeout: float = 5.0) -> None:
        with self._lock:
            self._closed = True
            workers, self._workers = self._workers, [None] * self.size
        for worker in workers:
            if worker is not None:
                worker.close(timeout)


@dataclass(frozen=True, slots=True)
class AiPool:
    """The executor whose threads wait for AI decisions, and the worker processes that
    make them (None: the bots think in those threads)."""

    executor: ThreadPoolExecutor
    workers: Workers | None

    @classmethod
    def start(cls, threads: int, processes: int | None) -> AiPool:
        """A pool of ``threads`` threads and ``processes`` workers (None: no processes),
        all started now (``warm``)."""
        pool = cls(
            ThreadPoolExecutor(threads, thread_name_prefix="durak-ai"),
            None if processes is None else Workers(processes),
        )
        pool.warm(threads)
        return pool

    def warm(self, threads: int) -> None:
        """Start every thread and process now, so that no decision waits for one."""
        started = threading.Barrier(threads + 1)
        for _ in range(threads):  # (each job holds its thread until all have one)
            self.executor.submit(started.wait, STARTING)
        started.wait(STARTING)
        if self.workers is not None:
            for index in range(self.workers.size):
                self.workers.worker_for(index)

    def close(self, timeout: float = 5.0) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)
        if self.workers is not None:
            self.workers.close(timeout)
