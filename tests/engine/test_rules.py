"""Every rule of RULES.md, each shown by a scenario on a stacked deck.

Deals are written as text: one string of cards per seat, and the stock from the top (its
last card is the face-up trump). Unless a test says otherwise the trump is hearts and
nobody holds a heart, so seat 0 (left of the last seat, the dealer of a first game) leads.
Every refusal is checked for its reason code and for leaving the game exactly as it was.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import (
    CARDS,
    MAX_MOVES,
    REPETITION_LIMIT,
    Action,
    Attack,
    Attacked,
    Beat,
    BoutStarted,
    Card,
    Covered,
    Dealt,
    Discarded,
    Drew,
    Event,
    FirstAttacker,
    GameEnded,
    GameResult,
    GameState,
    IllegalAction,
    Pass,
    Passed,
    PickedUp,
    Reason,
    Rules,
    RulesError,
    Series,
    ShowTrump,
    Take,
    Taking,
    ThrewIn,
    ThrowIn,
    ThrowInRule,
    Transfer,
    Transferred,
    TrumpTurned,
    WentOut,
    new_game,
    observe,
)

R = Reason


def cards(text: str) -> list[Card]:
    return [Card.parse(word) for word in text.split()]


def card(text: str) -> Card:
    return Card.parse(text)


def deal(
    hands: list[str],
    stock: str = "Ah",
    *,
    trump: str | None = None,
    dealer: int | None = None,
    previous: GameResult | None = None,
    **options: Any,
) -> GameState:
    rules = Rules(players=len(hands), **options)
    return GameState.from_deal(
        rules,
        [cards(hand) for hand in hands],
        cards(stock),
        trump=card(trump) if trump else None,
        dealer=dealer,
        previous=previous,
    )


def picture(state: GameState) -> tuple[Any, ...]:
    """Everything about a game: its internals and every seat's view."""
    internals = tuple(
        list(value) if isinstance(value, list) else value
        for value in (getattr(state, name) for name in GameState.FIELDS)
    )
    return internals, tuple(observe(state, seat) for seat in range(state.players))


def refuse(state: GameState, seat: int, action: Action, reason: Reason) -> None:
    """``action`` is refused with ``reason`` by check and apply, and nothing changes."""
    before = picture(state)
    assert state.check(seat, action) is reason
    assert action not in state.legal_actions(seat)
    with pytest.raises(IllegalAction) as refusal:
        state.apply(seat, action)
    assert refusal.value.reason is reason
    assert reason.value in str(refusal.value)
    assert picture(state) == before


def play(state: GameState, *moves: tuple[int, Action]) -> list[Event]:
    """Apply legal moves (each must be listed by legal_actions); return all their events."""
    events: list[Event] = []
    for seat, action in moves:
        assert action in state.legal_actions(seat), f"seat {seat} may not {action}"
        events += state.apply(seat, action)
    return events


def attack(*text: str) -> Attack:
    return Attack.of(*text)


def beat(text: str, target: str) -> Beat:
    return Beat(card(text), card(target))


def throw(text: str) -> ThrowIn:
    return ThrowIn(card(text))


def hand(state: GameState, seat: int) -> set[Card]:
    return set(state.hand(seat))


def of(events: list[Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


# --- who attacks first ------------------------------------------------------------------------


def test_the_lowest_trump_attacks_first_and_is_shown_to_all() -> None:
    state = deal(
        ["7c 8c 9c Tc Jc Qc", "8h Kc Ac 6d 7d 8d", "7h 9d Td Jd Qd Kd"],
        stock="6s Ah",
    )
    assert (state.attacker, state.defender) == (2, 0)
    assert FirstAttacker(2, card("7h")) in state.opening
    assert TrumpTurned(card("Ah"), None) in state.opening
    for seat in (0, 1):
        assert observe(state, seat).known[2] == (card("7h"),)
        assert observe(state, seat).known[1] == ()
    # Once played, the shown trump is on the table, no longer "known in a hand".
    play(state, (2, attack("7h")))
    assert observe(state, 0).known[2] == ()


def test_without_trumps_in_hands_seat_zero_leads_a_first_game() -> None:
    state = deal(["7c 8c", "9c Tc", "Jc Qc"])
    assert state.dealer == 2
    assert (state.attacker, state.defender) == (0, 1)
    assert FirstAttacker(0, None) in state.opening


def test_without_trumps_in_hands_the_player_left_of_the_dealer_leads() -> None:
    state = deal(["7c 8c", "9c Tc", "Jc Qc", "Kc Ac"], dealer=1)
    assert (state.attacker, state.defender) == (2, 3)
    # In a series the previous Durak deals.
    previous = GameResult((1, 2, 3, 4), durak=3)
    state = deal(["7c 8c", "9c Tc", "Jc Qc", "Kc Ac"], previous=previous)
    assert state.dealer == 3
    assert (state.attacker, state.defender) == (0, 1)


def test_option_the_previous_durak_defends_first() -> None:
    hands = ["6h 8c", "9c Tc", "Jc Qc", "Kc Ac"]  # seat 0 holds the lowest trump
    previous = GameResult((1, 2, 4, 3), durak=2)
    state = deal(hands, previous=previous, durak_defends_first=True)
    assert (state.attacker, state.defender) == (1, 2)
    assert FirstAttacker(1, None) in state.opening
    assert observe(state, 1).known[0] == ()  # no trump had to be shown
    # Without the option, or after a draw, the lowest trump decides.
    assert deal(hands, previous=previous).attacker == 0
    draw = GameResult((1, 1, 1, 1), durak=None)
    assert deal(hands, previous=draw, durak_defends_first=True).attacker == 0


def test_a_series_deals_from_the_previous_durak() -> None:
    rules = Rules(players=3, durak_defends_first=True)
    first = new_game(rules, 5)
    assert first.dealer == 2
    previous = GameResult((1, 3, 2), durak=1)
    second = new_game(rules, 5, previous)
    assert second.dealer == 1
    assert (second.attacker, second.defender) == (0, 1)


def test_six_players_with_36_cards_the_last_dealt_card_shows_trump() -> None:
    for seed in range(5):
        state = new_game(Rules(players=6), seed)
        assert state.stock == []
        assert all(state.hand_size(s) == 6 for s in range(6))
        trump = Card.from_index(state.trump_card)
        # The deal starts at seat 0, so the last (36th) card goes to seat 5, the dealer.
        assert TrumpTurned(trump, 5) in state.opening
        assert trump in state.hand(5)
        assert trump.suit == state.trump
        for seat in range(5):
            view = observe(state, seat)
            assert trump in view.known[5] and view.trump_card == trump
        assert trump in observe(state, 5).hand


def test_a_trump_card_in_a_hand_stays_known_until_played() -> None:
    hands = ["6h 7c", "8c 9c", "Jc Qc", "Kc Ac", "6d 7d", "8d 9d"]
    state = deal(hands, stock="", trump="6h")
    assert TrumpTurned(card("6h"), 0) in state.opening
    assert FirstAttacker(0, card("6h")) in state.opening
    assert observe(state, 3).known[0] == (card("6h"),)
    play(state, (0, attack("6h")))
    assert observe(state, 3).known[0] == ()


# --- beating ----------------------------------------------------------------------------------

BEATING = ["6h 8c 8d 9h Kc Ks", "7c 9c 7h Th 6d Qs"]  # trump hearts; seat 0 has the 6h


@pytest.mark.parametrize(
    ("lead", "defence", "target", "reason"),
    [
        ("8c", "9c", "8c", None),  # a higher card of the same suit
        ("8c", "7h", "8c", None),  # any trump beats a non-trump
        ("9h", "Th", "9h", None),  # a higher trump
        ("8c", "7c", "8c", R.DOES_NOT_BEAT),  # lower, same suit
        ("8c", "6d", "8c", R.WRONG_SUIT),
        ("8c", "Qs", "8c", R.WRONG_SUIT),
        ("9h", "7h", "9h", R.TRUMP_BEATS_ONLY_HIGHER),
        ("9h", "Qs", "9h", R.TRUMP_BEATS_ONLY_HIGHER),
        ("8c", "9c", "8d", R.NOTHING_TO_BEAT),  # 8d is not on the table
        ("8c", "Ks", "8c", R.CARD_NOT_IN_HAND),
    ],
)
def test_beating(lead: str, defence: str, target: str, reason: Reason | None) -> None:
    state = deal(BEATING, stock="Ac Ah")
    play(state, (0, attack(lead)))
    action = beat(defence, target)
    if reason is None:
        events = play(state, (1, action))
        assert events[0] == Covered(1, card(defence), card(target))
        assert card(defence) not in state.hand(1)
        assert (
            state.table == ((card(target), card(defence)),)
            or Discarded(tuple(sorted((card(target), card(defence))))) in events
        )
    else:
        refuse(state, 1, action, reason)


def test_a_beaten_card_cannot_be_beaten_again() -> None:
    state = deal(BEATING, stock="Ac Ah")
    play(state, (0, attack("8c", "8d")), (1, beat("9c", "8c")))
    refuse(state, 1, beat("7h", "8c"), R.ALREADY_BEATEN)
    play(state, (1, beat("7h", "8d")))
    # Everything is beaten; the bout stays open because seat 0 could add its 9h.
    assert state.is_open and state.legal_actions(1) == []
    refuse(state, 1, Take(), R.ALREADY_BEATEN)
    refuse(state, 1, beat("Th", "8d"), R.ALREADY_BEATEN)


def test_the_defender_may_beat_in_any_order() -> None:
    state = deal(BEATING, stock="Ac Ah")
    play(state, (0, attack("8c", "8d")), (1, beat("7h", "8d")), (1, beat("9c", "8c")))
    assert state.table == ((card("8c"), card("9c")), (card("8d"), card("7h")))


# --- leading and throwing in ----------------------------------------------------------------

LEADS = ["8c 8d 8s Kc Qd 9d", "9c Tc Td Ts Jc Jd", "Qc Kd Js 6d 6s 7s"]


def test_the_attacker_may_lead_several_cards_of_one_rank() -> None:
    state = deal(LEADS)
    legal = state.legal_actions(0)
    eights = [a for a in legal if isinstance(a, Attack) and a.cards[0].rank == 8]
    assert len(eights) == 7  # every non-empty subset of 8c 8d 8s
    events = play(state, (0, attack("8c", "8d", "8s")))
    assert events == [Attacked(0, tuple(cards("8c 8d 8s")))]
    assert [a for a, _ in state.table] == cards("8c 8d 8s")


@pytest.mark.parametrize(
    ("lead", "reason"),
    [
        (("8c", "Kc"), R.NOT_SAME_RANK),
        (("8c", "8d", "9d"), R.NOT_SAME_RANK),
        (("8h",), R.CARD_NOT_IN_HAND),
        (("8c", "8h"), R.CARD_NOT_IN_HAND),
        (("Tc",), R.CARD_NOT_IN_HAND),  # the defender's card
    ],
)
def test_a_lead_is_refused(lead: tuple[str, ...], reason: Reason) -> None:
    refuse(deal(LEADS), 0, attack(*lead), reason)


def test_only_ranks_on_the_table_can_be_thrown_in() -> None:
    state = deal(["7c 7d 8s Kc Qd 6c", "9c 9d Tc Td Ts Jc", "9s 7s Qc Kd Js 6d"])
    play(state, (0, attack("7c")))
    refuse(state, 2, throw("9s"), R.RANK_NOT_ON_TABLE)
    refuse(state, 0, throw("8s"), R.RANK_NOT_ON_TABLE)
    events = play(state, (2, throw("7s")), (0, throw("7d")))
    assert events == [ThrewIn(2, card("7s")), ThrewIn(0, card("7d"))]
    # A defence card's rank counts too.
    play(state, (1, beat("9c", "7c")))
    play(state, (2, throw("9s")))
    refuse(state, 0, throw("8s"), R.RANK_NOT_ON_TABLE)
    assert [a for a, _ in state.table] == cards("7c 7s 7d 9s")


# --- limits -----------------------------------------------------------------------------------

LIMITS = ["7c 7d 7s 8d 8s 9s", "8c 9d Tc Td Ts Jc", "9c Jd Qd Kd Ad Qs"]


def five_attacks(**options: Any) -> GameState:
    state = deal(LIMITS, **options)
    play(
        state,
        (0, attack("7c", "7d", "7s")),
        (1, beat("8c", "7c")),
        (0, throw("8d")),
        (0, throw("8s")),
        (1, beat("9d", "7d")),
    )
    assert len(state.attacks) == 5
    return state


def test_the_first_bout_allows_five_cards() -> None:
    state = five_attacks()
    assert BoutStarted(0, 1, 5) in state.opening
    assert observe(state, 2).limit == 5
    refuse(state, 2, throw("9c"), R.TABLE_FULL)
    refuse(state, 0, throw("9s"), R.TABLE_FULL)
    assert state.legal_actions(2) == []


def test_without_first_bout_five_the_table_holds_six_and_no_more() -> None:
    state = five_attacks(first_bout_five=False)
    assert BoutStarted(0, 1, 6) in state.opening
    play(state, (2, throw("9c")))
    refuse(state, 0, throw("9s"), R.TABLE_FULL)


def test_the_limit_is_six_after_the_first_bout() -> None:
    state = deal(["7c Kd Qd Jd Td 9d", "8c 9c Tc Jc Qc Kc", "6d 6s Ks As Ad Qs"], stock="6c Ah")
    events = play(state, (0, attack("7c")), (1, beat("8c", "7c")))
    assert BoutStarted(1, 2, 6) in events
    assert state.limit == 6


def test_the_attack_never_exceeds_the_defenders_hand() -> None:
    state = deal(["7c 7d 7s 8c 8d 8s", "9c 9d"])
    assert state.limit == 2
    assert attack("7c", "7d", "7s") not in state.legal_actions(0)
    refuse(state, 0, attack("7c", "7d", "7s"), R.DEFENDER_HAND_LIMIT)
    play(state, (0, attack("7c", "7d")))
    refuse(state, 0, throw("7s"), R.DEFENDER_HAND_LIMIT)


def test_cards_may_be_thrown_in_to_a_taker_up_to_the_limit() -> None:
    state = deal(["7c 7d 7s 8c Kd Qs", "9c Tc 6d 6s Jd Js"], stock="Ac Ad Ah")
    events = play(state, (0, attack("7c")), (1, Take()))
    assert events[-1] == Taking(1)
    refuse(state, 1, beat("9c", "7c"), R.ALREADY_TAKING)
    refuse(state, 1, Take(), R.ALREADY_TAKING)
    assert state.legal_actions(0) == [throw("7d"), throw("7s"), Pass()]
    play(state, (0, throw("7d")))
    assert state.is_open  # seat 0 may still add the 7s
    events = play(state, (0, throw("7s")))  # nothing left to add: the defender picks up
    assert events[:2] == [ThrewIn(0, card("7s")), PickedUp(1, tuple(cards("7c 7d 7s")))]
    assert hand(state, 1) == set(cards("9c Tc 6d 6s Jd Js 7c 7d 7s"))
    # Everybody saw the picked-up cards: they are known to be in seat 1's hand.
    assert set(observe(state, 0).known[1]) == set(cards("7c 7d 7s"))
    # Seat 0 refilled from the stock, drawing the face-up trump last.
    assert of(events, Drew) == [Drew(0, 3, tuple(cards("Ac Ad Ah")))]
    assert (state.attacker, state.defender) == (0, 1)


def test_a_taker_with_few_cards_takes_when_the_limit_is_reached() -> None:
    state = deal(["7c 7d 7s 8c Kd Qs", "9c Tc"], stock="Ac Ad Ah")
    play(state, (0, attack("7c")), (1, Take()))
    events = play(state, (0, throw("7d")))  # two cards: the limit; the bout ends
    assert PickedUp(1, tuple(cards("7c 7d"))) in events
    assert card("7s") in state.hand(0)


# --- passing and the end of a bout ----------------------------------------------------------

PASSING = ["7c 7d Kc Qd 6c 8s", "9c Tc Td Ts Jc Jd", "9d Qc Kd Js 6d 6s"]


def test_the_bout_ends_when_all_is_beaten_and_everyone_who_may_add_has_passed() -> None:
    state = deal(PASSING, stock="Ac As Ah")
    play(state, (0, attack("7c")))
    refuse(state, 0, Pass(), R.NOT_ALL_BEATEN)
    refuse(state, 2, Pass(), R.NOT_ALL_BEATEN)
    play(state, (1, beat("9c", "7c")))
    play(state, (0, Pass()))
    assert state.is_open  # seat 2 holds a 9 and has not passed
    refuse(state, 0, Pass(), R.ALREADY_PASSED)
    play(state, (2, throw("9d")), (1, beat("Td", "9d")))
    # A new card on the table: seat 0 (holding the 7d) must pass again; seat 2 has no
    # 7, 9 or 10 left and counts as passed.
    assert state.is_open and Pass() in state.legal_actions(0)
    events = play(state, (0, Pass()))
    assert events[:2] == [Passed(0), Discarded(tuple(sorted(cards("7c 9c 9d Td"))))]
    assert state.discard == sum(c.bit for c in cards("7c 9c 9d Td"))
    # Beaten: the defender attacks next. Refill: the attacker, the others, the defender.
    assert of(events, Drew) == [
        Drew(0, 1, (card("Ac"),)),
        Drew(2, 1, (card("As"),)),
        Drew(1, 1, (card("Ah"),)),
    ]
    assert events[-1] == BoutStarted(1, 2, 6)
    # The trump card, drawn last, is public: everybody knows seat 1 holds it.
    assert observe(state, 0).known[1] == (card("Ah"),)
    assert observe(state, 2).known[1] == (card("Ah"),)
    assert state.stock == []
    assert observe(state, 0).stock_size == 0


def test_seats_that_cannot_add_count_as_passed() -> None:
    state = deal(["7c 7d Kc Qd 6c 8s", "9c Tc Td Ts Jc Jd", "Qc Kd Js 6d 6s As"])
    play(state, (0, attack("7c")), (1, beat("9c", "7c")))
    assert state.is_open
    events = play(state, (0, Pass()))  # seat 2 holds no 7 or 9
    assert Discarded(tuple(cards("7c 9c"))) in events


def test_a_bout_nobody_can_add_to_ends_with_the_last_beat() -> None:
    state = deal(["7c Kc Qd 6c 8s 8d", "9c Tc Td Ts Jc Jd", "Qc Kd Js 6d 6s As"])
    play(state, (0, attack("7c")))
    events = play(state, (1, beat("9c", "7c")))
    assert events[0] == Covered(1, card("9c"), card("7c"))
    assert Discarded(tuple(cards("7c 9c"))) in events
    assert events[-1] == BoutStarted(1, 2, 6)


def test_after_a_take_the_player_left_of_the_defender_attacks() -> None:
    state = deal(PASSING, stock="Ac As Ah")
    events = play(state, (0, attack("7c")), (1, Take()), (0, Pass()))
    assert PickedUp(1, (card("7c"),)) in events
    assert events[-1] == BoutStarted(2, 0, 6)
    assert (state.attacker, state.defender) == (2, 0)


# --- throw-in: neighbours --------------------------------------------------------------------

FOUR = ["7c 8c Kc Qd 6c 8s", "9c Tc Td Ts Jc Jd", "7d Qc Kd Js 6d 6s", "7s Ac Ad As Qs Ks"]


def test_throw_in_neighbours_lets_only_the_attacker_and_the_defenders_left_add() -> None:
    state = deal(FOUR, throw_in=ThrowInRule.NEIGHBOURS)
    play(state, (0, attack("7c")))
    assert observe(state, 3).throwers == (0, 2)
    refuse(state, 3, throw("7s"), R.NEIGHBOURS_ONLY)
    refuse(state, 3, Pass(), R.NEIGHBOURS_ONLY)
    assert state.legal_actions(3) == []
    play(state, (2, throw("7d")), (1, beat("9c", "7c")))
    assert state.legal_actions(3) == []


def test_throw_in_all_lets_every_non_defender_add() -> None:
    state = deal(FOUR)
    play(state, (0, attack("7c")))
    assert observe(state, 3).throwers == (0, 2, 3)
    play(state, (3, throw("7s")), (2, throw("7d")))


@pytest.mark.parametrize(("players", "throwers"), [(3, (0, 2)), (5, (0, 2)), (6, (0, 2))])
def test_who_may_add_under_throw_in_neighbours(players: int, throwers: tuple[int, ...]) -> None:
    state = new_game(Rules(players=players, throw_in=ThrowInRule.NEIGHBOURS), 3)
    attacker = state.attacker
    lead = state.legal_actions(attacker)[0]
    play(state, (attacker, lead))
    expected = tuple(sorted((attacker + t) % players for t in throwers))
    assert observe(state, 0).throwers == expected


# --- going out, skipping, the end -------------------------------------------------------------


def test_players_out_are_skipped_share_places_and_the_last_holder_is_the_durak() -> None:
    state = deal(["7c", "9c", "Kd", "Ad 6s"], stock="", trump="Ah")
    play(state, (0, attack("7c")))
    assert state.places == [0, 0, 0, 0]  # out only once the bout is settled
    events = play(state, (1, beat("9c", "7c")))
    assert WentOut(0, 1) in events and WentOut(1, 1) in events
    assert events[-1] == BoutStarted(2, 3, 2)  # the defender is out: left of them attacks
    refuse(state, 0, Pass(), R.PLAYER_OUT)
    refuse(state, 1, attack("7c"), R.PLAYER_OUT)
    events = play(state, (2, attack("Kd")), (3, beat("Ad", "Kd")))
    result = GameResult((1, 1, 3, 4), durak=3)
    assert events[-2:] == [WentOut(2, 3), GameEnded(result)]
    assert state.result == result and state.is_over
    assert observe(state, 0).result == result
    for seat in range(4):
        assert state.legal_actions(seat) == []
        refuse(state, seat, Take(), R.GAME_OVER)
    refuse(state, 3, attack("6s"), R.GAME_OVER)


def test_an_out_player_is_skipped_as_defender() -> None:
    state = deal(["7c 8d", "9c", "Kd Qs", "Ad 6s Js"], stock="", trump="Ah")
    events = play(state, (0, attack("7c")), (1, beat("9c", "7c")))
    assert WentOut(1, 1) in events
    assert events[-1] == BoutStarted(2, 3, 3)
    events = play(state, (2, attack("Kd")), (3, beat("Ad", "Kd")))
    # Seat 3 beat: it attacks next, and seat 0 (next after it) defends.
    assert events[-1] == BoutStarted(3, 0, 1)
    events = play(state, (3, attack("6s")), (0, Take()))
    # Seat 0 took: the next active player left of it (seat 2; seat 1 is out) attacks.
    assert events[-1] == BoutStarted(2, 3, 1)


def test_a_player_who_runs_out_mid_bout_stays_until_the_bout_is_settled() -> None:
    state = deal(["7c", "9c 9d Tc", "7d 8s"], stock="", trump="Ah")
    play(state, (0, attack("7c")))
    assert state.hand_size(0) == 0 and state.places[0] == 0
    play(state, (2, throw("7d")), (1, beat("9c", "7c")))
    assert state.is_open and state.places[0] == 0
    events = play(state, (1, beat("9d", "7d")))
    assert WentOut(0, 1) in events
    assert events[-1] == BoutStarted(1, 2, 1)
    assert state.places == [1, 0, 0]


def test_when_the_last_players_go_out_together_it_is_a_draw() -> None:
    state = deal(["7c", "9c"], stock="", trump="Ah")
    events = play(state, (0, attack("7c")), (1, beat("9c", "7c")))
    result = GameResult((1, 1), durak=None)
    assert events[-3:] == [WentOut(0, 1), WentOut(1, 1), GameEnded(result)]
    assert state.result == result and result.draw


def test_a_draw_after_someone_went_out_first() -> None:
    state = deal(["7c", "9c 8d", "Qd"], stock="", trump="Ah")
    events = play(state, (0, attack("7c")), (1, beat("9c", "7c")))
    assert WentOut(0, 1) in events and events[-1] == BoutStarted(1, 2, 1)
    events = play(state, (1, attack("8d")), (2, beat("Qd", "8d")))
    result = GameResult((1, 2, 2), durak=None)
    assert events[-3:] == [WentOut(1, 2), WentOut(2, 2), GameEnded(result)]


def test_a_player_who_empties_their_hand_but_draws_stays_in() -> None:
    # The stock has one card left: seat 0 empties its hand but draws, so it stays in.
    state = deal(["7c", "9c Tc Jc", "Kd Qs"], stock="Ah")
    events = play(state, (0, attack("7c")), (1, beat("9c", "7c")))
    assert of(events, Drew) == [Drew(0, 1, (card("Ah"),))]
    assert not of(events, WentOut) and state.places == [0, 0, 0]


# --- every game ends: repetition, the move cap, a declared draw --------------------------------


def always_take(state: GameState) -> tuple[int, Action]:
    """The defender takes (or transfers, if it may); attackers lead their lowest card and
    pass: cards go round the table and no bout is ever beaten."""
    defender = state.defender
    legal = state.legal_actions(defender)
    if legal:
        transfers = [a for a in legal if isinstance(a, Transfer)]
        return defender, transfers[0] if transfers else Take()
    for seat in range(state.players):
        legal = state.legal_actions(seat)
        if Pass() in legal:
            return seat, Pass()
        leads = [a for a in legal if isinstance(a, Attack) and len(a.cards) == 1]
        if leads:
            return seat, min(leads, key=lambda a: a.cards[0].rank)
    raise AssertionError("nobody can move")


@pytest.mark.parametrize(
    ("players", "transfer", "seed"), [(2, True, 0), (3, False, 0), (3, True, 0), (6, False, 0)]
)
def test_players_who_always_take_end_in_a_draw_by_repetition(
    players: int, transfer: bool, seed: int
) -> None:
    state = new_game(Rules(players=players, transfer=transfer), seed)
    events: list[Event] = []
    while not state.is_over:
        seat, action = always_take(state)
        events += state.apply(seat, action)
    assert state.moves < MAX_MOVES
    result = state.result
    assert result is not None and result.draw
    holding = [s for s in range(players) if state.hands[s]]
    assert len(holding) >= 2 and not of(events, Discarded)
    # The players still holding cards share the next place; those out keep theirs.
    place = 1 + sum(1 for s in range(players) if s not in holding)
    assert all(result.places[s] == place for s in holding)
    assert events[-1] == GameEnded(result)
    # The game ends with the last bout's roles, as its events told them (no next bout's).
    told = [e for e in events if isinstance(e, BoutStarted | Transferred)][-1]
    roles = (
        (told.seat, told.to) if isinstance(told, Transferred) else (told.attacker, told.defender)
    )
    assert (state.attacker, state.defender) == roles and state.taking
    # The position the next bout would have started from (the taker's left neighbour
    # attacking) had started one twice already.
    following = ((state.defender + step) % players for step in range(1, players))
    attacker = next(s for s in following if state.hands[s])
    assert state.seen.count((attacker, 6, *state.hands)) == REPETITION_LIMIT - 1
    for seat in range(players):
        assert state.legal_actions(seat) == []


def test_a_repetition_counts_only_since_the_last_discard_or_draw() -> None:
    # Each defender takes one card: the 7c and the 6d go round, and every sixth bout
    # starts from the deal's position again. Its third time ends the game. (Under "first
    # bout 5" the first bout's position differs from any later one: its limit is 5.)
    deck = ["7c 9s", "8c Ts", "6d Jd"]
    state = deal(deck, stock="", trump="Ah", first_bout_five=False)
    starts = 1  # the opening bout
    while not state.is_over:
        events = play(state, always_take(state))
        starts += len(of(events, BoutStarted))
    assert starts == 6 * (REPETITION_LIMIT - 1)
    # The deal's position came back: seat 0 would lead again, after seat 2 took from 1.
    assert hand(state, 0) == set(cards("7c 9s")) and state.taking
    assert (state.attacker, state.defender) == (1, 2)
    assert state.result == GameResult((1, 1, 1), durak=None)
    # A beaten bout starts the count afresh: nothing before it can come back.
    state = deal(["7c 9s", "8c Ts"], stock="", trump="Ah")
    play(state, (0, attack("7c")), (1, beat("8c", "7c")))
    assert state.seen == ((1, 6, card("9s").bit, card("Ts").bit),)


def test_a_game_that_reaches_the_move_cap_ends_as_a_draw_at_the_next_bout() -> None:
    state = deal(["7c 8d", "9c Qd", "Kd Qs"], stock="", trump="Ah")
    state.moves = MAX_MOVES - 2
    play(state, (0, attack("7c")))
    assert not state.is_over and state.moves == MAX_MOVES - 1
    events = play(state, (1, beat("9c", "7c")))
    assert state.moves == MAX_MOVES  # the bout is played out, then the game ends
    assert events[-1] == GameEnded(GameResult((1, 1, 1), durak=None))
    assert not of(events, BoutStarted)


def test_declare_draw_ends_the_game_at_once() -> None:
    state = deal(["7c", "9c 8d", "Qd Ks"], stock="", trump="Ah")
    play(state, (0, attack("7c")), (1, beat("9c", "7c")))
    assert state.places == [1, 0, 0]
    play(state, (1, attack("8d")))
    events = state.declare_draw()
    result = GameResult((1, 2, 2), durak=None)
    assert events == [GameEnded(result)]
    assert state.is_over and state.result == result
    assert observe(state, 2).result == result
    refuse(state, 2, beat("Qd", "8d"), R.GAME_OVER)
    with pytest.raises(ValueError, match="already over"):
        state.declare_draw()


# --- refill order ---------------------------------------------------------------------------


def test_refill_order_attacker_then_clockwise_then_defender() -> None:
    state = deal(
        ["7c 8c Kc Qd 6c 8s", "9c Tc Td Ts Jc Jd", "6h 7d Qc Kd 6d 6s", "7h Ac Ad As Qs Ks"],
        stock="9d 9s 9h 8d Th Jh Ah",
    )
    assert (state.attacker, state.defender) == (2, 3)  # seat 2 holds the 6h
    events = play(
        state,
        (2, attack("6d", "6s")),
        (3, beat("Ad", "6d")),
        (3, beat("As", "6s")),
        (0, throw("6c")),
        (3, beat("Ac", "6c")),
        (2, Pass()),  # seat 2 still holds the 6h
    )
    assert of(events, Drew) == [
        Drew(2, 2, tuple(cards("9d 9s"))),
        Drew(0, 1, tuple(cards("9h"))),
        Drew(3, 3, tuple(sorted(cards("8d Th Jh")))),
    ]
    assert state.stock_size == 1 and state.known == [0, 0, card("6h").bit, 0]
    assert events[-1] == BoutStarted(3, 0, 6)


def test_after_a_transfer_the_bouts_first_attacker_still_draws_first() -> None:
    # RULES.md: the main attacker draws first; seeds 001 and 002 say it outright for a
    # transfer ("der ursprüngliche Angreifer nimmt zuerst auf").
    state = deal(
        ["7c Kc Qd 6c 8s Jd", "7d 9c Tc Td Ts Jc", "7s 9d Qc Kd 6d 6s"],
        stock="8d 9s Ks 7h Ah",
        transfer=True,
    )
    play(state, (0, attack("7c")), (1, Transfer(card("7d"))))
    assert (state.attacker, state.defender, state.leader) == (1, 2, 0)
    events = play(
        state,
        (2, beat("Qc", "7c")),
        (2, beat("9d", "7d")),
        (0, Pass()),
        (1, Pass()),
    )
    assert of(events, Drew) == [
        Drew(0, 1, (card("8d"),)),  # who led the bout
        Drew(1, 1, (card("9s"),)),  # then clockwise: the player who transferred
        Drew(2, 2, tuple(cards("7h Ks"))),  # the defender last
    ]
    assert events[-1] == BoutStarted(2, 0, 6)


# --- transfer (Perevodnoy) --------------------------------------------------------------------

TRANSFER = ["7c Kc Qd 6c 8s Jd", "7d 9c Tc Td Ts Jc", "7s 9d Qc Kd 6d 6s"]


def test_transfers_pass_the_attack_on_and_may_repeat() -> None:
    state = deal(TRANSFER, stock="Ac Ah", transfer=True)
    play(state, (0, attack("7c")))
    refuse(state, 1, Transfer(card("Tc")), R.NOT_SAME_RANK)
    events = play(state, (1, Transfer(card("7d"))))
    assert events == [Transferred(1, card("7d"), 2, False)]
    assert (state.attacker, state.defender) == (1, 2)
    assert [a for a, d in state.table if d is None] == cards("7c 7d")
    events = play(state, (2, Transfer(card("7s"))))
    assert events == [Transferred(2, card("7s"), 0, False)]
    assert (state.attacker, state.defender) == (2, 0)
    assert state.limit == 5
    events = play(state, (0, Take()))
    assert PickedUp(0, tuple(cards("7c 7d 7s"))) in events
    # The bout's first attacker ended up defending: it draws last, the others draw
    # clockwise from it.
    assert of(events, Drew) == [Drew(1, 1, (card("Ac"),)), Drew(2, 1, (card("Ah"),))]
    assert events[-1] == BoutStarted(1, 2, 6)


def test_transfer_needs_the_next_player_to_hold_enough_cards() -> None:
    hands = ["7c Kc Qd 6c 8s Jd", "7d 9c Tc Td Ts Jc", "7s"]
    state = deal(hands, transfer=True)
    play(state, (0, attack("7c")))
    refuse(state, 1, Transfer(card("7d")), R.NEXT_PLAYER_TOO_FEW_CARDS)
    # With two cards the next player can take it; the limit is then their hand.
    state = deal([*hands[:2], "7s 9d"], transfer=True)
    play(state, (0, attack("7c")), (1, Transfer(card("7d"))))
    assert state.limit == 2
    assert observe(state, 0).limit == 2


def test_a_transfer_skips_a_player_who_went_out_during_the_bout() -> None:
    # Stock empty: seat 2 throws in its last card and is out, so seat 3 is next in play.
    state = deal(["7c 9c", "7d Kd 8s", "7s", "Qd Qs Jc Jd"], "", trump="Ah", transfer=True)
    play(state, (0, attack("7c")), (2, throw("7s")))
    events = play(state, (1, Transfer(card("7d"))))
    assert events == [Transferred(1, card("7d"), 3, False)]
    assert (state.attacker, state.defender) == (1, 3)


def test_no_transfer_when_nobody_else_is_still_in_play() -> None:
    # Stock empty, two players: the attacker leads its last card, so nobody can take it on.
    state = deal(["7c", "7d Kd 8s"], "", trump="Ah", transfer=True)
    play(state, (0, attack("7c")))
    refuse(state, 1, Transfer(card("7d")), R.NEXT_PLAYER_TOO_FEW_CARDS)


def test_no_transfer_after_a_card_is_beaten() -> None:
    state = deal(["7c 7s Qd 6c 8s Jd", "7d 9c Tc Td Ts Jc", "9d Qc Kd 6d 6s Js"], transfer=True)
    play(state, (0, attack("7c", "7s")), (1, beat("9c", "7c")))
    refuse(state, 1, Transfer(card("7d")), R.TRANSFER_AFTER_BEAT)


def test_transfer_is_refused_when_the_option_is_off() -> None:
    state = deal(TRANSFER)
    play(state, (0, attack("7c")))
    refuse(state, 1, Transfer(card("7d")), R.TRANSFER_NOT_ALLOWED)
    state = deal(["6h 7c Kc", "7h 7d 9c", "Qc Kd 6d"], transfer=True)
    play(state, (0, attack("7c")))
    refuse(state, 1, ShowTrump(card("7h")), R.TRANSFER_NOT_ALLOWED)
    play(state, (1, Transfer(card("7h"))))  # playing it is a plain transfer


SHOWING = ["6h 7c 7d Kc Qd 8s", "7h 7s 9c Tc Td Ts"]  # trump hearts; seat 0 leads


def test_transfer_by_showing_a_trump_once_per_bout() -> None:
    state = deal(SHOWING, stock="Ac Ah", transfer=True, transfer_show_trump=True)
    play(state, (0, attack("7c")))
    refuse(state, 1, ShowTrump(card("7s")), R.NOT_A_TRUMP)
    refuse(state, 1, ShowTrump(card("9c")), R.NOT_SAME_RANK)
    events = play(state, (1, ShowTrump(card("7h"))))
    assert events == [Transferred(1, card("7h"), 0, True)]
    assert card("7h") in state.hand(1)  # shown, not played
    assert state.table == ((card("7c"), None),)
    assert observe(state, 0).known[1] == (card("7h"),)
    assert (state.attacker, state.defender) == (1, 0)
    play(state, (0, Transfer(card("7d"))))
    assert state.defender == 1
    refuse(state, 1, ShowTrump(card("7h")), R.ALREADY_SHOWN)
    play(state, (1, Transfer(card("7s"))))  # a played transfer is still fine
    assert state.defender == 0 and len(state.attacks) == 3


# --- reason codes of the turn order ---------------------------------------------------------


def test_turn_order_reasons() -> None:
    state = deal(PASSING)
    refuse(state, 2, throw("9d"), R.MUST_LEAD_FIRST)
    refuse(state, 2, Pass(), R.MUST_LEAD_FIRST)
    refuse(state, 1, beat("9c", "7c"), R.MUST_LEAD_FIRST)
    refuse(state, 1, Take(), R.MUST_LEAD_FIRST)
    refuse(state, 1, attack("9c"), R.NOT_ATTACKER)
    refuse(state, 2, attack("9d"), R.NOT_YOUR_TURN)
    refuse(state, 3, attack("9d"), R.NOT_YOUR_TURN)
    refuse(state, -1, attack("9d"), R.NOT_YOUR_TURN)
    refuse(state, 0, attack("9c"), R.CARD_NOT_IN_HAND)
    play(state, (0, attack("7c")))
    refuse(state, 0, attack("7d"), R.BOUT_IN_PROGRESS)
    refuse(state, 0, beat("Kc", "7c"), R.NOT_DEFENDER)
    refuse(state, 2, Take(), R.NOT_DEFENDER)
    refuse(state, 2, Transfer(card("9d")), R.NOT_DEFENDER)
    refuse(state, 1, throw("9c"), R.NOT_ATTACKER)
    refuse(state, 1, Pass(), R.NOT_ATTACKER)
    refuse(state, 1, beat("Kd", "7c"), R.CARD_NOT_IN_HAND)
    refuse(state, 2, throw("7c"), R.CARD_NOT_IN_HAND)


def test_every_reason_has_a_code_and_a_text() -> None:
    for reason in Reason:
        assert reason.value == reason.name.lower()
        assert reason.text.endswith(".") and len(reason.text) > 10
    required = (
        "not_your_turn not_defender not_attacker rank_not_on_table table_full "
        "defender_hand_limit does_not_beat wrong_suit trump_beats_only_higher already_beaten "
        "nothing_to_beat transfer_not_allowed transfer_after_beat next_player_too_few_cards "
        "card_not_in_hand game_over must_lead_first not_same_rank neighbours_only"
    )
    assert set(required.split()) <= {r.value for r in Reason}


def test_the_view_explains_each_card_that_cannot_be_played() -> None:
    state = deal(PASSING)
    play(state, (0, attack("7c")))
    defender = observe(state, 1)
    assert defender.hint(card("9c")) is None and defender.hint(card("Tc")) is None
    assert defender.hint(card("Td")) is R.WRONG_SUIT
    assert card("9c") not in dict(defender.hints)
    thrower = observe(state, 2)
    assert thrower.hint(card("9d")) is R.RANK_NOT_ON_TABLE
    assert observe(state, 0).hint(card("7d")) is None
    assert state.card_reason(1, card("Kd")) is R.CARD_NOT_IN_HAND


# --- decks and impossible rules ---------------------------------------------------------------


@pytest.mark.parametrize(("players", "deck", "low"), [(2, 24, 9), (4, 24, 9), (3, 52, 2)])
def test_other_decks(players: int, deck: int, low: int) -> None:
    state = new_game(Rules(players=players, deck_size=deck), 11)
    everything = [*(c for s in range(players) for c in state.hand(s))]
    everything += [Card.from_index(i) for i in state.stock]
    assert len(everything) == deck == len(set(everything))
    assert min(c.rank for c in everything) == low
    assert state.stock_size == deck - 6 * players
    if state.stock:
        assert state.stock[0] == state.trump_card  # drawn last
    else:
        assert TrumpTurned(Card.from_index(state.trump_card), players - 1) in state.opening


def test_a_stacked_deal_must_fit_the_deck() -> None:
    with pytest.raises(ValueError, match="24-card deck"):
        deal(["6c 9c", "Tc Jc"], deck_size=24)
    with pytest.raises(ValueError, match="twice"):
        deal(["9c Tc", "9c Jc"])
    with pytest.raises(ValueError, match="trump"):
        deal(["9c", "Tc"], stock="")
    state = deal(["2c 3c", "4c 5c"], stock="Kd 2h", deck_size=52)
    play(state, (0, attack("2c")), (1, beat("4c", "2c")))
    assert observe(state, 0).discard_size == 2


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 5, "deck_size": 24}, "24-card deck cannot deal 6 cards to 5 players"),
        ({"players": 6, "deck_size": 24}, "at most 4"),
        ({"players": 7}, "2 to 6 players, not 7"),
        ({"players": 1}, "2 to 6 players, not 1"),
        ({"deck_size": 40}, "24, 36 or 52 cards, not 40"),
        ({"transfer_show_trump": True}, "needs the transfer variant"),
    ],
)
def test_rules_that_cannot_be_played_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules(**options)


def test_rules_from_a_mapping() -> None:
    rules = Rules(players=4, deck_size=52, throw_in=ThrowInRule.NEIGHBOURS, transfer=True)
    assert Rules.from_dict(rules.to_dict()) == rules
    with pytest.raises(RulesError, match="unknown rules option"):
        Rules.from_dict({"players": 2, "jokers": True})
    with pytest.raises(RulesError, match="'players' must be int"):
        Rules.from_dict({"players": "2"})
    with pytest.raises(RulesError, match="'transfer' must be bool"):
        Rules.from_dict({"transfer": 1})
    with pytest.raises(RulesError, match="cannot deal"):
        Rules.from_dict({"players": 5, "deck_size": 24})
    with pytest.raises(RulesError):
        Rules.from_dict({"throw_in": "everybody"})


# --- the deal and the series ---------------------------------------------------------------


def test_new_game_is_reproducible_and_deals_six_each() -> None:
    rules = Rules(players=4)
    a, b = new_game(rules, 42), new_game(rules, 42)
    assert a.hands == b.hands and a.stock == b.stock
    assert new_game(rules, 43).hands != a.hands
    assert all(a.hand_size(s) == 6 for s in range(4))
    assert a.stock[0] == a.trump_card
    dealt = of(list(a.opening), Dealt)
    assert [d.seat for d in dealt] == [0, 1, 2, 3]
    assert all(set(d.cards) == set(a.hand(d.seat)) for d in dealt)


@pytest.mark.parametrize("deck_size", [24, 36, 52])
def test_a_seed_deals_the_deck_in_the_order_random_shuffles_it(deck_size: int) -> None:
    # The seed's meaning: random.Random(seed).shuffle of the deck, dealt from its end one
    # card at a time from the dealer's left, the next card turned under the stock. Seeded
    # games and saved logs keep their deals whatever loop new_game shuffles with.
    rules = Rules(players=2, deck_size=deck_size)
    for seed in range(40):
        deck = [card for card in CARDS if card.rank >= 15 - deck_size // 4]
        random.Random(seed).shuffle(deck)
        order = deck[::-1]
        state = new_game(rules, seed)
        assert state.hand(0) == tuple(sorted(order[0:12:2]))  # seat 1 deals
        assert state.hand(1) == tuple(sorted(order[1:12:2]))
        assert [CARDS[i] for i in reversed(state.stock)] == [*order[13:], order[12]]


def test_the_series_tally() -> None:
    series = Series.new(3)
    series = series.record(GameResult((1, 2, 3), durak=2))
    assert (series.wins, series.losses, series.games, series.draws) == ((1, 0, 0), (0, 0, 1), 1, 0)
    series = series.record(GameResult((1, 3, 1), durak=1))  # two went out first together
    assert (series.wins, series.losses) == ((2, 0, 1), (0, 1, 1))
    series = series.record(GameResult((1, 2, 2), durak=None))  # the last two together: draw
    assert (series.wins, series.losses, series.draws) == ((3, 0, 1), (0, 1, 1), 1)
    series = series.record(GameResult((1, 1, 1), durak=None))  # everybody at once
    assert (series.wins, series.losses, series.games, series.draws) == ((3, 0, 1), (0, 1, 1), 4, 2)
    assert series.last == GameResult((1, 1, 1), durak=None)
    with pytest.raises(ValueError, match="different number of players"):
        series.record(GameResult((1, 2), durak=1))


def test_a_played_series_keeps_score_and_the_durak_defends_first() -> None:
    rules = Rules(players=3, durak_defends_first=True)
    series = Series.new(3)
    previous: GameResult | None = None
    rng = random.Random(7)
    for game in range(4):
        state = new_game(rules, game, previous)
        if previous is not None and previous.durak is not None:
            assert state.defender == previous.durak
            assert state.attacker == (previous.durak - 1) % 3
        while not state.is_over:
            moves = [(s, a) for s in range(3) for a in state.legal_actions(s)]
            seat, action = moves[rng.randrange(len(moves))]
            state.apply(seat, action)
        assert state.result is not None
        series = series.record(state.result)
        previous = state.result
    assert series.games == 4
    assert sum(series.losses) == 4 - series.draws
    assert sum(series.wins) >= 4 - series.draws
