"""When the table shows each message from its session: one at a time, at a readable pace.

The pacer takes what the session says from its inbox and shows it in order through the
``show`` callback, which starts the message's animation and says how many seconds to hold
the next one back (a ``Hold``: the animation, before which nothing more is shown, and the
time to read it, which holds back only the next event: the snapshot that follows an
action comes as soon as its card is down, so we may answer it at once). The room and the
seats' reactions are not paced: they go to ``at_once`` as soon as they arrive.
No pygame here: time is only the ``dt`` (seconds) given to ``update``.

The pacing lives here, in the window, and not at the host (AI seats waiting before they
play). The host cannot know how fast each window plays its animations (at a LAN table every
player picks their own speed, and a window may be minimised), and a host that waited for
the slowest window would slow every other player's game; a remote human's action would not
be paced at all. Here every action of another seat is held for as long as a person needs to
see it and read the seat's word for it (``reading_time``, scaled by the animation-speed
setting), whoever played it and however fast it came. The cost: the window may show a
burst later than it happened. The host only runs ahead through bouts our seat has no say
in (it waits for our pass before it ends a bout we may add to), and a long backlog of
events (``BOOST_FROM``, counted in events, not snapshots) is caught up somewhat faster.
"""

from __future__ import annotations

import queue
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar, get_args

from client.net.session import Cheered, Emoted, Happened, Message, RoomChanged, drain
from engine import (
    Attacked,
    Covered,
    Event,
    Passed,
    Taking,
    ThrewIn,
    Transferred,
)

__all__ = ["THINK_DELAY", "Hold", "Paced", "Pacer", "reading_time"]

Paced = Message | Event  # what is shown in turn: a message, or one event of a ``Happened``
T = TypeVar("T")
EVENTS = get_args(Event)

BOOST_FROM = 24  # waiting events beyond which the table plays faster ...
BOOST_STEP = 0.05  # ... by this much more per event ...
BOOST_MAX = 2.0  # ... up to this many times its usual pace
LATE_MAX = 0.05  # seconds a slow frame may carry over (so it skips no animation)
THINK_DELAY = 0.6  # seconds a seat may decide before the table shows it is thinking
# seconds (at the normal pace) another seat's action stays before the next is shown: long
# enough to see the card land and read the seat's word (the board keeps a finished bout on
# the table for a moment too: ``board.SWEEP_AFTER``)
READING = {
    Attacked: 1.0,
    ThrewIn: 0.9,
    Covered: 0.9,
    Transferred: 1.3,
    Taking: 1.0,
    Passed: 0.35,
}


def reading_time(event: Event, me: int) -> float:
    """The least time ``event`` holds the next one back, at the normal pace: another seat's
    action (our own needs no reading)."""
    seat = getattr(event, "seat", me)
    return READING.get(type(event), 0.0) if seat != me else 0.0


@dataclass(frozen=True, slots=True)
class Hold:
    """How long what was just shown holds the rest back, in seconds: ``play`` holds
    everything (its animation plays), ``read`` (counted from the same moment) holds back
    only the next event."""

    play: float
    read: float = 0.0


class Pacer:
    def __init__(
        self,
        inbox: queue.Queue[Message],
        show: Callable[[Paced], Hold],
        at_once: Callable[[RoomChanged | Emoted | Cheered], None],
        record: Callable[[Message], None] | None = None,
        ready: Callable[[], bool] = lambda: True,
    ) -> None:
        """``show(item)``: show one item, returning how long it holds the next back.
        ``at_once(message)``: take in a room change or a reaction. ``record``: told every
        message as it is taken in, before it waits its turn. ``ready``: False while the
        table cannot show anything yet (its card images are being made): nothing is shown."""
        self.inbox = inbox
        self.ready = ready
        self.show = show
        self.at_once = at_once
        self.record = record
        self.waiting: deque[Paced] = deque()  # taken in, not shown yet: in order
        self.wait = 0.0  # seconds until the next may be shown (scaled by the pace) ...
        self.read = 0.0  # ... and until the next event may be

    def take(self, messages: Iterable[Message]) -> None:
        """Queue messages to be shown in turn; the room and reactions go at once."""
        for message in messages:
            if self.record is not None:
                self.record(message)
            if isinstance(message, Happened):
                self.waiting.extend(message.events)
            elif isinstance(message, RoomChanged | Emoted | Cheered):
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
        events = sum(1 for item in self.waiting if isinstance(item, EVENTS))
        boost = min(BOOST_MAX, 1.0 + max(0, events - BOOST_FROM) * BOOST_STEP)
        self.wait -= dt * boost
        self.read -= dt * boost
        while self.waiting and self.wait <= 0 and self.ready():
            if self.read > 0 and isinstance(self.waiting[0], EVENTS):
                break
            hold = self.show(self.waiting.popleft())
            start = max(self.wait, -LATE_MAX)
            self.wait = start + hold.play
            self.read = max(self.read, start + max(hold.play, hold.read))
        if not self.waiting:  # no credit saved up while nothing waits
            self.wait, self.read = max(self.wait, 0.0), max(self.read, 0.0)
        return boost

    def upcoming(self, kind: type[T]) -> T | None:
        """The first message of ``kind`` taken in and waiting to be shown, if any."""
        return next((item for item in self.waiting if isinstance(item, kind)), None)

    @property
    def idle(self) -> bool:
        """Nothing waiting to be shown, nor in the inbox."""
        return not self.waiting and self.inbox.empty()
