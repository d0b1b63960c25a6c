"""The card images made ahead of need: the table waits for the ones it cannot be drawn
without, and makes the rest a few at a time (a fake clock counts jobs, not time)."""

from __future__ import annotations

import pytest
from tables import deal, scene, start

from client.app import App
from client.net.scripted import ScriptedSession
from client.screens.table.draw import at_rest
from client.screens.table.layout import OPPONENT_SCALE, PILE_SCALE, Layout
from client.screens.table.warm import BUDGET, LOOKS_AHEAD, Warmer
from client.settings import Settings
from engine import Rules, parse_action

pytestmark = pytest.mark.usefixtures("headless")


class Ticks:
    """A clock that moves on a little more than half the budget each time it is read:
    ``Warmer.run`` makes exactly one image per call."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += BUDGET * 0.6
        return self.now


def test_the_backs_the_table_needs_come_first_then_every_face() -> None:
    app = App(Settings(), None, size=(1920, 1080), sound=False)
    rules = Rules(players=6, deck_size=52)
    layout = Layout(app.size, 6, 0)
    warmer = Warmer(app.assets, Ticks())
    warmer.prepare(layout, rules)
    assert not warmer.ready
    made = 0
    while not warmer.ready:
        made += warmer.run()
    assert made == 4  # a back at each of the three sizes, and the trump's crosswise
    for scale in (1.0, PILE_SCALE, OPPONENT_SCALE):
        back = app.assets.card(None, round(layout.card_h * scale))
        assert app.assets.card(None, round(layout.card_h * scale)) is back  # (cached)
    left = len(warmer.jobs)
    assert left >= 52 * 3  # each face in three looks, then the fans
    while warmer.jobs:
        assert warmer.run() == 1
    assert warmer.run() == 0


def test_the_table_shows_nothing_until_its_backs_are_made() -> None:
    state = deal(Rules(players=2, deck_size=24), "9s Ts Js Qs As 9h", "9c Tc Jc Qc Ac 9d")
    session = ScriptedSession(state, names=["You", "Boris"])
    app = App(Settings(), None, sound=False, session_factory=lambda r, s: session)
    app.start_game(state.rules)
    table = scene(app)
    table.warmer.clock = Ticks()
    app.step(0.02)  # Seated: the board, and the jobs
    assert table.board is not None and not table.warmer.ready
    while not table.warmer.ready:
        assert not table.board.hand  # the deal waits
        app.step(0.02)
    for _ in range(3):
        app.step(0.02)
    assert table.board.hand  # and then it is dealt


def test_the_hand_is_made_as_it_will_rest_while_its_cards_still_fly() -> None:
    """A card led re-fans the rest of our hand: each card will rest at a new angle, and
    turning an image costs; so while they fly, the images they will rest as are made, in
    every look our hand may show when they land (the turn may change with them)."""
    state = deal(Rules(players=2, deck_size=24), "9s Ts Js Qs As 9h", "9c Tc Jc Qc Ac 9d")
    app, _ = start(state)
    table = scene(app)
    board = table.board
    assert board is not None and table.view is not None
    table.send(next(a for a in table.view.legal if a == parse_action("attack Ts")))
    app.step(0.02)  # the lead is shown: the cards left take off for their new places
    flying = [board.cards[c] for c in board.hand if board.cards[c].moving]
    assert len(flying) == 5
    resting = [at_rest(board.layout, sprite) for sprite in flying]
    wanted = [(*rest, look) for rest in resting if rest is not None for look in LOOKS_AHEAD]
    assert len(wanted) == 5 * len(LOOKS_AHEAD)

    def made() -> list[bool]:
        return [app.assets.made(card, h, look, angle) for card, h, angle, look in wanted]

    assert not all(made())  # (new angles: a re-fanned hand)
    table.warmer.run(budget=10.0)  # (what the frames in flight make, a few at a time)
    assert all(sprite.moving for sprite in flying)  # not landed yet
    assert all(made())
