"""The window as a client under ``durak conformance --client``'s checks (docs/protocol.md
sections 3, 4 and 8): it speaks only valid messages, acts one action at a time with a
legal action of a view it was sent, and never on a view older than the update its last
action became, and as the owner it starts each game. The player here acts whenever the
table lets them, as fast as it lets them."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest
from window import open_app

from client.cli.conformance import Check, ClientCheck
from client.screens.room.screen import RoomScene
from client.screens.table.notices import EndScene
from client.screens.table.screen import TableScene

pytestmark = [pytest.mark.usefixtures("headless"), pytest.mark.slow]

GAMES = 2


def test_the_window_passes_the_client_check(tmp_path: Path) -> None:
    results: list[Check] = []
    ports: list[int] = []
    listening = threading.Event()

    def serve() -> None:
        def bound(port: int) -> None:
            ports.append(port)
            listening.set()

        results.extend(asyncio.run(ClientCheck(0, GAMES).run(bound)))

    checker = threading.Thread(target=serve, name="client-check", daemon=True)
    checker.start()
    assert listening.wait(30)
    chosen = {"lan_bind": "127.0.0.1", "name": "Anna", "animation": "fast"}
    app = open_app(tmp_path / "settings.json", invite=f"127.0.0.1:{ports[0]}", **chosen)
    started: set[int] = set()
    for _ in range(20_000):  # a bound against hanging (x 5 ms), not a timing assertion
        time.sleep(0.005)  # the host, its AI and the checker's relay run meanwhile
        app.step(0.05)
        top = app.stack[-1]
        room = top.room if isinstance(top, RoomScene) else None
        if isinstance(top, RoomScene) and room is not None and top.can_start():
            if room.game not in started and room.series.games < GAMES:
                started.add(room.game)
                top.activate("start")
        elif isinstance(top, EndScene):  # the end of a game, over the table
            if top.over.series.games >= GAMES:
                break
            top.press("rematch")  # back to the room, to start the next game
        elif (
            isinstance(top, TableScene)
            and top.idle
            and top.pending is None
            and top.view is not None
            and top.view.legal
        ):
            top.send(top.view.legal[0])
    app.close()
    checker.join(60)
    failed = [f"{r.name}: {r.detail}" for r in results if not r.passed]
    assert results and not failed, failed
