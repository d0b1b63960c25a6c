"""A review without the coach, for the window's tests: verdicts written for a game's
decisions, and a job that hands them to the review scene a few at a time, as
``client.review.ReviewJob`` does while its worker finishes them.

The window's tests are about the list, its words and its taps, not the coach's
arithmetic (tests/engine/test_coach.py and test_coach_reasons.py prove that): the real
coach took 24 s of the quick suite here, for whichever reasons one game happened to
give. The script gives every sentence a verdict can be said in, the longest among them.
"""

from __future__ import annotations

from collections.abc import Sequence

from client.review import ReviewJob
from engine import Card
from engine.ai.coach import Decision, Verdict
from engine.ai.reasons import Why, WhyCode

__all__ = ["ScriptedJob", "scripted_verdicts"]

# Each way a flagged move is explained: its reason and, for a solved ending, the exact
# values of the move made and the best (a win, then a draw, thrown away).
FLAGS: tuple[tuple[WhyCode, int, int, tuple[float, float] | None], ...] = (
    # code, count, stock, exact
    (WhyCode.SOLVED, 0, 0, (0.0, 1.0)),
    (WhyCode.SOLVED, 0, 0, (0.0, 0.5)),
    (WhyCode.KEEP_TRUMP, 3, 6, None),
    (WhyCode.KEEP_TRUMP, 0, 6, None),  # the highest trump
    (WhyCode.TAKE_COSTS, 3, 6, None),
    (WhyCode.TAKE_COSTS, 2, 0, None),  # the stock gone
    (WhyCode.TAKE_INSTEAD, 2, 6, None),
    (WhyCode.TAKE_INSTEAD, 0, 6, None),  # the defender's hand full
    (WhyCode.NO_HIGHER, 0, 6, None),
    (WhyCode.KEEP_HIGH, 2, 6, None),
    (WhyCode.KEEP_HIGH, 0, 6, None),  # nothing still out beats it
    (WhyCode.SAMPLES, 9, 6, None),
)


def scripted_verdicts(decisions: Sequence[Decision]) -> list[Verdict]:
    """A verdict on each decision: "forced" where the seat had one legal move; of the
    others, every fourth good and the rest flagged, through ``FLAGS`` in turn."""
    verdicts = []
    choices = 0
    for decision in decisions:
        made = decision.action
        others = [a for a in decision.view.legal if a != made]
        if not others:
            verdicts.append(Verdict(decision, 0.5, made, 0.5, "forced", ((made, 0.5),)))
            continue
        if choices % 4 == 3:
            scores = ((made, 0.62), (others[0], 0.55))
            verdicts.append(Verdict(decision, 0.62, made, 0.62, "samples", scores))
        else:
            code, count, stock, exact = FLAGS[(choices - choices // 4) % len(FLAGS)]
            view = decision.view
            card: Card | None = view.hand[0] if view.hand else None
            seat = (view.seat + 1) % len(view.places)
            samples = 48 if code is WhyCode.SAMPLES else 0
            why = Why(code, card, seat, count, stock, samples)
            best = others[-1]
            method = "samples" if exact is None else "solver"
            scores = ((best, 0.74), (made, 0.31))
            verdicts.append(Verdict(decision, 0.31, best, 0.74, method, scores, why, exact))
        choices += 1
    return verdicts


class ScriptedJob(ReviewJob):
    """``verdicts`` handed over ``batch`` at each ``take()`` (the scene takes once a
    frame): no worker, no coach. ``join()`` hands over the rest at once."""

    def __init__(self, verdicts: Sequence[Verdict], batch: int = 3) -> None:
        self.total = len(verdicts)
        self.verdicts = []
        self._script = list(verdicts)
        self._batch = batch

    def take(self) -> list[Verdict]:
        fresh, self._script = self._script[: self._batch], self._script[self._batch :]
        self.verdicts += fresh
        return fresh

    def cancel(self) -> None:
        self._script = []

    def join(self) -> None:
        while self._script:
            self.take()
