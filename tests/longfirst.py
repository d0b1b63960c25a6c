"""The long tests first, on every core: the order the suite is handed to pytest-xdist.

``--dist worksteal`` gives each of W workers a contiguous 1/W of the collected tests and
lets a worker that runs dry take the tail of another's. A long test that sits late in its
worker's share starts late and the whole run waits for it (the app build, 30 s on a quiet
machine, took 174 s on a loaded one). So each worker's share starts with its long tests,
dealt out longest first to the share with the least work so far (Graham's LPT rule); the
rest keep their collected order (module fixtures are set up once) and fill the shares.

How long a test is comes from the last run in this checkout (pytest's cache, under
``durak/durations``; tests of ``LONG`` seconds or more); a test never timed there counts
as long if it is marked ``slow``. Only the order changes: every test still runs, once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

__all__ = ["KEY", "LONG", "deal", "shares", "timed"]

KEY = "durak/durations"  # pytest's cache: seconds each long test took when it last ran
LONG = 1.0  # seconds from which a test is dealt out first
UNTIMED_SLOW = LONG  # what a slow test never timed here is taken to cost

T = TypeVar("T")


def shares(count: int, workers: int) -> list[int]:
    """How many of ``count`` tests each worker is given first (as xdist's worksteal
    scheduler splits them: each in turn gets an even part of what is left)."""
    sizes = []
    for left in range(workers, 0, -1):
        sizes.append((count - sum(sizes)) // left)
    return sizes


def deal(items: Sequence[T], cost: Sequence[float], workers: int) -> list[T]:
    """``items`` reordered so that each worker's share begins with its long ones (cost of
    ``LONG`` or more), longest first, the shares' long work as even as LPT makes it."""
    if workers < 2 or len(items) < workers:
        return list(items)
    sizes = shares(len(items), workers)
    long = sorted((i for i, c in enumerate(cost) if c >= LONG), key=lambda i: (-cost[i], i))
    heads: list[list[int]] = [[] for _ in sizes]
    load = [0.0] * workers
    for index in long:
        open_shares = [w for w in range(workers) if len(heads[w]) < sizes[w]]
        share = min(open_shares, key=lambda w: (load[w], w))
        heads[share].append(index)
        load[share] += cost[index]
    taken = set(long)
    rest = iter(i for i in range(len(items)) if i not in taken)
    order: list[int] = []
    for head, size in zip(heads, sizes, strict=True):
        order += head
        order += [next(rest) for _ in range(size - len(head))]
    return [items[i] for i in order]


def timed(nodeid: str, slow: bool, durations: Mapping[str, float]) -> float:
    """A test's expected cost: its last time here, else ``UNTIMED_SLOW`` if it is slow."""
    if nodeid in durations:
        return durations[nodeid]
    return UNTIMED_SLOW if slow else 0.0
