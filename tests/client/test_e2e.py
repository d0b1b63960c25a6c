"""End to end: a whole game against AI players, played only by posting input events to the
window, with a few screenshots saved to a temporary folder."""

from __future__ import annotations

import time
from pathlib import Path

import pygame
import pytest

from client.app import App, computer_game
from client.net.gamefile import GameFile
from client.screens.choices import levels
from client.screens.table.intent import actions_for
from client.screens.table.notices import EndScene
from client.screens.table.screen import TableScene
from client.settings import Settings
from engine import Action, Attack, Beat, Card, Pass, Take, ThrowIn, Transfer

MAX_FRAMES = 30_000  # a safety net: a game takes about a thousand


pytestmark = pytest.mark.usefixtures("headless")


def post_click(pos: tuple[float, float], finger: bool, size: tuple[int, int]) -> None:
    x, y = round(pos[0]), round(pos[1])
    if finger:
        for kind in (pygame.FINGERDOWN, pygame.FINGERUP):
            event = pygame.event.Event(
                kind,
                x=x / size[0],
                y=y / size[1],
                dx=0.0,
                dy=0.0,
                finger_id=1,
                touch_id=0,
                pressure=1.0,
            )
            pygame.event.post(event)
    else:
        pygame.event.post(
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1, touch=False)
        )
        pygame.event.post(
            pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=1, touch=False)
        )


def post_drag(start: tuple[float, float], end: tuple[float, float]) -> None:
    sx, sy, ex, ey = round(start[0]), round(start[1]), round(end[0]), round(end[1])
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(sx, sy), button=1, touch=False)
    )
    for k in range(1, 4):
        pos = (sx + (ex - sx) * k // 3, sy + (ey - sy) * k // 3)
        pygame.event.post(
            pygame.event.Event(
                pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(1, 0, 0), touch=False
            )
        )
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(ex, ey), button=1, touch=False))


def visible_point(table: TableScene, card: Card) -> tuple[float, float]:
    """A point of ``card`` in our fanned hand that the next card does not cover."""
    board = table.board
    assert board is not None
    sprite = board.cards[card]
    x, y = sprite.pose.x, sprite.pose.y - sprite.lift
    index = board.hand.index(card)
    if index + 1 < len(board.hand):
        step = board.cards[board.hand[index + 1]].pose.x - sprite.pose.x
        half = board.layout.card_w / 2
        x = x - half + max(2.0, min(step, 2 * half)) / 2
    return x, y


def choose(table: TableScene, turn: int) -> Action:
    """A legal action, mostly playing cards, sometimes taking or passing."""
    assert table.view is not None
    legal = [a for a in table.view.legal if not (isinstance(a, Attack) and len(a.cards) > 1)]
    plays = [a for a in legal if not isinstance(a, Take | Pass)]
    if plays and turn % 5 != 4:
        return plays[turn % len(plays)]
    others = [a for a in legal if isinstance(a, Take | Pass)]
    return (others or legal)[0]


def perform(app: App, table: TableScene, action: Action, turn: int) -> None:
    """Do ``action`` the way a player would: tap, click, drag or press a button."""
    board, view = table.board, table.view
    assert board is not None and view is not None
    buttons = {b.name: b.rect.center for b in table.buttons}
    if isinstance(action, Take | Pass):
        post_click(buttons["take" if isinstance(action, Take) else "pass"], turn % 2 == 0, app.size)
        return
    card = action.cards[0] if isinstance(action, Attack) else action.card  # type: ignore[union-attr]
    at = visible_point(table, card)
    options = actions_for(view, card)
    if isinstance(action, Beat) and (len(options) > 1 or turn % 3 == 0):
        target = board.cards[action.target].pose
        post_drag(at, (target.x, target.y))
    elif isinstance(action, Transfer) and len(options) > 1:
        post_click(at, False, app.size)
        app.step(0.05)
        post_click(buttons.get("transfer", at), False, app.size)
    else:
        assert isinstance(action, Attack | ThrowIn | Beat | Transfer)
        post_click(at, turn % 2 == 1, app.size)


@pytest.mark.slow
def test_a_whole_game_against_the_computer(tmp_path: Path) -> None:
    settings = Settings()
    settings.opponents = 2
    settings.animation = "fast"
    settings.levels = [levels()[0]] * 5  # the quickest thinkers
    settings.rules = dict(settings.rules, transfer=True)
    app = App(
        settings,
        None,
        size=(960, 540),
        sound=False,
        session_factory=computer_game,
        games=tmp_path / "games",
    )
    app.step(0.05)
    pygame.image.save(app.screen, tmp_path / "start.png")
    post_click((480, 0), False, app.size)  # somewhere harmless first
    play = app.stack[-1].buttons()[0].rect  # type: ignore[attr-defined]
    post_click(play.center, False, app.size)
    app.step(0.05)
    table = app.stack[-1]
    assert isinstance(table, TableScene)

    turn = frames = 0
    shots = {10: "deal.png", 250: "middle.png"}
    while not isinstance(app.stack[-1], EndScene):
        frames += 1
        assert frames < MAX_FRAMES, "the game did not end"
        app.step(0.1)
        if frames in shots:
            pygame.image.save(app.screen, tmp_path / shots[frames])
        board = table.board
        ready = table.idle and board is not None and not board.busy and table.pending is None
        if ready and table.view is not None and table.view.legal and table.over is None:
            perform(app, table, choose(table, turn), turn)
            turn += 1
        # Like the real loop (which waits for the next frame), leave the host's and the
        # network's threads time to run: a loop that never sleeps starves them of the GIL.
        time.sleep(0.001)
    app.step(0.1)
    pygame.image.save(app.screen, tmp_path / "end.png")

    assert table.over is not None and turn > 5
    result = table.over.result
    assert sorted(p for p in result.places if p) == sorted(result.places)
    assert table.over.series.games == 1
    deal = table.over.deal  # the in-process host revealed its deal, and it checked out
    assert deal is not None and deal.ok and deal.log is not None
    for _ in range(500):  # made between frames, the file is written beside them
        if app.games.paths():
            break
        app.step(0.01)
        time.sleep(0.01)
    [kept] = [GameFile.load(p) for p in app.games.paths()]  # the game is kept, with its log
    assert kept.result == result and kept.where == "computer" and kept.log is not None
    assert (kept.log.seed, kept.log.actions) == (deal.log.seed, deal.log.actions)
    assert {p.name for p in tmp_path.iterdir()} >= {"start.png", "deal.png", "end.png"}
    end = app.stack[-1]
    assert isinstance(end, EndScene)
    rematch = next(b for b in end.buttons if b.name == "rematch")
    post_click(rematch.rect.center, False, app.size)
    for _ in range(2000):  # the host answers from its own thread: give it real time
        app.step(0.1)
        if table.over is None and table.board is not None and table.board.hand:
            break
        time.sleep(0.002)
    assert table.over is None and table.board is not None and table.board.hand
    app.close()
    assert table.session.join(timeout=15)  # type: ignore[attr-defined]  # the host is gone
