"""Hard: remembers every public card, reads hands from play, samples what it cannot see,
and searches.

- Memory: the discard pile (every beaten card was face up), the bout count, and — from the
  view — every card publicly known to be in a hand (a taker's pick-up, a shown trump, the
  trump card drawn last).
- Reading (``engine.ai.inference``): a seat that let a bout close without passing held
  none of its ranks; a defender who took a lone card probably held nothing that beats it.
  Those cards are dealt to that seat less often in the samples.
- Heads-up with the stock empty or down to its face-up trump card, every card is known
  (the other hand is whatever it has not seen): the position is solved exactly by
  alpha-beta with a transposition table (``engine.ai.solver``) when that fits in its node
  and time budget; each root move has a search of its own, and each after the first is
  searched only for more than the best so far.
- With three hands left, the stock empty and every card's place known (one of the others
  holds only cards the table has seen it pick up), the same search looks for a move that
  is safe even if both others play against this seat, and plays it when there is one.
- Otherwise perfect-information Monte Carlo: sample the unseen cards by the reading's
  weights (``engine.ai.determinize``), play each sensible move (in a defence, every card
  that covers: the rank a cover puts down is one the others may throw in) still in the
  race in the same sample and finish the game with Normal's policy for every seat (with a
  little randomness), each seat that leads or adds aiming at what the sample's defender cannot
  beat (``aimed_action``). Every few samples a move whose score falls clearly behind the
  leader's (by the paired differences in the same samples) leaves the race, so the
  samples go to the moves that might be best; the search stops when one move is left,
  when every move left scored the same in every sample, when the time budget or the
  iteration cap runs out, and picks the best mean score. Normal's choice (from what this
  seat has seen) is the first move, so it wins a tie: where the samples cannot tell the
  moves apart, Hard plays as Normal does.
- It does not search when only one sensible move exists (a forced take, a lone pass).

The budget is measured on ``clock`` (wall time by default; a benchmark may give it the
thread's CPU time). With ``budget=None`` and an iteration cap it is fully deterministic
for a seed.

``peek`` is for a benchmark's bound only, never for play: it returns the real game, and
every sample is then that game, as if the reading of hands were perfect (what a better
reading could at most be worth: ``tests/benchmarks/hard_strength.py``'s ``hard-peek``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from ..actions import BEATS, Action, Attack, Beat, ThrowIn, attack_of_mask
from ..cards import SAME_RANK, SUIT_MASKS, beaters_mask, bits, mask_of
from ..events import Event
from ..rules import Rules
from ..state import GameState
from ..view import SeatView
from .determinize import hidden_slots, sample_state
from .inference import HandReading
from .match import next_actor
from .normal import normal_action, normal_choice
from .solver import SearchAborted, Solver, outcome
from .tactics import RememberingBot, cheapest, unseen_pool, value

__all__ = [
    "HardBot",
    "Policy",
    "aimed_action",
    "candidates",
    "playout",
    "policy_action",
    "score_after",
    "solver_order",
]

Policy = Callable[[GameState, int, Sequence[Action]], Action]

DEFAULT_BUDGET = 1.0
DEFAULT_ITERATIONS = 400
SOLVER_NODES = 60_000
THREE_HANDS_SHARE = 4  # the share of the solver's nodes a three-hand proof may use
PROOF = 0.75  # with three hands, only a move whose value is above this (a win) counts
MIN_ITERATIONS = 24  # samples before the search may stop early
RACE_FROM = 8  # samples before a move may be dropped from the race
RACE_EVERY = 4  # how often (in samples) the moves left are compared
RACE_Z = 2.5  # a move is dropped this many standard errors below the leader
EPSILON = 0.1  # how often a playout seat plays a random legal move instead of the policy


def policy_action(state: GameState, seat: int, legal: Sequence[Action]) -> Action:
    """Normal's policy on a full state: the coach's playouts' model of every player (and
    the defender's in Hard's, ``aimed_action``).

    Only the defender needs the table's cards (its unbeaten ones, and all of them to
    weigh a take): a seat that adds chooses from its hand and the legal throw-ins."""
    unbeaten: list[int] = []
    table = 0
    if seat == state.defender:
        for attack, defence in zip(state.attacks, state.defences, strict=True):
            table |= 1 << attack
            if defence < 0:
                unbeaten.append(attack)
            else:
                table |= 1 << defence
    return normal_action(
        legal,
        state.hands[seat],
        state.trump,
        unbeaten,
        table,
        stock=len(state.stock),
        taking=state.taking,
    )


def aimed_action(state: GameState, seat: int, legal: Sequence[Action]) -> Action:
    """Hard's playouts' model of every player: Normal's policy, a seat that leads or adds
    aiming as Normal does with its estimate of the defender's hand, but knowing it (in a
    sample the defender's hand is there): it leads and throws in first what the defender
    cannot beat. Real players aim at a defender's gaps: with playouts in which nobody
    did (``policy_action`` for every seat) Hard was the Durak more often at four seats,
    as often at six and heads-up (docs/ai.md has the figures)."""
    defender = state.defender
    if seat == defender:
        return policy_action(state, seat, legal)
    defence = state.hands[defender]
    trump = state.trump

    def chance(card: int) -> float:
        return 1.0 if defence & beaters_mask(trump, card) else 0.0

    return normal_action(
        legal,
        state.hands[seat],
        trump,
        (),
        0,
        stock=len(state.stock),
        taking=state.taking,
        chance=chance,
    )


def playout(
    state: GameState,
    rng: random.Random,
    max_actions: int = 2_000,
    until_out: int | None = None,
    policy: Policy = policy_action,
) -> None:
    """Finish the game in place with ``policy`` for every seat (and a pinch of random
    moves); with ``until_out``, stop as soon as that seat has gone out (it cannot be the
    Durak then)."""
    places = state.places
    for _ in range(max_actions):
        if until_out is not None and places[until_out]:
            return
        actor = next_actor(state)
        if actor is None:
            return
        seat, legal = actor
        if rng.random() < EPSILON:
            action = legal[rng.randrange(len(legal))]
        else:
            action = policy(state, seat, legal)
        state.push(seat, action)  # one of the legal actions: no need to check it again


def candidates(
    legal: Sequence[Action], hand: int, trump: int, *, every_cover: bool = False
) -> list[Action]:
    """The sensible moves among ``legal``, the policy's likely choices first.

    Leads: each single card and each whole same-rank group. Beats: for each attack card,
    the cheapest same-suit cover and the cheapest trump, then with ``every_cover`` (Hard's
    search) every other cover: the rank a cover puts down is one the others may throw in,
    so a dearer cover of a rank nobody can add may end the bout where the cheapest lets a
    card follow that cannot be beaten. Everything else as it is.
    """
    kind = type(legal[0])
    if kind is Attack:
        out: list[Action] = []
        seen: set[int] = set()
        for index in sorted(bits(hand), key=lambda i: value(i, trump)):
            out.append(attack_of_mask(1 << index))
            group = hand & SAME_RANK[index]
            if group.bit_count() > 1 and group not in seen:
                seen.add(group)
                attack = attack_of_mask(group)
                if attack in legal:
                    out.append(attack)
        return out
    beats: dict[int, int] = {}
    for action in legal:
        if type(action) is Beat:
            beats.setdefault(action.target.index, 0)
            beats[action.target.index] |= action.card.bit
    result: list[Action] = []
    for target, cards in beats.items():
        same = cards & ~SUIT_MASKS[trump]
        trumps = cards & SUIT_MASKS[trump]
        for group in (same, trumps):
            if group:
                result.append(BEATS[cheapest(group, trump)][target])
    if every_cover:
        result.extend(a for a in legal if type(a) is Beat and a not in result)
    result.extend(a for a in legal if type(a) is not Beat)
    return result


class HardBot(RememberingBot):
    level = "hard"

    def __init__(
        self,
        seat: int,
        rules: Rules,
        seed: int,
        *,
        budget: float | None = DEFAULT_BUDGET,
        iterations: int = DEFAULT_ITERATIONS,
        solver_nodes: int = SOLVER_NODES,
        clock: Callable[[], float] = time.perf_counter,
        peek: Callable[[], GameState] | None = None,
    ) -> None:
        super().__init__(seat, rules, seed)
        self.clock = clock
        self.peek = peek
        self.budget = budget
        self.iterations = iterations
        self.solver_nodes = solver_nodes
        self.reading = HandReading(seat, rules)
        self.last_method = ""

    def see(self, event: Event) -> None:
        super().see(event)
        self.reading.see(event)

    def decide(self, view: SeatView) -> Action:
        started = self.clock()
        self.reading.look(view)
        deadline = None if self.budget is None else started + self.budget * 0.85
        # Normal's choice first: where the samples cannot tell the moves apart (at six
        # seats a third of the searches), Hard plays as Normal does rather than the first
        # candidate, which could be a trump thrown in for nothing.
        usual = normal_choice(view, self.memory)
        sensible = candidates(view.legal, mask_of(view.hand), view.trump, every_cover=True)
        moves = [usual, *(m for m in sensible if m != usual)]
        if len(moves) == 1:
            self.last_method = "forced"
            return moves[0]
        exact = self._exact_state(view)
        if exact is not None:
            solver_deadline = None if self.budget is None else started + self.budget * 0.4
            everything = solver_order(exact, self.seat, list(view.legal))
            solved = self._solve(exact, everything, solver_deadline)
            if solved is not None:
                self.last_method = "solver"
                return solved
            self.last_method = "exact-mc"
            return self._monte_carlo(view, moves, deadline, exact)
        self.last_method = "pimc"
        return self._monte_carlo(view, moves, deadline, None)

    def _exact_state(self, view: SeatView) -> GameState | None:
        """Two or three hands left, at most the face-up trump in the stock and every
        card's place known: the one state consistent with the view. Heads-up the other
        hand is whatever the seat has not seen; with three hands one of the other two
        must hold only cards everyone knows of (a taker's pick-up)."""
        if view.stock_size > 1 or not 2 <= sum(1 for p in view.places if not p) <= 3:
            return None
        slots = hidden_slots(view)
        if unseen_pool(view, self.memory.discard).bit_count() != sum(slots):
            return None  # missed events: the discard is not fully known
        if sum(1 for hidden in slots if hidden) > 1:
            return None
        state = sample_state(view, self.memory, self.rng)
        return None if state.is_over else state

    def _solve(
        self, state: GameState, moves: list[Action], deadline: float | None
    ) -> Action | None:
        """Heads-up, the best move against perfect play. With three hands the search is
        paranoid (both others play against this seat), so only a move proven safe
        whatever they do is taken: a loss against a coalition may well be a win against
        two players who each look after themselves, and the playouts judge those.

        Each root move gets a search of its own, out of one budget of nodes: a draw by
        repetition depends on the path to it, so a table filled under another move's
        lines could value this one differently (shared, it valued a lead 0 that searched
        on its own is a draw, in 1 of 394 random heads-up endings)."""
        three = sum(1 for p in state.places if not p) == 3
        # A proof with three hands is rarer: it may not take the playouts' time.
        budget = self.solver_nodes // THREE_HANDS_SHARE if three else self.solver_nodes
        best: Action | None = None
        best_value = PROOF if three else 0.0
        try:
            for action in moves:
                child = state.copy()
                child.apply(self.seat, action)
                solver = Solver(
                    self.seat,
                    max_nodes=budget,
                    deadline=deadline,
                    order=solver_order,
                    clock=self.clock,
                )
                try:
                    # Only a better move matters: search each next one for more than the best.
                    v = solver.value(child, best_value, 1.0)
                finally:
                    budget -= solver.nodes
                if v > best_value:
                    best, best_value = action, v
                if best_value >= 1.0:
                    break
        except SearchAborted:
            return None
        # A lost position against perfect play: let the playouts look for the line where
        # a real opponent is most likely to go wrong.
        return best

    def _monte_carlo(
        self,
        view: SeatView,
        moves: list[Action],
        deadline: float | None,
        exact: GameState | None,
    ) -> Action:
        """Every move left in the race is played in the same samples; a move that falls
        clearly behind the leader is dropped, so the samples go to the moves that might
        be best."""
        if exact is None and self.peek is not None:
            exact = self.peek()
        scores: list[list[float]] = [[] for _ in moves]
        alive = list(range(len(moves)))
        rng = self.rng
        weights = self.reading.weights
        done = 0
        while done < self.iterations:
            if deadline is not None and self.clock() > deadline and done:
                break
            sample = exact if exact is not None else sample_state(view, self.memory, rng, weights)
            # Every move's playout draws the same random numbers too (common random
            # numbers): the moves' scores then differ by the moves, less by luck.
            luck = rng.getrandbits(32)
            for i in alive:
                scores[i].append(score_after(sample, self.seat, moves[i], luck, aimed_action))
            done += 1
            if done >= RACE_FROM and done % RACE_EVERY == 0:
                alive = _race(scores, alive)
            if len(alive) == 1 or (done >= MIN_ITERATIONS and _all_even(scores, alive)):
                break
        best = max(alive, key=lambda i: (sum(scores[i]), -i))
        return moves[best]


def score_after(
    sample: GameState, seat: int, action: Action, luck: int, policy: Policy = policy_action
) -> float:
    """One playout's score for ``seat`` after ``action`` (one of its legal actions) in
    ``sample``, which is left untouched; ``luck`` seeds the playout, played by ``policy``
    (by default Normal's, the model the coach states for every player). The score: the game's
    outcome, 1 once the seat is out before the end (a later draw of the others would give
    it 1/2: rare enough to leave out), 1/2 for a game cut short."""
    state = sample.copy()
    state.push(seat, action)
    playout(state, random.Random(luck), until_out=seat, policy=policy)
    if state.is_over:
        return outcome(state, seat)
    return 1.0 if state.places[seat] else 0.5


def _race(scores: list[list[float]], alive: list[int]) -> list[int]:
    """The moves still in the race: those not clearly worse than the leader, by the mean
    and standard error of their score differences in the same samples."""
    leader = max(alive, key=lambda i: (sum(scores[i]), -i))
    lead = scores[leader]
    n = len(lead)
    kept = []
    for i in alive:
        if i != leader:
            diffs = [a - b for a, b in zip(lead, scores[i], strict=True)]
            mean = sum(diffs) / n
            spread = math.sqrt(max(sum(d * d for d in diffs) / n - mean * mean, 0.0))
            if mean > 0 and mean * math.sqrt(n - 1) > RACE_Z * spread:
                continue
        kept.append(i)
    return kept


def _all_even(scores: list[list[float]], alive: list[int]) -> bool:
    """Every move left scored the same in every sample (the choice does not matter).

    Not "the totals differ by at most one": at 6 seats a seat is the Durak in about one
    sample in six, so after 24 samples a move that costs a Durak in one sample of twelve
    looked even and the search stopped, using a twentieth of its budget."""
    return all(len({scores[i][k] for i in alive}) == 1 for k in range(len(scores[alive[0]])))


def solver_order(state: GameState, seat: int, legal: list[Action]) -> list[Action]:
    """The solver's move order (Hard's, and the coach's): the policy's choice first, then
    cheap cards first."""
    first = policy_action(state, seat, legal)
    trump = state.trump
    rest = sorted(
        (a for a in legal if a != first),
        key=lambda a: _cost(a, trump),
    )
    return [first, *rest]


def _cost(action: Action, trump: int) -> int:
    if isinstance(action, Beat | ThrowIn):
        return value(action.card.index, trump)
    if isinstance(action, Attack):
        return min(value(c.index, trump) for c in action.cards) - 3 * len(action.cards)
    return 40
