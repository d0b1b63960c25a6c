"""The door's rules (slots, the reserve, the per-address rate, the file budget) and the
password throttle, with a clock the tests move by hand: no sockets, no waiting."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from typing import Any

import pytest

from host.admission import (
    SPARE_FILES,
    Door,
    DoorLimits,
    PasswordThrottle,
    Pool,
    raise_file_limit,
    slots_for,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def door(clock: Clock, **sizes: Any) -> Door[str]:
    limits = DoorLimits(limit=4, reserve=2, hard=8, rate=1.0, burst=4, reserve_timeout=2.0)
    return Door(replace(limits, **sizes), clock)


def test_a_full_door_pushes_out_the_oldest_stranger_of_the_busiest_address() -> None:
    clock = Clock()
    d = door(clock)
    assert d.arrive("lan-1", "10.0.0.1") is not None
    for n in range(3):
        admit = d.arrive(f"flood-{n}", "10.0.0.9")
        assert admit is not None and admit.pool is Pool.OPEN and admit.evict is None
        assert admit.timeout == 10.0
    admit = d.arrive("lan-2", "10.0.0.2")  # full: the flooder's oldest goes, not lan-1
    assert admit is not None and admit.pool is Pool.OPEN and admit.evict == "flood-0"
    d.leave("flood-0")
    admit = d.arrive("lan-3", "10.0.0.3")
    assert admit is not None and admit.evict == "flood-1"


def test_players_are_never_pushed_out_and_a_door_of_players_refuses() -> None:
    clock = Clock()
    d = door(clock)
    for n in range(4):
        assert d.arrive(f"p{n}", f"10.0.0.{n}") is not None
        d.greeted(f"p{n}")
    assert d.arrive("late", "10.0.0.7") is None  # nobody to push out: refused at once
    d.leave("p2")
    admit = d.arrive("late", "10.0.0.7")
    assert admit is not None and admit.evict is None


def test_beyond_its_rate_an_address_gets_the_reserve_and_its_bucket_refills() -> None:
    clock = Clock()
    d = door(clock, hard=12)
    for n in range(4):
        assert d.arrive(f"a{n}", "10.0.0.9") is not None
    first = d.arrive("r0", "10.0.0.9")
    assert first is not None and first.pool is Pool.RESERVE and first.timeout == 2.0
    second = d.arrive("r1", "10.0.0.9")
    assert second is not None and second.pool is Pool.RESERVE and second.evict is None
    third = d.arrive("r2", "10.0.0.9")  # the reserve is full: its oldest goes
    assert third is not None and third.pool is Pool.RESERVE and third.evict == "r0"
    other = d.arrive("b0", "10.0.0.5")  # another address has its own bucket
    assert other is not None and other.pool is Pool.OPEN and other.evict == "a0"
    clock.now += 1.0  # one connection a second
    again = d.arrive("a4", "10.0.0.9")
    assert again is not None and again.pool is Pool.OPEN and again.evict == "a1"
    assert d.arrive("r3", "10.0.0.9") is not None and d.strangers(Pool.RESERVE) == 2


def test_a_reserve_stranger_that_greets_holds_its_slot() -> None:
    clock = Clock()
    d = door(clock, burst=0)
    admit = d.arrive("back", "10.0.0.9")
    assert admit is not None and admit.pool is Pool.RESERVE
    d.greeted("back")
    for n in range(3):
        assert d.arrive(f"r{n}", "10.0.0.9") is not None
    assert d.count == 4 and d.strangers(Pool.RESERVE) == 2  # "back" was never pushed out


@pytest.mark.parametrize("file_limit", [8192, None])
def test_a_returning_players_connection_outlasts_500_of_a_flood_from_its_address(
    file_limit: int | None,
) -> None:
    """Issue 41: a flood from the player's own address is told from the player only by the
    hello, so the player's connection in the reserve must outlast the flood's until its
    hello comes (a reserve of 32 pushed it out after 32, some 30 ms of a 1,000/s flood)."""
    clock = Clock()
    d = Door(replace(slots_for(64, file_limit, 40, 2), burst=0), clock)
    admit = d.arrive("back", "10.0.0.9")
    assert admit is not None and admit.pool is Pool.RESERVE
    pushed = set()
    for n in range(500):
        flood = d.arrive(f"flood-{n}", "10.0.0.9")
        assert flood is not None
        if flood.evict is not None:
            pushed.add(flood.evict)
            d.leave(flood.evict)
    assert "back" not in pushed
    d.greeted("back")  # the hello with the seat's token comes: never pushed out from here
    for n in range(500, 1200):
        flood = d.arrive(f"flood-{n}", "10.0.0.9")
        assert flood is not None and flood.evict != "back"
        if flood.evict is not None:
            d.leave(flood.evict)


def test_closing_connections_count_until_their_socket_is_closed() -> None:
    clock = Clock()
    d = door(clock, hard=5, burst=100)
    for n in range(4):
        assert d.arrive(f"s{n}", "10.0.0.9") is not None
    admit = d.arrive("s4", "10.0.0.9")
    assert admit is not None and admit.evict == "s0"
    assert d.count == 5  # s0 is pushed out, but its descriptor is not free yet
    assert d.arrive("s5", "10.0.0.9") is None
    d.leave("s0")
    assert d.arrive("s5", "10.0.0.9") is not None


def test_a_door_without_a_reserve_refuses_what_is_over_the_rate() -> None:
    clock = Clock()
    d = door(clock, reserve=0, burst=1)
    assert d.arrive("a", "10.0.0.9") is not None
    assert d.arrive("b", "10.0.0.9") is None


@pytest.mark.parametrize("file_limit", [64, 100, 256, 1024, 65536])
@pytest.mark.parametrize("seats", [2, 6])
def test_the_door_stays_below_the_file_limit(file_limit: int, seats: int) -> None:
    files_open = 20
    sizes = slots_for(64, file_limit, files_open, seats)
    assert sizes.limit > seats  # every seat fits, and one stranger besides
    assert sizes.limit <= 64 and sizes.reserve >= 1
    assert sizes.hard >= sizes.limit + sizes.reserve
    if file_limit - files_open - SPARE_FILES >= 2 * seats + 2:
        assert files_open + sizes.hard + SPARE_FILES <= file_limit


def test_without_a_file_limit_the_door_follows_max_connections() -> None:
    sizes = slots_for(64, None, None, 6)
    assert sizes.limit == 64 and sizes.reserve >= 1 and sizes.hard >= 64 + sizes.reserve
    assert slots_for(3, 10_000, 20, 4).limit == 3  # an explicit cap is kept


@pytest.mark.skipif(sys.platform == "win32", reason="no RLIMIT_NOFILE on Windows")
def test_the_soft_file_limit_is_raised_towards_the_hard_one() -> None:
    script = (
        "import resource, sys; sys.path.insert(0, '.');"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (200, 300));"
        "from host.admission import raise_file_limit;"
        "print(raise_file_limit(), resource.getrlimit(resource.RLIMIT_NOFILE)[0],"
        " raise_file_limit(250))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["300", "300", "300"]  # up to the hard limit, and never lowered


def test_on_windows_there_is_no_file_limit_to_raise() -> None:
    if sys.platform == "win32":
        assert raise_file_limit() is None
    else:
        limit = raise_file_limit()
        assert limit is None or limit > 0


def test_wrong_passwords_wait_longer_each_time_then_lock_the_address_out() -> None:
    clock = Clock()
    throttle = PasswordThrottle(clock, free=1, base=1.0, longest=8.0, lock_after=7, lockout=300.0)
    assert throttle.wait("10.0.0.9") == 0
    waits = []
    for _ in range(8):
        waits.append(throttle.failed("10.0.0.9"))
        assert throttle.wait("10.0.0.9") == waits[-1]
        clock.now += waits[-1]
        assert throttle.wait("10.0.0.9") == 0
    assert waits == [0, 1, 2, 4, 8, 8, 300, 300]  # a typo is free
    throttle.failed("10.0.0.9")
    clock.now += 299
    assert throttle.wait("10.0.0.9") == 1  # still locked out
    assert throttle.wait("10.0.0.5") == 0  # another address is not
    clock.now += 1
    throttle.succeeded("10.0.0.9")  # the right password forgets the wrong ones
    assert throttle.failed("10.0.0.9") == 0


def test_wrong_passwords_are_limited_per_table_across_addresses() -> None:
    """200 addresses guessing for 30 s (issue 23: 1,200 checks) get the table's budget at
    most: its burst and its rate; a right password gives back what it took."""
    clock = Clock()
    throttle = PasswordThrottle(clock, table_burst=20, table_rate=1.0)
    checked = 0
    for _ in range(300):  # every 0.1 s, each address tries once more
        clock.now += 0.1
        for n in range(200):
            address = f"10.1.{n // 250}.{n % 250}"
            if throttle.begin(address, "guess") is None:
                checked += 1
                throttle.end(address, False)
    assert 20 <= checked <= 20 + 30
    newcomer = throttle.begin("10.9.9.9", "kitchen")  # the budget is spent: not even looked at
    assert newcomer is not None and not newcomer.ok and 0 < newcomer.wait <= 1.0
    clock.now += 1.0  # a second at most
    assert throttle.begin("10.9.9.9", "kitchen") is None  # now it is checked
    throttle.end("10.9.9.9", True)
    assert throttle.begin("10.9.9.8", "kitchen") is None  # the right one cost nothing


def test_a_password_is_checked_once_at_a_time_per_address_and_asking_is_no_guess() -> None:
    clock = Clock()
    throttle = PasswordThrottle(clock, table_burst=3, table_rate=1.0)
    assert throttle.begin("10.0.0.1", "one") is None
    second = throttle.begin("10.0.0.1", "two")  # while the first is being checked
    assert second is not None and second.wait > 0
    for _ in range(10):
        asks = throttle.begin("10.0.0.2", None)
        assert asks is not None and not asks.ok and asks.wait == 0
    assert throttle.begin("10.0.0.3", "three") is None  # asking took none of the budget
