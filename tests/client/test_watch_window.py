"""Watching from the window (docs/protocol.md section 16), driven with posted events: the
Join list's Watch button on a full table in a game opens the table as a watcher's (every
seat around the top, no hand, no action buttons, "Watching", reactions reach the seats),
and ``durak durak://HOST:PORT --watch`` opens the room, where Take seat sits down."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from window import FRAME, click, key, until

from client.app import App, add_arguments, run
from client.net.remote import NetSession
from client.net.session import Cheered, Message, RoomChanged, drain
from client.screens.join.screen import JoinScene
from client.screens.room.screen import RoomScene
from client.screens.table.screen import ACTION_BUTTONS, TableScene
from client.settings import Settings
from host import HostConfig, HostHandle, TableAd, run_in_thread

pytestmark = pytest.mark.usefixtures("headless")


def window(tmp_path: Path, invite: str | None = None, watch: bool = False) -> App:
    settings = Settings.load(tmp_path / "settings.json")
    settings.lan_bind, settings.name = "127.0.0.1", "Wanda"
    settings.named = True  # (asked before: tests/client/test_name.py asks)
    app = App(
        settings,
        tmp_path / "settings.json",
        size=(1280, 720),
        sound=False,
        invite=invite,
        watch=watch,
        games=tmp_path / "games",
    )
    app.step(FRAME)
    return app


class Listed:
    """A LAN browser that has found the one table ``ad`` (no network)."""

    failed = False

    def __init__(self, ad: TableAd) -> None:
        self.tables = {ad.name: ad}

    def poll(self) -> bool:
        return False

    def close(self, timeout: float = 5.0) -> None:
        pass


@pytest.fixture
def game() -> Iterator[tuple[HostHandle, NetSession, list[Message]]]:
    """A full 4-seat table in a game: Olga (the owner, who never plays her turn: the game
    waits for her) and three AI players. What Olga's session says is kept in the list. The
    deal waits for no contribution (``fair_wait=0``), so ``seed`` fixes it."""
    config = HostConfig(
        name="Kitchen",
        seats=4,
        ai=("random",) * 3,
        announce=False,
        seed=3,
        fair_wait=0,
        ai_processes=False,
    )
    with run_in_thread(config) as handle:
        olga = NetSession("127.0.0.1", handle.port, "Olga", rooms=True)
        heard: list[Message] = []
        try:
            olga.start()
            table = handle.host.table if handle.host is not None else None
            assert table is not None
            for _ in range(2000):  # (a bound, not a timing assertion)
                heard += drain(olga.inbox)
                if table.playing:
                    break
                olga.start()
                pygame.time.wait(5)
            assert table.playing
            yield handle, olga, heard
        finally:
            olga.close()
            assert olga.join(timeout=10)


def test_the_watch_button_opens_a_full_table_in_a_game_as_a_watcher(
    tmp_path: Path, game: tuple[HostHandle, NetSession, list[Message]]
) -> None:
    handle, olga, heard = game
    app = window(tmp_path)
    scene = JoinScene(app, browse=False)
    ad = TableAd("k._durak._tcp.local.", "Kitchen", "127.0.0.1", handle.port, 4, 4, 4, "",
                 "playing", False)  # fmt: skip
    scene.browser = Listed(ad)  # type: ignore[assignment]
    app.push(scene)
    app.step(FRAME)
    ((button, _),) = scene.watch_rects()
    click(app, button.center)
    until(app, lambda: isinstance(app.stack[-1], TableScene))
    table = app.stack[-1]
    assert isinstance(table, TableScene)
    # the AI players play on until the bout waits for Olga (seed 3: Vera leads at Oleg)
    until(app, lambda: table.view is not None and bool(table.view.table) and table.idle, dt=0.05)
    until(app, lambda: table.board is not None and not table.board.busy, dt=0.05)
    board, layout = table.board, table.layout
    assert board is not None and layout is not None and table.view is not None
    assert table.watching and board.hand == [] and table.view.hand == ()
    assert sorted(layout.seats) == [0, 1, 2, 3]  # every seat sits around the top
    assert sum(board.counts) == sum(table.view.hand_sizes) > 0  # the backs of every hand
    assert not [b for b in table.buttons if b.name in ACTION_BUTTONS]
    assert table.status() and "Olga" in table.names
    pygame.image.save(app.screen, str(tmp_path / "watched.png"))
    host = handle.host
    assert host is not None
    seq = host.table.seq
    sent: list[object] = []
    table.session.send = sent.append  # type: ignore[method-assign]
    for k in (pygame.K_t, pygame.K_SPACE, pygame.K_1):  # no action keys for a watcher
        key(app, k)
    assert sent == []
    key(app, pygame.K_e)  # the reactions: the first, "nice"
    key(app, pygame.K_1, "1")
    for _ in range(500):  # (a bound, not a timing assertion)
        heard += drain(olga.inbox)
        if any(isinstance(m, Cheered) for m in heard):
            break
        pygame.time.wait(5)
    assert Cheered("Wanda", "nice") in heard
    # nothing was played but by the AI players (who may still be finishing the bout)
    game_log = host.table.log
    assert host.table.playing and game_log is not None
    assert {seat for seat, _ in game_log.actions[seq:]} <= {1, 2, 3}
    assert any(isinstance(m, RoomChanged) and "Wanda" in m.room.watching for m in heard)
    app.close()


def test_an_invite_with_watch_opens_the_room_and_take_seat_sits_down(tmp_path: Path) -> None:
    config = HostConfig(name="Kitchen", seats=2, announce=False, ai_processes=False)
    with run_in_thread(config) as handle:
        host = handle.host
        assert host is not None
        app = window(tmp_path, f"durak://127.0.0.1:{handle.port}", watch=True)
        until(app, lambda: isinstance(app.stack[-1], RoomScene))
        room = app.stack[-1]
        assert isinstance(room, RoomScene)
        until(app, lambda: room.room is not None)
        assert room.watching and host.table.audience
        assert all(s.kind == "empty" for s in host.table.seats)
        sit = next(b for b in room.buttons() if b.name == "sit")
        assert sit.enabled and not any(b.name == "ready" for b in room.buttons())
        click(app, sit.rect.center)
        until(app, lambda: not room.watching and room.room is not None and not room.room.watching)
        assert room.seat == 0 and host.table.seats[0].name == "Wanda"
        assert not host.table.audience
        # the first player owns it: its seats are open, so Fill with AI stands for Start
        assert any(b.name == "fill" for b in room.buttons())
        app.close()


def test_watch_without_a_table_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert run(parser.parse_args(["--watch"])) == 2
    assert "--watch needs the table" in capsys.readouterr().err
