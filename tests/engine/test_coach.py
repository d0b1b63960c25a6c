"""The coach: on a solved heads-up endgame it marks the losing move and finds a winning
one, even a card that is none of the sensible moves; at six seats it marks a trump thrown
in for a few points; it judges from the seat's view and memory only (reshuffling the
cards the seat cannot see changes no verdict); a game's decisions are the same from its
log and from the events the seat was told."""

from __future__ import annotations

import random

import pytest
from test_properties import reshuffle_hidden

from engine import Attack, Card, GameLog, GameState, Rules, ThrowIn, observe, parse_action, trim
from engine.actions import TAKE, Action
from engine.ai import next_actor
from engine.ai.coach import (
    COSTLY,
    Decision,
    _sampled,
    decisions_from_log,
    decisions_from_steps,
    review_decision,
)
from engine.ai.hard import candidates, policy_action, solver_order
from engine.ai.reasons import WhyCode
from engine.ai.solver import Solver, solvable
from engine.ai.tactics import Memory
from engine.cards import SUIT_MASKS, deck_mask, mask_of

HEADS_UP = Rules(players=2)


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def endgame() -> GameState:
    """Stock empty, clubs trump (the 8c shown): seat 0 leads from Th 9c Js against 9h Ac 8h.
    Leading the ten of hearts loses; the nine of clubs or the jack of spades wins."""
    return GameState.from_deal(
        HEADS_UP, [cards("Th 9c Js"), cards("9h Ac 8h")], [], trump=Card.parse("8c")
    )


def exact_values(state: GameState, seat: int) -> dict[Action, float]:
    """Every legal move of ``seat`` searched in full, each on its own (a draw by repetition
    depends on the path to it): the values the coach's exact pair must equal. Searched in
    Hard's order, which proves the values of any order in fewer nodes
    (tests/engine/test_ai_solver.py)."""
    exact = {}
    for action in state.legal_actions(seat):
        child = state.copy()
        child.apply(seat, action)
        exact[action] = Solver(seat, order=solver_order).value(child)
    return exact


def test_the_coach_marks_the_losing_lead_and_finds_a_winning_one() -> None:
    state = endgame()
    _, values = Solver(0).solve(state)  # the reference: the exact value of each lead
    winning = {move for move, value in values if value == 1.0}
    assert Attack((Card.parse("Th"),)) not in winning and winning
    seen = deck_mask(36) & ~mask_of(state.hand(0)) & ~mask_of(state.hand(1))
    decision = Decision(0, observe(state, 0), seen, 5, Attack((Card.parse("Th"),)))
    verdict = review_decision(decision)
    assert verdict.method == "solver"
    exact = exact_values(state, 0)
    assert verdict.exact == (exact[decision.action], max(exact.values()))
    assert verdict.costly and verdict.proven == 1.0  # it loses, and another lead wins
    assert verdict.best in winning and 0.0 < verdict.played < verdict.best_score  # as played
    good = review_decision(Decision(0, observe(state, 0), seen, 5, verdict.best))
    assert not good.costly and good.best == verdict.best


def test_the_solver_judges_every_legal_move_not_only_the_sensible_ones() -> None:
    """Seat 1 holds Jd 7s 9s against 7c (a trump everyone has seen) and Td; 6s is led.
    Beating with the cheapest spade, the seven, lets the seven of clubs follow it: seat 1
    has no trump, takes and loses. The nine leaves seat 0 nothing to add, and wins."""
    rest = "6c8c9cTcJcQcKcAc6d7d8d9dQdKdAd6h7h8h9hThJhQhKhAh8sTsJsQsKsAs"
    state = GameState.from_text(
        f"rules=36 hands=7c*Td/Jd7s9s stock=- trump=Kc table=6s discard={rest}"
        " attacker=0 defender=1 leader=0 dealer=1 phase=open cap=6 held=3 taking=no"
        " passed=- shown=- throwers=0 places=0,0 result=- moves=20 seen=-"
    )
    cheap, nine = parse_action("beat 6s with 7s"), parse_action("beat 6s with 9s")
    assert candidates(state.legal_actions(1), mask_of(state.hand(1)), state.trump) == [
        cheap,
        TAKE,
    ]  # the nine is not a sensible move
    _, values = Solver(1).solve(state)
    assert [move for move, value in values if value == 1.0] == [nine]
    discard = mask_of(cards(" ".join(rest[i : i + 2] for i in range(0, len(rest), 2))))
    verdict = review_decision(Decision(20, observe(state, 1), discard, 9, cheap))
    assert verdict.method == "solver" and verdict.costly
    assert verdict.best == nine and verdict.proven == 1.0
    exact = exact_values(state, 1)
    assert verdict.exact == (exact[cheap], max(exact.values())) and exact[nine] == 1.0
    good = review_decision(Decision(20, observe(state, 1), discard, 9, nine))
    assert not good.costly and good.best == nine and good.proven == 0.0


def played(rules: Rules, seed: int) -> GameLog:
    """Normal's policy for every seat, one move in ten at random (so it ends)."""
    log = GameLog(rules, seed)
    state = log.start()
    rng = random.Random(seed)
    while (actor := next_actor(state)) is not None and len(log.actions) < 2_000:
        seat, legal = actor
        odd = rng.random() < 0.1
        action = legal[rng.randrange(len(legal))] if odd else policy_action(state, seat, legal)
        state.apply(seat, action)
        log.actions.append((seat, action))
    return log


def careless(rules: Rules, seed: int) -> GameLog:
    """Seat 0 plays a random legal move every time, every other seat Normal's policy."""
    log = GameLog(rules, seed)
    state = log.start()
    rng = random.Random(seed)
    while (actor := next_actor(state)) is not None:
        seat, legal = actor
        action = (
            legal[rng.randrange(len(legal))] if seat == 0 else policy_action(state, seat, legal)
        )
        state.apply(seat, action)
        log.actions.append((seat, action))
    return log


@pytest.mark.slow
def test_at_six_seats_a_trump_thrown_in_for_a_few_points_is_marked() -> None:
    """Six seats in play: each has about one chance in six of being the Durak, so a careless
    trump thrown in costs seat 0 only 3 points of its chance, below the 8 that mark a move
    heads-up; the coach marks it all the same, and fresh samples agree it was a loss."""
    log = careless(Rules(players=6), 74)
    trumps = [
        d
        for d in decisions_from_log(log, 0)
        if isinstance(d.action, ThrowIn) and d.action.card.bit & SUIT_MASKS[d.view.trump]
    ]
    marked = [v for v in map(review_decision, trumps) if v.costly]
    assert marked
    verdict = marked[0]
    assert all(not place for place in verdict.decision.view.places)
    assert verdict.why is not None and verdict.why.code is WhyCode.KEEP_TRUMP
    assert verdict.why.card == verdict.decision.action.card
    again = dict(review_decision(verdict.decision, 1, 144).scores)
    assert 0 < again[verdict.best] - again[verdict.decision.action] < COSTLY


def test_a_move_the_first_look_favoured_is_marked_when_fresh_samples_show_it_loses() -> None:
    """Four seats, hearts trump, five cards in the stock: seat 1 defends 9d holding no
    higher diamond, and beats it with the queen of trumps where taking was better (6,000
    samples put the take 8.4 points ahead, against a mark of 4). The first look's 48
    samples happened to rank the beat first; the second look plays it against the take
    on fresh samples, and marks it."""
    state = GameState.from_text(
        "rules=36 hands=7cTcTd7h*Qs/8dQhAh*7s9sJs/Qc7dThKhKs/6c*8c*Jc*Kc*6d*Kd*Ad*8h*Jh*6s*"
        "8s*Ts stock=Qd9hAsJd6h trump=6h table=9c:Ac,9d discard=- attacker=0 defender=1"
        " leader=0 dealer=3 phase=open cap=6 held=7 taking=no passed=- shown=-"
        " throwers=0,2,3 places=0,0,0,0 result=- moves=30"
        " seen=0:6:7c9cTcTd7hQs/Ac8dQhAh7s9sJs/Qc7d9dThKhKs/6c8cJcKc6dKdAd8hJh6s8sTs"
    )
    beat, take = parse_action("beat 9d with Qh"), parse_action("take")
    decision = Decision(30, observe(state, 1), 0, 3, beat)
    first = _sampled(decision.view, Memory(), [beat, take], random.Random(30), None, 48)
    assert first[0] > first[1]  # the first look's luck
    verdict = review_decision(decision)
    assert verdict.costly and verdict.best == take
    assert verdict.why is not None and verdict.why.code is WhyCode.KEEP_TRUMP


def test_reshuffling_what_the_seat_cannot_see_changes_no_verdict() -> None:
    log = played(Rules(players=3), 4)
    state = log.start()
    memory = Memory()
    for event in state.opening:
        memory.see(trim(event, 0))
    checked = 0
    for actor, action in log.actions:
        if actor == 0 and state.stock_size > 4 and len(state.legal_actions(0)) > 1:
            other = reshuffle_hidden(state, 0, random.Random(checked))
            assert other.hands != state.hands  # the hidden cards really moved
            verdicts = [
                review_decision(
                    Decision(0, observe(s, 0), memory.discard, memory.bouts, action), 3, 8
                )
                for s in (state, other)
            ]
            assert verdicts[0] == verdicts[1]
            checked += 1
            if checked == 3:
                break
        for event in state.apply(actor, action):
            memory.see(trim(event, 0))
    assert checked == 3


def test_a_games_decisions_are_the_same_from_its_log_and_from_what_the_seat_was_told() -> None:
    log = played(Rules(players=3), 9)
    state = log.start()
    steps = [([trim(e, 1) for e in state.opening], observe(state, 1))]
    for actor, action in log.actions:
        events = state.apply(actor, action)
        steps.append(([trim(e, 1) for e in events], observe(state, 1)))
    from_log = decisions_from_log(log, 1)
    assert from_log and decisions_from_steps(steps, 1) == from_log
    assert [d.action for d in from_log] == [a for s, a in log.actions if s == 1]


@pytest.mark.slow
def test_a_solved_verdict_holds_the_exact_values_of_the_move_made_and_the_best() -> None:
    """The coach searches the move made in full and the others only for more than the best
    so far: its two values and its best move are those of searching every move in full.
    Every solved decision of three games (slow: about 9 s; the two endgames above check
    the same pair in the quick suite)."""
    checked = 0
    for seed in range(3):
        log = played(HEADS_UP, seed)
        for seat in (0, 1):
            for decision in decisions_from_log(log, seat):
                state = log.start()
                for actor, action in log.actions[: decision.number]:
                    state.apply(actor, action)
                if not solvable(state):  # (never solved: not worth its playouts here)
                    continue
                verdict = review_decision(decision)
                if verdict.method != "solver":
                    continue
                exact = exact_values(state, seat)
                best = max(exact.values())
                assert verdict.exact == (exact[decision.action], best)
                assert exact[verdict.best] == best
                checked += 1
    assert checked >= 10
