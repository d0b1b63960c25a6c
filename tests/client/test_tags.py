"""Who played each card: a tag on the card that stays while the bout is on, and "you" for
our own moves in the log as on the table."""

from __future__ import annotations

import pytest
from tables import deal, scene, settle, start

from client.i18n import translator
from client.screens.table.history import History, Line
from client.screens.table.narrate import line_text
from client.screens.table.tags import tags
from engine import Attack, Beat, BoutStarted, Card, Pass, Rules, ThrowIn

pytestmark = pytest.mark.usefixtures("headless")

# Boris (seat 1) holds the lowest trump and leads against Vera (seat 2); we may throw in
THREE = ("7c 9h Qd Kd Ah Jc", "6s 7h 8d Ts Js Qc", "8h 9c Tc Td Jd 9d")


def c(text: str) -> Card:
    return Card.parse(text)


def test_each_card_of_the_bout_names_who_played_it_until_the_bout_ends() -> None:
    app, session = start(deal(Rules(players=3), *THREE))
    table = scene(app)
    session.play(1, Attack.of("7h"))
    settle(app)
    table.send(ThrowIn(c("7c")))
    settle(app)
    session.play(2, Beat(c("8h"), c("7h")))
    settle(app)
    board = table.board
    assert board is not None
    assert tags(board, table.names) == [("Boris", False), ("Vera", True), ("You", False)]
    session.play(2, Beat(c("9c"), c("7c")))
    session.play(1, Pass())
    session.play(0, Pass())  # beaten: the bout is swept away
    settle(app)
    assert not board.table and tags(board, table.names) == []


def test_a_card_in_flight_has_no_tag_yet() -> None:
    app, session = start(deal(Rules(players=3), *THREE))
    table = scene(app)
    session.play(1, Attack.of("7h"))
    for _ in range(50):
        app.step(0.01)
        board = table.board
        if board is not None and board.table:
            break
    assert board is not None and board.table and board.landing
    assert tags(board, table.names) == []


def test_our_own_lines_in_the_log_say_you() -> None:
    names = ("Player", "Igor")
    history = History(2)
    history.add(BoutStarted(1, 0, 6))
    line = history.lines[-1]
    en, ru = translator("en"), translator("ru")
    assert line_text(line, names, en, me=0) == "Bout 1: Igor attacks you"
    assert line_text(line, names, en, me=1) == "Bout 1: you attack Player"
    assert line_text(line, names, en) == "Bout 1: Igor attacks Player"  # a watcher's
    took = Line("took", 0, n=3)
    assert line_text(took, names, en, me=0) == "You take 3 cards"
    assert line_text(took, names, ru, me=0) == "Ты забираешь 3 карты"
    assert line_text(Line("beat", 1, cards=(c("8h"), c("7h"))), names, en, me=0) == (
        "Igor beats 7♥ with 8♥"
    )
