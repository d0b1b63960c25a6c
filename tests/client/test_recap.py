"""What the last bout did stays said until our next decision: at a table of six a whole
bout can come and go between two of our moves, and the tags of who played what vanish
once a defender takes (issue 42: "Vera took 3: 9♦ 10♠ J♣")."""

from __future__ import annotations

import pygame
import pytest
from tables import deal, scene, settle, start
from window import key

from client.i18n import translator
from client.screens.table.guard import HOLD
from client.screens.table.history import Bout
from client.screens.table.narrate import recap_text
from engine import Attack, Beat, Card, Pass, Rules

pytestmark = pytest.mark.usefixtures("headless")

NAMES = ("You", "Boris", "Vera")


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def test_a_take_names_every_card_picked_up_and_a_beaten_bout_its_attacks() -> None:
    nine, ten, jack, queen = cards("9d Ts Jc Qs")
    taken = Bout(4, 1, 2, [(nine, ten), (jack, None)], "taken", 2)
    assert recap_text(taken, NAMES) == "Vera took 3: 9♦ 10♠ J♣"
    assert recap_text(taken, NAMES, me=2) == "You took 3: 9♦ 10♠ J♣"
    beaten = Bout(5, 0, 1, [(nine, queen)], "beaten")
    assert recap_text(beaten, NAMES) == "Boris beat off 1: 9♦"
    assert recap_text(beaten, NAMES, translator("ru")) == "Boris отбивает 1: 9♦"
    assert recap_text(Bout(6, 0, 1, [(nine, None)]), NAMES) == ""  # still on


def test_the_last_bout_is_said_until_our_next_decision() -> None:
    app, session = start(deal(Rules(), "6s 7h 8h 9d Tc Jc", "7s 8c 9h Td Qd Kh"))
    table = scene(app)
    session.send(Attack.of("7h"))
    settle(app)
    assert table.recap is None
    session.play(1, Beat(Card.parse("9h"), Card.parse("7h")))
    session.send(Pass())
    settle(app)
    assert table.recap is not None
    said = recap_text(table.recap, table.names, app.tr, table.seat)
    assert said == "Boris beat off 1: 7♥"
    session.play(1, Attack.of("8c"))  # the next bout: still said while we decide
    settle(app)
    app.step(HOLD)
    assert table.recap is not None
    key(app, pygame.K_1 + table.choice.numbers[Card.parse("6s")])  # we beat 8♣
    assert table.recap is None
