"""Past games and replays in the window: a kept game is listed, watched on the table with
the bar's controls (posted clicks and keys, a synthetic dt), its hands shown from the
log; a corrupt file is reported and skipped; a game against the computer is kept; the
review says what its percentages assume, in every language, at every window shape."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pygame
import pytest
from games import played_log, told
from scripted_review import ScriptedJob, scripted_verdicts
from window import click, key, open_app, open_from_menu, until

import client.review
from client.i18n import CATALOGUES, LANGUAGES
from client.net.gamefile import GameFile, GameRecorder, GameStore
from client.net.replay import Replay, ReplaySession
from client.net.session import GameOver, Happened, Seated, Snapshot
from client.review import decisions
from client.screens import past as past_module
from client.screens.past import PastScene, summary_lines
from client.screens.review import ReviewScene
from client.screens.table.replay import ReplayScene
from client.ui import render
from engine import Rules
from engine.ai.coach import review_decision

pytestmark = pytest.mark.usefixtures("headless")


def keep(folder: Path, seed: int, *, with_log: bool) -> None:
    log = played_log(Rules(players=3), seed)
    recorder = GameRecorder(GameStore(folder), "computer", (lambda: [log]) if with_log else None)
    for message in told(log, 0, ("Ann", "Boris", "Vera")):
        recorder.take(message)


def button(scene: PastScene | ReplayScene, name: str) -> tuple[int, int]:
    return next(b.rect.center for b in scene.buttons() if b.name == name)


def test_a_kept_game_is_listed_and_watched_with_the_controls(tmp_path: Path) -> None:
    app = open_app(tmp_path / "settings.json")
    keep(app.games.folder, 3, with_log=True)
    (app.games.folder / "game-0-broken.durakgame").write_bytes(b"not a game")
    past = open_from_menu(app, "past", PastScene)
    assert len(past.listing.games) == 1 and len(past.listing.problems) == 1
    click(app, button(past, "watch:0"))
    replay = app.stack[-1]
    assert isinstance(replay, ReplayScene) and replay.table is not None
    until(app, lambda: replay.shown >= 4, dt=0.05)  # it plays by itself
    click(app, button(replay, "play"))  # pause
    paused = replay.shown
    for _ in range(50):
        app.step(0.05)
    assert replay.shown == paused
    key(app, pygame.K_RIGHT)
    assert replay.shown == paused + 1
    key(app, pygame.K_LEFT)
    key(app, pygame.K_LEFT)
    assert replay.shown == paused - 1
    assert replay.table.view == replay.replay.view_at(paused - 1)  # the table is there
    key(app, pygame.K_DOWN)  # the next bout
    assert replay.replay.bout_at(replay.shown) == replay.replay.bout_at(paused - 1) + 1
    assert replay.table.board is not None and not replay.table.board.table  # at its start
    key(app, pygame.K_a)
    assert replay.all_hands
    key(app, pygame.K_END)
    until(app, lambda: replay.table is not None and replay.table.over is not None, dt=0.05)
    assert replay.table.view is not None and replay.table.view.legal == ()  # nothing to play
    key(app, pygame.K_ESCAPE)
    assert app.stack[-1] is past


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (720, 1280)])
def test_a_kept_games_details_are_shown_whole_and_clear_of_its_buttons(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int], language: str
) -> None:
    """Upright, the details beside the buttons were cut to "2026-12-01 10:00 · Against th…"."""
    drawn: list[tuple[str, pygame.Rect]] = []

    def spy(surface, assets, text, *args, **kwargs):  # type: ignore[no-untyped-def]
        drawn.append((text, render.draw_text(surface, assets, text, *args, **kwargs)))
        return drawn[-1][1]

    monkeypatch.setattr(past_module, "draw_text", spy)
    app = open_app(tmp_path / "settings.json", size=size, language=language)
    keep(app.games.folder, 3, with_log=True)
    past = open_from_menu(app, "past", PastScene)
    drawn.clear()
    app.step(0.02)
    (row, _, game), buttons = past.rows()[0], past.buttons()[:2]
    details = summary_lines(game, app.tr)[1]
    shown = [rect for text, rect in drawn if text == details]
    assert len(shown) == 1 and row.contains(shown[0])
    assert not any(shown[0].colliderect(b.rect) for b in buttons)
    app.close()


def test_a_game_without_its_log_has_no_all_hands(tmp_path: Path) -> None:
    app = open_app(tmp_path / "settings.json")
    keep(app.games.folder, 4, with_log=False)
    past = open_from_menu(app, "past", PastScene)
    click(app, button(past, "watch:0"))
    replay = app.stack[-1]
    assert isinstance(replay, ReplayScene)
    assert "hands" not in [b.name for b in replay.buttons()]


def test_the_review_fills_in_while_frames_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real job, its worker process and all, on a budget of two sampled deals a move
    (the coach's own 48 took 9 s here; its verdicts are tested in tests/engine)."""
    monkeypatch.setattr(client.review, "review_decision", partial(review_decision, samples=2))
    app = open_app(tmp_path / "settings.json")
    keep(app.games.folder, 5, with_log=True)
    past = open_from_menu(app, "past", PastScene)
    click(app, button(past, "review:0"))
    review = app.stack[-1]
    assert isinstance(review, ReviewScene) and review.job is not None
    frames = app.frames
    until(app, lambda: review.job is not None and review.job.done, frames=20_000)
    assert app.frames > frames  # the window kept drawing while the coach worked
    assert len(review.job.verdicts) == review.job.total > 0


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_review_says_in_words_what_its_percentages_assume(
    tmp_path: Path, language: str
) -> None:
    """The note under the verdicts is the catalogue's own sentence (a translation, not the
    English fallback) and fits inside the panel, below the lines, at every window shape."""
    app = open_app(tmp_path / "settings.json", language=language)
    keep(app.games.folder, 5, with_log=True)
    path = GameStore(app.games.folder).paths()[0]
    job = ScriptedJob(scripted_verdicts(decisions(GameFile.load(path))))
    review = ReviewScene(app, path, job=job)  # the coach's worker is not what is tested
    app.push(review)
    said = CATALOGUES[language]["review.assumes"]
    assert language == "en" or said != CATALOGUES["en"]["review.assumes"]
    for size in ((1280, 720), (1920, 1080), (720, 1280)):
        review.resize(size)
        panel = review.panel()
        px, note = review.note()
        assert " ".join(note) == said and px >= 11
        assert all(app.assets.font(px).size(line)[0] <= panel.w - 40 for line in note)
        verdicts_end = panel.top + 10 + review.lines() * review.line_h()
        assert verdicts_end <= panel.bottom - review.note_h() and review.lines() >= 8
        review.draw(pygame.Surface(size))
    app.pop()


def test_bouts_step_to_their_starts_and_the_session_tells_the_steps(tmp_path: Path) -> None:
    keep(tmp_path, 6, with_log=True)
    game = GameFile.load(GameStore(tmp_path).paths()[0])
    replay = Replay(game)
    assert replay.hands is not None and len(replay.hands) == len(replay)
    second = replay.bouts[1] + 1  # the second bout's first step shown
    assert replay.bout_start(second, -1) == replay.bouts[0] + 1  # back: the bout before
    assert replay.bout_start(second + 1, -1) == second  # from its middle: its own start
    assert replay.bout_start(second, 1) == replay.bouts[2] + 1
    session = ReplaySession(replay)
    told = session.seek(second)
    assert isinstance(told[0], Seated) and isinstance(told[1], Snapshot)
    assert told[1].view.hand == replay.steps[second - 1].view.hand  # type: ignore[union-attr]
    assert session.advance()
    happened, snapshot = session.inbox.get_nowait(), session.inbox.get_nowait()
    assert isinstance(happened, Happened) and happened.events == replay.steps[second].events
    assert isinstance(snapshot, Snapshot) and snapshot.view.legal == ()
    session.seek(len(replay) - 1)
    assert session.advance() and not session.advance()
    assert any(isinstance(m, GameOver) for m in [session.inbox.get_nowait() for _ in range(3)])


def test_a_replay_shows_no_thinking_and_no_react(tmp_path: Path) -> None:
    app = open_app(tmp_path / "settings.json")
    keep(app.games.folder, 3, with_log=True)
    past = open_from_menu(app, "past", PastScene)
    click(app, button(past, "watch:0"))
    replay = app.stack[-1]
    assert isinstance(replay, ReplayScene) and replay.table is not None
    click(app, button(replay, "play"))  # paused: a live table would now show a seat thinking
    for _ in range(60):
        app.step(0.05)
    table = replay.table
    assert table.thinking() == ()
    names = {b.name for b in table.buttons}
    assert "emote" not in names and "menu" in names and "sound" in names
    key(app, pygame.K_e)  # the picker's key opens nothing
    assert app.stack[-1] is replay
