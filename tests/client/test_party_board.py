"""The party board, planned and drawn under the dummy driver from a fed party of 12
players at 3 tables: every table and every player is on it, every name inside its box
(a long one ellipsised, never clipped), at the sizes a TV, a 4K projector, a laptop and a
phone held upright have; the window shows it fed by a feed and leaves it with Esc."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from party_views import AI, LONG, PLAYERS, FedFeed, party_view, with_badges
from window import key, open_app

from client.i18n import translator
from client.screens.party.board import BoardScene, grid, plan_board
from client.screens.party.model import Stage
from client.screens.party.paint import Badge, Label, Pic, unfit
from client.ui.assets import Assets

pytestmark = pytest.mark.usefixtures("headless")

SIZES = [(1920, 1080), (3840, 2160), (1280, 720), (720, 1280)]


@pytest.fixture(scope="module")
def assets() -> Iterator[Assets]:
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((64, 64))
    yield Assets(sound=False)


def texts(plan: list[object]) -> list[Label]:
    return [item for item in plan if isinstance(item, Label)]


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("size", SIZES)
def test_every_table_and_player_is_on_the_board_and_fits(
    assets: Assets, size: tuple[int, int], language: str
) -> None:
    tr = translator(language)
    view = party_view()
    plan = plan_board(assets, tr, view, size)
    labels = texts(plan)
    assert unfit(plan) == []
    screen = pygame.Rect((0, 0), size)
    assert all(screen.contains(item.rect) for item in labels)
    shown = [item.full for item in labels]
    for table in view.tables:
        assert tr("party.table", n=table.number) in shown
    for name in PLAYERS:  # in the standings, and at a table
        assert shown.count(name) == 2, name
    for name in AI:  # at a table only: AI players are never ranked
        assert shown.count(name) == 1, name
    cut = [item for item in labels if item.text != item.full]
    assert all(item.text.endswith("…") for item in cut)
    assert {item.full for item in cut if item.full in PLAYERS} <= {LONG}
    # the cards on table 1's cloth, its trump and the stock are drawn
    table = view.tables[0].view
    assert table is not None
    cards = {item.card for item in plan if isinstance(item, Pic)}
    assert {attack for attack, _ in table.table} <= cards
    assert table.trump_card in cards


@pytest.mark.parametrize("size", SIZES)
def test_type_reads_from_across_the_room(assets: Assets, size: tuple[int, int]) -> None:
    """The standings' names are set at 4 % of the screen's height on a TV (46 px at
    1080 lines), twice the pixels on a 4K one, and no smaller than 16 px on a laptop."""
    plan = plan_board(assets, translator("en"), party_view(), size)
    names = [item for item in texts(plan) if item.full == "Anna"]
    standings_px = max(item.px for item in names)
    if size[0] > size[1]:
        assert standings_px >= round(size[1] * 0.026)
    assert standings_px >= 16


def test_the_clock_runs_and_the_night_of_time_counts_down(assets: Assets) -> None:
    tr = translator("en")
    view = party_view(round_seconds=59.0, night_left=3600.0)
    labels = [item.full for item in texts(plan_board(assets, tr, view, (1920, 1080), 2.0))]
    assert "1:01 · 59:58 left" in labels


def test_a_break_counts_down_to_the_next_round(assets: Assets) -> None:
    tr = translator("en")
    view = party_view(Stage.BETWEEN, next_in=30.0)
    labels = [item.full for item in texts(plan_board(assets, tr, view, (1920, 1080), 5.0))]
    assert "next round in 0:25" in labels


def test_an_ai_seat_says_it_is_one(assets: Assets) -> None:
    plan = plan_board(assets, translator("ru"), party_view(), (1920, 1080))
    assert [item.full for item in texts(plan)].count("ИИ") == len(AI)


def test_between_rounds_and_the_gathering_say_so(assets: Assets) -> None:
    tr = translator("en")
    seating = plan_board(assets, tr, party_view(Stage.BETWEEN), (1920, 1080))
    between = [item.full for item in texts(seating)]
    assert tr("party.seating") in between
    gathering = party_view(Stage.GATHERING, round=0)
    shown = [i.full for i in texts(plan_board(assets, tr, gathering, (1920, 1080)))]
    assert tr.plural("party.gathering", 12) in shown
    # the board cannot know who starts the night (the organiser, or the party by itself
    # once so many have joined: ``durak party --start-with``): it names nobody
    assert "The first round begins once everyone is here" in shown


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (720, 1280)])
def test_the_heading_is_whole_on_every_screen(
    assets: Assets, size: tuple[int, int], language: str
) -> None:
    """The party's name, the round and the clock, none shortened: a portrait board gives
    the name a line of its own (a third of the width cut "Friday night at Anna's")."""
    tr = translator(language)
    for view in (party_view(), party_view(Stage.GATHERING, round=0)):
        plan = texts(plan_board(assets, tr, view, size))
        top = min(item.rect.top for item in plan)
        heading = [item for item in plan if item.rect.top < top + size[1] * 0.12]
        assert view.name in [item.full for item in heading]
        assert all(item.text == item.full for item in heading)


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (720, 1280)])
def test_each_player_s_badge_is_beside_their_name(assets: Assets, size: tuple[int, int]) -> None:
    """In the standings and on the tables' plates: the badge just left of the name, on
    its line, the names still whole or ellipsised inside their boxes."""
    plan = plan_board(assets, translator("en"), with_badges(party_view()), size)
    assert unfit(plan) == []
    badges = [item for item in plan if isinstance(item, Badge)]
    seated = sum(1 for name in PLAYERS for table in party_view().tables if name in table.names)
    assert len(badges) == len(PLAYERS) + seated
    for badge in badges:
        beside = [
            item
            for item in texts(plan)
            if item.full in PLAYERS and abs(item.rect.centery - badge.at[1]) <= 2
            and 0 <= item.rect.left - badge.at[0] <= badge.diameter * 1.5
        ]  # fmt: skip
        assert beside, badge


def test_the_grid_keeps_tiles_apart_and_inside() -> None:
    area = pygame.Rect(0, 0, 1200, 900)
    for count in range(1, 9):
        tiles = grid(count, area, 20)
        assert len(tiles) == count
        assert all(area.contains(tile) for tile in tiles)
        assert not any(a.colliderect(b) for i, a in enumerate(tiles) for b in tiles[i + 1 :])


def test_the_window_shows_the_fed_board_and_esc_leaves_it(tmp_path: Path) -> None:
    app = open_app(tmp_path / "settings.json", size=(1280, 720))
    feed = FedFeed([party_view()])
    app.push(BoardScene(app, feed))
    app.step(0.02)
    board = app.stack[-1]
    assert isinstance(board, BoardScene) and board.view is not None
    frame = pygame.Surface(app.size)
    board.draw(frame)
    pygame.image.save(frame, tmp_path / "board.png")  # a frame to look at when it fails
    key(app, pygame.K_ESCAPE)
    assert app.stack[-1] is not board and feed.closed
