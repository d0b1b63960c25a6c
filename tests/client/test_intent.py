"""What taps, drops and the Transfer button mean, from a seat's view alone."""

from __future__ import annotations

from client.screens.table.board import deck_of
from client.screens.table.intent import (
    Choose,
    Play,
    Say,
    actions_for,
    on_drop,
    on_tap,
    on_transfer_button,
)
from engine import Attack, Beat, Card, GameState, Rules, SeatView, Transfer, observe


def view_after(rules: Rules, hands: list[str], *moves: tuple[int, str], seat: int = 0) -> SeatView:
    """Seat ``seat``'s view of a stacked deal (trump: K of spades) after ``moves``."""
    dealt = [[Card.parse(c) for c in hand.split()] for hand in hands]
    used = {c for hand in dealt for c in hand} | {Card.parse("Ks")}
    stock = [c for c in deck_of(rules) if c not in used] + [Card.parse("Ks")]
    state = GameState.from_deal(rules, dealt, stock)
    for who, text in moves:
        words = text.split()
        cards = [Card.parse(w) for w in words[1:]]
        action = Attack(tuple(cards)) if words[0] == "attack" else Beat(cards[0], cards[1])
        state.apply(who, action)
    return observe(state, seat)


DEFEND = ["7h 9h Ts 8d Jc Qc", "6s 6h 6d 8c Qd Kh"]


def c(text: str) -> Card:
    return Card.parse(text)


def test_a_card_with_one_use_is_played_by_a_tap() -> None:
    view = view_after(Rules(), DEFEND, (1, "attack 6h"))
    assert on_tap(view, c("9h"), hints=True) == Play(Beat(c("9h"), c("6h")))


def test_a_card_with_two_targets_is_chosen_first() -> None:
    view = view_after(Rules(), DEFEND, (1, "attack 6h 6d"))
    intent = on_tap(view, c("Ts"), hints=True)
    assert isinstance(intent, Choose) and intent.card == c("Ts")
    assert {a.target for a in actions_for(view, c("Ts")) if isinstance(a, Beat)} == {
        c("6h"),
        c("6d"),
    }


def test_a_dimmed_card_explains_itself_only_with_hints_on() -> None:
    view = view_after(Rules(), DEFEND, (1, "attack 6h"))
    reason = view.hint(c("Jc"))
    assert reason is not None
    assert on_tap(view, c("Jc"), hints=True) == Say(reason.text)
    assert on_tap(view, c("Jc"), hints=False) == Say("")


def test_drops() -> None:
    view = view_after(Rules(), DEFEND, (1, "attack 6h 6d"))
    assert on_drop(view, c("Ts"), c("6d"), on_table=True) == Play(Beat(c("Ts"), c("6d")))
    assert on_drop(view, c("Ts"), None, on_table=False) == Say("")
    assert on_drop(view, c("Ts"), None, on_table=True) == Say(
        "Drop it on the card you want to beat."
    )
    assert on_drop(view, c("9h"), None, on_table=True) == Play(Beat(c("9h"), c("6h")))
    attacker = view_after(Rules(), DEFEND, seat=1)
    assert on_drop(attacker, c("6d"), None, on_table=True) == Play(Attack((c("6d"),)))


def test_the_transfer_button() -> None:
    rules = Rules(players=3, transfer=True)
    hands = ["7d 7c Ts 8d Jc Qc", "8c 9c Tc Td Jd Qh", "6s 7h 6h Qd Kh 9d"]
    view = view_after(rules, hands, (2, "attack 7h"))
    assert isinstance(on_transfer_button(view, None), Choose)  # 7d or 7c: which one?
    assert on_transfer_button(view, c("7c")) == Play(Transfer(c("7c")))
    assert on_tap(view, c("7d"), hints=True, transferring=True) == Play(Transfer(c("7d")))
    assert on_transfer_button(view, None, show=True) == Say("")  # no show-trump rule
