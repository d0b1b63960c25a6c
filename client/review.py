"""The coach for a kept game, in the player's words: which decisions to review, a review
that runs beside the window, and the sentence for each verdict.

``decisions(game, seat)`` takes a seat's moves from the file: from the full log when it
has one (any seat may then be reviewed: the game is over and the log is the player's),
else from what the file's own seat was told. ``ReviewJob`` computes the verdicts in a
worker process (``engine.ai.coach`` is pure computation) and the window takes them as
they come, so a frame never waits for it. No pygame here: ``durak review`` uses it too.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence
from concurrent.futures import (
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool

from client.i18n import Translator
from client.net.gamefile import GameFile
from engine import Action, Attack, Beat, Pass, ShowTrump, Take, ThrowIn, Transfer
from engine.ai.coach import (
    Decision,
    Verdict,
    decisions_from_log,
    decisions_from_steps,
    review_decision,
)
from engine.ai.reasons import Why, WhyCode

__all__ = ["ReviewJob", "action_text", "decisions", "percent", "verdict_text", "why_text"]


def decisions(game: GameFile, seat: int | None = None) -> list[Decision]:
    """The moves of ``seat`` (by default the file's own); ``ValueError`` for another seat
    of a file without the log (what other seats saw was never kept)."""
    seat = game.seat if seat is None else seat
    if not 0 <= seat < game.players:
        raise ValueError(f"no seat {seat} at this {game.players}-player table")
    if game.log is not None:
        return decisions_from_log(game.log, seat)
    if seat != game.seat:
        raise ValueError(
            f"this game was kept from seat {game.seat}'s view only (no log): "
            f"seat {seat}'s decisions cannot be reviewed"
        )
    return decisions_from_steps([(s.events, s.view) for s in game.steps], seat)


def action_text(action: Action, tr: Translator) -> str:
    if isinstance(action, Attack):
        return tr("action.attack", cards=" ".join(c.pretty for c in action.cards))
    if isinstance(action, ThrowIn):
        return tr("action.throw", card=action.card.pretty)
    if isinstance(action, Beat):
        return tr("action.beat", card=action.card.pretty, target=action.target.pretty)
    if isinstance(action, Transfer):
        return tr("action.transfer", card=action.card.pretty)
    if isinstance(action, ShowTrump):
        return tr("action.show", card=action.card.pretty)
    if isinstance(action, Take):
        return tr("action.take")
    assert isinstance(action, Pass)
    return tr("action.pass")


def percent(value: float) -> str:
    """``"42 %"``, its space a no-break one: a wrapped line never starts with a lone "%"."""
    return f"{round(value * 100)}\u00a0%"


def verdict_text(verdict: Verdict, tr: Translator) -> str:
    """One sentence: the move made and its chance, and for a costly move the better one
    (in a solved ending, what the better one is sure of: the chances the playouts give
    may not order moves whose worth shows only with exact play)."""
    played = action_text(verdict.decision.action, tr)
    if verdict.method == "forced":
        text = tr("review.forced", played=played)
    elif verdict.costly and verdict.exact is not None:
        key = "review.solved_win" if verdict.exact[1] == 1.0 else "review.solved_draw"
        text = tr(key, best=action_text(verdict.best, tr), played=played)
    elif verdict.costly:
        text = tr(
            "review.better",
            best=action_text(verdict.best, tr),
            played=played,
            before=percent(verdict.played),
            after=percent(verdict.best_score),
        )
    else:
        text = tr("review.good", played=played, before=percent(verdict.played))
    return text[:1].upper() + text[1:]


def why_text(why: Why, tr: Translator, names: Sequence[str] = ()) -> str:
    """The reason of a flagged move in the player's words (``names``: the table's, for a
    reason that names a seat)."""
    card = why.card.pretty if why.card is not None else ""
    n = why.count
    match why.code:
        case WhyCode.SOLVED:
            return tr("coach.solved")
        case WhyCode.KEEP_TRUMP if n:
            return tr.plural("coach.keep_trump", n, card=card)
        case WhyCode.KEEP_TRUMP:
            return tr("coach.keep_top_trump", card=card)
        case WhyCode.TAKE_COSTS if why.stock:
            return tr.plural("coach.take_costs", n, stock=why.stock)
        case WhyCode.TAKE_COSTS:
            return tr.plural("coach.take_costs_empty", n)
        case WhyCode.TAKE_INSTEAD if n:
            return tr.plural("coach.take_instead", n, card=card)
        case WhyCode.TAKE_INSTEAD:
            return tr("coach.take_instead_full", card=card)
        case WhyCode.NO_HIGHER:
            seat = why.seat
            name = names[seat] if 0 <= seat < len(names) else tr("coach.seat", n=seat + 1)
            suit = why.card.suit.symbol if why.card is not None else ""
            return tr("coach.no_higher", name=name, suit=suit, card=card)
        case WhyCode.KEEP_HIGH if n:
            return tr.plural("coach.keep_high", n, card=card)
        case WhyCode.KEEP_HIGH:
            return tr("coach.keep_unbeatable", card=card)
    return tr.plural("coach.samples", n, samples=why.samples)


class ReviewJob:
    """The verdicts on ``decisions``, computed in a worker process (started with ``spawn``,
    as on every platform; a thread where no process can be started), so the window's
    frames never share the interpreter with the coach. ``take()`` gives the verdicts
    finished since the last call, in order; ``cancel()`` drops the rest."""

    def __init__(self, decisions: list[Decision], seed: int = 0) -> None:
        self.total = len(decisions)
        self.verdicts: list[Verdict] = []
        self._decisions = decisions
        self._seed = seed
        self._pool = _executor()
        self._pending = self._submit(decisions)

    def _submit(self, decisions: list[Decision]) -> list[Future[Verdict]]:
        return [self._pool.submit(review_decision, d, self._seed) for d in decisions]

    def take(self) -> list[Verdict]:
        fresh = []
        while self._pending and self._pending[0].done():
            try:
                fresh.append(self._pending.pop(0).result())
            except BrokenProcessPool:  # the worker died (killed, out of memory): go on here
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="durak-coach")
                done = len(self.verdicts) + len(fresh)
                self._pending = self._submit(self._decisions[done:])
        self.verdicts += fresh
        if not self._pending:
            self._pool.shutdown(wait=False)
        return fresh

    @property
    def done(self) -> bool:
        return len(self.verdicts) >= self.total

    def cancel(self) -> None:
        self._pending = []
        self._pool.shutdown(wait=False, cancel_futures=True)

    def join(self) -> None:
        """Wait for every verdict (the command line and tests)."""
        wait(self._pending)
        self.take()


def _executor() -> Executor:
    try:
        return ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    except (OSError, NotImplementedError):  # no processes here (a locked-down sandbox)
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="durak-coach")
