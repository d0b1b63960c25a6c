"""The review's list as a player uses it: it opens at the first move and stays there while
the verdicts come in; each flagged line has its reason under it in the window's
language; the wheel, a drag of the lines and the scroll bar move it (a drag opens
nothing); a tap on a line opens the replay paused just before that move, and Esc comes
back to the list where it was; every line fits at every window shape."""

from __future__ import annotations

import random
from pathlib import Path

import pygame
import pytest
from scripted_review import ScriptedJob, scripted_verdicts
from window import key, open_app, until

from client.app import App
from client.i18n import translator
from client.net.gamefile import GameFile, steps_from_log
from client.review import ReviewJob, decisions, verdict_text, why_text
from client.screens.review import ReviewScene
from client.screens.table import replay as replay_module
from client.screens.table.hand import cards_of
from client.screens.table.replay import ReplayScene
from client.ui.pointer import Pointer
from client.ui.render import GOLD
from engine import GameLog, Pass, Rules, Take
from engine.ai import next_actor
from engine.ai.hard import policy_action
from engine.ai.reasons import WhyCode

pytestmark = pytest.mark.usefixtures("headless")


def careless_game() -> GameFile:
    """Four seats, seat 0 (the file's) playing at random: a review with flagged moves."""
    log = GameLog(Rules(players=4), 74)
    state = log.start()
    rng = random.Random(74)
    while (actor := next_actor(state)) is not None:
        seat, legal = actor
        action = (
            legal[rng.randrange(len(legal))] if seat == 0 else policy_action(state, seat, legal)
        )
        state.apply(seat, action)
        log.actions.append((seat, action))
    steps = steps_from_log(log, 0)
    names = ("Ann", "Boris", "Vera", "Igor")
    return GameFile(
        log.rules, 0, names, steps, state.result, "2026-12-01T10:00:00Z", "computer", log
    )


GAME = careless_game()


VERDICTS = scripted_verdicts(decisions(GAME))  # every sentence a verdict is said in


@pytest.fixture
def finished() -> ReviewJob:
    """The review of the game, every verdict in (scripted: tests/client/scripted_review.py)."""
    job = ScriptedJob(VERDICTS)
    job.join()
    return job


def reviewed(
    tmp_path: Path, job: ReviewJob | None = None, language: str = "en"
) -> tuple[App, ReviewScene]:
    app = open_app(tmp_path / "settings.json", language=language)
    review = ReviewScene(app, game=GAME, job=job)
    app.push(review)
    app.step(0.02)
    return app, review


def test_flagged_lines_carry_their_reason_and_the_list_opens_at_the_top(tmp_path: Path) -> None:
    app, review = reviewed(tmp_path, ScriptedJob(VERDICTS))
    tops = []
    assert review.job is not None
    job = review.job

    def done() -> bool:
        tops.append(review.offset)
        return job.done

    until(app, done, frames=20_000)
    assert len(tops) > 1 and set(tops) == {0}  # at the first move as the verdicts came in
    rows = review.rows()
    assert rows and rows[0].verdict.decision.number == review.job.verdicts[0].decision.number
    flagged = [r for r in rows if r.verdict.costly]
    assert flagged and all(r.verdict.why is not None and r.reason for r in flagged)
    assert all(not r.reason for r in rows if not r.verdict.costly)
    tr = translator("en")
    for row in flagged:
        assert row.verdict.why is not None
        assert " ".join(row.reason) == why_text(row.verdict.why, tr, GAME.names)
    assert review.most() > 0  # more lines than the panel shows: there is something to scroll


def test_the_reasons_are_said_in_the_windows_language(tmp_path: Path, finished: ReviewJob) -> None:
    _, review = reviewed(tmp_path, finished, "ru")
    en = translator("en")
    for row in (r for r in review.rows() if r.reason):
        assert row.verdict.why is not None
        assert " ".join(row.reason) != why_text(row.verdict.why, en, GAME.names)
        assert " ".join(row.text) == verdict_text(row.verdict, translator("ru"))


def test_the_wheel_a_drag_and_the_bar_scroll_the_list_and_open_nothing(
    tmp_path: Path, finished: ReviewJob
) -> None:
    app, review = reviewed(tmp_path, finished)
    area, lh = review.area(), review.line_h()
    review.handle(Pointer("step", area.center, step=-1))  # the wheel turned down
    assert review.offset == 3 * lh
    review.handle(Pointer("step", area.center, step=1))
    assert review.offset == 0
    review.handle(Pointer("step", (5, 5), step=-1))  # outside the list: nothing moves
    assert review.offset == 0
    x, y = area.center
    review.handle(Pointer("down", (x, y)))
    review.handle(Pointer("move", (x, y - 60)))
    review.handle(Pointer("up", (x, y - 60)))
    assert review.offset == 60 and app.stack[-1] is review  # a drag, not a tap
    thumb = review.thumb()
    assert thumb is not None and thumb.top > review.bar().top  # the thumb moved down too
    review.handle(Pointer("down", thumb.center))
    review.handle(Pointer("move", (thumb.centerx, review.bar().bottom + 200)))
    review.handle(Pointer("up", (thumb.centerx, review.bar().bottom + 200)))
    assert review.offset == review.most()  # the thumb dragged to the end
    review.handle(Pointer("down", (thumb.centerx, review.bar().top + 2)))  # the track above
    review.handle(Pointer("up", (thumb.centerx, review.bar().top + 2)))
    assert review.offset == review.most() - review.area().h  # a page back
    key(app, pygame.K_HOME)
    assert review.offset == 0
    key(app, pygame.K_END)
    assert review.offset == review.most()


def test_a_tap_on_a_line_opens_the_replay_just_before_that_move(
    tmp_path: Path, finished: ReviewJob
) -> None:
    app, review = reviewed(tmp_path, finished)
    row = next(r for r in review.rows() if r.verdict.costly and r.top > review.area().h)
    review.scroll_to(row.top)
    at = (review.area().centerx, review.area().top + row.top - review.offset + 4)
    assert review.row_at(at) is row
    review.handle(Pointer("down", at))
    review.handle(Pointer("up", at))
    replay = app.stack[-1]
    assert isinstance(replay, ReplayScene) and replay.replay is not None
    number = row.verdict.decision.number
    assert replay.shown == number + 1 and not replay.playing
    table = replay.table
    assert table is not None
    until(app, lambda: table.view is not None, dt=0.05)  # once the card images are made
    assert table.view == replay.replay.view_at(number + 1) and replay.shown == number + 1
    assert replay.replay.view_at(number + 1) is not None
    for _ in range(20):
        app.step(0.05)
    assert replay.shown == number + 1  # it waits there for the player
    # the coach's words on that move are there, and the better move's cards are ringed
    said, ringed = drawn(replay, app)
    coach = " ".join((*row.text, *row.reason))
    assert " ".join(line for line in said if line in coach).split() == coach.split()
    better = cards_of(row.verdict.best)
    assert len(ringed) >= len(better) and (better or row.verdict.best in (Take(), Pass()))
    key(app, pygame.K_RIGHT)  # a move on: the advice was for the move before
    said, ringed = drawn(replay, app)
    assert not [line for line in said if line and line in coach] and not ringed
    pygame.image.save(app.screen, tmp_path / "advice.png")
    offset = review.offset
    key(app, pygame.K_ESCAPE)
    assert app.stack[-1] is review and review.offset == offset


def drawn(replay: ReplayScene, app: App) -> tuple[list[str], list[pygame.Rect]]:
    """The words the replay draws over its table, and the gold rings it draws."""
    said: list[str] = []
    ringed: list[pygame.Rect] = []
    text, rect = replay_module.draw_text, pygame.draw.rect

    def say(surface, assets, words, *args, **kwargs):  # type: ignore[no-untyped-def]
        said.append(words)
        return text(surface, assets, words, *args, **kwargs)

    def ring(surface, colour, where, *args, **kwargs):  # type: ignore[no-untyped-def]
        if colour == GOLD:
            ringed.append(pygame.Rect(where))
        return rect(surface, colour, where, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(replay_module, "draw_text", say)
        patch.setattr(pygame.draw, "rect", ring)
        replay.draw(app.screen)
    return said, ringed


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_line_fits_at_every_window_shape(
    tmp_path: Path, finished: ReviewJob, language: str
) -> None:
    app, review = reviewed(tmp_path, finished, language)
    reasons = {r.verdict.why.code for r in review.rows() if r.verdict.why is not None}
    assert reasons == set(WhyCode)  # every kind of line is measured, the longest among them
    for size in ((1280, 720), (1920, 1080), (720, 1280)):
        review.resize(size)
        area, panel, bar = review.area(), review.panel(), review.bar()
        assert panel.contains(area) and panel.contains(bar) and bar.left >= area.right
        assert area.bottom <= panel.bottom - review.note_h()
        text_font = app.assets.font(review.text_px(), True)
        reason_font = app.assets.font(review.reason_px())
        for row in review.rows():
            assert 1 <= len(row.text) <= 2 and len(row.reason) <= 2
            assert all(text_font.size(line)[0] <= area.w - 78 for line in row.text)
            assert all(reason_font.size(line)[0] <= area.w - 78 for line in row.reason)
        review.draw(pygame.Surface(size))
        for row in review.rows():  # a chance and where it would have gone stay on one line
            assert all(line.count("%") == 2 for line in row.text if "→" in line), row.text


@pytest.mark.parametrize("language", ["en", "de", "nl", "ru"])
def test_a_costly_take_with_the_stock_gone_says_why_it_costs(language: str) -> None:
    """'Taking adds 1 card to your hand, and the stock is empty.' was true and explained
    nothing: with no card left to draw, each card taken is one more to get rid of."""
    from engine.ai.reasons import Why, WhyCode

    tr = translator(language)
    for n in (1, 3):
        said = why_text(Why(WhyCode.TAKE_COSTS, count=n), tr)
        assert str(n) in said
        assert said != tr.plural("coach.take_costs", n, stock=0)
    english = why_text(Why(WhyCode.TAKE_COSTS, count=3), translator("en"))
    assert english.endswith("leaves you 3 more to get rid of before you are out.")


@pytest.mark.parametrize("language", ["en", "de", "nl", "ru"])
def test_the_footnote_names_the_estimate_s_level_and_the_play_it_assumes(language: str) -> None:
    """The estimates are the Hard computer's, with everyone playing on as Normal does
    (``engine.ai.coach``): the footnote says both, as the README says Hard."""
    tr = translator(language)
    said = tr("review.assumes")
    assert tr("level.hard") in said and tr("level.normal") in said
