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

A card at rest is drawn from an image turned to its angle, and turning one costs about
a millisecond at 1920x1080: when a pick-up re-fans a hand of ten, they all land in one
frame (12-13 ms of CPU in it: ``tests/benchmarks/client_fps.py --whole`` names such
frames), and a change of turn re-dims a whole hand in another. So, with what the jobs
leave of the budget (half of it at most: a frame with cards in flight costs already),
each frame also makes what the cards of the table (``board``) will rest as (``resting``):
the glow behind our hand at its size, each card in flight as it will land, soonest
first, and each card of our hand in all its looks.

The clock is passed in, so a test counts jobs, not milliseconds.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterator
from functools import partial

import pygame

from client.screens.table.board import HAND, Board, deck_of
from client.screens.table.draw import at_rest, warm_fan, warm_turn_glow
from client.screens.table.ending import END_SCALE
from client.screens.table.layout import OPPONENT_SCALE, PILE_SCALE, Layout
from client.ui.assets import Assets
from engine import Rules

__all__ = ["BUDGET", "Warmer", "resting", "run_parts"]

BUDGET = 0.004  # seconds of a frame given to making images ahead of need
LOOKS_AHEAD = ("plain", "glow", "dim")  # the looks of a face in our hand, commonest first

Job = Callable[[], object]


class Warmer:
    def __init__(
        self,
        assets: Assets,
        clock: Callable[[], float] = time.perf_counter,
        board: Callable[[], Board | None] = lambda: None,
    ) -> None:
        """``board``: the table's board as it is now (None: not seated yet)."""
        self.assets = assets
        self.clock = clock
        self.board = board
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
        """Make images for ``budget`` seconds at most (the job under way is finished): the
        jobs first, then what the board's cards will rest as; how many jobs were made."""
        started, done = self.clock(), 0
        while self.jobs and self.clock() - started < budget:
            self.jobs.popleft()()
            self.blocking = max(0, self.blocking - 1)
            done += 1
        board = self.board()
        if board is None or not self.ready:
            return done
        began = self.clock()
        left = min(budget / 2, budget - (began - started))
        for job in resting(self.assets, board):
            if self.clock() - began >= left:
                break
            job()
        return done

    @property
    def ready(self) -> bool:
        """The table can be drawn: the images it cannot do without are made."""
        return self.blocking == 0


def resting(assets: Assets, board: Board) -> list[Job]:
    """What to make for ``board``'s cards at rest, soonest needed first: the glow behind
    a hand of its size (on our turn), then each image not made yet of a card in flight as
    it will land (a card of our hand in each of its looks) and of a card resting in our
    hand in the looks it may take next."""
    layout, due = board.layout, []
    for sprite in board.cards.values():
        motion = sprite.motion
        if sprite.vanish or (motion is None and sprite.dest[0] != HAND):
            continue  # (one resting on the table shows already)
        rest = at_rest(layout, sprite)
        if rest is None:
            continue
        card, h, angle = rest
        left = 0.0 if motion is None else motion.delay + motion.duration - motion.elapsed
        looks = LOOKS_AHEAD if sprite.dest[0] == HAND else LOOKS_AHEAD[:1]
        for k, look in enumerate(looks):
            if not assets.made(card, h, look, angle):
                due.append((left, k, partial(assets.card, card, h, look, angle)))
    due.sort(key=lambda d: d[:2])
    return [partial(warm_turn_glow, assets, layout, len(board.hand)), *(job for *_, job in due)]


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
