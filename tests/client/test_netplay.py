"""The window at a LAN table: the banner while our dropped connection is retried, the end
of the game when the host leaves. Real hosts on 127.0.0.1, SDL dummy drivers."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from client.app import App
from client.net.remote import NetSession
from client.net.scripted import ScriptedSession
from client.net.session import Emoted, Reconnecting, Seated, Snapshot
from client.screens.table.notices import ClosedScene
from client.screens.table.panels import Overlay
from client.screens.table.screen import TableScene
from client.settings import Settings
from engine import Rules, new_game
from host import HostConfig, run_in_thread

pytestmark = pytest.mark.usefixtures("headless")
SIZE = (1280, 720)
FRAMES = 2000  # a bound against hanging (x 0.01 s), not a timing assertion


def table_of(app: App) -> TableScene:
    """The table, under its overlays if any are open."""
    table = next(s for s in reversed(app.stack) if not isinstance(s, Overlay))
    assert isinstance(table, TableScene)
    return table


def closed(app: App) -> str | None:
    """What the notice over the table says of its end (None: no notice)."""
    top = app.stack[-1]
    return top.text if isinstance(top, ClosedScene) else None


def step_until(app: App, done: Callable[[TableScene], bool], what: str) -> None:
    for _ in range(FRAMES):
        app.step(0.02)
        if done(table_of(app)):
            return
        time.sleep(0.01)
    raise AssertionError(f"never: {what}")


@pytest.mark.slow
def test_the_reconnect_banner_shows_until_the_snapshot() -> None:
    state = new_game(Rules(players=2), 7)
    session = ScriptedSession(state, names=["You", "Boris"])
    app = App(Settings(), None, size=SIZE, sound=False, session_factory=lambda r, s: session)
    app.start_game(state.rules)
    step_until(app, lambda t: t.idle and t.view is not None, "dealt")
    table = table_of(app)
    view = table.view
    assert view is not None and not table.reconnecting
    session.inbox.put(Reconnecting())
    step_until(app, lambda t: t.idle, "the drop is shown")
    assert table.reconnecting
    app.step(0.02)  # the banner draws
    session.inbox.put(Snapshot(view))
    step_until(app, lambda t: t.idle, "the snapshot is shown")
    assert not table.reconnecting


@pytest.mark.slow
def test_a_dropped_connection_comes_back_and_the_banner_goes() -> None:
    config = HostConfig(
        seats=2, ai=("random",), bind="127.0.0.1", announce=False, hold=30.0, ai_processes=False
    )
    with run_in_thread(config) as handle:
        session = NetSession("127.0.0.1", handle.port, "Anna", start=True)
        app = App(Settings(), None, size=SIZE, sound=False, session_factory=lambda r, s: session)
        app.start_game(Rules(players=2))
        step_until(app, lambda t: t.idle and t.view is not None, "the game is dealt")
        client, loop = session.link.wire, session.link.loop
        assert client is not None and loop is not None
        loop.call_soon_threadsafe(client.pump.writer.transport.abort)  # the Wi-Fi drops
        step_until(app, lambda t: t.reconnecting, "the banner")
        step_until(app, lambda t: not t.reconnecting, "the resync")
        assert client.reconnects == 1 and table_of(app).view is not None
        assert closed(app) is None
        app.stack.clear()
        session.close()
        assert session.join(timeout=10)


@pytest.mark.slow
def test_the_host_leaving_ends_the_game_with_a_message() -> None:
    config = HostConfig(
        seats=2, ai=("random",), bind="127.0.0.1", announce=False, ai_processes=False
    )
    handle = run_in_thread(config)
    session = NetSession("127.0.0.1", handle.port, "Anna", start=True)
    app = App(Settings(), None, size=SIZE, sound=False, session_factory=lambda r, s: session)
    try:
        app.start_game(Rules(players=2))
        step_until(app, lambda t: t.view is not None, "the game is dealt")
        handle.stop()
        step_until(app, lambda t: closed(app) is not None, "the game ends")
        assert closed(app) == "The host closed the table."
        assert not table_of(app).reconnecting
        app.step(0.02)  # the message and its button draw
        assert [b.name for b in app.stack[-1].buttons] == ["menu"]  # type: ignore[attr-defined]
    finally:
        handle.stop()
        session.close()
        assert session.join(timeout=10)


def test_an_emote_goes_through_a_real_host_and_comes_back() -> None:
    config = HostConfig(
        seats=2, ai=("random",), bind="127.0.0.1", announce=False, ai_processes=False
    )
    with run_in_thread(config) as handle:
        session = NetSession("127.0.0.1", handle.port, "Anna")
        try:
            assert isinstance(session.inbox.get(timeout=20), Seated)
            session.emote("oops")
            for _ in range(50):  # a bound against hanging; other messages are skipped
                message = session.inbox.get(timeout=20)
                if isinstance(message, Emoted):
                    break
            assert message == Emoted(0, "oops")
        finally:
            session.close()
            assert session.join(timeout=10)
