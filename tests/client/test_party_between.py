"""Each player's window between a party's rounds, fed by a fake party feed: it shows the
standings of 12 and where the player goes next, takes them to their table by itself,
and brings them back to the standings after the game, ready for the next call."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pygame
import pytest
from party_views import PLAYERS, FedFeed, party_view
from window import click, key, open_app, until

from client.app import App
from client.net.scripted import ScriptedSession
from client.net.session import Closed, RoomChanged
from client.screens.party.between import GO_AFTER, BetweenScene, Homing
from client.screens.party.model import Stage, TableCall
from client.screens.party.paint import Label, unfit
from client.screens.party.ranking import ME
from client.screens.table.hud import end_lines
from client.screens.table.notices import ClosedScene, EndScene
from client.screens.table.screen import TableScene
from engine import Rules, Series, new_game
from protocol import Room, SeatInfo

pytestmark = pytest.mark.usefixtures("headless")


def call(round_number: int, table: int, sessions: list[ScriptedSession]) -> TableCall:
    """A call to a table of 4 whose game is a scripted one, kept in ``sessions``."""

    def join() -> ScriptedSession:
        names = ["Vera", "Anna", "Oleg", "Boris"]
        sessions.append(ScriptedSession(new_game(Rules(players=4), round_number), names=names))
        return sessions[-1]

    return TableCall(round_number, table, ("Anna", "Oleg", "Boris"), join)


def between(
    tmp_path: Path, feed: FedFeed, size: tuple[int, int] = (1280, 720)
) -> tuple[App, BetweenScene]:
    app = open_app(tmp_path / "settings.json", size=size, language="en")
    scene = BetweenScene(app, feed, "Vera")
    app.push(scene)
    app.step(0.02)
    return app, scene


def labels(scene: BetweenScene) -> list[Label]:
    return [item for item in scene.plan() if isinstance(item, Label)]


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (720, 1280)])
def test_the_standings_and_the_next_table_show_and_fit(
    tmp_path: Path, size: tuple[int, int], language: str
) -> None:
    feed = FedFeed([party_view(Stage.BETWEEN, me="Vera")])
    feed.calls.append(call(3, 2, []))
    app, scene = between(tmp_path, feed, size)
    app.settings.language = language
    shown = labels(scene)
    assert unfit(scene.plan()) == []
    full = [item.full for item in shown]
    assert all(name in full for name in PLAYERS)
    if language == "en":
        assert "Round 3: table 2 with Anna, Oleg and Boris" in full
    else:
        assert "Раунд 3: стол 2, с тобой Anna, Oleg и Boris" in full  # noqa: RUF001
    assert [item.colour for item in shown if item.full == "Vera"] == [ME]  # our own row
    for item in shown:  # a name too long for its box is shortened, never cut
        cut = item.text.removesuffix("…")
        assert item.text == item.full or (cut != item.text and item.full.startswith(cut))
    frame = pygame.Surface(size)
    scene.draw(frame)  # a frame to look at when it fails
    pygame.image.save(frame, tmp_path / f"between_{size[0]}x{size[1]}_{language}.png")


def test_it_goes_to_the_table_by_itself_and_back_after_the_game(tmp_path: Path) -> None:
    sessions: list[ScriptedSession] = []
    feed = FedFeed([party_view(Stage.BETWEEN, me="Vera")])
    feed.calls.append(call(2, 1, sessions))
    app, scene = between(tmp_path, feed)
    app.step(GO_AFTER / 2)
    assert app.stack[-1] is scene and not sessions  # still reading where to go
    until(app, lambda: bool(sessions), dt=0.5)
    table, homing = app.stack[-2:]
    assert isinstance(table, TableScene) and isinstance(homing, Homing)
    assert table.session is sessions[0]
    sessions[0].draw()  # the game ends (as a draw)
    until(app, lambda: scene.played != [], dt=0.1)
    assert app.stack[-1] is not scene  # the end of the game shows a while
    until(app, lambda: app.stack[-1] is scene, dt=0.5)
    assert sessions[0].closed  # off the table: its session is closed
    feed.calls.append(call(3, 2, sessions))  # the next round: the next table
    until(app, lambda: len(sessions) == 2, dt=0.5)
    assert isinstance(app.stack[-2], TableScene) and app.stack[-2].session is sessions[1]


def test_go_now_goes_at_once_and_leaving_the_table_comes_back(tmp_path: Path) -> None:
    sessions: list[ScriptedSession] = []
    feed = FedFeed([party_view(Stage.BETWEEN, me="Vera")])
    feed.calls.append(call(2, 1, sessions))
    app, scene = between(tmp_path, feed)
    go = next(b for b in scene.buttons() if b.name == "go")
    click(app, go.rect.center)
    assert len(sessions) == 1 and isinstance(app.stack[-1], Homing)
    table = app.stack[-2]
    assert isinstance(table, TableScene)
    table._quit()  # the player leaves the table (its pause's Leave)
    app.step(0.02)
    assert app.stack[-1] is scene and scene.homing is None


def test_a_party_game_s_end_offers_no_rematch(tmp_path: Path) -> None:
    """The party seats the next round itself: the end of a party's game offers no Rematch
    (its panel, the table's row once the panel is hidden, its keys). The panel's own
    buttons work under the overlay that takes the player home (it hands them the input),
    which still does so after."""
    sessions: list[ScriptedSession] = []
    feed = FedFeed([party_view(Stage.BETWEEN, me="Vera")])
    feed.calls.append(call(2, 1, sessions))
    app, scene = between(tmp_path, feed)
    click(app, next(b for b in scene.buttons() if b.name == "go").rect.center)
    table = app.stack[-2]
    assert isinstance(table, TableScene)
    sessions[0].draw()  # the game ends (as a draw)
    ends = lambda: [s for s in app.stack if isinstance(s, EndScene)]  # noqa: E731
    until(app, lambda: bool(ends()), dt=0.1)
    [end] = ends()
    assert table.over is not None
    _, rows, line = end_lines(table.over, table.names, table.seat, party=table.party)
    assert line == "Party night · round 2, table 1"  # in place of "Series: 1 game"
    assert {score for _, score in rows} == {""}  # the standings come after it
    frame = pygame.Surface(app.size)
    table.draw(frame)
    end.draw(frame)
    pygame.image.save(frame, tmp_path / "party_end.png")  # a frame to look at
    offered = {b.name for b in end.buttons}
    assert "rematch" not in offered and {"menu", "hide"} <= offered
    assert [b.label for b in end.buttons if b.name == "menu"] == ["Standings"]  # where it leads
    for k in (pygame.K_RETURN, pygame.K_r, pygame.K_SPACE):  # a LAN table's Rematch keys
        key(app, k)
    assert sessions[0].rematches == 0 and ends() == [end]
    click(app, next(b for b in end.buttons if b.name == "hide").rect.center)
    assert ends() == []
    assert "rematch" not in {b.name for b in table.buttons}
    assert "result" in {b.name for b in table.buttons}  # the way back to the panel
    until(app, lambda: app.stack[-1] is scene, dt=0.5)  # and home after the game's end


def test_a_party_that_is_gone_says_so(tmp_path: Path) -> None:
    feed = FedFeed()
    feed.problem = "the connection was lost"
    _, scene = between(tmp_path, feed)
    assert [item.full for item in labels(scene)] == [
        "The party cannot be reached: the connection was lost"
    ]


def test_leaving_the_party_says_so_to_the_party(tmp_path: Path) -> None:
    feed = FedFeed([party_view(Stage.BETWEEN, me="Vera")])
    app, scene = between(tmp_path, feed)
    leave = next(b for b in scene.buttons() if b.name == "leave")
    click(app, leave.rect.center)
    assert feed.left and feed.closed and app.stack[-1] is not scene


def test_a_refusal_of_the_party_is_said_in_the_players_words(tmp_path: Path) -> None:
    feed = FedFeed([party_view(Stage.GATHERING, round=0, organiser=True)])
    app, scene = between(tmp_path, feed)
    click(app, next(b for b in scene.buttons() if b.name == "start").rect.center)
    assert feed.starts == 1
    feed.refused = "too_few"  # as the party answers a start with too few players
    app.step(0.02)
    assert app.tr("party.refused.too_few") in [item.full for item in labels(scene)]


def test_the_organiser_is_told_when_the_party_cannot_be_saved(tmp_path: Path) -> None:
    feed = FedFeed([party_view(Stage.BETWEEN, organiser=True, unsaved=True)])
    app, scene = between(tmp_path, feed)
    assert app.tr("party.unsaved") in [item.full for item in labels(scene)]


def test_a_party_table_closed_after_its_game_still_leads_home(tmp_path: Path) -> None:
    """The party host closes a table once its game is over, and hands its room on as
    people leave: at a party's table neither is news (no "You run the room now", no
    "The host closed the table." with only Menu); the standings come back, and the next
    call takes the player on."""
    sessions: list[ScriptedSession] = []
    feed = FedFeed([party_view(Stage.BETWEEN, me="Vera")])
    feed.calls.append(call(2, 1, sessions))
    app, scene = between(tmp_path, feed)
    click(app, next(b for b in scene.buttons() if b.name == "go").rect.center)
    table = app.stack[-2]
    assert isinstance(table, TableScene)
    seats = tuple(SeatInfo("human", name, None, True) for name in table.names)
    room = Room("T", "playing", 1, seats, Rules(players=4), False, True, Series.new(4), 1)
    sessions[0].inbox.put(RoomChanged(room))
    sessions[0].inbox.put(RoomChanged(replace(room, owner=table.seat)))  # passed to us
    app.step(0.02)
    assert table.room is not None and table.room.owner == table.seat
    assert table.cues.toasts == []
    sessions[0].draw()  # the game ends (as a draw)
    sessions[0].inbox.put(Closed("The host closed the table.", "closed"))
    until(app, lambda: scene.played != [], dt=0.1)
    for _ in range(20):
        app.step(0.1)
        assert not [s for s in app.stack if isinstance(s, ClosedScene)]
    until(app, lambda: app.stack[-1] is scene, dt=0.5)
    feed.calls.append(call(3, 2, sessions))  # the next round: the next table
    until(app, lambda: len(sessions) == 2, dt=0.5)


def test_a_guest_at_the_gathering_is_told_what_comes_next(tmp_path: Path) -> None:
    feed = FedFeed([party_view(Stage.GATHERING, round=0, me="Vera")])
    _, scene = between(tmp_path, feed)
    shown = [item.full for item in labels(scene)]
    assert "Gathering: 12 players have joined" in shown
    assert "The first round begins once everyone is here" in shown


def test_a_party_table_lost_mid_game_leads_back_to_the_standings(tmp_path: Path) -> None:
    """A table lost before its game ends says so; its one button says where it leads (the
    standings, not a menu) and goes there."""
    sessions: list[ScriptedSession] = []
    feed = FedFeed([party_view(Stage.BETWEEN, me="Vera")])
    feed.calls.append(call(2, 1, sessions))
    app, scene = between(tmp_path, feed)
    click(app, next(b for b in scene.buttons() if b.name == "go").rect.center)
    sessions[0].inbox.put(Closed("The connection to the table was lost.", "closed"))
    until(app, lambda: any(isinstance(s, ClosedScene) for s in app.stack), dt=0.1)
    notice = next(s for s in app.stack if isinstance(s, ClosedScene))
    [button] = notice.buttons
    assert button.label == "Standings"
    click(app, button.rect.center)
    until(app, lambda: app.stack[-1] is scene, dt=0.1)
