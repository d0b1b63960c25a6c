"""The room screen's ready marks, its rules summary and level chips in the player's language,
and the way back to it after a LAN game, driven by posted input events against real hosts
on 127.0.0.1 (SDL dummy drivers)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest
import window
from rooms import chip_label, spy_on_drawing
from window import click, key

from client.app import App
from client.cli.bot_player import BotReport, play_bot
from client.i18n import LANGUAGES
from client.net.client import HostClosed, NetClient
from client.net.gamefile import GameFile
from client.net.remote import NetSession
from client.net.session import Seated
from client.screens.room.screen import RoomScene
from client.screens.table.notices import EndScene
from client.screens.table.panels import PauseScene
from client.screens.table.screen import TableScene
from client.ui import render
from client.ui.confirm import ConfirmScene
from client.ui.render import button_px
from engine import Rules
from host import HostConfig, run_in_thread

pytestmark = pytest.mark.usefixtures("headless")
FRAMES = 3000  # a bound against hanging (x 0.01 s), not a timing assertion


def make_app(tmp_path: Path, port: int) -> App:
    """Anna's window joining the table at ``port`` on 127.0.0.1."""
    chosen = {"lan_bind": "127.0.0.1", "name": "Anna", "animation": "fast"}
    return window.open_app(tmp_path / "settings.json", invite=f"127.0.0.1:{port}", **chosen)


def until(app: App, done: Callable[[], bool], frames: int = FRAMES, dt: float = 0.01) -> None:
    window.until(app, done, frames, dt)


def in_room(app: App) -> RoomScene:
    until(app, lambda: isinstance(app.stack[-1], RoomScene))
    room = app.stack[-1]
    assert isinstance(room, RoomScene)
    until(app, lambda: room.room is not None)
    return room


def button(room: RoomScene, name: str) -> tuple[pygame.Rect, str, bool]:
    found = next(b for b in room.buttons() if b.name == name)
    return found.rect, found.label, found.enabled


def mark(room: RoomScene, seat: int) -> bool:
    assert room.room is not None
    return room.room.seats[seat].ready


def test_a_player_toggles_the_ready_mark_and_sees_it(tmp_path: Path) -> None:
    with run_in_thread(
        HostConfig(seats=4, ai=("normal",), announce=False, ai_processes=False)
    ) as handle:
        owner = NetSession("127.0.0.1", handle.port, "Boris", rooms=True)
        assert isinstance(owner.inbox.get(timeout=20), Seated)
        app = make_app(tmp_path, handle.port)
        room = in_room(app)
        until(app, lambda: room.seat == 1 and room.room.seats[1].kind == "human")  # type: ignore[union-attr]
        assert not room.owner and [b.name for b in room.buttons()] == ["ready", "leave"]
        assert button(room, "ready")[1:] == ("Ready", True) and not mark(room, 1)
        assert room._status_line() == "Press Ready when you want to play."
        key(app, pygame.K_r)  # the key
        until(app, lambda: mark(room, 1))
        assert button(room, "ready")[1] == "Not ready"
        assert room._status_line() == "Waiting for the owner to start the game…"
        pygame.image.save(app.screen, str(tmp_path / "ready.png"))
        click(app, button(room, "ready")[0].center)  # the button takes it back
        until(app, lambda: not mark(room, 1))
        key(app, pygame.K_SPACE)
        until(app, lambda: mark(room, 1))
        assert not room.message
        owner.close()
        owner.join(10)
        app.close()


def test_the_owners_start_waits_until_the_others_are_ready(tmp_path: Path) -> None:
    with run_in_thread(HostConfig(seats=3, announce=False, ai_processes=False)) as handle:
        app = make_app(tmp_path, handle.port)
        room = in_room(app)
        assert room.owner
        guest = NetSession("127.0.0.1", handle.port, "Boris", rooms=True)
        assert isinstance(guest.inbox.get(timeout=20), Seated)
        chip = next(c for c, s, choice in room.chips() if (s, choice) == (2, "easy"))
        click(app, chip.center)
        until(app, room.full)
        assert not mark(room, 1) and mark(room, 2)  # the computer is always ready
        assert button(room, "start")[2] is False
        assert room._status_line() == "Waiting for Boris to get ready…"
        key(app, pygame.K_RETURN)  # nothing happens: the Start is not enabled
        pygame.image.save(app.screen, str(tmp_path / "waiting.png"))
        guest.ready(True)
        until(app, room.can_start)
        assert button(room, "start")[2] is True
        assert room._status_line() == "Everyone is ready: start the game."
        click(app, button(room, "start")[0].center)
        until(app, lambda: isinstance(app.stack[-1], TableScene))
        guest.close()
        guest.join(10)
        app.close()


def test_the_room_speaks_german_and_a_row_of_chips_shares_one_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts: list[str] = []
    chips: dict[tuple[int, int, int, int], int | None] = {}  # a chip's rect -> its label size

    def text_spy(surface, assets, text, *args, **kwargs):  # type: ignore[no-untyped-def]
        texts.append(text)
        return render.draw_text(surface, assets, text, *args, **kwargs)

    def button_spy(surface, assets, rect, label, *args, px=None, **kwargs):  # type: ignore[no-untyped-def]
        chips[tuple(rect)] = px
        render.draw_button(surface, assets, rect, label, *args, px=px, **kwargs)

    spy_on_drawing(monkeypatch, text_spy, button_spy)
    rules = Rules(deck_size=52, transfer=True, transfer_show_trump=True)
    with run_in_thread(
        HostConfig(seats=3, ai=("hard",), rules=rules, announce=False, ai_processes=False)
    ) as handle:
        app = make_app(tmp_path, handle.port)
        app.settings.language = "de"
        room = in_room(app)
        assert room.owner
        texts.clear()
        app.step(0.01)
        summary = "52 Karten, alle legen nach, erstes Gefecht höchstens 5, Schieben (Trumpf zeigen)"
        assert summary in texts
        pygame.image.save(app.screen, str(tmp_path / "room_de.png"))
        for language in LANGUAGES:
            app.settings.language = language
            chips.clear()
            app.step(0.01)
            drawn: dict[int, set[int | None]] = {}  # seat -> the sizes its chips were set at
            fits: dict[int, int] = {}  # seat -> the largest size at which every label fits
            for chip, seat, choice in room.chips():
                drawn.setdefault(seat, set()).add(chips[tuple(chip)])
                alone = button_px(app.assets, chip, chip_label(room, choice, seat))
                fits[seat] = min(fits.get(seat, alone), alone)
            assert drawn == {seat: {px} for seat, px in fits.items()} and sorted(fits) == [1, 2]
        app.close()


def owner_bot(port: int, games: int) -> tuple[threading.Thread, list[BotReport]]:
    """A bot that owns the room: it readies, and starts each game once we are ready."""
    reports: list[BotReport] = []

    def run() -> None:
        with contextlib.suppress(HostClosed):  # the test may end the table first
            reports.append(asyncio.run(play_bot("127.0.0.1", port, "random", games, seed=1)))

    thread = threading.Thread(target=run, name="owner-bot", daemon=True)
    thread.start()
    return thread, reports


def table_up(app: App) -> TableScene:
    until(app, lambda: isinstance(app.stack[-1], TableScene))
    table = app.stack[-1]
    assert isinstance(table, TableScene)
    return table


def test_a_players_rematch_goes_back_to_the_room_for_the_next_game(tmp_path: Path) -> None:
    # The turn timer plays our seat (nobody touches the cards): a short game by itself.
    rules = Rules(players=2, deck_size=24)
    config = HostConfig(
        seats=2, rules=rules, announce=False, turn_timer=0.02, seed=4, ai_processes=False
    )
    with run_in_thread(config) as handle:
        bot, _ = owner_bot(handle.port, 2)
        host = handle.host
        assert host is not None
        for _ in range(2000):  # the bot takes seat 0 and owns the room
            if host.table.owner == 0:
                break
            time.sleep(0.01)
        app = make_app(tmp_path, handle.port)
        room = in_room(app)
        assert not room.owner
        key(app, pygame.K_r)
        table = table_up(app)
        until(app, lambda: isinstance(app.stack[-1], EndScene), 20_000, dt=0.1)
        for _ in range(500):  # the game is kept (written beside the frame loop)
            if app.games.paths():
                break
            time.sleep(0.01)
        [kept] = [GameFile.load(p) for p in app.games.paths()]
        assert table.over is not None and kept.result == table.over.result
        # the LAN host revealed its deal (protocol 4), so the game is kept with its log
        assert table.over.deal is not None and table.over.deal.ok
        assert kept.where == "lan" and kept.log is not None
        assert kept.log.actions == table.over.deal.log.actions  # type: ignore[union-attr]
        assert kept.names[kept.seat] == "Anna" and kept.steps[-1].view == table.view
        rematch = next(b for b in app.stack[-1].buttons if b.name == "rematch")  # type: ignore[attr-defined]
        click(app, rematch.rect.center)
        # back in the room (with the room as it is now), not a "not the owner" toast; the
        # next game may already be on its way: our Rematch was our ready mark
        assert table.returned and table not in app.stack and room in app.stack
        assert room.room is not None and room.room.series.games == 1 and not room.message
        second = table_up(app)  # the owner started again
        assert second is not table and host.table.game == 2
        until(app, lambda: second.view is not None, dt=0.1)
        assert second.view is not None and second.view.result is None  # a new deal
        app.close()
        handle.stop()
        bot.join(30)


def test_leaving_a_lan_game_gives_the_seat_to_an_ai_for_the_rest_of_it(tmp_path: Path) -> None:
    """Menu mid-game asks first; Leave at a LAN table sends ``leave``: the host gives our
    seat to an AI for good (not held for our return) and the game plays on to its end."""
    rules = Rules(players=2, deck_size=24)
    config = HostConfig(
        seats=2, rules=rules, announce=False, turn_timer=5.0, seed=4, ai_processes=False
    )
    with run_in_thread(config) as handle:
        bot, reports = owner_bot(handle.port, 1)
        host = handle.host
        assert host is not None
        for _ in range(2000):  # the bot takes seat 0 and owns the room
            if host.table.owner == 0:
                break
            time.sleep(0.01)
        app = make_app(tmp_path, handle.port)
        in_room(app)
        key(app, pygame.K_r)  # ready: the owner bot starts
        table = table_up(app)
        until(app, lambda: table.view is not None, dt=0.1)
        seat = table.seat
        click(app, next(b for b in table.buttons if b.name == "menu").rect.center)
        pause = app.stack[-1]
        assert isinstance(pause, PauseScene) and table in app.stack  # it asks first
        assert "draw" not in [b.name for b in pause.buttons]  # the owner's alone
        click(app, next(b for b in pause.buttons if b.name == "leave").rect.center)
        assert table not in app.stack
        for _ in range(3000):
            if host.table.seats[seat].kind == "ai":
                break
            time.sleep(0.01)
        assert host.table.seats[seat].kind == "ai"  # played by an AI, not held for us
        bot.join(60)  # the owner bot's game ends: the AI played our seat to the end
        assert len(reports) == 1 and len(reports[0].results) == 1
        app.close()
        handle.stop()


def test_the_owner_sends_a_squatter_away(tmp_path: Path) -> None:
    """A player who sits down and is never ready cannot hold the table: the owner's
    "Send away" chip under their seat frees it (their token is gone with it)."""
    with run_in_thread(HostConfig(seats=3, announce=False, ai_processes=False)) as handle:
        host = handle.host
        assert host is not None
        app = make_app(tmp_path, handle.port)
        room = in_room(app)
        assert room.owner
        told: list[object] = []

        def squat() -> None:
            async def body() -> None:
                client = await NetClient.connect("127.0.0.1", handle.port, "Squatter")
                try:
                    while True:
                        await client.receive()
                except HostClosed as exc:
                    told.append(exc.code)

            asyncio.run(body())

        squatter = threading.Thread(target=squat, name="squatter", daemon=True)
        squatter.start()
        until(app, lambda: room.room is not None and room.room.seats[1].kind == "human")
        chip = next((c for c, seat, choice in room.chips() if seat == 1), None)
        assert chip is not None and chip_label(room, "kick", 1) == "Send away"
        assert [choice for _, seat, choice in room.chips() if seat == 1] == ["kick"]
        click(app, chip.center)  # asks first: one tap beside the mark sent them away
        assert isinstance(app.stack[-1], ConfirmScene) and room.room.seats[1].kind == "human"
        key(app, pygame.K_RETURN)  # Send away
        until(app, lambda: room.room is not None and room.room.seats[1].kind == "empty")
        squatter.join(10)
        assert told == ["kicked"]
        app.close()


def test_the_owner_ends_a_lan_game_as_a_draw(tmp_path: Path) -> None:
    """The owner's pause has End the game as a draw: everyone's game ends with no Durak."""
    config = HostConfig(
        seats=2, ai=("random",), announce=False, turn_timer=30.0, seed=2, ai_processes=False
    )
    with run_in_thread(config) as handle:
        app = make_app(tmp_path, handle.port)
        room = in_room(app)
        until(app, lambda: room.owner and room.can_start())
        key(app, pygame.K_RETURN)  # the owner starts
        table = table_up(app)
        until(app, lambda: table.view is not None and table.room is not None, dt=0.1)
        click(app, next(b for b in table.buttons if b.name == "menu").rect.center)
        pause = app.stack[-1]
        assert isinstance(pause, PauseScene)
        names = [b.name for b in pause.buttons]
        assert "draw" in names, names
        click(app, next(b for b in pause.buttons if b.name == "draw").rect.center)
        until(app, lambda: table.over is not None, dt=0.1)
        assert table.over is not None and table.over.result.draw
        app.close()
