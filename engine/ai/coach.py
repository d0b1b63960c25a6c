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
there the only winning card is often another one.

A score is the mean over the samples of 1 (not the Durak), 1/2 (a draw) or 0 (the
Durak), each sample finished with Normal's policy for every seat. Every move is scored on
the same samples, so the differences between moves are sharper than each estimate. A
solved ending is scored so too (what the review promises: everyone playing like Normal
from there), while the solver's exact values rank its moves and mark the costly one.

A move is marked costly when it loses 8 points heads-up, and in proportion to the seats
still in the game at a bigger table (``costly_loss``: 4 at four, 2.7 at six): with six
seats in, each has about one chance in six of being the Durak, so a careless move moves
that chance by a few points only, and a fixed 8 marked a careless player there almost
never. (``tests/benchmarks/coach_threshold.py`` measures the rules against each other.)
A sampled move that loses half the mark or more is played again against the best on
twice the samples, fresh, and judged on those alone (``_confirmed``): the best of several
moves on the same samples is the one luck favoured, so its first lead is overstated.
(``tests/benchmarks/coach_blunders.py`` checks the marks against a 10x longer search, and
``coach_calibration.py`` the chances against what happened.)

A costly move carries its reason (``engine.ai.reasons``), read from the seat's view, its
memory and its reading of the other hands (``Decision.weights``: what the others' play
has shown, ``engine.ai.inference``), so the player is told why, not only how much.
"""

from __future__ import annotations

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
from ..rules import Rules
from ..state import GameState
from ..view import SeatView, observe
from .determinize import hidden_slots, sample_state
from .hard import candidates, playout
from .inference import HandReading
from .reasons import Why, explain
from .solver import SearchAborted, Solver, outcome, solvable
from .tactics import Memory, unseen_pool

__all__ = [
    "COSTLY",
    "Decision",
    "Verdict",
    "Why",
    "costly_loss",
    "decisions_from_log",
    "decisions_from_steps",
    "review",
    "review_decision",
]

COSTLY = 0.08  # heads-up, a move this much worse than the best one is marked
SAMPLES = 48  # sampled deals per decision
CONFIRM = 2  # a move near the mark is played again on this many times the samples
SOLVER_NODES = 120_000  # about 0.9 s of CPU at most (135k nodes a second)


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
    # every move considered with its playouts' score, best first (solved: the proven best
    # first, then by the scores)
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
        seats = sum(1 for place in self.decision.view.places if not place)
        loss = self.loss if self.proven is None else self.proven
        return loss >= costly_loss(seats) and self.best != self.decision.action


def costly_loss(seats: int) -> float:
    """The loss that marks a move while ``seats`` are still in the game: ``COSTLY``
    heads-up, and in proportion to a seat's even share of the Durak's chance (1 in
    ``seats``) at a bigger table, where every move matters less to each seat."""
    return COSTLY * 2 / max(seats, 2)


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
    best, best_score = ranked[0]
    if (best_score - played if pair is None else pair[1] - pair[0]) < 1e-9:
        best, best_score = decision.action, played  # as good as any: the move made is best
    seats = sum(1 for place in view.places if not place)
    judged_on = samples  # the samples the loss was measured on
    if pair is None and best != decision.action and played < best_score - costly_loss(seats) / 2:
        judged_on = samples * CONFIRM
        played, best_score = _confirmed(view, memory, decision.action, best, rng, samples)
        ranked = [
            (a, played if a == decision.action else best_score if a == best else v)
            for a, v in ranked
        ]
        ranked.sort(key=lambda ms: -ms[1])
        if best_score - played < 1e-9:  # the fresh samples see no loss
            best, best_score = decision.action, played
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
        solver = Solver(seat, max_nodes=budget)
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
        sample = exact.copy() if exact is not None else sample_state(view, memory, rng)
        seed = rng.getrandbits(32)
        for i, action in enumerate(moves):
            state = sample.copy()
            state.apply(view.seat, action)
            playout(state, random.Random(seed))  # the same luck for every move
            totals[i] += outcome(state, view.seat) if state.is_over else 0.5
    return [t / samples for t in totals]


def _confirmed(
    view: SeatView,
    memory: Memory,
    made: Action,
    best: Action,
    rng: random.Random,
    samples: int,
) -> tuple[float, float]:
    """The move made's and the best one's scores on ``CONFIRM`` times more fresh samples.

    The best of several moves scored on the same 48 samples is the one luck favoured most,
    so its lead is overstated; and a loss a little under the mark may be over it. Before
    a move is marked (or let go) on a loss of half the mark or more, the two are played
    again on new samples and judged on these alone, free of the first ones' choice."""
    again = _sampled(view, memory, [made, best], rng, None, samples * CONFIRM)
    return again[0], again[1]


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
