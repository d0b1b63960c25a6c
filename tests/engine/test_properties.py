"""Invariants of the rules engine over many random legal games.

Games are played by ``engine.playout.random_move`` (every seat's legal actions pooled,
one picked at random) or by ``eager_move`` (mostly adding cards, so tables fill up), from
``new_game`` with every valid combination of options. The
checks: every card is somewhere exactly once, every game ends, ``check``/``legal_actions``/
``apply``/``card_reason`` agree, a saved log replays exactly, and no seat's view or events
carry a card it may not see. All randomness is seeded (Hypothesis is derandomized), so a
failure reproduces on every run.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    CARDS,
    MAX_MOVES,
    REPETITION_LIMIT,
    Action,
    Attack,
    Beat,
    Card,
    Dealt,
    Drew,
    Event,
    GameLog,
    GameResult,
    GameState,
    IllegalAction,
    Pass,
    Reason,
    Rules,
    ShowTrump,
    Take,
    ThrowIn,
    ThrowInRule,
    Transfer,
    new_game,
    observe,
    observe_public,
    trim,
)
from engine.cards import bits, cards_of, deck_mask
from engine.playout import random_move

DECKS = {2: (24, 36, 52), 3: (24, 36, 52), 4: (24, 36, 52), 5: (36, 52), 6: (36, 52)}
TRANSFER_OPTIONS = ((False, False), (True, False), (True, True))


def all_rules() -> list[Rules]:
    """Every valid combination of options for 2 to 6 players."""
    return [
        Rules(
            players=players,
            deck_size=deck,
            throw_in=throw_in,
            first_bout_five=five,
            transfer=transfer,
            transfer_show_trump=show,
            durak_defends_first=durak_first,
        )
        for players, decks in DECKS.items()
        for deck in decks
        for throw_in in ThrowInRule
        for five in (True, False)
        for transfer, show in TRANSFER_OPTIONS
        for durak_first in (True, False)
    ]


ALL_RULES = all_rules()
# The engine ends every game by the move cap at the latest, once the bout then running is
# settled (a bout holds far fewer than 100 actions): a game that goes on is a bug.
MAX_ACTIONS = MAX_MOVES + 100


def examples(count: int) -> settings:
    """Hypothesis settings for a repeatable run of ``count`` games."""
    return settings(
        max_examples=count,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


def previous_result(rules: Rules, seed: int) -> GameResult | None:
    """A previous game's result for series options (a draw now and then)."""
    rng = random.Random(seed)
    n = rules.players
    if rng.random() < 0.15:
        return GameResult((1,) * n, None)
    durak = rng.randrange(n)
    places = [1 + rng.randrange(n - 1) for _ in range(n)]
    places[durak] = n
    return GameResult(tuple(places), durak)


def start(rules: Rules, seed: int) -> tuple[GameState, GameResult | None]:
    previous = previous_result(rules, seed) if seed % 2 else None
    return new_game(rules, seed, previous), previous


def snapshot(state: GameState) -> tuple[Any, ...]:
    """Every piece of the state, copied, to prove that a refusal changed nothing."""
    return tuple(
        list(value) if isinstance(value, list) else value
        for value in (getattr(state, name) for name in GameState.FIELDS)
    )


def card_counts(state: GameState) -> tuple[int, int]:
    """(cards counted over all places, distinct cards over all places)."""
    table = [i for i in state.attacks + state.defences if i >= 0]
    union = state.discard
    count = state.discard.bit_count() + len(state.stock) + len(table)
    for hand in state.hands:
        union |= hand
        count += hand.bit_count()
    for index in state.stock + table:
        union |= 1 << index
    return count, union


def assert_every_card_once(state: GameState) -> None:
    deck = deck_mask(state.rules.deck_size)
    count, union = card_counts(state)
    assert union == deck, "a card is missing or foreign"
    assert count == deck.bit_count(), "a card is in two places"


def in_play(state: GameState, seat: int) -> bool:
    return not state.places[seat] and bool(state.stock or state.hands[seat])


def clockwise_between(state: GameState, start: int, end: int) -> list[int]:
    """The seats strictly between ``start`` and ``end``, clockwise."""
    n = state.players
    return [(start + k) % n for k in range(1, (end - start) % n)]


def assert_table_invariants(state: GameState) -> None:
    """What must hold between any two actions, whatever was played."""
    for seat in range(state.players):
        assert state.known[seat] & ~state.hands[seat] == 0, "a known card is not in the hand"
        if state.places[seat] and not state.is_over:  # at the end everyone has a place
            assert state.hands[seat] == 0, "a player out of the game holds cards"
    if state.is_over:
        return
    attacker, defender = state.attacker, state.defender
    assert not state.places[attacker] and not state.places[defender]
    # Every seat between the attacker and the defender is out of play (a transfer skips
    # a player who emptied their hand during the bout with the stock empty).
    assert all(not in_play(state, s) for s in clockwise_between(state, attacker, defender))
    assert len(state.attacks) <= state.limit <= 6
    if state.rules.throw_in is ThrowInRule.NEIGHBOURS:
        beyond = clockwise_between(state, defender, attacker)
        left = next((s for s in beyond if in_play(state, s)), None)
        allowed = {attacker, *beyond[: beyond.index(left) + 1 if left is not None else None]}
        assert {s for s in range(state.players) if state.throwers >> s & 1} <= allowed
    unbeaten = sum(1 for d in state.defences if d < 0)
    if not state.taking:
        assert unbeaten <= state.hand_size(defender), "more to beat than the defender holds"
    if state.stock and not state.is_open:  # a bout just started after a refill
        assert all(state.hand_size(s) >= 6 for s in range(state.players))


def cards_in(value: object) -> Iterator[Card]:
    """Every card inside a (nested) event, view or action value."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, tuple | list):
        for item in value:
            yield from cards_in(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            if f.name != "rules":
                yield from cards_in(getattr(value, f.name))


def assert_events_hide_other_hands(events: list[Event] | tuple[Event, ...], players: int) -> None:
    """Each seat's trim shows only its own drawn cards; a watcher's (None) shows none."""
    for event in events:
        for seat in (*range(players), None):
            seen = trim(event, seat)
            if isinstance(event, Dealt | Drew):
                if event.seat == seat:
                    assert seen == event
                else:
                    assert isinstance(seen, type(event))
                    assert seen.cards is None and seen.count == event.count
                    assert not list(cards_in(seen))


def assert_views_hide_other_hands(state: GameState) -> None:
    """No view holds a card of another hand that is not public knowledge."""
    secret = [hand & ~known for hand, known in zip(state.hands, state.known, strict=True)]
    stock_secret = 0
    for index in state.stock[1:]:  # the bottom card (index 0) is the face-up trump
        stock_secret |= 1 << index
    for seat in range(state.players):
        view = observe(state, seat)
        hidden = stock_secret
        for other in range(state.players):
            if other != seat:
                hidden |= secret[other]
        leaked = [card for card in cards_in(view) if hidden >> card.index & 1]
        assert not leaked, f"seat {seat} sees {leaked}"
        for other in range(state.players):
            if other != seat:
                assert view.known[other] == cards_of(state.known[other])
        assert view.hand_sizes == tuple(h.bit_count() for h in state.hands)
    # A watcher sees no hand at all: only the public cards and the sizes.
    public = observe_public(state)
    hidden = stock_secret
    for other in range(state.players):
        hidden |= secret[other]
    leaked = [card for card in cards_in(public) if hidden >> card.index & 1]
    assert not leaked, f"a watcher sees {leaked}"
    assert public.known == tuple(cards_of(k) for k in state.known)
    assert public.hand_sizes == tuple(h.bit_count() for h in state.hands)


def eager_move(state: GameState, rng: random.Random) -> tuple[int, Action]:
    """Mostly add cards (throw in, transfer, show), so tables fill up to their limits."""
    moves = [(s, a) for s in range(state.players) for a in state.legal_actions(s)]
    adding = [m for m in moves if isinstance(m[1], ThrowIn | Transfer | ShowTrump)]
    if adding and rng.random() < 0.9:
        moves = adding
    return moves[rng.randrange(len(moves))]


def play(
    rules: Rules, seed: int, on_step: Any = None, mover: Any = random_move
) -> tuple[GameState, GameResult | None, list[tuple[int, Action]]]:
    """One legal game, ``mover`` picking each move (by default: uniformly among every
    seat's legal actions); ``on_step(state, rng)`` runs before every action."""
    state, previous = start(rules, seed)
    rng = random.Random(seed ^ 0x5EED)
    actions: list[tuple[int, Action]] = []
    assert_every_card_once(state)
    while not state.is_over:
        assert len(actions) < MAX_ACTIONS, f"{rules} seed {seed} does not end"
        if on_step is not None:
            on_step(state, rng)
        seat, action = mover(state, rng)
        state.apply(seat, action)
        actions.append((seat, action))
        assert_every_card_once(state)
        assert_table_invariants(state)
    return state, previous, actions


def assert_result_consistent(state: GameState) -> None:
    result = state.result
    assert result is not None and state.result == result
    assert all(place >= 1 for place in result.places)
    holding = [s for s in range(state.players) if state.hands[s]]
    if len(holding) > 1 or state.stock:  # a draw by the rule that every game ends
        assert result.durak is None and len({result.places[s] for s in holding}) == 1
        if state.moves < MAX_MOVES:  # by repetition: the last bout was taken (else no
            # position could come back), and the taker's left neighbour would lead the next
            assert state.taking and not state.attacks
            n = state.players
            following = ((state.defender + step) % n for step in range(1, n))
            attacker = next(s for s in following if state.hands[s])
            assert state.seen.count((attacker, 6, *state.hands)) == REPETITION_LIMIT - 1
    elif result.durak is None:
        assert not holding
    else:
        assert holding == [result.durak]
        assert result.places[result.durak] == state.players
        assert sorted(result.places)[-1] == state.players
    for seat in range(state.players):
        assert state.legal_actions(seat) == []


# --- every card once, every game ends ------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("players", sorted(DECKS))
def test_every_card_is_somewhere_once_and_every_game_ends(players: int) -> None:
    """Every option combination, several seeds each: hundreds of games per player count."""
    games = [r for r in ALL_RULES if r.players == players]
    seeds_per_rules = 8
    for number, rules in enumerate(games):
        for k in range(seeds_per_rules):
            seed = number * 1000 + k
            state, _, actions = play(rules, seed)
            assert_result_consistent(state)
            assert actions


def taking_move(state: GameState, rng: random.Random) -> tuple[int, Action]:
    """Mostly take (or pass on a taker): cards go round and round, as in issue 11's stuck
    game of players who always take."""
    moves = [(s, a) for s in range(state.players) for a in state.legal_actions(s)]
    giving = [m for m in moves if isinstance(m[1], Take | Pass)]
    if giving and rng.random() < 0.95:
        moves = giving
    return moves[rng.randrange(len(moves))]


@pytest.mark.slow
@examples(60)
@given(rules=st.sampled_from(ALL_RULES), seed=st.integers(0, 2**32))
def test_games_of_players_who_mostly_take_end_too(rules: Rules, seed: int) -> None:
    state, _, _ = play(rules, seed, mover=taking_move)
    assert_result_consistent(state)


# --- check, legal_actions, apply and card_reason agree --------------------------------------

SINGLES: dict[type, tuple[Action, ...]] = {
    ThrowIn: tuple(ThrowIn(c) for c in CARDS),
    Transfer: tuple(Transfer(c) for c in CARDS),
    ShowTrump: tuple(ShowTrump(c) for c in CARDS),
}
ATTACKS: tuple[Attack, ...] = tuple(Attack((c,)) for c in CARDS)
BEATS = tuple(tuple(Beat(c, t) for t in CARDS) for c in CARDS)


def candidates(state: GameState, seat: int) -> list[Action]:
    """Every single-card action over the deck, every beat of every card at every table card
    (and at one card that is not on the table), every multi-card attack of one rank from the
    hand and a few of mixed ranks."""
    deck = list(bits(deck_mask(state.rules.deck_size)))
    table = [i for i in state.attacks + state.defences if i >= 0]
    off_table = next(i for i in deck if i not in table)
    targets = [*table, off_table]
    actions: list[Action] = [Take(), Pass()]
    for i in deck:
        actions += (ATTACKS[i], SINGLES[ThrowIn][i], SINGLES[Transfer][i], SINGLES[ShowTrump][i])
        actions += [BEATS[i][t] for t in targets]
    hand = state.hand(seat)
    for rank in range(2, 15):
        same = [c for c in hand if c.rank == rank]
        for size in range(2, len(same) + 1):
            actions += [Attack(group) for group in itertools.combinations(same, size)]
    mixed = [pair for pair in itertools.combinations(hand, 2) if pair[0].rank != pair[1].rank]
    actions += [Attack(pair) for pair in mixed[:: max(1, len(mixed) // 8)]]
    return actions


def check_agreement(state: GameState, rng: random.Random) -> None:
    before = snapshot(state)
    for seat in range(state.players):
        legal = state.legal_actions(seat)
        assert len(set(legal)) == len(legal), "legal_actions lists a move twice"
        legal_set = set(legal)
        refused: list[Action] = []
        for action in candidates(state, seat):
            reason = state.check(seat, action)
            if action in legal_set:
                assert reason is None, f"seat {seat} {action}: listed but refused ({reason})"
            else:
                assert reason is not None, f"seat {seat} {action}: allowed but not listed"
                refused.append(action)
        for action in legal:
            assert state.check(seat, action) is None
        used = {c for action in legal for c in cards_of_action(action)}
        for card in (CARDS[i] for i in bits(deck_mask(state.rules.deck_size))):
            reason = state.card_reason(seat, card)
            assert (reason is None) == (card in used), f"seat {seat} card {card}: {reason}"
        for action in rng.sample(refused, min(2, len(refused))):
            reason = state.check(seat, action)
            with pytest.raises(IllegalAction) as refusal:
                state.apply(seat, action)
            assert refusal.value.reason is reason
            assert refusal.value.seat == seat
    assert snapshot(state) == before, "a refused action changed the state"


def cards_of_action(action: Action) -> tuple[Card, ...]:
    """The cards of his hand a player uses for ``action`` (a beat's target is not his)."""
    if isinstance(action, Attack):
        return action.cards
    if isinstance(action, Take | Pass):
        return ()
    return (action.card,)


@pytest.mark.slow
@examples(30)
@given(rules=st.sampled_from(ALL_RULES), seed=st.integers(0, 2**32))
def test_check_legal_actions_apply_and_card_reason_agree(rules: Rules, seed: int) -> None:
    state, _, _ = play(rules, seed, on_step=check_agreement)
    check_agreement(state, random.Random(seed))  # the finished game too: game_over


@pytest.mark.slow
@examples(15)
@given(rules=st.sampled_from(ALL_RULES), seed=st.integers(0, 2**32))
def test_agreement_when_tables_fill_up(rules: Rules, seed: int) -> None:
    """The same check in games where players add every card they can."""
    play(rules, seed, on_step=check_agreement, mover=eager_move)


def test_agreement_covers_every_kind_of_action() -> None:
    """The agreement check above must meet every kind of action in a legal list."""
    kinds: set[type] = set()

    def record(state: GameState, rng: random.Random) -> None:
        for seat in range(state.players):
            for action in state.legal_actions(seat):
                kinds.add(type(action))
                if isinstance(action, Attack) and len(action.cards) > 1:
                    kinds.add(tuple)

    rules = Rules(players=3, transfer=True, transfer_show_trump=True)
    for seed in range(30):
        play(rules, seed, on_step=record)
    assert kinds == {Attack, ThrowIn, Beat, Transfer, ShowTrump, Take, Pass, tuple}


@pytest.mark.slow
def test_the_candidates_meet_every_refusal() -> None:
    """The candidate actions above reach every reason code in a handful of games, so the
    agreement check exercises every refusal path (already_shown, rare in random play, has
    its own scenario in test_engine_rules)."""
    seen: set[Reason] = set()

    def record(state: GameState, rng: random.Random | None) -> None:
        for seat in range(state.players):
            for action in candidates(state, seat):
                reason = state.check(seat, action)
                if reason is not None:
                    seen.add(reason)

    variety = (
        Rules(players=2, transfer=True, transfer_show_trump=True),
        Rules(players=4, throw_in=ThrowInRule.NEIGHBOURS, transfer=True, transfer_show_trump=True),
        Rules(players=3, deck_size=24),
    )
    for seed in range(3):
        for rules in variety:
            for mover in (random_move, eager_move):
                state, _, _ = play(rules, seed, on_step=record, mover=mover)
                record(state, None)
    assert set(Reason) - seen <= {Reason.ALREADY_SHOWN}


# --- replay ----------------------------------------------------------------------------------


@pytest.mark.slow
@examples(60)
@given(
    rules=st.sampled_from(ALL_RULES),
    seed=st.integers(0, 2**64),
    cut=st.floats(0, 1),
)
def test_saved_log_replays_to_identical_views(rules: Rules, seed: int, cut: float) -> None:
    state, previous, actions = play(rules, seed)
    loaded = GameLog.from_bytes(GameLog(rules, seed, previous, actions).to_bytes())
    assert loaded.rules == rules and loaded.seed == seed and loaded.previous == previous
    assert loaded.actions == actions
    replayed = loaded.replay()
    assert replayed.result == state.result
    for seat in range(rules.players):
        assert observe(replayed, seat) == observe(state, seat)
    # A log cut short replays to the same position as the game had then.
    prefix = actions[: int(len(actions) * cut)]
    partial = GameLog(rules, seed, previous, prefix).replay()
    again = new_game(rules, seed, previous)
    for seat, action in prefix:
        again.apply(seat, action)
    assert snapshot(partial) == snapshot(again)


# --- what a seat can see ---------------------------------------------------------------------


def reshuffle_hidden(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy of ``state`` where the cards ``seat`` cannot see are dealt around again: other
    hands' unknown cards and the stock (except its bottom, face-up trump), sizes kept."""
    other = state.copy()
    pool: list[int] = []
    holes: list[int] = []
    for s in range(state.players):
        if s != seat:
            secret = list(bits(state.hands[s] & ~state.known[s]))
            pool += secret
            holes += [s] * len(secret)
    pool += state.stock[1:]
    rng.shuffle(pool)
    hands = [state.hands[s] & (state.known[s] if s != seat else -1) for s in range(state.players)]
    for s, index in zip(holes, pool, strict=False):
        hands[s] |= 1 << index
    other.hands = hands
    other.stock = state.stock[:1] + pool[len(holes) :]
    assert_every_card_once(other)
    return other


@pytest.mark.slow
@examples(50)
@given(rules=st.sampled_from(ALL_RULES), seed=st.integers(0, 2**32))
def test_view_does_not_change_when_hidden_cards_are_reshuffled(rules: Rules, seed: int) -> None:
    changed = 0

    def compare(state: GameState, rng: random.Random) -> None:
        nonlocal changed
        if rng.random() > 0.3:
            return
        for seat in range(state.players):
            other = reshuffle_hidden(state, seat, rng)
            changed += other.hands != state.hands or other.stock != state.stock
            assert observe(other, seat) == observe(state, seat)
            assert other.legal_actions(seat) == state.legal_actions(seat)
        # a watcher's view: the same whatever every hidden card is (seat -1 holds none)
        assert observe_public(reshuffle_hidden(state, -1, rng)) == observe_public(state)

    play(rules, seed, on_step=compare)
    if rules.players * 6 < rules.deck_size:  # some card is hidden from someone at the start
        assert changed


def test_reshuffle_changes_other_views() -> None:
    """The reshuffle really moves cards: the seat whose cards moved sees a different view."""
    rng = random.Random(1)
    state = new_game(Rules(players=3), 1)
    other = reshuffle_hidden(state, 0, rng)
    assert observe(other, 0) == observe(state, 0)
    assert observe(other, 1) != observe(state, 1) or observe(other, 2) != observe(state, 2)


@pytest.mark.slow
@examples(60)
@given(rules=st.sampled_from(ALL_RULES), seed=st.integers(0, 2**32))
def test_events_and_views_never_show_another_hands_cards(rules: Rules, seed: int) -> None:
    state, _ = start(rules, seed)
    rng = random.Random(seed)
    assert_events_hide_other_hands(state.opening, rules.players)
    assert_views_hide_other_hands(state)
    while not state.is_over:
        seat, action = random_move(state, rng)
        hands_before = state.hands[:]
        events = state.apply(seat, action)
        assert_events_hide_other_hands(events, rules.players)
        assert_views_hide_other_hands(state)
        for event in events:
            if isinstance(event, Drew):
                assert event.cards is not None and len(event.cards) == event.count
                for card in event.cards:
                    assert not hands_before[event.seat] >> card.index & 1
                    assert state.hands[event.seat] >> card.index & 1
