"""The coach's reasons: each is read from a position built for it (the trump spent with
higher trumps still out, a take that fills the hand, a beat that a take would have
saved, a suit the defender has shown he lacks, a high card given away, and the sampled
deals when nothing plainer holds), and a flagged move of a real review carries one."""

from __future__ import annotations

from engine import Attack, Card, GameState, Rules, observe, parse_action
from engine.ai.coach import Decision, review_decision
from engine.ai.reasons import SHOWN, Why, WhyCode, explain
from engine.cards import deck_mask, mask_of

HEADS_UP = Rules(players=2)


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def card(text: str) -> Card:
    return Card.parse(text)


def dealt() -> GameState:
    """Seat 0 to lead with 6d 9s Ks As 7c 9c (clubs trump: the Qc at the bottom)."""
    return GameState.from_deal(
        HEADS_UP,
        [cards("6d 9s Ks As 7c 9c"), cards("6h 7h 8h 6s 7s 8s")],
        cards("Th Jh Qh Kh Ah 9h 9d Td Jd Qd Kd Ad 6c 8c Tc Jc Kc Ac Ts Js Qs 7d 8d Qc"),
        dealer=1,
    )


def defending() -> GameState:
    """Seat 1 faces the 6d led by seat 0 (its 6c the lowest trump dealt), and may beat it
    with the 9d or the 7c (clubs trump)."""
    state = GameState.from_deal(
        HEADS_UP,
        [cards("6d 9s Ks As 6c 9h"), cards("9d 7c Th Jh Qh 8s")],
        cards("Kh Ah 6h 8h 7h Td Jd Qd Kd Ad 8c Tc Jc Kc Ac Ts Js Qs 7d 8d 6s 7s 9c Qc"),
        dealer=1,
    )
    state.apply(0, Attack((card("6d"),)))
    return state


def why(state: GameState, seat: int, played: str, best: str, **options: object) -> Why:
    view = observe(state, seat)
    return explain(
        view,
        0,
        parse_action(played),
        parse_action(best),
        method=str(options.get("method", "samples")),
        loss=0.1,
        samples=48,
        weights=options.get("weights", ()),  # type: ignore[arg-type]
    )


def test_spending_a_trump_while_higher_ones_are_out_says_keep_the_trump() -> None:
    said = why(dealt(), 0, "attack 9c", "attack 6d")
    # clubs above the nine still out: T J Q K A (the Qc is the face-up card under the stock)
    assert said == Why(WhyCode.KEEP_TRUMP, card("9c"), count=5, stock=24)


def test_a_lower_trump_is_no_reason_to_keep_the_higher_one_the_best_move_spends() -> None:
    said = why(dealt(), 0, "attack 7c", "attack 9c")
    assert said.code is not WhyCode.KEEP_TRUMP


def test_taking_where_beating_was_better_counts_the_cards_taken_and_the_stock() -> None:
    assert why(defending(), 1, "take", "beat 6d with 9d") == Why(
        WhyCode.TAKE_COSTS, count=1, stock=24
    )


def test_beating_where_taking_was_better_counts_the_cards_that_may_still_come() -> None:
    said = why(defending(), 1, "beat 6d with 9d", "take")
    assert said == Why(WhyCode.TAKE_INSTEAD, card("9d"), count=4)  # the first bout holds 5


def test_a_suit_the_defender_has_shown_he_lacks_is_named_for_the_lead() -> None:
    state = dealt()
    weights = [[1.0] * 52 for _ in range(2)]
    low = SHOWN / 2
    for higher in cards("Ts Js Qs"):  # the spades above the nine still out
        weights[1][higher.index] = low
    said = why(state, 0, "attack 6d", "attack 9s", weights=weights)
    assert said == Why(WhyCode.NO_HIGHER, card("9s"), seat=1)
    weights[1][card("Js").index] = 1.0  # one higher spade he may still hold: no such reason
    assert why(state, 0, "attack 6d", "attack 9s", weights=weights).code is not WhyCode.NO_HIGHER


def test_giving_away_a_high_card_counts_the_cards_still_out_that_beat_it() -> None:
    said = why(dealt(), 0, "attack As", "attack 6d")
    # only clubs beat the ace of spades: 6 8 T J Q K A still out
    assert said == Why(WhyCode.KEEP_HIGH, card("As"), count=7)


def test_with_nothing_plainer_the_reason_is_the_sampled_deals() -> None:
    state = defending()
    state.apply(1, parse_action("beat 6d with 9d"))
    said = why(state, 0, "pass", "throw 9s")
    assert said == Why(WhyCode.SAMPLES, count=5, samples=48)  # 0.1 of 48 deals


def test_a_solved_ending_says_it_was_counted_out_and_a_real_flag_carries_it() -> None:
    state = GameState.from_deal(
        HEADS_UP, [cards("Th 9c Js"), cards("9h Ac 8h")], [], trump=card("8c")
    )
    seen = deck_mask(36) & ~mask_of(state.hand(0)) & ~mask_of(state.hand(1))
    verdict = review_decision(Decision(0, observe(state, 0), seen, 5, parse_action("attack Th")))
    assert verdict.costly and verdict.why == Why(WhyCode.SOLVED)
    fine = review_decision(Decision(0, observe(state, 0), seen, 5, verdict.best))
    assert not fine.costly and fine.why is None
    assert why(state, 0, "attack Th", "attack Js", method="solver") == Why(WhyCode.SOLVED)
