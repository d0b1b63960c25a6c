"""The statistics the window keeps: the series against a line-up of computer opponents goes
on after a restart, every game counts in all, per AI level and at LAN tables, and a broken
or strange file never stops the window."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from window import open_app, open_from_menu

from client.app import App
from client.net.scripted import ScriptedSession
from client.screens.stats import StatsScene, cells
from client.screens.table.screen import TableScene
from client.settings import Settings
from client.stats import MAX_SERIES, Stats, Tally
from engine import GameResult, Rules, new_game

pytestmark = pytest.mark.usefixtures("headless")


def test_each_game_counts_in_all_per_level_and_at_lan_tables() -> None:
    stats = Stats()
    series = stats.record(GameResult((1, 2, 3), 2), 0, ["normal", "hard"])
    assert series is not None and series.wins == (1, 0, 0) and series.losses == (0, 0, 1)
    stats.record(GameResult((3, 1, 2), 0), 0, ["normal", "normal"])
    assert stats.record(GameResult((1, 1), None), 0, None) is None  # LAN: the host's series
    assert stats.total == Tally(games=3, wins=1, durak=1, draws=1, placed=2, places=4)
    assert stats.levels["normal"] == Tally(games=2, wins=1, durak=1, placed=2, places=4)
    assert stats.levels["hard"] == Tally(games=1, wins=1, placed=1, places=1)  # (once a game)
    assert stats.lan == Tally(games=1, draws=1)  # everyone out together: nobody won


def test_a_line_up_keeps_its_own_series_and_the_oldest_roll_off() -> None:
    stats = Stats()
    stats.record(GameResult((2, 1), 0), 0, ["easy"])
    second = stats.record(GameResult((1, 2), 1), 0, ["easy"])
    assert second is not None and second.games == 2 and second.wins == (1, 1)
    other = stats.record(GameResult((1, 2, 3), 2), 0, ["easy", "easy"])
    assert other is not None and other.games == 1  # another line-up, another series
    for n in range(MAX_SERIES):
        stats.record(GameResult((1, 2), 1), 0, [f"level{n}"])
    assert len(stats.series) == MAX_SERIES and "easy" not in stats.series


def test_the_file_round_trips_and_a_broken_one_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "stats.json"
    stats = Stats()
    stats.record(GameResult((1, 2), 1), 0, ["hard"])
    stats.record(GameResult((2, 1), 0), 0, None)
    stats.save(path)
    assert Stats.load(path) == stats
    path.write_text("{not json", encoding="utf-8")
    assert Stats.load(path) == Stats()
    assert (tmp_path / "stats.json.broken").read_text(encoding="utf-8") == "{not json"


def test_strange_values_in_the_file_are_dropped(tmp_path: Path) -> None:
    path = tmp_path / "stats.json"
    bad_series = {
        "wins": [1, "x"],
        "losses": [0, 1],
        "games": 1,
        "draws": 0,
        "last": None,
    }
    good_series = {
        "wins": [0, 1],
        "losses": [1, 0],
        "games": 1,
        "draws": 0,
        "last": {"places": [2, 1], "durak": 0},
    }
    data = {
        "total": {"games": -4, "wins": "many", "durak": 2, "draws": 1.5},
        "levels": {"hard": {"games": 3}, "easy": 7},
        "series": {
            "a": bad_series,
            "b": good_series,
            "c": {**good_series, "last": {"places": [9, 1]}},
        },
    }
    path.write_text(json.dumps(data), encoding="utf-8")
    stats = Stats.load(path)
    assert stats.total == Tally(durak=2)
    assert stats.levels == {"hard": Tally(games=3), "easy": Tally()}
    assert list(stats.series) == ["b"] and stats.series["b"].last == GameResult((2, 1), 0)


def play_out(session: ScriptedSession, seed: int) -> None:
    """Every seat plays random legal moves until the game is over."""
    rng = random.Random(seed)
    state = session.state
    while not state.is_over:
        moves = [(s, a) for s in range(state.players) for a in state.legal_actions(s)]
        session.play(*rng.choice(moves))


def finish_a_game(settings_path: Path, seed: int) -> TableScene:
    """A game against the computer (a scripted table) played to its end in a new window."""
    sessions: list[ScriptedSession] = []

    def factory(rules: Rules, settings: Settings) -> ScriptedSession:
        sessions.append(ScriptedSession(new_game(rules, seed)))
        return sessions[-1]

    app = open_app(settings_path, session_factory=factory, opponents=1, levels=["hard"] * 5)
    app.start_game(Rules(players=2))
    play_out(sessions[0], seed)
    table = app.stack[-1]
    assert isinstance(table, TableScene)
    for _ in range(2000):  # long frames: the moves are all played, only their animations
        app.step(0.2)  # are left, and 0.05 s frames drew 1,321 of them for the first game
        if table.over is not None:
            break
    assert table.over is not None
    app.close()
    return table


def test_the_series_against_a_line_up_goes_on_after_a_restart(tmp_path: Path) -> None:
    first = finish_a_game(tmp_path / "settings.json", 1)
    second = finish_a_game(tmp_path / "settings.json", 2)  # a new window, the same player
    assert first.over is not None and second.over is not None
    assert first.over.series.games == 1 and second.over.series.games == 2
    stats = Stats.load(tmp_path / "stats.json")
    assert stats.total.games == 2 and stats.levels["hard"].games == 2


def test_the_statistics_screen_shows_the_counts(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    stats = Stats()
    stats.record(GameResult((1, 2), 1), 0, ["hard"])
    stats.record(GameResult((2, 1), 0), 0, None)
    stats.save(tmp_path / "stats.json")
    app = open_app(path)
    scene = open_from_menu(app, "stats", StatsScene)
    rows = dict(scene.rows())
    assert rows["All games"] == Tally(games=2, wins=1, durak=1, placed=2, places=3)
    assert rows["Against Hard"] == Tally(games=1, wins=1, placed=1, places=1)
    assert rows["At LAN tables"] == Tally(games=1, durak=1, placed=1, places=2)
    scene.activate("back")
    assert app.stack[-1] is not scene


def test_three_six_seat_games_not_the_durak_show_as_not_lost_with_the_average_place() -> None:
    stats = Stats()
    for places, durak in (
        ((2, 1, 3, 4, 5, 6), 5),
        ((4, 2, 1, 3, 6, 5), 4),
        ((3, 1, 2, 4, 5, 6), 5),
    ):
        stats.record(GameResult(places, durak), 0, ["normal"] * 5)
    total = stats.total
    assert total.wins == 0 and total.safe == 3 and total.average_place == 3.0
    assert cells(total) == ("3", "3 (100%)", "0", "0", "0", "3.0")
    stats.record(GameResult((1,) * 6, None), 0, ["normal"] * 5)  # a draw: no place
    assert stats.total.safe == 3 and stats.total.average_place == 3.0


def test_a_file_from_before_the_places_were_counted_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "stats.json"
    old = {"games": 5, "wins": 1, "durak": 2, "draws": 1}  # as written until now
    data = {"total": old, "lan": old, "levels": {"hard": old}, "series": {}}
    path.write_text(json.dumps(data), encoding="utf-8")
    stats = Stats.load(path)
    assert stats.total == Tally(games=5, wins=1, durak=2, draws=1)
    assert stats.total.safe == 2 and stats.total.average_place is None
    assert cells(stats.total)[-1] == "—"  # no place known yet
    stats.record(GameResult((2, 1), 1), 0, ["hard"])
    assert stats.total.average_place == 2.0  # over the games since


def test_a_tall_wide_window_sets_the_table_larger_and_a_narrow_one_as_before() -> None:
    """At 1920x1080 the table filled the window's top third at 1280x720's size."""
    panels = {}
    for size in ((1280, 720), (1920, 1080), (720, 1280)):
        app = App(Settings(), None, size=size, sound=False)
        panels[size] = StatsScene(app).panel()
        app.close()
    assert panels[(1920, 1080)].h >= panels[(1280, 720)].h * 1.3
    assert panels[(1920, 1080)].w >= 1920 * 0.6
    assert panels[(720, 1280)].w <= 720 - 24
