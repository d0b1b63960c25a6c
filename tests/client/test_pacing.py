"""The table's pacing: what the session says is shown in order, one item at a time, each
held back while the one before it plays; the room and reactions show at once. Time is only
the synthetic ``dt`` passed to ``update`` (no clock, no pygame)."""

from __future__ import annotations

import queue

import pytest

from client.net.session import (
    Closed,
    Emoted,
    Happened,
    Message,
    RoomChanged,
    Seated,
    Snapshot,
)
from client.screens.table.pacing import (
    BOOST_FROM,
    BOOST_MAX,
    BOOST_STEP,
    Hold,
    Paced,
    Pacer,
    reading_time,
)
from engine import Attacked, Card, Covered, Passed, Rules, Series, new_game, observe
from protocol import Room, SeatInfo

ATTACK = Attacked(1, (Card.parse("6h"),))
COVER = Covered(0, Card.parse("7h"), Card.parse("6h"))
PASS = Passed(1)
SNAPSHOT = Snapshot(observe(new_game(Rules(players=2), 1), 0))


class Screen:
    """Stands in for the table screen: records what is shown, when (in the synthetic time
    the test has let pass), and how long each item holds the next back."""

    def __init__(
        self, holds: dict[object, float] | None = None, reads: dict[object, float] | None = None
    ) -> None:
        self.holds = holds or {}
        self.reads = reads or {}
        self.now = 0.0
        self.shown: list[tuple[float, Paced]] = []
        self.told: list[RoomChanged | Emoted] = []
        self.inbox: queue.Queue[Message] = queue.Queue()
        self.pacer = Pacer(self.inbox, self.show, self.told.append)

    def show(self, item: Paced) -> Hold:
        self.shown.append((self.now, item))
        return Hold(self.holds.get(item, 0.0), self.reads.get(item, 0.0))

    def step(self, dt: float, frames: int = 1) -> float:
        boost = 1.0
        for _ in range(frames):
            self.now += dt
            boost = self.pacer.update(dt)
        return boost

    def items(self) -> list[Paced]:
        return [item for _, item in self.shown]

    def when(self, item: Paced) -> float:
        return next(at for at, shown in self.shown if shown == item)


def test_a_message_arriving_while_an_animation_plays_waits_until_it_ends() -> None:
    screen = Screen({ATTACK: 0.5})
    screen.inbox.put(Happened((ATTACK,)))
    screen.step(0.125)
    assert screen.items() == [ATTACK]
    screen.inbox.put(SNAPSHOT)  # arrives while the attack's card is still flying
    screen.step(0.125, frames=3)
    assert screen.items() == [ATTACK]  # 0.375 s of the attack's 0.5 s have passed
    screen.step(0.125)
    assert screen.items() == [ATTACK, SNAPSHOT]
    assert screen.when(SNAPSHOT) - screen.when(ATTACK) == pytest.approx(0.5)


def test_the_events_of_one_message_are_shown_one_after_another() -> None:
    screen = Screen({ATTACK: 0.4, COVER: 0.4})
    screen.inbox.put(Happened((ATTACK, COVER, PASS)))
    screen.inbox.put(SNAPSHOT)
    screen.step(0.1, frames=12)
    assert screen.items() == [ATTACK, COVER, PASS, SNAPSHOT]
    assert screen.when(COVER) - screen.when(ATTACK) == pytest.approx(0.4)
    assert screen.when(PASS) - screen.when(COVER) == pytest.approx(0.4)
    assert screen.when(SNAPSHOT) == screen.when(PASS)  # a pass holds nothing back


def test_a_snapshot_resynchronises_only_after_the_events_before_it() -> None:
    """The snapshot says what the table looks like after the events: it is shown after
    them, never ahead of an animation still to come, and an event after it waits its turn."""
    screen = Screen({ATTACK: 0.5, COVER: 0.5})
    screen.inbox.put(Happened((ATTACK,)))
    screen.inbox.put(SNAPSHOT)
    screen.inbox.put(Happened((COVER,)))
    screen.step(0.25)
    assert screen.items() == [ATTACK]
    screen.step(0.25, frames=2)
    assert screen.items() == [ATTACK, SNAPSHOT, COVER]
    assert screen.when(SNAPSHOT) == screen.when(COVER)  # a snapshot holds nothing back


def test_the_order_is_kept_and_the_room_and_reactions_show_at_once() -> None:
    screen = Screen({ATTACK: 1.0})
    seated = Seated(0, ("You", "Boris"), Rules(players=2))
    room = _room()
    emote = Emoted(1, "nice")
    closed = Closed("The host left", "host_gone")
    for message in (seated, Happened((ATTACK, PASS)), room, SNAPSHOT, emote, closed):
        screen.inbox.put(message)
    screen.step(0.1)
    assert screen.told == [room, emote]  # while the attack still holds the rest back
    assert screen.items() == [seated, ATTACK]
    screen.step(0.1, frames=10)
    assert screen.items() == [seated, ATTACK, PASS, SNAPSHOT, closed]
    assert screen.pacer.idle


def test_what_the_scene_was_handed_is_shown_first() -> None:
    screen = Screen()
    screen.pacer.take([Seated(0, ("You", "Boris"), Rules(players=2)), SNAPSHOT])
    screen.inbox.put(Happened((PASS,)))
    assert not screen.pacer.idle
    screen.step(0.0)
    assert screen.items()[1:] == [SNAPSHOT, PASS]


def test_a_slow_frame_skips_no_animation() -> None:
    """A frame of several seconds shows the next item and lets it play: the time beyond
    a moment is not carried over to rush the items after it."""
    screen = Screen({ATTACK: 0.5, COVER: 0.5})
    screen.inbox.put(Happened((ATTACK, COVER, PASS)))
    screen.step(0.0)
    screen.step(5.0)
    assert screen.items() == [ATTACK, COVER]
    screen.step(0.4)
    assert screen.items() == [ATTACK, COVER]  # 0.05 s carried over + 0.4 s < 0.5 s
    screen.step(0.05)
    assert screen.items() == [ATTACK, COVER, PASS]


def test_a_quiet_table_saves_up_no_time_for_later_messages() -> None:
    """After a quiet spell the next message's hold counts from the frame it arrived in:
    none of the quiet time (not even the moment a slow frame may carry) cuts it short."""
    frame = 1 / 64
    screen = Screen({ATTACK: 0.5})
    screen.step(frame, frames=200)  # three seconds with nothing to show
    screen.inbox.put(Happened((ATTACK, PASS)))
    screen.step(frame)
    assert screen.items() == [ATTACK]
    screen.step(frame, frames=30)  # 0.5 s from the start of the frame it arrived in ...
    assert screen.items() == [ATTACK]
    screen.step(frame)  # ... ends here
    assert screen.items() == [ATTACK, PASS]


def test_a_long_backlog_of_events_is_caught_up_faster_up_to_twice() -> None:
    holds = {Passed(seat): 0.5 for seat in range(80)}
    events = tuple(holds)
    short = Screen(holds)
    short.inbox.put(Happened(events[:20]))
    assert short.step(0.1) == 1.0  # twenty waiting: the usual pace
    long = Screen(holds)
    long.inbox.put(Happened(events[:35]))
    long.step(0.0)  # the first is shown: 34 wait
    assert long.step(0.1) == pytest.approx(1.0 + (34 - BOOST_FROM) * BOOST_STEP)
    flood = Screen(holds)
    flood.inbox.put(Happened(events))
    assert flood.step(0.1) == BOOST_MAX == 2.0


def test_snapshots_do_not_count_towards_the_backlog() -> None:
    """A host says each action's events and then the snapshot after them: only the events
    take time to show, so only they make the table hurry."""
    holds = {Passed(seat): 0.5 for seat in range(20)}
    screen = Screen(holds)
    for event in holds:
        screen.inbox.put(Happened((event,)))
        screen.inbox.put(SNAPSHOT)
    screen.step(0.0)
    assert len(screen.pacer.waiting) > BOOST_FROM  # 39 items, but only 19 events
    assert screen.step(0.1) == 1.0


def test_the_time_to_read_an_action_holds_back_the_next_event_but_not_its_snapshot() -> None:
    """An opponent's card is down after its flight: the snapshot after it comes then (we
    may answer at once); the next opponent's action waits until the first could be read."""
    screen = Screen({ATTACK: 0.4, COVER: 0.4}, {ATTACK: 1.0})
    screen.inbox.put(Happened((ATTACK,)))
    screen.inbox.put(SNAPSHOT)
    screen.inbox.put(Happened((COVER,)))
    screen.step(0.1, frames=12)
    assert screen.items() == [ATTACK, SNAPSHOT, COVER]
    assert screen.when(SNAPSHOT) - screen.when(ATTACK) == pytest.approx(0.4)
    assert screen.when(COVER) - screen.when(ATTACK) == pytest.approx(1.0)


def test_another_seats_action_is_held_long_enough_to_be_read_and_ours_is_not() -> None:
    theirs, ours = Attacked(1, (Card.parse("6h"),)), Attacked(0, (Card.parse("6h"),))
    assert reading_time(theirs, me=0) >= 0.9
    assert reading_time(ours, me=0) == 0.0
    assert reading_time(Covered(1, Card.parse("7h"), Card.parse("6h")), me=0) >= 0.9
    assert 0 < reading_time(Passed(1), me=0) < reading_time(theirs, me=0)


def _room() -> RoomChanged:
    rules = Rules(players=2)
    seats = tuple(SeatInfo("human", f"P{i}", None, True, "connected") for i in range(2))
    return RoomChanged(Room("Kitchen", "playing", 0, seats, rules, False, False, Series.new(2), 1))
