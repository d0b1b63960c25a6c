"""While the host cannot save the table (``room.unsaved``), its owner's window says so: a
line in the room, against a real host whose save cannot be written until it can, and a
line at the top of the table, for the owner only."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pygame
import pytest
import window

from client.i18n import ENGLISH
from client.screens.room.screen import RoomScene
from client.screens.table.hud import draw_unsaved
from client.screens.table.layout import Layout
from client.ui.assets import Assets
from engine import Rules, Series
from host import HostConfig, run_in_thread
from host.save import save_file
from protocol import Room, SeatInfo

pytestmark = pytest.mark.usefixtures("headless")
FRAMES = 3000  # a bound against hanging (x 0.01 s), not a timing assertion
SAYS = ENGLISH("room.unsaved")


def test_the_owner_sees_in_the_room_while_the_table_is_not_saved(tmp_path: Path) -> None:
    saves = tmp_path / "saves"
    port = _free_port()
    blocked = save_file(saves, port)
    blocked.mkdir(parents=True)  # a folder where the save goes: every save fails
    (blocked / "blocker").write_text("x")
    config = HostConfig(
        seats=2, ai=("random",), announce=False, save_dir=str(saves), port=port, ai_processes=False
    )
    with run_in_thread(config) as handle:
        app = window.open_app(
            tmp_path / "settings.json",
            invite=f"127.0.0.1:{handle.port}",
            lan_bind="127.0.0.1",
            name="Anna",
        )
        window.until(app, lambda: isinstance(app.stack[-1], RoomScene), FRAMES, 0.01)
        room = app.stack[-1]
        assert isinstance(room, RoomScene)
        window.until(app, lambda: room.room is not None and room.room.unsaved, FRAMES, 0.01)
        assert room.owner and any(SAYS in text for text, _ in room._middle_lines(20, 2000))
        (blocked / "blocker").unlink()
        blocked.rmdir()  # room again: the host saves by itself
        window.until(app, lambda: room.room is not None and not room.room.unsaved, FRAMES, 0.01)
        assert not any(SAYS in text for text, _ in room._middle_lines(20, 2000))
        app.close()


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("seat", [0, 1])
def test_the_table_says_it_at_the_top_for_the_owner_only(seat: int) -> None:
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((64, 64))
    assets = Assets(sound=False)
    seats = (SeatInfo("human", "Anna", None, True, "connected", True),) * 2
    room = Room("Kitchen", "playing", 0, seats, Rules(), False, False, Series.new(2), 1)
    layout = Layout((1280, 720), 2, seat=seat)
    frames = []
    for unsaved in (False, True):
        surface = pygame.Surface((1280, 720))
        draw_unsaved(surface, assets, layout, replace(room, unsaved=unsaved), seat)
        frames.append(pygame.image.tobytes(surface, "RGB"))
    assert (frames[0] != frames[1]) == (seat == 0)
