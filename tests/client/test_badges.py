"""What the table marks on our hand and on the seats follows the game: the keys name the
same cards for a whole bout, no key is drawn on a card in flight, a seat with no cards is
not labelled as attacking, and "You take" goes when the bout does."""

from __future__ import annotations

import pygame
import pytest
from tables import deal, scene, settle, start
from window import key

from client.screens.table import draw
from client.screens.table.board import Board
from client.screens.table.draw import role_of
from client.screens.table.layout import Layout
from engine import Attack, Beat, Card, Dealt, Pass, Rules, Take, ThrowIn

pytestmark = pytest.mark.usefixtures("headless")

DIGIT_KEYS = (*range(pygame.K_1, pygame.K_9 + 1), pygame.K_0)
# Boris holds the lowest trump (6s) and leads; we defend
DEFEND = ("8h Tc Jc Qd Kd Ah", "6s 7h 7c 9d Ts Js")


def c(text: str) -> Card:
    return Card.parse(text)


def test_the_keys_name_the_same_cards_until_the_bout_ends() -> None:
    app, session = start(deal(Rules(), *DEFEND))
    table = scene(app)
    session.play(1, Attack.of("7h"))
    settle(app)
    numbers = dict(table.choice.numbers)
    assert sorted(numbers.values()) == list(range(6))
    key(app, DIGIT_KEYS[numbers[c("8h")]])
    settle(app)
    assert session.sent == [Beat(c("8h"), c("7h"))]
    session.play(1, ThrowIn(c("7c")))
    settle(app)
    later = max((card for card in numbers if card.suit == c("Tc").suit), key=numbers.get)
    key(app, DIGIT_KEYS[numbers[later]])  # the club numbered highest when the bout began
    settle(app)
    assert session.sent[-1] == Beat(later, c("7c"))
    assert all(table.choice.numbers[k] == numbers[k] for k in table.choice.numbers)
    key(app, DIGIT_KEYS[numbers[c("8h")]])  # played: its key names nothing now
    assert len(session.sent) == 2


def test_the_keys_are_given_again_when_the_next_bout_begins() -> None:
    app, session = start(deal(Rules(), *DEFEND))
    table = scene(app)
    session.play(1, Attack.of("7h"))
    settle(app)
    key(app, DIGIT_KEYS[table.choice.numbers[c("8h")]])
    settle(app)
    session.play(1, Pass())  # beaten: we lead the next bout with what we hold
    settle(app)
    board = table.board
    assert board is not None and not board.table
    assert table.choice.numbers == {card: i for i, card in enumerate(board.hand)}


def test_no_key_is_drawn_on_a_card_still_flying_to_the_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = Rules(players=2, deck_size=36)
    board = Board(Layout((1280, 720), 2, 0), 0, rules)
    board.apply(Dealt(0, 6, tuple(Card.parse(t) for t in ["6h", "7h", "8h", "9h", "Th", "Jh"])))
    drawn: list[str] = []
    monkeypatch.setattr(
        draw, "rounded_box", lambda surface, assets, rect, *a, **k: drawn.append("badge")
    )
    surface = pygame.display.set_mode((1280, 720))
    from client.ui.assets import Assets

    assets = Assets(sound=False)
    numbers = {card: i for i, card in enumerate(board.hand)}
    draw.draw_digits(surface, assets, board, numbers)
    assert drawn == []  # all six still in the stock or on their way
    for _ in range(200):
        board.update(0.05)
    draw.draw_digits(surface, assets, board, numbers)
    assert len(drawn) == 6


def test_a_seat_that_led_its_last_card_is_not_labelled_attacking() -> None:
    board = Board(Layout((1280, 720), 3, 0), 0, Rules(players=3))
    board.attacker, board.defender = 1, 2
    board.counts = [6, 1, 6]
    assert role_of(board, 1) == "attacking"
    board.counts = [6, 0, 6]
    assert role_of(board, 1) is None
    assert role_of(board, 2) == "defending"


def test_you_take_goes_when_the_bout_is_over() -> None:
    app, session = start(deal(Rules(), *DEFEND))
    table = scene(app)
    session.play(1, Attack.of("7h"))
    settle(app)
    table.send(Take())
    settle(app, dt=0.02)
    assert any("You take" in text for text, *_ in table.cues.toasts)
    session.play(1, Pass())  # nothing more thrown in: we pick the card up
    for _ in range(200):
        app.step(0.02)
        if not table.board.table:  # type: ignore[union-attr]
            break
    assert not table.board.table  # type: ignore[union-attr]
    app.step(0.02)
    assert not any("You take" in text for text, *_ in table.cues.toasts)
