"""Chores: work the window does between its frames, a short piece at a time.

A chore is an iterator whose every ``next`` does a piece of work well under a millisecond
(keeping a finished game: matching the host's log, writing its JSON, compressing it). The
window's loop gives the chores what is left of a frame's time after the frame is drawn,
and the time it would otherwise rest, so a big job never makes a frame late, and never
competes with the frame for the interpreter as a thread of Python work does (a thread
that ran the same job made one frame wait 19 ms for the GIL: issue 24). A chore that
fails is logged and dropped; the window goes on.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Iterator

__all__ = ["Chores"]

log = logging.getLogger(__name__)


class Chores:
    def __init__(self) -> None:
        self._queue: deque[Iterator[object]] = deque()

    def __bool__(self) -> bool:
        """Whether any chore is left."""
        return bool(self._queue)

    def add(self, chore: Iterator[object]) -> None:
        """Do ``chore`` after those already waiting."""
        self._queue.append(chore)

    def run(self, until: float) -> None:
        """Pieces of the waiting chores, oldest first, until ``time.perf_counter()``
        reaches ``until`` or none is left (one piece at least, if any is waiting)."""
        while self._queue:
            try:
                next(self._queue[0])
            except StopIteration:
                self._queue.popleft()
            except Exception:
                log.exception("a chore failed; the window goes on without it")
                self._queue.popleft()
            if time.perf_counter() >= until:
                return

    def finish(self) -> None:
        """Every waiting chore to its end (as the window closes)."""
        self.run(float("inf"))
