"""The card images a table needs, made ahead of need a few milliseconds a frame.

A card image is drawn at the exact pixel size it is shown at (``client.ui.cardart``), and
the first one of a size costs: a back at 1920x1080 took 14 ms (its shadow is a gaussian
blur), a face about 3 ms, and the table's first frame needs backs at three sizes and the
opponents' fans of them — 33-66 ms in one frame, measured with
``tests/benchmarks/client_fps.py``. So the images are made here, in order of need, until
the frame's budget (``BUDGET`` seconds) is spent: first the ones the table cannot be drawn
without (``blocking``: until they are made, the table shows only its cloth and shows no
event), then every face of the deck (in our hand's looks, and at the size the end shows the Durak's
cards), and the fans' backs for every count.
The clock is passed in, so a test counts jobs, not milliseconds.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator
from functools import partial

import pygame

from client.screens.table.board import deck_of
from client.screens.table.draw import warm_fan
from client.screens.table.ending import END_SCALE
from client.screens.table.layout import OPPONENT_SCALE, PILE_SCALE, Layout
from client.ui.assets import Assets
from engine import Rules

__all__ = ["BUDGET", "Warmer", "run_parts"]

BUDGET = 0.004  # seconds of a frame given to making images ahead of need
LOOKS_AHEAD = ("plain", "glow", "dim")  # the looks of a face in our hand, commonest first

Job = Callable[[], object]


class Warmer:
    def __init__(self, assets: Assets, clock: Callable[[], float] = time.perf_counter) -> None:
        self.assets = assets
        self.clock = clock
        self.jobs: deque[Job] = deque()
        self.blocking = 0  # jobs at the head of ``jobs`` the table waits for

    def prepare(self, layout: Layout, rules: Rules) -> None:
        """The jobs for a table of ``rules`` laid out as ``layout`` (a new size replaces
        what was left of the jobs for the old one)."""
        assets, card_h = self.assets, round(layout.card_h)
        sizes = (card_h, round(layout.card_h * PILE_SCALE), round(layout.card_h * OPPONENT_SCALE))
        first: list[Job] = [partial(assets.card, None, h) for h in sizes]
        first.append(partial(assets.card, None, sizes[1], "plain", -90))  # the trump's place
        deck = deck_of(rules)
        later: list[Job] = [partial(assets.card, c, card_h, k) for k in LOOKS_AHEAD for c in deck]
        end_h = round(layout.card_h * OPPONENT_SCALE * END_SCALE)  # the Durak's, at the end
        later += [partial(assets.card, c, end_h) for c in deck]
        scratch = pygame.Surface((1, 1), pygame.SRCALPHA)
        later += [
            partial(warm_fan, scratch, assets, layout, seat, n)
            for seat in layout.seats
            for n in range(1, 13)
        ]
        self.jobs = deque([*first, *later])
        self.blocking = len(first)

    def run(self, budget: float = BUDGET) -> int:
        """Make images for ``budget`` seconds at most (the job under way is finished); how
        many were made."""
        started, done = self.clock(), 0
        while self.jobs and self.clock() - started < budget:
            self.jobs.popleft()()
            self.blocking = max(0, self.blocking - 1)
            done += 1
        return done

    @property
    def ready(self) -> bool:
        """The table can be drawn: the images it cannot do without are made."""
        return self.blocking == 0


def run_parts(
    parts: Iterator[None], budget: float = BUDGET, clock: Callable[[], float] = time.perf_counter
) -> bool:
    """Take steps of ``parts`` for ``budget`` seconds at most (the step under way is
    finished); whether any are left."""
    started = clock()
    while clock() - started < budget:
        if next(parts, StopIteration) is StopIteration:
            return False
    return True
