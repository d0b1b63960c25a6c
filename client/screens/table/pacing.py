"""When the table shows each message from its session: one at a time, at a readable pace.

The pacer takes what the session says from its inbox and shows it in order through the
``show`` callback, which starts the message's animation and says how many seconds to hold
the next one back. A burst from the host is caught up faster once a backlog builds up. The
room and the seats' reactions are not paced: they go to ``at_once`` as soon as they arrive.
No pygame here: time is only the ``dt`` (seconds) given to ``update``.
"""

from __future__ import annotations

import queue
from collections import deque
from collections.abc import Callable, Iterable

from client.net.session import Emoted, Happened, Message, RoomChanged, drain
from engine import Event

__all__ = ["Paced", "Pacer"]

Paced = Message | Event  # what is shown in turn: a message, or one event of a ``Happened``

BOOST_FROM = 16  # waiting items beyond which the table plays faster ...
BOOST_STEP = 0.15  # ... by this much more per item ...
BOOST_MAX = 3.0  # ... up to this many times its usual pace
LATE_MAX = 0.05  # seconds a slow frame may carry over (so it skips no animation)


class Pacer:
    def __init__(
        self,
        inbox: queue.Queue[Message],
        show: Callable[[Paced], float],
        at_once: Callable[[RoomChanged | Emoted], None],
        record: Callable[[Message], None] | None = None,
    ) -> None:
        """``show(item)``: show one item, returning the seconds until the next may be
        shown. ``at_once(message)``: take in a room change or a reaction. ``record``: told
        every message as it is taken in, before it waits its turn."""
        self.inbox = inbox
        self.show = show
        self.at_once = at_once
        self.record = record
        self.waiting: deque[Paced] = deque()  # taken in, not shown yet: in order
        self.wait = 0.0  # seconds until the next may be shown (scaled by the pace)

    def take(self, messages: Iterable[Message]) -> None:
        """Queue messages to be shown in turn; the room and reactions go at once."""
        for message in messages:
            if self.record is not None:
                self.record(message)
            if isinstance(message, Happened):
                self.waiting.extend(message.events)
            elif isinstance(message, RoomChanged | Emoted):
                self.at_once(message)
            else:
                self.waiting.append(message)

    def drain(self) -> None:
        """Take in what the inbox holds now."""
        self.take(drain(self.inbox))

    def update(self, dt: float) -> float:
        """Let ``dt`` seconds pass: take in the inbox and show what is due. Returns the pace
        of this frame (1, or more while catching up), for the animations to play at."""
        self.drain()
        boost = min(BOOST_MAX, 1.0 + max(0, len(self.waiting) - BOOST_FROM) * BOOST_STEP)
        self.wait -= dt * boost
        while self.wait <= 0 and self.waiting:
            self.wait = max(self.wait, -LATE_MAX) + self.show(self.waiting.popleft())
        if not self.waiting:
            self.wait = max(self.wait, 0.0)  # no credit saved up while nothing waits
        return boost

    @property
    def idle(self) -> bool:
        """Nothing waiting to be shown, nor in the inbox."""
        return not self.waiting and self.inbox.empty()
