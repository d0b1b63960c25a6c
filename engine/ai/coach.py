"""The coach: how each of a player's decisions looked from where they sat.

For every decision (``Decision``: the seat's view then, what it remembered from its
events, the move it made) the coach estimates with the Hard AI's method the chance of not
being the Durak after the move made and after each sensible alternative, and names the
best one. It sees only what the player saw: the view and the memory, never the game
state; the hidden cards are sampled consistently with them
(``engine.ai.determinize``), with a generator seeded per decision, so the same inputs
give the same verdicts. Heads-up with at most the face-up trump card left in the stock
every card is known: the position is solved exactly (``engine.ai.solver``) when that
fits the node budget, and then every legal move is judged, as the Hard player's solver
does, not only the sensible ones (the cheapest cover of a suit and the cheapest trump):
there the only winning card is often another one. The search tries each position's
likeliest moves first, in Hard's order (``engine.ai.hard.solver_order``): the values are
the same in any order, and this one proves them in fewer nodes.

A score is the mean over the samples of 1 (not the Durak), 1/2 (a draw) or 0 (the
Durak), each sample finished with Normal's policy for every seat. Every move is scored on
the same samples, so the differences between moves are sharper than each estimate. A
solved ending is scored so too (what the review promises: everyone playing like Normal
from there), while the solver's exact values rank its moves and mark the costly one.

A move is costly when it loses 8 points heads-up, and in proportion to the seats still in
the game at a bigger table (``costly_loss``: 4 at four, 2.7 at six): with six seats in,
each has about one chance in six of being the Durak, so a careless move moves that chance
by a few points only, and a fixed 8 marked a careless player there almost never.
(``tests/benchmarks/coach_threshold.py`` measures the rules against each other.)

The first look scores every sensible move on the same 48 samples; it ranks them, but it
cannot judge the move made: at four seats the two moves' playouts end differently in
about two samples of five, so a loss of 5 points measured on 48 samples has a standard
error of about 9, and the best of several moves on the same samples is the one luck
favoured. So the move made and the first look's two best other moves (its luck often
swaps those two, and against the wrong one a costly move looks fine) are always played
again on fresh samples (``_second_look``), and judged on those alone: 48 at first, then
24 more at a time, until the better rival's measured lead is two standard errors clear
of the line that marks a move, or 768 samples. A clear case stops early (moves that play
alike at 48; at four seats the second look plays about 300 on average); a loss near the
line gets the samples, as it is where a wrong mark is likeliest. The line is three
quarters of the costly loss (``flag_line``): halfway between a loss of half of it, which
no player regrets, and the costly loss itself.
(``tests/benchmarks/coach_blunders.py`` checks the marks against a 10x longer search, and
``coach_calibration.py`` the chances against what happened.)

A costly move carries its reason (``engine.ai.reasons``), read from the seat's view, its
memory and its reading of the other hands (``Decision.weights``: what the others' play
has shown, ``engine.ai.inference``), so the player is told why, not only how much.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

from ..actions import PASS, TAKE, Action, Beat, ShowTrump, ThrowIn, Transfer, attack_of_mask
from ..cards import mask_of
from ..events import (
    Attacked,
    Covered,
    Event,
    Passed,
    Taking,
    ThrewIn,
    Transferred,
    trim,
)
from ..log import GameLog
from ..pickling import pickle_by_fields
from ..rules import Rules
from ..state import GameState
from ..view import SeatView, observe
from .determinize import hidden_slots, sample_state
from .hard import candidates, score_after, solver_order
from .inference import HandReading
from .reasons import Why, explain
from .solver import SearchAborted, Solver, solvable
from .tactics import Memory, unseen_pool

__all__ = [
    "COSTLY",
    "Decision",
    "Verdict",
    "Why",
    "costly_loss",
    "decisions_from_log",
    "decisions_from_steps",
    "flag_line",
    "review",
    "review_decision",
]

COSTLY = 0.08  # heads-up, a move this much worse than the best one is costly
FLAG = 0.75  # a sampled move is marked when it measures this share of the costly loss
SAMPLES = 48  # sampled deals of the first look, and of the second look at least
SECOND_LOOK = 16  # the second look's deals at most, in times SAMPLES
STEP = 24  # the second look grows by this many deals at a time
CLEAR = 2.0  # ... until its loss is this many standard errors clear of the line
RIVALS = 2  # the first look's best other moves that the second look plays again
# The solver's nodes at most for one decision. An ordered node costs more (43k a second
# in pure Python here, 75k unordered), but far fewer are needed: four heads-up reviews
# (review_speed.py's games of seeds 11 to 14) searched 132k nodes in all, 556k unordered.
SOLVER_NODES = 120_000


@dataclass(frozen=True, slots=True)
class Decision:
    """One move of the seat: its view before it, its memory then, the move made."""

    number: int  # which action of the game (0 = the first after the deal)
    view: SeatView
    discard: int  # the discard pile the seat has seen, as a card mask
    bouts: int  # bouts started so far
    action: Action
    # per seat, per card: how likely that seat held it, read from play (engine.ai.inference)
    weights: tuple[tuple[float, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Verdict:
    decision: Decision
    played: float  # P(not the Durak) after the move made, draws counted half
    best: Action
    best_score: float
    method: str  # "solver" (exact), "samples", or "forced" (only one sensible move)
    # every move considered with its playouts' score (on the fresh samples for the moves
    # played again), best first (solved: the proven best), then by the scores
    scores: tuple[tuple[Action, float], ...]
    why: Why | None = None  # for a costly move: the reason the best one was better
    # solved: the move made's and the best one's values against perfect play (1 a win)
    exact: tuple[float, float] | None = None

    @property
    def loss(self) -> float:
        return max(0.0, self.best_score - self.played)

    @property
    def proven(self) -> float | None:
        """Solved: how much less the move made is worth than the best with perfect play."""
        return None if self.exact is None else self.exact[1] - self.exact[0]

    @property
    def costly(self) -> bool:
        """Marked: proven to lose (solved), or measured at least ``flag_line`` behind."""
        if self.best == self.decision.action:
            return False
        seats = sum(1 for place in self.decision.view.places if not place)
        if self.proven is not None:
            return self.proven >= costly_loss(seats)
        return self.loss >= flag_line(seats)


def costly_loss(seats: int) -> float:
    """The loss that marks a move while ``seats`` are still in the game: ``COSTLY``
    heads-up, and in proportion to a seat's even share of the Durak's chance (1 in
    ``seats``) at a bigger table, where every move matters less to each seat."""
    return COSTLY * 2 / max(seats, 2)


def flag_line(seats: int) -> float:
    """The loss that marks a sampled move while ``seats`` are in the game (``FLAG``)."""
    return FLAG * costly_loss(seats)


def _memory(decision: Decision) -> Memory:
    memory = Memory()
    memory.discard, memory.bouts = decision.discard, decision.bouts
    return memory


def review_decision(decision: Decision, seed: int = 0, samples: int = SAMPLES) -> Verdict:
    """The verdict on one decision, from what the seat knew then only."""
    view = decision.view
    memory = _memory(decision)
    rng = random.Random(seed * 1_000_003 + decision.number)
    exact = _exact_state(view, memory, rng)
    moves = candidates(view.legal, mask_of(view.hand), view.trump)
    # The solver judges every legal move: the one winning card may be none of the
    # sensible ones (beat 6s with 9s, not 7s, so that no seven can be thrown in).
    extra = view.legal if exact is not None else [decision.action]
    moves += [a for a in extra if a not in moves]
    if len(moves) == 1:
        return Verdict(decision, 0.5, decision.action, 0.5, "forced", ((decision.action, 0.5),))
    # The chances shown are the playouts' even when the ending is solved: the solver's 0
    # or 1 assumes perfect play, and the games players play escaped "0 %" 1 time in 6
    # (tests/benchmarks/coach_calibration.py); the solver's values rank the moves.
    scores = _sampled(view, memory, moves, rng, exact, samples)
    made = moves.index(decision.action)
    played = scores[made]
    proof = None if exact is None else _solve(exact, view.seat, moves, made, scores)
    method = "samples" if proof is None else "solver"
    ranked = sorted(zip(moves, scores, strict=True), key=lambda ms: -ms[1])
    pair = None
    if proof is not None:
        pair, proven_best = (proof.made, proof.best), moves[proof.index]
        ranked.sort(key=lambda ms: ms[0] != proven_best)  # the proven best first
    judged_on = samples  # the samples the loss was measured on
    if pair is not None:
        best, best_score = ranked[0]
        if pair[1] - pair[0] < 1e-9:
            best, best_score = decision.action, played  # as good as any: the move made is best
    else:
        others = [a for a, _ in ranked if a != decision.action]
        line = flag_line(sum(1 for place in view.places if not place))
        fresh, rival, judged_on = _second_look(
            view, memory, decision.action, others[:RIVALS], rng, samples, line
        )
        played, best, best_score = fresh[decision.action], rival, fresh[rival]
        if best_score - played < 1e-9:  # the fresh samples see no loss
            best, best_score = decision.action, played
        # The best first, then by score (fresh where played again).
        ranked = [(a, fresh.get(a, v)) for a, v in ranked]
        ranked.sort(key=lambda ms: (ms[0] != best, -ms[1]))
    verdict = Verdict(decision, played, best, best_score, method, tuple(ranked), exact=pair)
    if not verdict.costly:
        return verdict
    why = explain(
        view,
        decision.discard,
        decision.action,
        best,
        method=method,
        loss=verdict.loss,
        samples=judged_on,
        weights=decision.weights,
    )
    return replace(verdict, why=why)


def _exact_state(view: SeatView, memory: Memory, rng: random.Random) -> GameState | None:
    """Heads-up with at most the face-up trump in the stock and the discard remembered:
    the one possible state."""
    if view.stock_size > 1 or sum(1 for p in view.places if not p) != 2:
        return None
    if unseen_pool(view, memory.discard).bit_count() != sum(hidden_slots(view)):
        return None
    state = sample_state(view, memory, rng)
    return state if solvable(state) else None


@dataclass(frozen=True, slots=True)
class _Proof:
    index: int  # the best move's: the first, in the order searched, of those worth most
    made: float  # the move made's exact value
    best: float  # the best move's


def _solve(
    state: GameState, seat: int, moves: list[Action], made: int, scores: list[float]
) -> _Proof | None:
    """The move made's exact value and the best move's, or None past the node budget.

    A verdict needs no other value: the move made is searched in full, then every other
    move, the playouts' likeliest first, only for more than the best so far (a cut-off
    that usually ends within a few nodes), and none once one is proven to win. So the
    best is, of the moves worth most, the one the playouts favour. Searching every move
    in full left more of the heads-up endings to the samples
    (``tests/benchmarks/coach_blunders.py`` counts those solved).

    Each move gets a search of its own, out of one budget of nodes: a draw by repetition
    depends on the path to it, so a table filled under another move's lines could value
    this one differently (a win where, searched on its own, the other side can repeat)."""
    budget = SOLVER_NODES

    def value(i: int, alpha: float = 0.0) -> float:
        nonlocal budget
        child = state.copy()
        child.apply(seat, moves[i])
        solver = Solver(seat, max_nodes=budget, order=solver_order)
        try:
            return solver.value(child, alpha, 1.0)
        finally:
            budget -= solver.nodes

    try:
        made_value = value(made)
        proof = _Proof(made, made_value, made_value)
        for i in sorted(range(len(moves)), key=lambda i: -scores[i]):
            if proof.best >= 1.0:
                break
            if i != made and (v := value(i, proof.best)) > proof.best:
                proof = _Proof(i, made_value, v)
    except SearchAborted:
        return None
    return proof


def _sampled(
    view: SeatView,
    memory: Memory,
    moves: list[Action],
    rng: random.Random,
    exact: GameState | None,
    samples: int,
) -> list[float]:
    totals = [0.0] * len(moves)
    for _ in range(samples):
        sample = exact if exact is not None else sample_state(view, memory, rng)
        luck = rng.getrandbits(32)  # the same luck for every move
        for i, action in enumerate(moves):
            totals[i] += score_after(sample, view.seat, action, luck)
    return [t / samples for t in totals]


def _second_look(
    view: SeatView,
    memory: Memory,
    made: Action,
    rivals: list[Action],
    rng: random.Random,
    samples: int,
    line: float,
) -> tuple[dict[Action, float], Action, int]:
    """The scores of the move made and of ``rivals`` on fresh deals, the best rival on
    them, and how many deals were played (every move on each).

    ``samples`` deals first, then ``STEP`` more at a time, until the mean of the paired
    differences between the best rival and the move made is ``CLEAR`` standard errors
    away from ``line``, or ``SECOND_LOOK`` times ``samples`` deals are played: a clear
    case stops early, a close one gets the deals."""
    seat = view.seat
    made_total = 0.0
    totals = [0.0] * len(rivals)
    squares = [0.0] * len(rivals)  # of the paired differences with the move made
    played = 0
    best = 0
    while played < samples * SECOND_LOOK:
        for _ in range(STEP if played else samples):
            sample = sample_state(view, memory, rng)
            luck = rng.getrandbits(32)
            a = score_after(sample, seat, made, luck)
            made_total += a
            for i, rival in enumerate(rivals):
                b = score_after(sample, seat, rival, luck)
                totals[i] += b
                squares[i] += (b - a) ** 2
            played += 1
        best = max(range(len(rivals)), key=lambda i: totals[i])
        mean = (totals[best] - made_total) / played
        spread = math.sqrt(max(squares[best] / played - mean * mean, 0.0) / max(played - 1, 1))
        if abs(mean - line) > CLEAR * spread:
            break
    scores = {rival: total / played for rival, total in zip(rivals, totals, strict=True)}
    return {made: made_total / played, **scores}, rivals[best], played


def review(
    decisions: Sequence[Decision],
    seed: int = 0,
    samples: int = SAMPLES,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[Verdict]:
    """The verdicts, one decision after the other (``progress(done, total)`` after each)."""
    for done, decision in enumerate(decisions, 1):
        yield review_decision(decision, seed, samples)
        if progress is not None:
            progress(done, len(decisions))


# --- a player's decisions -----------------------------------------------------------------


class _Remembered:
    """A seat's memory and its reading of the others' hands as its events come in."""

    def __init__(self, seat: int, rules: Rules) -> None:
        self.memory = Memory()
        self.reading = HandReading(seat, rules)

    def see(self, events: Sequence[Event]) -> None:
        for event in events:
            self.memory.see(event)
            self.reading.see(event)

    def decision(self, number: int, view: SeatView, action: Action) -> Decision:
        self.reading.look(view)
        weights = tuple(tuple(row) for row in self.reading.weights)
        m = self.memory
        return Decision(number, view, m.discard, m.bouts, action, weights)


def decisions_from_log(log: GameLog, seat: int) -> list[Decision]:
    """Every move ``seat`` made in the game ``log``, with the view it had (``observe``)
    and what it was told (trimmed events): the full log serves only to replay the game."""
    state = log.start()
    seen = _Remembered(seat, log.rules)
    seen.see([trim(e, seat) for e in state.opening])
    found = []
    for number, (actor, action) in enumerate(log.actions):
        if actor == seat:
            found.append(seen.decision(number, observe(state, seat), action))
        seen.see([trim(e, seat) for e in state.apply(actor, action)])
    return found


def decisions_from_steps(
    steps: Sequence[tuple[Sequence[Event], SeatView | None]], seat: int
) -> list[Decision]:
    """The seat's moves from what it was told alone (a game kept without its log): a step
    whose first event is the seat's own play was its move, made on the view before it."""
    views = [after for _, after in steps if after is not None]
    if not views:
        return []
    seen = _Remembered(seat, views[0].rules)
    found = []
    view: SeatView | None = None
    for number, (events, after) in enumerate(steps):
        action = _action_of(events[0], seat) if events else None
        if view is not None and action is not None and action in view.legal:
            found.append(seen.decision(number - 1, view, action))
        seen.see(events)
        if after is not None:
            view = after
    return found


def _action_of(event: Event, seat: int) -> Action | None:
    """The move of ``seat`` an event tells of (None: another seat's, or no move)."""
    if getattr(event, "seat", None) != seat:
        return None
    match event:
        case Attacked(cards=cards):
            return attack_of_mask(mask_of(cards))
        case ThrewIn(card=card):
            return ThrowIn(card)
        case Covered(card=card, target=target):
            return Beat(card, target)
        case Transferred(card=card, shown=shown):
            return ShowTrump(card) if shown else Transfer(card)
        case Taking():
            return TAKE
        case Passed():
            return PASS
    return None


pickle_by_fields(Decision, Verdict)
