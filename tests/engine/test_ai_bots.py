"""The AI players: always a legal action, whatever the options, and fair by construction.

Fairness: a bot decides from its seat's view and the trimmed events that seat was told.
Two games that differ only in the cards the seat cannot see (other hands' unknown cards,
the stock's order) give it the same view and the same events, so with the same seed it
must decide the same — Hard included, run with an iteration cap and no time limit.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest
from test_properties import all_rules, reshuffle_hidden

from engine import Event, Rules, new_game, observe, trim
from engine.ai import LEVELS, Bot, HardBot, make_bot, next_actor, play_game
from engine.ai.determinize import sample_state
from engine.ai.inference import HandReading
from engine.ai.tactics import Memory
from engine.cards import bits
from engine.playout import random_move

# Every option combination except the series option, which bots cannot notice.
ALL_RULES = [rules for rules in all_rules() if not rules.durak_defends_first]


def quick_hard(seat: int, rules: Rules, seed: int) -> Bot:
    return HardBot(seat, rules, seed, budget=None, iterations=2, solver_nodes=300)


FACTORIES = {**LEVELS, "hard": quick_hard}


def test_every_level_is_registered() -> None:
    assert set(LEVELS) == {"random", "easy", "normal", "hard"}
    rules = Rules()
    for spec in ("random", "easy", "Normal", "hard", "hard:0.2"):
        assert isinstance(make_bot(spec, 1, rules, 7), Bot)
    assert make_bot("hard:0.25", 0, rules, 0).budget == 0.25  # type: ignore[attr-defined]
    for bad in ("expert", "easy:3", "hard:fast", "hard:0", "hard:-1"):
        with pytest.raises(ValueError):
            make_bot(bad, 0, rules, 0)


@pytest.mark.slow
@pytest.mark.parametrize("level", ["random", "easy", "normal"])
def test_cheap_levels_play_legal_games_under_every_option(level: str) -> None:
    """Every option combination, 2-6 players: ``play_game`` applies each decision, which
    raises ``IllegalAction`` for anything but a legal move."""
    for number, rules in enumerate(ALL_RULES):
        for seed in range(2):
            state = new_game(rules, number * 10 + seed)
            bots = [FACTORIES[level](s, rules, seed) for s in range(rules.players)]
            record = play_game(state, bots)
            assert state.is_over and record.result is state.result


@pytest.mark.slow
def test_levels_mixed_at_one_table_with_hard() -> None:
    """Hard (tiny caps) among the others, on a sample of the option combinations."""
    rng = random.Random(3)
    for rules in rng.sample(ALL_RULES, 12):
        levels = itertools.cycle(["hard", "normal", "easy", "random"])
        bots = [FACTORIES[next(levels)](s, rules, s) for s in range(rules.players)]
        play_game(new_game(rules, rng.getrandbits(32)), bots)


@pytest.mark.slow
def test_bots_answer_legally_in_thousands_of_random_positions() -> None:
    """Random-legal play reaches odd positions (full tables, transfers, taking with
    throw-ins); at each, every seat with legal actions asks every level (Hard with tiny
    caps), which must answer with one of them."""
    rng = random.Random(11)
    asked = 0
    for number in range(60):
        rules = ALL_RULES[rng.randrange(len(ALL_RULES))]
        state = new_game(rules, number)
        bots = {
            level: [FACTORIES[level](s, rules, number) for s in range(rules.players)]
            for level in FACTORIES
        }

        tell(bots, state.opening)
        while not state.is_over:
            for seat in range(rules.players):
                view = observe(state, seat)
                if not view.legal:
                    continue
                for level, row in bots.items():
                    if level == "hard" and rng.random() > 0.1:
                        continue  # Hard is slower: a tenth of the positions
                    assert row[seat].decide(view) in view.legal
                    asked += 1
            seat, action = random_move(state, rng)
            tell(bots, state.apply(seat, action))
    assert asked > 5_000


def tell(bots: dict[str, list[Bot]], events: Sequence[Event]) -> None:
    for event in events:
        for row in bots.values():
            for seat, bot in enumerate(row):
                bot.see(trim(event, seat))


@pytest.mark.slow
@pytest.mark.parametrize("level", ["easy", "normal", "hard", "random"])
def test_a_bot_decides_the_same_when_unseen_cards_are_reshuffled(level: str) -> None:
    rng = random.Random(5)
    compared = differed = 0
    for number in range(12):
        rules = Rules(players=2 + number % 3, transfer=number % 2 == 1)
        state = new_game(rules, 100 + number)
        seen: list[list[Event]] = [
            [trim(e, s) for e in state.opening] for s in range(rules.players)
        ]
        while not state.is_over:
            seat, legal = next_actor(state)  # type: ignore[misc]
            if rng.random() < 0.3:
                other = reshuffle_hidden(state, seat, rng)
                differed += other.hands != state.hands or other.stock != state.stock
                decisions = []
                for game in (state, other):
                    bot = FACTORIES[level](seat, rules, 42)
                    for event in seen[seat]:
                        bot.see(event)
                    decisions.append(bot.decide(observe(game, seat)))
                assert decisions[0] == decisions[1]
                compared += 1
            action = legal[rng.randrange(len(legal))]
            for event in state.apply(seat, action):
                for s in range(rules.players):
                    seen[s].append(trim(event, s))
    assert compared > 50 and differed > 20


@pytest.mark.slow
def test_a_sampled_state_shows_the_seat_exactly_its_view() -> None:
    """Hard's determinisation, uniform and weighted by its reading of hands: the sampled
    game looks to the seat like the real one (its hand, the table, every card the view
    shows in a hand, the sizes, the discard it remembers), and every card is somewhere
    exactly once."""
    rng = random.Random(9)
    for number in range(40):
        rules = ALL_RULES[rng.randrange(len(ALL_RULES))]
        state = new_game(rules, number)
        memories = [Memory() for _ in range(rules.players)]
        readings = [HandReading(s, rules) for s in range(rules.players)]
        for event in state.opening:
            for s, memory in enumerate(memories):
                memory.see(trim(event, s))
                readings[s].see(trim(event, s))
        while not state.is_over:
            seat = rng.randrange(rules.players)
            view = observe(state, seat)
            for weights in (None, readings[seat].weights):
                sample = sample_state(view, memories[seat], rng, weights)
                assert observe(sample, seat) == view
                remembered = memories[seat].discard  # the discard it saw stays discarded
                assert sample.discard & remembered == remembered
                cards = [*sample.stock, *sample.attacks, *(d for d in sample.defences if d >= 0)]
                cards += [*bits(sample.discard)] + [i for h in sample.hands for i in bits(h)]
                assert len(cards) == len(set(cards)) == rules.deck_size
            s, action = random_move(state, rng)
            for event in state.apply(s, action):
                for other, memory in enumerate(memories):
                    memory.see(trim(event, other))
                    readings[other].see(trim(event, other))
