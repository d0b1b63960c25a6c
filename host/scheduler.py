"""Time and work off the table's task, behind one small interface.

The table sets timers (a dropped player's hold, the turn timer, the lobby's idle watch,
the fair deal's wait) and hands its AI players' thinking to an executor. It asks a
``Scheduler`` for both instead of reaching for the running loop, so a test can drive it
without sockets or real time: a manual clock and an inline executor (tests/host/harness.py)
in place of ``LoopScheduler``, which adapts asyncio. Either way a job's answer comes back
through the callback it was given, which queues it for the table; it is never handled
inside the call that started it. ``Timers`` keeps the table's timers that still run, each
posting an item to the table's queue when it fires, so that they can all be called off
when the table's task stops.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Generic, Protocol, TypeVar

__all__ = ["Handle", "LoopScheduler", "Scheduler", "Timers"]

T = TypeVar("T")


class Handle(Protocol):
    """A timer that may still be called off."""

    def cancel(self) -> None: ...


class Scheduler(Protocol):
    def now(self) -> float:
        """Seconds on a monotonic clock (the emotes' gap, the password throttle)."""
        ...

    def later(self, delay: float, callback: Callable[[], None]) -> Handle:
        """Call ``callback`` once ``delay`` seconds have passed (unless cancelled)."""
        ...

    def run(
        self, job: Callable[[], T], done: Callable[[T | None, BaseException | None], None]
    ) -> None:
        """Run ``job`` off the table's task; ``done(result, error)`` follows when it ends.
        ``RuntimeError`` at once when no more work is taken (the host is going)."""
        ...


class LoopScheduler:
    """The running asyncio loop's timers and ``executor`` (for the host; None: the
    loop's default executor)."""

    def __init__(self, executor: Executor | None = None) -> None:
        self.executor = executor

    def now(self) -> float:
        return time.monotonic()

    def later(self, delay: float, callback: Callable[[], None]) -> Handle:
        return asyncio.get_running_loop().call_later(delay, callback)

    def run(
        self, job: Callable[[], T], done: Callable[[T | None, BaseException | None], None]
    ) -> None:
        future = asyncio.get_running_loop().run_in_executor(self.executor, job)

        def finished(future: asyncio.Future[T]) -> None:
            if future.cancelled():
                return
            error = future.exception()
            done(None if error else future.result(), error)

        future.add_done_callback(finished)


class Timers(Generic[T]):
    """Timers that post an item when they fire (``post``: to the table's queue)."""

    def __init__(self, scheduler: Scheduler, post: Callable[[T], None]) -> None:
        self.scheduler, self.post = scheduler, post
        self._running: set[Handle] = set()

    def later(self, delay: float, item: T) -> Handle:
        """Post ``item`` once ``delay`` seconds have passed (unless cancelled)."""
        handle: Handle

        def fire() -> None:
            self._running.discard(handle)
            self.post(item)

        handle = self.scheduler.later(delay, fire)
        self._running.add(handle)
        return handle

    def cancel(self) -> None:
        """Call off every timer still running."""
        for handle in self._running:
            handle.cancel()
        self._running.clear()
