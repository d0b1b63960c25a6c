"""What the table sends, held back until what it tells is on disk.

While the table handles one item (a client's message, an AI's decision, a timer), every
``send`` and ``close`` of a connection is held (``holding``). Afterwards ``release`` lets
them go at once, or, when the item wrote to the journal, once that record is durable (the
journal's writer thread resolves the awaitable). Released batches go out strictly in the
order the table made them, so a client sees what it would have seen without the wait;
meanwhile the table goes on with the next item, so records that pile up during one
``fsync`` are written together by the next.

The outbox also encodes what goes out (``frame``): a message sent to many connections in a
row (a ``room`` to everyone, a ``watch_update`` to every watcher) is encoded once, not once
a connection. A watchers' update took 57 µs to encode (a 6-seat deal, on the loaded 2-core
machine of ``tests/benchmarks/host_load.py``), so 64 watchers cost the table 3.7 ms of its
loop on every move before.

A party has an outbox too, with its own codec (``encode``) and nothing ever held: its
sends go out at once, and its links are the table's kind of link.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from protocol import encode as encode_message

__all__ = ["Outbox", "Send"]

log = logging.getLogger("durak.host")

Send = Callable[[], None]


class Outbox:
    def __init__(self, encode: Callable[[Any], bytes] = encode_message) -> None:
        self._encode = encode
        self._held: list[Send] | None = None
        self._later: deque[tuple[Awaitable[None] | None, list[Send]]] = deque()
        self._task: asyncio.Task[None] | None = None
        self._last: tuple[Any, bytes] | None = None  # the last message encoded

    def frame(self, message: Any) -> bytes:
        """``message`` encoded: once for every connection it goes to in a row."""
        last = self._last
        if last is None or last[0] is not message:
            self._last = last = (message, self._encode(message))
        return last[1]

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
