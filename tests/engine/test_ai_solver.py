"""The exact endgame solver, and Hard finding the only winning line of endgame puzzles.

The solver is checked against plain minimax (every line, no pruning, no table) on small
heads-up positions with the stock empty, from deals and from bouts in progress, with and
without the transfer variant. The puzzles are positions where exactly one lead wins.
"""

from __future__ import annotations

import random

import pytest

from engine import Card, Discarded, GameState, Rules, parse_action, trim
from engine.ai import HardBot, next_actor
from engine.ai.solver import SearchAborted, Solver, brute_force, solvable
from engine.cards import cards_of, deck_mask, mask_of
from engine.view import observe


def endgame(rules: Rules, hands: list[str], trump: str) -> GameState:
    """A heads-up deal with the stock empty; every other card of the deck is discarded."""
    dealt = [[Card.parse(c) for c in hand.split()] for hand in hands]
    state = GameState.from_deal(rules, dealt, [], trump=Card.parse(trump))
    state.discard = deck_mask(rules.deck_size) & ~mask_of(card for hand in dealt for card in hand)
    return state


def random_endgame(seed: int, size: int, transfer: bool) -> GameState:
    rng = random.Random(seed)
    rules = Rules(deck_size=24, transfer=transfer, transfer_show_trump=transfer and seed % 4 == 1)
    deck = list(cards_of(deck_mask(24)))
    rng.shuffle(deck)
    state = GameState.from_deal(rules, [deck[:size], deck[size : 2 * size]], [], trump=deck[-1])
    for _ in range(rng.randrange(4)):  # sometimes a bout in progress
        actor = next_actor(state)
        if actor is None:
            break
        seat, legal = actor
        state.apply(seat, legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("transfer", [False, True])
def test_solver_agrees_with_brute_force_on_small_positions(transfer: bool) -> None:
    checked = 0
    values = set()
    for seed in range(90):
        # (With trumps shown, the lines multiply fast: brute force only 1-2 cards there.)
        state = random_endgame(seed, 1 + seed % (2 if seed % 4 == 1 and transfer else 3), transfer)
        if state.is_over:
            continue
        assert solvable(state)
        for seat in (0, 1):
            expected = brute_force(state.copy(), seat)
            solver = Solver(seat)
            assert solver.value(state.copy()) == expected, (seed, seat)
            value, moves = Solver(seat).solve(state.copy())
            assert value == expected
            assert moves and {v for _, v in moves} <= {0.0, 0.5, 1.0}
            values.add(expected)
            checked += 1
    assert checked >= 140 and values == {0.0, 1.0} | (values & {0.5})


def test_solver_move_ordering_does_not_change_values() -> None:
    def reverse(state: GameState, seat: int, legal: list[object]) -> list[object]:
        return legal[::-1]

    for seed in range(40):
        state = random_endgame(seed, 3, seed % 2 == 0)
        if state.is_over:
            continue
        plain = Solver(0).value(state.copy())
        ordered = Solver(0, order=reverse).value(state.copy())  # type: ignore[arg-type]
        assert plain == ordered


def test_hards_order_proves_the_same_values_in_fewer_nodes() -> None:
    """The coach and Hard search the likeliest moves first (``solver_order``): on endings
    of five and six cards a hand, the values of the legal order in fewer nodes (about
    three fifths here; a quarter over whole heads-up reviews, what makes them quick)."""
    from engine.ai.hard import solver_order

    plain_nodes = ordered_nodes = 0
    for seed in range(12):
        state = random_endgame(seed, 5 + seed % 2, seed % 2 == 0)
        if state.is_over:
            continue
        plain, ordered = Solver(0), Solver(0, order=solver_order)
        assert plain.value(state.copy()) == ordered.value(state.copy()), seed
        plain_nodes += plain.nodes
        ordered_nodes += ordered.nodes
    assert ordered_nodes < 0.8 * plain_nodes, (ordered_nodes, plain_nodes)


def test_a_search_with_a_window_finds_the_value_or_a_bound_on_its_side() -> None:
    """Hard searches each next root move only for more than the best so far: above that
    bound the value is exact, at or below it the answer says so."""
    checked = 0
    for seed in range(30):
        state = random_endgame(seed, 3, seed % 2 == 0)
        rng = random.Random(seed)
        while (actor := next_actor(state)) is not None:
            exact = Solver(0).value(state.copy())
            for alpha in (0.0, 0.5):
                bound = Solver(0).value(state.copy(), alpha, 1.0)
                assert bound == exact if exact > alpha else bound <= alpha
            checked += 1
            seat, legal = actor
            state.apply(seat, legal[rng.randrange(len(legal))])
    assert checked > 60


def test_an_endless_exchange_counts_as_a_draw() -> None:
    """Two players who can only take each other's aces in turn: a repetition (draw)."""
    state = endgame(Rules(first_bout_five=False), ["Ac Ad", "As Ah"], "6c")
    # Seat 0 holds the only trump (Ac): it leads; either can take, which loops the cards.
    assert Solver(0).value(state.copy()) == brute_force(state.copy(), 0)


@pytest.mark.slow
def test_with_only_the_trump_card_left_the_position_is_solved_too() -> None:
    """Heads-up with one card in the stock, the face-up trump: every card is known, and
    whoever draws first takes it. The solver agrees with plain minimax there, and Hard
    solves such a position instead of sampling it."""
    solved = 0
    for seed in range(40):
        rng = random.Random(seed)
        rules = Rules(deck_size=24, first_bout_five=False)
        deck = list(cards_of(deck_mask(24)))
        rng.shuffle(deck)
        size = 1 + seed % 3
        hands = [deck[:size], deck[size : 2 * size]]
        state = GameState.from_deal(rules, hands, [deck[-1]])
        state.discard = deck_mask(24) & ~mask_of([*deck[: 2 * size], deck[-1]])
        assert solvable(state)
        seat, _ = next_actor(state)  # type: ignore[misc]
        assert Solver(seat).value(state.copy()) == brute_force(state.copy(), seat)
        bot = HardBot(seat, rules, seed, budget=None, iterations=4)
        for event in state.opening:
            bot.see(trim(event, seat))
        bot.see(Discarded(cards_of(state.discard)))
        action = bot.decide(observe(state, seat))
        if bot.last_method == "solver":
            child = state.copy()
            child.apply(seat, action)
            assert Solver(seat).value(child) == Solver(seat).value(state.copy()) > 0.0
            solved += 1
    assert solved >= 10


def test_the_solver_gives_up_beyond_its_node_budget() -> None:
    state = random_endgame(3, 6, False)
    with pytest.raises(SearchAborted):
        Solver(0, max_nodes=50).value(state)


# Heads-up, stock empty, the first attacker to move; exactly one lead wins (value 1 for the
# attacker), at least two lose, and the cheapest lead (what Easy plays) is not the one.
PUZZLES = [
    (["Ks Js 8d", "Tc Ad 8c"], "Qh", "attack Js"),
    (["6c 6s 8h Qh Th", "Js 7c Kc"], "Qd", "attack 8h"),
    (["9s Ks Js 6h 6s", "Kd 9d Qh 8s"], "Ac", "attack 9s"),
    (["8d Js 7s Qs Jc", "Ad 7d 6s 9h"], "Jd", "attack 9h"),
    (["6c Tc Jh 7c", "Kh 6h Js"], "8d", "attack 6c"),
]


@pytest.mark.parametrize(("hands", "trump", "answer"), PUZZLES)
def test_the_puzzles_have_one_winning_lead(hands: list[str], trump: str, answer: str) -> None:
    state = endgame(Rules(first_bout_five=False), hands, trump)
    seat, legal = next_actor(state)  # type: ignore[misc]
    results = {}
    for action in legal:
        child = state.copy()
        child.apply(seat, action)
        results[str(action)] = Solver(seat).value(child)
    assert [a for a, v in results.items() if v == 1.0] == [answer]
    assert sum(1 for v in results.values() if v == 0.0) >= 2


@pytest.mark.parametrize(("hands", "trump", "answer"), PUZZLES)
def test_hard_finds_the_only_winning_lead(hands: list[str], trump: str, answer: str) -> None:
    rules = Rules(first_bout_five=False)
    state = endgame(rules, hands, trump)
    seat, _ = next_actor(state)  # type: ignore[misc]
    bot = HardBot(seat, rules, 0, budget=None, iterations=4)
    for event in state.opening:
        bot.see(trim(event, seat))
    # What the seat remembers of the game so far: every other card was beaten and discarded.
    bot.see(Discarded(cards_of(state.discard)))
    assert bot.decide(observe(state, seat)) == parse_action(answer)
    assert bot.last_method == "solver"


def test_hard_without_the_discard_in_memory_does_not_pretend_to_know() -> None:
    """A bot that missed the discard cannot know the other hand: it samples instead."""
    rules = Rules(first_bout_five=False)
    hands, trump, _ = PUZZLES[0]
    state = endgame(rules, hands, trump)
    seat, legal = next_actor(state)  # type: ignore[misc]
    bot = HardBot(seat, rules, 0, budget=None, iterations=4)
    assert bot.decide(observe(state, seat)) in legal
    assert bot.last_method == "pimc"


def test_hards_solved_move_is_worth_the_most_searched_on_its_own() -> None:
    """Each root move gets its own search: a draw by repetition depends on the path to it,
    so a value taken from a table another move's lines filled may be wrong."""
    checked = 0
    for seed in range(30):
        state = random_endgame(seed, 2 + seed % 3, seed % 2 == 1)
        actor = next_actor(state)
        if actor is None or len(actor[1]) < 2:
            continue
        seat, legal = actor
        bot = HardBot(seat, state.rules, 0, budget=None)
        exact = {}
        for action in legal:
            child = state.copy()
            child.apply(seat, action)
            exact[action] = Solver(seat).value(child)
        best = max(exact.values())
        chosen = bot._solve(state, list(legal), None)
        assert (chosen is None and best == 0.0) or (chosen is not None and exact[chosen] == best)
        checked += 1
    assert checked >= 20
