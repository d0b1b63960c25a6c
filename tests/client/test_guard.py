"""Input aimed at a bout or a role that has just ended is not applied to the next: a key
pressed late for the last bout lands while the table shows a new one (issue 42: "4"
meant to throw J♠ in beat Igor's new attack). For a moment after the bout or our role
changes, cards and the buttons that answer the table take nothing, and the prompt
flashes; within one bout nothing is held."""

from __future__ import annotations

import pygame
import pytest
from tables import deal, scene, settle, start
from window import key

from client.screens.table.guard import FLASH, HOLD, Guard
from engine import Attack, Beat, Card, Pass, Rules, Take

pytestmark = pytest.mark.usefixtures("headless")

DEFEND = ("7h 9h Ts 8d Jc Qc", "6s 6h 6d 8c Qd Kh")  # they hold the lowest trump: they lead


ATTACK = ("6s 7h 8h 9d Tc Jc", "7s 8c 9h Td Qd Kh")  # we lead; spades are trump


def next_bout(app, session) -> None:  # type: ignore[no-untyped-def]
    """We lead 7♥, Boris beats it, we pass; Boris leads 8♣ against us: the table shows
    it in small frames, the hold still on as the card lands."""
    session.send(Attack.of("7h"))
    settle(app)
    session.play(1, Beat(Card.parse("9h"), Card.parse("7h")))
    settle(app)
    session.send(Pass())
    settle(app)
    session.play(1, Attack.of("8c"))
    table, spent = scene(app), 0.0
    while not (table.idle and table.board is not None and not table.board.busy):
        app.step(0.02)
        spent += 0.02
        assert spent < 10, "the table never came to rest"


def test_a_key_pressed_as_a_new_bout_shows_plays_nothing_until_the_hold_ends() -> None:
    app, session = start(deal(Rules(), *ATTACK))
    next_bout(app, session)
    table = scene(app)
    assert table.guard.holding  # (the card lands in less than the hold)
    sent = len(session.sent)
    digit = pygame.K_1 + table.choice.numbers[Card.parse("6s")]
    key(app, digit)  # meant for the bout before: taken by nothing
    assert len(session.sent) == sent
    assert table.guard.flash() > 0  # the new prompt flashes
    app.step(HOLD)
    key(app, digit)
    assert session.sent[sent:] == [Beat(Card.parse("6s"), Card.parse("8c"))]


def test_take_pressed_as_a_new_bout_shows_takes_nothing() -> None:
    app, session = start(deal(Rules(), *ATTACK))
    next_bout(app, session)
    table = scene(app)
    sent = len(session.sent)
    table.press_button("take")
    assert len(session.sent) == sent
    app.step(HOLD)
    table.press_button("take")
    assert session.sent[sent:] == [Take()]


def test_within_one_bout_nothing_is_held() -> None:
    """Boris throws in while we defend: the same bout, the same role, no hold."""
    app, session = start(deal(Rules(), *DEFEND))
    table = scene(app)
    session.play(1, Attack.of("6h"))
    settle(app)
    app.step(HOLD)
    key(app, pygame.K_0 + table.choice.numbers[Card.parse("7h")] + 1)
    settle(app, dt=0.02)
    assert not table.guard.holding


def test_the_guard_holds_then_lets_go_and_the_flash_fades() -> None:
    guard = Guard()
    guard.see((1, False, "attacking"))  # the deal: nothing came before it
    assert not guard.holding
    guard.see((1, True, "defending"))
    assert guard.holding and guard.flash() == 1.0
    guard.update(HOLD / 2)
    guard.see((1, True, "defending"))  # the same: no new hold
    assert guard.holding
    guard.update(HOLD / 2)
    assert not guard.holding
    guard.update(FLASH)
    assert guard.flash() == 0.0 and guard.next_frame() == float("inf")
    guard.see((2, False, None))
    assert guard.holding and guard.next_frame() == 0.0


def test_the_keys_are_numbered_again_once_the_bout_is_swept() -> None:
    """Within a bout a card played leaves its number unused (the others keep theirs, so
    that keys pressed in a row mean what was shown); once the bout is swept the hand is
    numbered 1, 2, 3... again, without waiting for cards drawn (there are none here)."""
    from engine import GameState

    app, session = start(GameState.from_text(NO_STOCK))
    table = scene(app)
    lead = table.choice.numbers[Card.parse("7h")]
    key(app, pygame.K_1 + lead)  # we lead 7♥ by its key
    assert session.sent == [Attack.of("7h")]
    settle(app)
    assert lead not in table.choice.numbers.values()  # (a gap while the bout is on)
    session.play(1, Beat(Card.parse("9h"), Card.parse("7h")))
    settle(app)
    session.send(Pass())
    session.play(1, Attack.of("8c"))  # Boris leads at once, before the sweep is shown
    settle(app)
    assert table.board is not None and len(table.board.table) == 1
    assert sorted(table.choice.numbers.values()) == list(range(len(table.board.hand)))


def test_the_keys_are_numbered_again_as_the_sweep_shows_not_with_the_next_view() -> None:
    """The table shows the bout swept: the keys are 1, 2, 3... from that frame on, not
    only once the next view is shown (the draws after a bout take seconds, and the keys
    showed the bout's gap, 1-3, 5, 6, meanwhile)."""
    from engine import GameState

    app, session = start(GameState.from_text(NO_STOCK))
    table = scene(app)
    key(app, pygame.K_1 + table.choice.numbers[Card.parse("7h")])
    settle(app)
    session.play(1, Beat(Card.parse("9h"), Card.parse("7h")))
    settle(app)
    session.send(Pass())
    board = table.board
    assert board is not None
    for _ in range(200):
        app.step(0.05)
        if not board.table:
            break
    assert not board.table and table.view is not None and table.view.table  # (not shown yet)
    assert sorted(table.choice.numbers.values()) == list(range(len(board.hand)))


NO_STOCK = (
    "rules=36 hands=TcJc9d7h8h6s*/8cTdQd9hKh7s stock=- trump=Ks table=- "
    "discard=6c7c9cQcKcAc6d7d8dJdKdAd6hThJhQhAh8s9sTsJsQsAsKs attacker=0 defender=1 "
    "leader=0 dealer=1 phase=lead cap=5 held=6 taking=no passed=- shown=- throwers=0 "
    "places=0,0 result=- moves=0 seen=0:5:TcJc9d7h8h6s/8cTdQd9hKh7s"
)
