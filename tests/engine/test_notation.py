"""The one-line position notation: exact round trips, clear refusals, the documented
examples, ``key()`` for transpositions and the public constructor Hard samples through."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_properties import ALL_RULES, eager_move, examples, play, taking_move
from test_properties import start as start_game

from engine import (
    Attack,
    Beat,
    Card,
    GameState,
    Phase,
    Position,
    PositionError,
    Rules,
    ThrowIn,
    Transfer,
    new_game,
    observe,
    parse_action,
    trim,
)
from engine.ai.determinize import sample_state
from engine.ai.tactics import Memory
from engine.cards import deck_mask, mask_of
from engine.legality import card_reason
from engine.playout import random_move

NOTATION_SOURCE = Path(__file__).resolve().parents[2] / "engine" / "notation.py"

# Every field of a game but the deal's events.
FIELDS = [name for name in GameState.FIELDS if name != "opening"]


def assert_same(one: GameState, other: GameState) -> None:
    for name in FIELDS:
        assert getattr(one, name) == getattr(other, name), name


def round_trip(state: GameState, _rng: random.Random) -> None:
    text = state.to_text()
    back = GameState.from_text(text)
    assert_same(back, state)
    assert back.to_text() == text


@pytest.mark.slow
@examples(30)
@given(
    rules=st.sampled_from(ALL_RULES),
    seed=st.integers(0, 2**32),
    mover=st.sampled_from([random_move, eager_move]),
)
def test_every_position_of_a_game_round_trips_exactly(
    rules: Rules, seed: int, mover: object
) -> None:
    state, _, _ = play(rules, seed, on_step=round_trip, mover=mover)
    round_trip(state, random.Random(0))  # the end too


@examples(4)
@given(rules=st.sampled_from(ALL_RULES), seed=st.integers(0, 2**32))
def test_long_games_with_their_repetition_history_round_trip(rules: Rules, seed: int) -> None:
    """Players who mostly take: long stretches without a discard, a long history."""

    def sometimes(state: GameState, rng: random.Random) -> None:
        if state.moves % 97 == 0:
            round_trip(state, rng)

    state, _, _ = play(rules, seed, on_step=sometimes, mover=taking_move)
    round_trip(state, random.Random(0))


def test_a_position_read_back_plays_on_as_the_game_did() -> None:
    rules = Rules(players=4, transfer=True, transfer_show_trump=True)
    game = new_game(rules, 11)
    rng = random.Random(11)
    for _ in range(40):
        game.apply(*random_move(game, rng))
    copy = GameState.from_text(game.to_text())
    while not game.is_over:
        seat, action = random_move(game, rng)
        for s in range(rules.players):
            assert copy.legal_actions(s) == game.legal_actions(s)
        assert copy.apply(seat, action) == game.apply(seat, action)
    assert copy.result == game.result


def documented_examples() -> list[str]:
    """The example lines of ``engine.notation``'s docstring, each joined back into one
    (read from the source: a module compiled with mypyc keeps no docstring)."""
    doc = ast.get_docstring(ast.parse(NOTATION_SOURCE.read_text(encoding="utf-8"))) or ""
    blocks = re.findall(r"::\n\n((?:    .*\n)+)", doc)
    return [" ".join(line.strip() for line in block.splitlines()) for block in blocks]


def test_the_documented_examples_are_what_the_engine_writes() -> None:
    dealt = new_game(Rules(), 1)
    transfer = new_game(Rules(players=3, deck_size=24, transfer=True), 2)
    transfer.apply(0, Attack.of("9s"))
    transfer.apply(1, Transfer(Card.parse("9d")))
    assert documented_examples() == [dealt.to_text(), transfer.to_text()]
    assert GameState.from_text(documented_examples()[1]).legal_actions(2)  # seat 2 defends


# --- a position apart from the play, and as code -----------------------------------------


def position_of(state: GameState) -> Position:
    return Position.from_line(state.to_line())


@examples(25)
@given(rules=st.sampled_from(ALL_RULES), seed=st.integers(0, 2**32), stop=st.integers(0, 300))
def test_a_position_and_a_game_print_as_code_that_rebuilds_them(
    rules: Rules, seed: int, stop: int
) -> None:
    game, _ = start_game(rules, seed)
    rng = random.Random(seed)
    while not game.is_over and game.moves < stop:
        game.apply(*random_move(game, rng))
    position = position_of(game)
    scope = {"GameState": GameState, "Position": Position}
    for value in (game, position):
        back = eval(repr(value), scope)
        assert type(back) is type(value) and back == value
        assert back.to_text() == value.to_text()
    assert repr(position) == f"Position.from_text({position.to_text()!r})"
    assert game.to_text().startswith(position.to_text() + " moves=")
    if not game.is_over:  # a game that went on is another value
        moved = game.copy()
        moved.apply(*random_move(moved, rng))
        assert moved != game and position_of(moved) != position


def test_equal_games_are_the_same_position_and_history() -> None:
    game = new_game(Rules(players=3), 5)
    back = GameState.from_text(game.to_text())
    assert back == game and back.opening == () != game.opening  # not the deal's events
    back.moves += 1
    assert back != game and position_of(back) == position_of(game)
    assert position_of(game) != game  # a position is not a game in play
    with pytest.raises(TypeError):
        hash(game)  # mutable: key() is the hashable value


def test_a_copy_has_every_field_and_shares_no_list() -> None:
    game = new_game(Rules(players=3, transfer=True), 8)
    rng = random.Random(8)
    for _ in range(40):
        game.apply(*random_move(game, rng))
    for original in (game, position_of(game)):
        copy = original.copy()
        assert type(copy) is type(original)
        for name in type(original).FIELDS:
            mine, theirs = getattr(copy, name), getattr(original, name)
            assert mine == theirs, name
            assert not isinstance(mine, list) or mine is not theirs, name
    moved = game.copy()
    moved.apply(*random_move(moved, rng))
    assert moved != game


def test_legality_asks_nothing_but_the_position() -> None:
    rules = Rules(players=4, transfer=True, transfer_show_trump=True)
    game = new_game(rules, 3)
    rng = random.Random(3)
    while not game.is_over:
        position = position_of(game)
        for seat in range(rules.players):
            assert position.legal_actions(seat) == game.legal_actions(seat)
            for card in game.hand(seat):
                assert card_reason(position, seat, card) == game.card_reason(seat, card)
        assert observe(position, 0) == observe(game, 0)
        game.apply(*random_move(game, rng))


def test_a_position_line_and_a_game_line_are_told_apart() -> None:
    game = GameState.from_text(BASE)
    line = position_of(game).to_text()
    assert Position.from_text(line) == position_of(game)
    with pytest.raises(PositionError, match="unknown field 'moves'"):
        Position.from_text(BASE)
    with pytest.raises(PositionError, match=r"missing field.*moves, seen"):
        GameState.from_text(line)


# --- refusals -----------------------------------------------------------------------------

# Three players, hearts trump, seat 0 attacks seat 1: 7h beaten by 9h, 7s not yet.
BASE = (
    "rules=36 hands=6cAcKdKh*9s/JcQcKcThQhKs/7c8c9cTcQdAd stock=6d7d8d9dTdJdAhJh6s8sTs"
    "JsQsAs6h8h trump=8h table=7h:9h,7s discard=- attacker=0 defender=1 leader=0 dealer=2 "
    "phase=open cap=6 held=6 taking=no passed=- shown=- throwers=0,2 places=0,0,0 "
    "result=- moves=3 seen=-"
)


def edit(text: str, field: str, value: str) -> str:
    replaced, count = re.subn(rf"(^| ){field}=\S*", rf"\g<1>{field}={value}", text)
    assert count == 1
    return replaced


def test_the_base_position_is_possible() -> None:
    state = GameState.from_text(BASE)
    assert state.table == ((Card.parse("7h"), Card.parse("9h")), (Card.parse("7s"), None))
    assert state.to_text() == BASE
    assert Beat(Card.parse("Ks"), Card.parse("7s")) in state.legal_actions(1)
    assert ThrowIn(Card.parse("9s")) in state.legal_actions(0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "missing field"),
        (BASE + " moves=3", "'moves' is given twice"),
        (BASE.replace(" seen=-", ""), "missing field(s): seen"),
        (BASE + " colour=red", "unknown field 'colour'"),
        (BASE + " loose", "not a name=value field"),
        (edit(BASE, "discard", "9s"), "9s is in two places (seat 0's hand and the discard)"),
        (edit(BASE, "hands", "6cAcKdKh*9s9s/JcQcKcThQhKs/7c8c9cTcQdAd"), "9s is twice in one hand"),
        (
            edit(BASE, "stock", "7d8d9dTdJdAhJh6s8sTsJsQsAs6h8h"),
            "6d of the 36-card deck is nowhere",
        ),
        (edit(BASE, "discard", "5c"), "5c is not in the 36-card deck"),
        (edit(BASE, "hands", "6cAcKdKh*9s"), "not 1 (the hands give the number of players)"),
        (edit(BASE, "rules", "36,sideways"), "unknown or repeated option 'sideways'"),
        (edit(BASE, "rules", "40"), "the deck has 24, 36 or 52 cards"),
        (edit(BASE, "table", "9h:7h,7s"), "7h does not beat 9h"),
        (edit(BASE, "table", "7h:9x"), "no card at '9x'"),
        (edit(BASE, "trump", "6h"), "the trump card 6h is not the stock's last card"),
        (edit(BASE, "held", "1"), "2 attack cards, more than the bout allows (1)"),
        (edit(BASE, "cap", "7"), "must be between 5 and 6"),
        (edit(BASE, "attacker", "x"), "must be a number"),
        (edit(BASE, "attacker", "1"), "the attacker defends too"),
        (
            edit(edit(BASE, "defender", "2"), "throwers", "0,1"),
            "seat 1, between the attacker and the defender, is in play",
        ),
        (edit(BASE, "phase", "lead"), "a bout waiting for its lead has nothing on the table"),
        (edit(BASE, "leader", "2"), "the attacker led the bout unless a transfer passed it on"),
        (edit(BASE, "phase", "done"), "must be lead, open or over"),
        (edit(BASE, "result", "draw"), "the phase is over exactly when there is a result"),
        (edit(BASE, "places", "1,0,0"), "a player is out while the stock lasts"),
        (edit(BASE, "places", "0,0"), "must list 3 numbers, one per seat"),
        (edit(BASE, "passed", "1"), "a seat passed that may not add cards"),
        (edit(BASE, "throwers", "0,1,2"), "the defender cannot add cards to their own bout"),
        (edit(BASE, "shown", "1"), "a trump shown without the show-trump rule"),
        (edit(BASE, "taking", "maybe"), "must be yes or no"),
        (edit(BASE, "seen", "0:6:-/-"), "must hold 3 hands"),
        ("rules=36 " * 200_000, "at most 1000000 characters"),
    ],
)
def test_a_malformed_or_impossible_position_is_refused(text: str, message: str) -> None:
    with pytest.raises(PositionError) as refusal:
        GameState.from_text(text)
    assert message in str(refusal.value)


def test_a_bout_to_start_with_a_stock_needs_full_hands() -> None:
    dealt = new_game(Rules(players=3), 5).to_text()
    state = GameState.from_text(dealt)
    hand = state.hand(0)
    shorter = dealt.replace("".join(map(str, hand)), "".join(map(str, hand[1:])), 1)
    discard = edit(shorter, "discard", str(hand[0]))
    with pytest.raises(PositionError, match="seat 0 holds fewer than 6 cards with a stock"):
        GameState.from_text(discard)


# --- key() and the public constructor -------------------------------------------------------


def test_transposed_lines_reach_the_same_key() -> None:
    rules = Rules(first_bout_five=False)
    hands = [
        mask_of(Card.parse(c) for c in text.split())
        for text in ("6c 6d Tc Kd 9h Js", "8c 9c Jc Qd Ad 7s")
    ]
    start = GameState(
        rules,
        hands=hands,
        stock=[],
        trump_card=Card.parse("7h").index,
        discard=deck_mask(36) & ~hands[0] & ~hands[1],
        attacker=0,
        defender=1,
        bout_max=6,
        defender_start=6,
    )
    round_trip(start, random.Random(0))  # the constructor built a possible position
    one, other = start.copy(), start.copy()
    for state in (one, other):
        state.apply(0, Attack.of("6c", "6d"))
    one.apply(1, Beat(Card.parse("8c"), Card.parse("6c")))
    other.apply(1, Beat(Card.parse("Ad"), Card.parse("6d")))
    assert one.key() != other.key()
    one.apply(1, Beat(Card.parse("Ad"), Card.parse("6d")))
    other.apply(1, Beat(Card.parse("8c"), Card.parse("6c")))
    assert one.key() == other.key() != start.key()
    assert one.phase is Phase.LEAD and one.attacker == 1  # beaten: the bout is over
    one.moves += 1  # the history is not part of what is to be played
    assert one.key() == other.key()


@pytest.mark.slow
@examples(15)
@given(rules=st.sampled_from(ALL_RULES), seed=st.integers(0, 2**32))
def test_hard_samples_are_possible_positions(rules: Rules, seed: int) -> None:
    """determinize builds its samples with the public constructor: each one is a position
    the notation accepts (every card once, the bout consistent)."""
    game, _ = start_game(rules, seed)
    memories = [Memory() for _ in range(rules.players)]
    rng = random.Random(seed)
    events = list(game.opening)
    while not game.is_over:
        for event in events:
            for seat, memory in enumerate(memories):
                memory.see(trim(event, seat))
        for seat in range(rules.players):
            round_trip(sample_state(observe(game, seat), memories[seat], rng), rng)
        events = game.apply(*random_move(game, rng))


def test_actions_print_as_their_text() -> None:
    actions = [
        Attack.of("6s", "6h"),
        Beat(Card.parse("8h"), Card.parse("7h")),
        Transfer(Card.parse("9d")),
    ]
    assert repr(actions) == (
        "[parse_action('attack 6h 6s'), parse_action('beat 7h with 8h'),"
        " parse_action('transfer 9d')]"
    )
    assert [eval(repr(a), {"parse_action": parse_action}) for a in actions] == actions
