"""The window's link to a party (client.net.party_link) and the feed the party's screens read
(client.screens.party.feed), against a stand-in party host on 127.0.0.1: the party map
becomes the view the screens draw, a party_table becomes the call to sit at that table
with its token, a board watches every table being played, and a party that says goodbye
or sends garbage is a problem the screens show, never a crash."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fake_party import FakePartyHost

from client.net.party_link import Lost, PartyLink
from client.net.remote import seat_names
from client.net.scripted import ScriptedSession
from client.net.session import RoomChanged, Session
from client.screens.party.feed import NetFeed
from client.screens.party.model import PartyView, Stage
from engine import Rules, Series, new_game
from protocol import (
    PROTOCOL_VERSION,
    Goodbye,
    Join,
    Joined,
    LongestGame,
    Night,
    Party,
    PartyAck,
    PartyFigures,
    PartyMessage,
    PartyPlayer,
    PartyStart,
    PartyTable,
    PartyUpdate,
    Room,
    RoundTable,
    SeatInfo,
)

TOKEN = "0123456789abcdef" * 2
NAMES = ("Anna", "Oleg", "Vera", "Boris", "Dmitri", "Katya")


def a_party(status: str = "playing", done: bool = False) -> Party:
    players = tuple(
        PartyPlayer(i, name, "left" if i == 5 else "here", i + 1, 1, i % 2, 0, 500, 0, i // 3)
        for i, name in enumerate(NAMES)
    )
    tables = (
        RoundTable(0, 45701, (0, 1, 2, None), "done" if done else "playing",
                   (1, 3, 2, 4) if done else None, 3 if done else None),
        RoundTable(1, 45702, (3, 4, 5), "playing", None, None),
    )  # fmt: skip
    return Party(
        "Friday night", status, 0, Night(Rules(players=4), rounds=3), 2, False, 61_000, None,
        None, players, tables, PartyFigures((2,), 1, LongestGame(1, 1, 140), (4, 22)),
    )  # fmt: skip


def answer(message: PartyMessage) -> list[PartyMessage | bytes]:
    if isinstance(message, Join):
        player = None if message.role == "board" else 2
        return [Joined(PROTOCOL_VERSION, player, None if player is None else TOKEN, a_party())]
    if isinstance(message, PartyStart):
        return [PartyAck(message.ref)]
    return []


@pytest.fixture
def host() -> Iterator[FakePartyHost]:
    party = FakePartyHost(answer)
    yield party
    party.close()


class Joins:
    """A joiner that keeps what it was asked for and hands out scripted tables."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, int, str, str | None, tuple[str, ...]]] = []
        self.sessions: list[ScriptedSession] = []

    def __call__(
        self, address: str, port: int, name: str, token: str | None, ai: Sequence[str]
    ) -> Session:
        self.asked.append((address, port, name, token, tuple(ai)))
        players = 4 if port == 45701 else 3
        self.sessions.append(ScriptedSession(new_game(Rules(players=players), port)))
        return self.sessions[-1]


def until(get: Callable[[], object], tries: int = 500) -> object:
    """``get()`` once it is not None (the link's thread takes a moment)."""
    import time

    for _ in range(tries):
        found = get()
        if found is not None:
            return found
        time.sleep(0.01)
    raise AssertionError("nothing came")


def test_the_party_map_becomes_the_view_and_a_table_call(host: FakePartyHost) -> None:
    joins = Joins()
    link = PartyLink("127.0.0.1", host.port, "Vera")
    feed = NetFeed(link, "Vera", joins, ai_names=("Anna", "Sasha", "Pasha"))
    try:
        view = until(feed.poll)
        assert isinstance(view, PartyView)
        assert view.name == "Friday night" and view.stage is Stage.PLAYING
        assert (view.round, view.rounds) == (2, 3) and 61.0 <= view.round_seconds < 71.0
        assert [row.name for row in view.standings] == list(NAMES)
        assert [row.name for row in view.standings if row.me] == ["Vera"]
        assert [row.name for row in view.standings if row.left] == ["Katya"]
        assert [table.names[:3] for table in view.tables] == [NAMES[:3], NAMES[3:]]
        # an AI seat is named, never after a player of the party ("Anna" is one)
        assert view.tables[0].is_ai(3) and view.tables[0].names[3] == "Sasha"
        assert view.figures.most_durak is not None and view.figures.most_durak.names == ("Vera",)
        assert view.figures.longest is not None and view.figures.longest.table == 2
        assert view.figures.fastest is not None and view.figures.fastest.names == ("Dmitri",)
        host.say(PartyTable(2, 0, "127.0.0.1", 45701, TOKEN, 2, ("Anna", "Oleg", "Vera", None)))
        call = until(feed.call)
        assert call.round == 2 and call.table == 1  # type: ignore[attr-defined]
        assert call.others[:2] == ("Anna", "Oleg") and len(call.others) == 3  # type: ignore[attr-defined]
        call.join()  # type: ignore[attr-defined]
        assert joins.asked == [("127.0.0.1", 45701, "Vera", TOKEN, ("Sasha",))]
        host.say(PartyUpdate(a_party(done=True)))
        done = until(feed.poll)
        assert isinstance(done, PartyView)
        outcome = done.tables[0].outcome
        assert outcome is not None and outcome.durak == 3
        assert host.got[0] == Join(PROTOCOL_VERSION, "Vera", None, "play")
        feed.link.start()
        until(lambda: next((m for m in host.got if isinstance(m, PartyStart)), None))
    finally:
        feed.close()


def test_a_board_watches_every_table_being_played(host: FakePartyHost) -> None:
    joins = Joins()
    link = PartyLink("127.0.0.1", host.port, "Board", board=True)
    feed = NetFeed(link, "Board", joins, watch=True)
    try:
        view = until(feed.poll)
        assert sorted(port for _, port, _, token, _ in joins.asked if token is None) == [
            45701,
            45702,
        ]
        assert isinstance(view, PartyView)
        assert all(table.view is not None for table in view.tables)  # what the watchers saw
        host.say(PartyUpdate(a_party(done=True)))  # table 1 is over: its watcher goes

        def first_unwatched() -> bool | None:
            feed.poll()
            return True if joins.sessions[0].closed else None

        until(first_unwatched)
        assert not joins.sessions[1].closed
    finally:
        feed.close()
    assert all(session.closed for session in joins.sessions)


def test_a_table_names_its_ai_seats_as_the_board_and_the_call_do(host: FakePartyHost) -> None:
    """The board names the round's AI seats in turn, table by table, never after a player
    ("Anna" is one); the call to a table and the table screen (its room's ``seat_names``,
    given the AI names the call hands it) name them the same at any table of the round.
    The call waits for the round's map, which the party host sends right after it."""
    joins = Joins()
    link = PartyLink("127.0.0.1", host.port, "Vera")
    feed = NetFeed(link, "Vera", joins, ai_names=("Anna", "Sasha", "Pasha", "Grisha"))
    try:
        until(feed.poll)
        tables = (
            RoundTable(0, 45701, (0, 1, None, None), "playing", None, None),
            RoundTable(1, 45702, (3, None, 2, 4), "playing", None, None),
        )
        host.say(PartyTable(3, 1, "127.0.0.1", 45702, TOKEN, 2, ("Boris", None, "Vera", "Dmitri")))
        host.say(PartyUpdate(replace(a_party(), round=3, tables=tables)))
        call = until(feed.call)
        view = until(feed.poll)
        assert isinstance(view, PartyView) and view.round == 3
        board = [table.names for table in view.tables]
        assert board == [("Anna", "Oleg", "Sasha", "Pasha"), ("Boris", "Grisha", "Vera", "Dmitri")]
        assert call.others == ("Boris", "Grisha", "Dmitri")  # type: ignore[attr-defined]
        call.join()  # type: ignore[attr-defined]
        ai = joins.asked[-1][4]
        assert ai == ("Grisha",)
        room = Room(
            "round 3 · table 2", "playing", None,
            (SeatInfo("human", "Boris"), SeatInfo("ai", "Normal AI", "normal"),
             SeatInfo("human", "Vera"), SeatInfo("human", "Dmitri")),
            Rules(players=4), False, True, Series.new(4), 1,
        )  # fmt: skip
        assert seat_names(room, ai) == board[1]  # what the table screen calls its seats
    finally:
        feed.close()


def problem(feed: NetFeed) -> str | None:
    feed.poll()
    return feed.problem


def test_a_goodbye_or_garbage_from_the_party_is_shown_not_raised(host: FakePartyHost) -> None:
    feed = NetFeed(PartyLink("127.0.0.1", host.port, "Vera"), "Vera", Joins())
    try:
        until(feed.poll)
        host.say(b"\x00\x00\x00\x03abc")  # a frame that is no message
        until(lambda: problem(feed))
        assert feed.problem and "abc" not in feed.problem
    finally:
        feed.close()
    feed = NetFeed(PartyLink("127.0.0.1", host.port, "Vera"), "Vera", Joins())
    try:
        until(feed.poll)
        host.say(Goodbye("shutdown", "The party is over for tonight."))
        until(lambda: problem(feed))
        assert feed.problem == "The party is over for tonight."
    finally:
        feed.close()


def test_a_link_lost_without_a_goodbye_joins_again_as_the_same_player(
    host: FakePartyHost,
) -> None:
    feed = NetFeed(PartyLink("127.0.0.1", host.port, "Vera"), "Vera", Joins())
    try:
        until(feed.poll)
        host.drop()  # as a party host killed and resumed, or the Wi-Fi gone a moment
        until(lambda: True if len([m for m in host.got if isinstance(m, Join)]) == 2 else None)
        assert host.got[-1] == Join(PROTOCOL_VERSION, "Vera", TOKEN, "play")
        until(feed.poll)
        assert feed.problem is None
    finally:
        feed.close()


def test_a_party_nobody_runs_is_unreachable() -> None:
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    link = PartyLink("127.0.0.1", port, "Vera")
    lost = until(lambda: link.inbox.get(timeout=5))
    assert isinstance(lost, Lost) and lost.code == "unreachable"
    link.close()


@pytest.mark.usefixtures("headless")
def test_durak_party_board_shows_the_party_from_the_command_line(
    host: FakePartyHost, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from client.cli.main import main

    monkeypatch.setenv("DURAK_SETTINGS", str(tmp_path / "settings.json"))
    where = f"127.0.0.1:{host.port}"
    assert main(["party", "--board", where, "--window", "1280x720", "--board-frames", "40"]) == 0
    assert Join(PROTOCOL_VERSION, "Board", None, "board") in host.got


def test_durak_party_board_refuses_a_bad_address(capsys: pytest.CaptureFixture[str]) -> None:
    from client.cli.main import main

    assert main(["party", "--board", "host:port"]) == 2
    assert "give HOST:PORT" in capsys.readouterr().err
    assert main(["party", "--board", "127.0.0.1:1", "--window", "big"]) == 2


@pytest.mark.usefixtures("headless")
def test_durak_party_board_finds_the_one_party_on_the_lan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from client.cli.main import main
    from client.net.party_thread import host_party
    from host.party import PartyConfig
    from protocol import Night

    monkeypatch.setenv("DURAK_SETTINGS", str(tmp_path / "settings.json"))
    config = PartyConfig(
        name="Friday night", bind="127.0.0.1", setup=Night(Rules(players=4)), ai_processes=False
    )
    import client.net.party_link as party_link

    reached: list[tuple[str, int, bool]] = []

    class Recorded(party_link.PartyLink):
        def __init__(self, address: str, port: int, name: str, **options: Any) -> None:
            reached.append((address, port, options.get("board", False)))
            super().__init__(address, port, name, **options)

    monkeypatch.setattr(party_link, "PartyLink", Recorded)
    party = host_party(config)  # announced on 127.0.0.1 only
    ours = ("127.0.0.1", party.port, True)
    argv = ["party", "--board", "--bind", "127.0.0.1", "--window", "1280x720"]
    try:
        # Tests on other cores announce parties on loopback too, for a few seconds each:
        # while one is up, the board opens it or lists both; it opens ours once ours is alone.
        for _ in range(10):
            reached.clear()
            code = main([*argv, "--board-frames", "20"])
            assert code in (0, 2)
            if code == 0 and reached == [ours]:
                break
        assert reached == [ours]
    finally:
        party.stop()


def test_the_clocks_run_on_from_when_the_map_was_sent_and_ai_seats_differ() -> None:
    from dataclasses import replace

    from client.screens.party.feed import party_view

    party = a_party()
    two = (party.tables[0], replace(party.tables[1], seats=(3, 4, None)))
    party = replace(party, tables=two, left_ms=600_000)
    view = party_view(party, 2, {}, ("Sasha", "Pasha"), elapsed=10.0)
    assert (view.round_seconds, view.night_left) == (71.0, 590.0)
    assert [t.names[-1] for t in view.tables] == ["Sasha", "Pasha"]  # one name an AI seat


def test_only_the_organisers_view_says_the_party_cannot_be_saved() -> None:
    from dataclasses import replace

    from client.screens.party.feed import party_view

    party = replace(a_party(), unsaved=True)  # player 0 organises
    assert party_view(party, 0, {}).unsaved
    assert not party_view(party, 1, {}).unsaved and not party_view(party, None, {}).unsaved
    assert not party_view(a_party(), 0, {}).unsaved


class FrameClock:
    """``pygame.time.Clock`` as the window's loop uses it, without waiting: 16 ms a tick."""

    def tick(self, framerate: int = 0, /) -> int:
        return 16


@pytest.mark.usefixtures("headless")
@pytest.mark.parametrize("screen", ["party_night", "party_board"])
def test_news_from_the_party_wakes_a_resting_window(
    host: FakePartyHost, tmp_path: Path, screen: str
) -> None:
    """Nobody touches the mouse: the party's news ends the window's rest and is drawn (a
    failure rests the whole ``limit`` and draws nothing)."""
    from window import open_app

    app = open_app(tmp_path / "settings.json", language="en")
    link = PartyLink("127.0.0.1", host.port, "Vera", board=screen == "party_board")
    feed = NetFeed(link, "Vera", Joins(), watch=screen == "party_board")
    if screen == "party_night":
        app.show(screen, feed=feed, me="Vera")
    else:
        app.show(screen, feed=feed)
    scene = app.stack[-1]
    try:
        for _ in range(500):  # the party's map comes; then nothing is due but its news
            app.turn(FrameClock(), limit=0.01)
            if scene.view is not None:  # type: ignore[attr-defined]
                break
        assert scene.view is not None, "the party's map never woke the window"  # type: ignore[attr-defined]
        assert scene.view.stage is Stage.PLAYING  # type: ignore[attr-defined]
        app.woken.clear()
        host.say(PartyUpdate(replace(a_party(), status="break", tables=())))
        for _ in range(3):  # (a frame the clock asks for may come first)
            if app.turn(FrameClock(), limit=10.0) and scene.view.stage is Stage.BETWEEN:  # type: ignore[attr-defined]
                break
        assert scene.view.stage is Stage.BETWEEN  # type: ignore[attr-defined]
    finally:
        app.pop()


def test_badges_come_from_our_own_and_from_the_rooms_the_board_watches(
    host: FakePartyHost,
) -> None:
    """The party sends no badges: a player's window knows its own, a board learns each
    player's from the rooms of the tables it watches."""
    link = PartyLink("127.0.0.1", host.port, "Vera")
    feed = NetFeed(link, "Vera", Joins(), look=5)
    try:
        view = until(feed.poll)
        assert isinstance(view, PartyView)
        assert {row.name: row.look for row in view.standings if row.look is not None} == {"Vera": 5}
    finally:
        feed.close()
    joins = Joins()
    board = NetFeed(
        PartyLink("127.0.0.1", host.port, "Board", board=True), "Board", joins, watch=True
    )
    try:
        until(board.poll)
        seats = tuple(
            SeatInfo("human", name, None, True, look=i) for i, name in enumerate(NAMES[:3])
        )
        room = Room("T", "playing", 0, (*seats, SeatInfo("ai")), Rules(players=4), False, True,
                    Series.new(4), 1)  # fmt: skip
        joins.sessions[0].inbox.put(RoomChanged(room))
        view = until(board.poll)
        assert isinstance(view, PartyView)
        assert [row.look for row in view.standings[:4]] == [0, 1, 2, None]
        assert view.tables[0].looks == (0, 1, 2, None)  # (an AI seat has none)
    finally:
        board.close()
