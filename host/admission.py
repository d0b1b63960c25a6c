"""Who gets in: connection slots at the door, the file limit, and password guessing.

All of it is pure bookkeeping with a clock passed in (``time.monotonic`` by default), so the
rules are tested without sockets or waiting; ``host.doorway`` keeps the door, ``host.server``
the password throttle.

**The door** (``Door``). Every open connection takes a slot, and a slot is a file
descriptor. ``limit`` slots are for players and strangers (connections that have not said
``hello`` yet). New connections from one address are rate-limited (a token bucket of
``burst`` at ``rate`` a second): within the rate a newcomer is an ordinary stranger with
``hello_timeout`` seconds to greet; beyond it the newcomer goes to the **reserve**, extra
slots (up to ``RESERVE``) whose strangers get only ``reserve_timeout`` seconds and are let
in only with a seat's token (a seated player coming back). The reserve is large because a
flood from the player's own address can be told from the player only by the hello: a
returning player's connection must outlast as many of the flood's as arrive before its
hello does. When the slots are full, a newcomer pushes out
the oldest stranger of the address holding the most strangers (a flooder pushes out its own
connections, never a player); a full reserve pushes out its oldest. Pushed-out connections
are closed at once, but their descriptors are only free once the socket is closed
(``leave``), so ``hard`` caps every open connection, closing ones included: beyond it a
newcomer is refused and closed at once. A seated connection is never pushed out, nor is a
watcher's (a greeted connection like a player's: it holds its slot); so that watchers can
never fill the slots the seats need, the table lets in at most ``limit`` minus its seats
of them (``Audience.door_room``).

**The file limit** (``raise_file_limit``, ``slots_for``): the soft limit on open files is
raised towards the hard one where the OS allows it (POSIX ``resource``; elsewhere there is no
such limit to raise), and the door is sized to stay ``SPARE_FILES`` below it, the spare being
for saves, the announcement and the host's own files.

**Passwords** (``PasswordThrottle``): the first ``free`` wrong passwords in a row from an
address cost nothing (a typo); after the n-th one beyond them the address must wait
``base * 2**(n - 1)`` seconds (at most ``longest``) before its next password is even looked
at; from the ``lock_after``-th wrong one on it is locked out for ``lockout`` seconds after
each. A try that comes too early is refused without being checked, so it
tells the guesser nothing, and the right password is answered exactly as fast as a wrong
one. A right password forgets the address's wrong ones; a hello without any password (a
client asking whether one is needed) is no guess.

Per address alone is not enough: 200 addresses had 1,200 passwords checked in 30 s. So the
table also has a budget of password checks across every address (a token bucket of
``table_burst`` at ``table_rate`` a second): each check takes one when it begins (so checks
under way count, however many arrive at once), and a right password gives it back. An
empty budget refuses the try unchecked, like an address's wait. With the defaults a storm
gets at most 20 + 30 checks in 30 s, and a newcomer with the right password waits a second
at most for the budget to refill. ``begin`` decides before any check is made (and allows
one at a time per address); ``end`` books the answer. A seat's token is no guess and
passes none of this: ``host.server`` checks a returning player's password (when the seat's
token is right) in a thread of its own, and a newcomer's in another, so neither scrypt nor
a storm of them holds up the event loop or a returning player.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar

__all__ = [
    "SPARE_FILES",
    "Admit",
    "Door",
    "DoorLimits",
    "PasswordThrottle",
    "Pool",
    "TokenBucket",
    "Verdict",
    "open_files",
    "raise_file_limit",
    "slots_for",
    "throttled_text",
]

K = TypeVar("K", bound=Hashable)

SPARE_FILES = 32  # descriptors kept free for saves, the announcement, logs and the like
# Reserve slots at most (a quarter of the file budget on a tight limit). The reserve's
# newest stranger is pushed out only after this many more arrive over the rate, so it is
# the time a returning player has for its hello during a flood from its own address: at
# 1,000 silent connections a second, half a second.
RESERVE = 512
WANTED_FILES = 8192  # the soft limit asked for (a LAN table never needs more)
MAX_ADDRESSES = 4096  # buckets and throttles kept before forgetting settled ones


class Pool(Enum):
    OPEN = "open"  # an ordinary stranger: may take a free seat
    RESERVE = "reserve"  # over its address's rate: only a seat's token gets in


@dataclass(frozen=True, slots=True)
class Admit(Generic[K]):
    """A newcomer is let in to ``pool`` with ``timeout`` seconds to say hello, after
    ``evict`` (a stranger's key, or None) is pushed out to make room."""

    pool: Pool
    timeout: float
    evict: K | None = None


@dataclass(frozen=True, slots=True)
class DoorLimits:
    limit: int = 64  # slots for players and strangers
    reserve: int = 16  # extra slots for strangers over their address's rate
    hard: int = 96  # every open connection, closing ones included
    rate: float = 20.0  # new connections per address per second, on average
    burst: int = 60  # ... at once
    hello_timeout: float = 10.0
    reserve_timeout: float = 2.0


class TokenBucket:
    """``burst`` tokens at most, refilled at ``rate`` a second (``stamp``: when last
    looked at): the door's new connections per address and a link's messages."""

    __slots__ = ("stamp", "tokens")

    def __init__(self, tokens: float, stamp: float) -> None:
        self.tokens = tokens
        self.stamp = stamp

    def full_at(self, now: float, rate: float) -> float:
        """The tokens there would be at ``now``, before any cap."""
        return self.tokens + (now - self.stamp) * rate

    def take(self, now: float, rate: float, burst: float) -> bool:
        """One token at ``now``; False: none left (over the rate)."""
        self.tokens = min(burst, self.full_at(now, rate))
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Door(Generic[K]):
    """The slots of a host's connections (see the module docstring). Keys are any
    hashable values standing for connections; addresses are strings."""

    def __init__(self, limits: DoorLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._open: dict[K, str] = {}  # strangers in ordinary slots, oldest first
        self._reserve: dict[K, str] = {}  # strangers in the reserve, oldest first
        self._greeted: set[K] = set()  # said hello: never pushed out
        self._closing: set[K] = set()  # pushed out, the socket not closed yet
        self._buckets: dict[str, TokenBucket] = {}

    @property
    def count(self) -> int:
        """Open connections, closing ones included."""
        return len(self._open) + len(self._reserve) + len(self._greeted) + len(self._closing)

    def strangers(self, pool: Pool) -> int:
        return len(self._open if pool is Pool.OPEN else self._reserve)

    def arrive(self, key: K, address: str) -> Admit[K] | None:
        """A new connection ``key`` from ``address``: let in (and how), or None: refuse it
        and close it at once."""
        limits = self.limits
        if self.count >= limits.hard:
            return None
        if self._take(address):
            evict = None
            if len(self._open) + len(self._greeted) >= limits.limit:
                evict = self._hog()
                if evict is None:
                    return None  # every slot holds a player
            self._open[key] = address
            return Admit(Pool.OPEN, limits.hello_timeout, evict)
        if limits.reserve <= 0:
            return None
        evict = None
        if len(self._reserve) >= limits.reserve:
            evict = self._push_out(next(iter(self._reserve)))
        self._reserve[key] = address
        return Admit(Pool.RESERVE, limits.reserve_timeout, evict)

    def greeted(self, key: K) -> None:
        """``key`` said hello: it is no longer a stranger and is never pushed out."""
        if self._open.pop(key, None) is not None or self._reserve.pop(key, None) is not None:
            self._greeted.add(key)

    def leave(self, key: K) -> None:
        """``key``'s socket is closed: its slot is free."""
        self._open.pop(key, None)
        self._reserve.pop(key, None)
        self._greeted.discard(key)
        self._closing.discard(key)

    def _hog(self) -> K | None:
        """Push out the oldest ordinary stranger of the address with the most of them."""
        counts: dict[str, int] = {}
        for address in self._open.values():
            counts[address] = counts.get(address, 0) + 1
        if not counts:
            return None
        hog = max(counts, key=counts.__getitem__)
        return self._push_out(next(k for k, a in self._open.items() if a == hog))

    def _push_out(self, key: K) -> K:
        self._open.pop(key, None)
        self._reserve.pop(key, None)
        self._closing.add(key)
        return key

    def _take(self, address: str) -> bool:
        """One new connection from ``address`` out of its bucket; False: over its rate."""
        limits, now = self.limits, self.clock()
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= MAX_ADDRESSES:
                self._forget_full(now)
            bucket = self._buckets[address] = TokenBucket(float(limits.burst), now)
        return bucket.take(now, limits.rate, limits.burst)

    def _forget_full(self, now: float) -> None:
        limits = self.limits
        for address, bucket in list(self._buckets.items()):
            if bucket.full_at(now, limits.rate) >= limits.burst:
                del self._buckets[address]


# --- the file limit -----------------------------------------------------------------------


def raise_file_limit(wanted: int = WANTED_FILES) -> int | None:
    """Raise the soft limit on open files towards ``wanted`` (never above the hard limit)
    and return the soft limit now in force; None where the OS has no such limit (Windows)."""
    if sys.platform == "win32":
        return None
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):  # e.g. macOS refuses more than its kernel maximum
            pass
    return None if soft == resource.RLIM_INFINITY else int(soft)


def open_files() -> int | None:
    """How many files this process has open, where the OS lists them (else None)."""
    for folder in ("/proc/self/fd", "/dev/fd"):
        if sys.platform != "win32" and os.path.isdir(folder):
            try:
                return len(os.listdir(folder))
            except OSError:
                continue
    return None


def slots_for(
    max_connections: int, file_limit: int | None, files_open: int | None, seats: int
) -> DoorLimits:
    """The door's sizes for a host with ``max_connections`` under ``file_limit`` open
    files (None: no limit) with ``files_open`` already open (None: unknown; assume
    ``SPARE_FILES``). A table's seats always fit, however tight the limit."""
    if file_limit is None:
        return DoorLimits(
            limit=max_connections, reserve=RESERVE, hard=max_connections + 2 * RESERVE
        )
    used = SPARE_FILES if files_open is None else files_open
    budget = max(file_limit - used - SPARE_FILES, 2 * seats + 2)
    reserve = min(RESERVE, max(1, budget // 4))
    limit = min(max_connections, max(seats + 1, budget - 2 * reserve))
    return DoorLimits(limit=limit, reserve=reserve, hard=max(budget, limit + reserve))


# --- passwords ----------------------------------------------------------------------------

TABLE_BURST = 20  # password checks the table makes at once, across every address
TABLE_RATE = 1.0  # ... and a second, on average


def throttled_text(wait: float) -> str:
    return f"Too many wrong passwords: try again in {math.ceil(wait)} s."


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer to a password: right (``ok``) or not; ``wait`` > 0: it was not even looked
    at (too soon after wrong ones), try again in that many seconds."""

    ok: bool
    wait: float = 0.0


@dataclass(slots=True)
class _Guesses:
    wrong: int
    until: float  # no try from the address is checked before this


class PasswordThrottle:
    """Wrong passwords per address (see the module docstring)."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        *,
        free: int = 1,
        base: float = 1.0,
        longest: float = 30.0,
        lock_after: int = 8,
        lockout: float = 300.0,
        table_burst: int = TABLE_BURST,
        table_rate: float = TABLE_RATE,
    ) -> None:
        self.clock = clock
        self.free, self.base, self.longest = free, base, longest
        self.lock_after, self.lockout = lock_after, lockout
        self.table_burst, self.table_rate = table_burst, table_rate
        self._guesses: dict[str, _Guesses] = {}
        self._budget = float(table_burst)  # checks the table may begin now
        self._stamp = clock()
        self._checking: set[str] = set()  # addresses whose password is being checked

    def wait(self, address: str) -> float:
        """Seconds until a password from ``address`` is checked (0: now): its own wait, or
        the table's budget's."""
        guesses = self._guesses.get(address)
        own = 0.0 if guesses is None else max(0.0, guesses.until - self.clock())
        return max(own, self._budget_wait())

    def begin(self, address: str, attempt: str | None) -> Verdict | None:
        """A password from ``address`` is about to be checked: None if it may be (it takes
        one check of the table's budget), else the verdict without a check."""
        wait = self.wait(address)
        if wait > 0:
            return Verdict(False, wait)
        if attempt is None:  # it asks whether a password is needed: no guess
            return Verdict(False)
        if address in self._checking:  # one at a time per address
            return Verdict(False, self.base)
        self._budget -= 1
        self._checking.add(address)
        return None

    def end(self, address: str, ok: bool) -> Verdict:
        """The check ``begin`` allowed gave ``ok``: booked (a right one costs nothing)."""
        self._checking.discard(address)
        if ok:
            self._refill()
            self._budget = min(float(self.table_burst), self._budget + 1)
            self.succeeded(address)
        else:
            self.failed(address)
        return Verdict(ok)

    def check(self, address: str, attempt: str | None, right: Callable[[str], bool]) -> Verdict:
        """``begin``, ``right(attempt)`` and ``end`` in one (where the check is quick)."""
        verdict = self.begin(address, attempt)
        if verdict is not None or attempt is None:
            return verdict or Verdict(False)
        return self.end(address, right(attempt))

    def _refill(self) -> None:
        now = self.clock()
        elapsed = max(0.0, now - self._stamp)  # (a clock set back refills nothing)
        self._budget = min(float(self.table_burst), self._budget + elapsed * self.table_rate)
        self._stamp = now

    def _budget_wait(self) -> float:
        self._refill()
        return 0.0 if self._budget >= 1 else (1 - self._budget) / self.table_rate

    def failed(self, address: str) -> float:
        """A wrong password from ``address``; the seconds it must now wait."""
        now = self.clock()
        if address not in self._guesses and len(self._guesses) >= MAX_ADDRESSES:
            self._forget_settled(now)
        guesses = self._guesses.setdefault(address, _Guesses(0, now))
        guesses.wrong += 1
        beyond = guesses.wrong - self.free
        if guesses.wrong >= self.lock_after:
            delay = self.lockout
        elif beyond <= 0:
            delay = 0.0
        else:
            delay = min(self.longest, self.base * 2.0 ** (beyond - 1))
        guesses.until = now + delay
        return delay

    def succeeded(self, address: str) -> None:
        """The right password from ``address``: its wrong ones are forgotten."""
        self._guesses.pop(address, None)

    def _forget_settled(self, now: float) -> None:
        """Forget addresses whose wait ended a lock-out ago (they start afresh)."""
        for address, guesses in list(self._guesses.items()):
            if guesses.until + self.lockout <= now:
                del self._guesses[address]
