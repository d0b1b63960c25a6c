"""A table a person can follow: another seat's action is shown long enough to be seen, the
seat says what it did, a finished bout stays a moment before it is swept away, and a seat
the table waits for shows that it is thinking. The window is stepped with synthetic
frames: every time here is the time those frames add up to, never the wall clock."""

from __future__ import annotations

import pytest
from test_table import deal, scene, settle, start

from client.app import App
from client.screens.table.board import SWEEP_AFTER
from client.screens.table.pacing import READING, THINK_DELAY
from client.settings import Settings
from engine import Attack, Attacked, Beat, Card, Pass, Rules

pytestmark = pytest.mark.usefixtures("headless")

FRAME = 0.02
# seat 1 (Boris) holds the lowest trump and attacks seat 2 (Vera); we watch from seat 0
WATCH = ("7h 9h Ts 8d Jc Qc", "6s 6h 6d 8c Qd Kh", "7s 9c Td Jd Qh Ah")


def watching(settings: Settings | None = None) -> App:
    app, session = start(deal(Rules(players=3), *WATCH), settings)
    assert session.state.attacker == 1 and session.state.defender == 2
    return app


def frames_until(app: App, done: object, limit: int = 600) -> int:
    """Synthetic frames stepped until ``done()`` holds."""
    for frame in range(limit):
        if done():  # type: ignore[operator]
            return frame
        app.step(FRAME)
    raise AssertionError("never happened")


@pytest.mark.parametrize("animation", ["slow", "normal", "fast"])
def test_an_opponents_answer_waits_until_their_lead_could_be_read(animation: str) -> None:
    settings = Settings(animation=animation)
    app = watching(settings)
    table = scene(app)
    session = table.session
    session.play(1, Attack.of("6h"))  # type: ignore[attr-defined]
    session.play(2, Beat(Card.parse("7s"), Card.parse("6h")))  # type: ignore[attr-defined]
    frames_until(app, lambda: table.note_shown(1) is not None)
    assert table.note_shown(1) == "leads"
    board = table.board
    assert board is not None
    waited = frames_until(app, lambda: board.table and board.table[0][1] is not None)
    assert waited * FRAME >= READING[Attacked] / settings.speed - FRAME
    assert table.note_shown(2) == "beats"
    assert [line.kind for line in table.history.lines[-2:]] == ["led", "beat"]


def test_a_beaten_bout_stays_on_the_table_a_moment_before_the_sweep() -> None:
    app = watching()
    table = scene(app)
    session = table.session
    session.play(1, Attack.of("6h"))  # type: ignore[attr-defined]
    session.play(2, Beat(Card.parse("7s"), Card.parse("6h")))  # type: ignore[attr-defined]
    settle(app)
    board = table.board
    assert board is not None
    at = {c: board.cards[c].pose for c in (Card.parse("6h"), Card.parse("7s"))}
    session.play(0, Pass())  # type: ignore[attr-defined]
    session.play(1, Pass())  # type: ignore[attr-defined]  # the bout is beaten
    frames_until(app, lambda: board.discard > 0)
    assert not board.table  # in the model the bout is over ...
    still = frames_until(
        app, lambda: any(board.cards[c].pose != at[c] for c in at if c in board.cards)
    )
    assert still * FRAME >= SWEEP_AFTER["beaten"] - 2 * FRAME  # ... on the cloth it stays
    settle(app)
    assert board.discard == 2 and all(c not in board.cards for c in at)


def test_a_seat_the_table_waits_for_shows_it_is_thinking_after_a_moment() -> None:
    app = watching()
    table = scene(app)
    session = table.session
    session.play(1, Attack.of("6h"))  # type: ignore[attr-defined]
    asked = frames_until(app, lambda: table.deciding == (2,))  # Vera must answer the lead
    assert table.thinking() == ()  # not at once ...
    shown = frames_until(app, lambda: table.thinking() == (2,))
    assert asked > 0 and shown * FRAME >= THINK_DELAY - FRAME  # ... after a moment
    app.step(FRAME)  # draws the cue
    session.play(2, Beat(Card.parse("7s"), Card.parse("6h")))  # type: ignore[attr-defined]
    app.step(FRAME)
    assert 2 not in table.thinking()  # she answered: no more thinking
    settle(app)
    assert table.history.current is not None
    assert table.history.current.pairs == [(Card.parse("6h"), Card.parse("7s"))]


def test_our_own_actions_are_not_held_back() -> None:
    """Our lead's snapshot (which lets the defender's answer come) is not delayed to be read."""
    app, session = start(deal(Rules(), "6s 7h 8h 9d Tc Jc", "7s 8c 9h Td Qd Kh"))
    table = scene(app)
    table.send(Attack.of("7h"))
    session.play(1, Beat(Card.parse("9h"), Card.parse("7h")))
    board = table.board
    assert board is not None
    waited = frames_until(app, lambda: board.table and board.table[0][1] is not None)
    assert waited * FRAME < READING[Attacked]
