"""What the table sends, held back until what it tells is on disk.

While the table handles one item (a client's message, an AI's decision, a timer), every
``send`` and ``close`` of a connection is held (``holding``). Afterwards ``release`` lets
them go at once, or, when the item wrote to the journal, once that record is durable (the
journal's writer thread resolves the awaitable). Released batches go out strictly in the
order the table made them, so a client sees what it would have seen without the wait;
meanwhile the table goes on with the next item, so records that pile up during one
``fsync`` are written together by the next.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterator

__all__ = ["Outbox", "Send"]

log = logging.getLogger("durak.host")

Send = Callable[[], None]


class Outbox:
    def __init__(self) -> None:
        self._held: list[Send] | None = None
        self._later: deque[tuple[Awaitable[None] | None, list[Send]]] = deque()
        self._task: asyncio.Task[None] | None = None

    def send(self, send: Send) -> None:
        """Run ``send`` now, or, while the table is handling an item or earlier sends still
        wait for the disk, after those."""
        if self._held is not None:
            self._held.append(send)
        elif self._later:
            self._later.append((None, [send]))
        else:
            send()

    @contextlib.contextmanager
    def holding(self) -> Iterator[list[Send]]:
        """Hold every send made inside the block; the list of them is yielded."""
        held: list[Send] = []
        self._held = held
        try:
            yield held
        finally:
            self._held = None

    def release(self, sends: list[Send], durable: Awaitable[None] | None) -> None:
        """Let ``sends`` go once ``durable`` is done (None: nothing to wait for)."""
        if durable is None and not self._later:
            _run(sends)
            return
        self._later.append((durable, sends))
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._release())

    async def _release(self) -> None:
        while self._later:
            durable, sends = self._later[0]
            if durable is not None:
                await durable
            self._later.popleft()
            _run(sends)

    async def drain(self) -> None:
        """Wait until every held send has gone out."""
        if self._task is not None:
            await self._task


def _run(sends: list[Send]) -> None:
    for send in sends:
        try:
            send()
        except Exception:
            log.exception("a held message could not be sent")
