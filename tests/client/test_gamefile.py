"""Game files: a finished game is kept as what the seat saw (plus the seed and log where
the player may have them), read back exactly, the oldest roll off, and a corrupt,
truncated or newer file is reported and skipped."""

from __future__ import annotations

import gzip
import json
import threading
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from games import played_log, told

from client.net.gamefile import (
    GameFile,
    GameFileError,
    GameRecorder,
    GameStore,
    steps_from_log,
)
from client.net.session import GameOver
from client.ui.chores import Chores
from engine import Rules
from protocol import DealCheck

NAMES = ("Ann", "Boris", "Vera")
RULES = Rules(players=3)


# The recorder's clock, stood still: two games kept a moment apart stamp the same end
# (with the wall clock, a second's tick between two of them made their files differ).
ENDED = datetime(2026, 12, 1, 9, 41, 7, tzinfo=UTC)


def record(store: GameStore, seed: int, *, with_log: bool) -> GameRecorder:
    log = played_log(RULES, seed)
    logs = [played_log(RULES, seed + 1000), log] if with_log else None
    recorder = GameRecorder(
        store,
        "computer" if with_log else "lan",
        (lambda: logs) if logs else None,
        clock=lambda: ENDED,
    )
    for message in told(log, 1, NAMES):
        recorder.take(message)
    return recorder


def test_a_finished_game_is_kept_and_reads_back_exactly(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    recorder = record(store, 5, with_log=True)
    [path] = recorder.saved
    game = GameFile.load(path)
    log = played_log(RULES, 5)
    assert (game.seat, game.names, game.rules, game.where) == (1, NAMES, RULES, "computer")
    assert game.log is not None and (game.log.seed, game.log.actions) == (5, log.actions)
    assert game.steps == steps_from_log(log, 1)  # every event and view as the seat saw it
    assert game.result == log.replay().result
    assert GameFile.from_bytes(game.to_bytes()) == game
    assert path.stat().st_size < 64 * 1024  # small: views repeat and compress well


def test_a_lan_game_keeps_what_the_seat_saw_and_no_log(tmp_path: Path) -> None:
    recorder = record(GameStore(tmp_path), 6, with_log=False)
    game = GameFile.load(recorder.saved[0])
    assert game.log is None and game.where == "lan"
    assert game.steps == steps_from_log(played_log(RULES, 6), 1)


def test_a_lan_game_keeps_the_log_its_host_revealed(tmp_path: Path) -> None:
    """A verified deal's revealed game (protocol 4) is kept with a LAN game, so its replay
    can show all hands; a revealed log of another game is not."""
    for seed, revealed in ((8, 8), (9, 90)):
        log = played_log(RULES, seed)
        recorder = GameRecorder(GameStore(tmp_path / str(seed)), "lan")
        *play, over = told(log, 2, NAMES)
        assert isinstance(over, GameOver)
        verdict = DealCheck("", "deal verified", played_log(RULES, revealed))
        for message in [*play, replace(over, deal=verdict)]:
            recorder.take(message)
        game = GameFile.load(recorder.saved[0])
        if seed == revealed:
            assert game.log is not None and game.log.actions == log.actions
            assert game.steps == steps_from_log(game.log, 2)
        else:
            assert game.log is None


def test_a_log_of_another_game_is_not_kept_with_it(tmp_path: Path) -> None:
    other = played_log(RULES, 99)
    recorder = GameRecorder(GameStore(tmp_path), "computer", lambda: [other])
    for message in told(played_log(RULES, 7), 0, NAMES):
        recorder.take(message)
    assert GameFile.load(recorder.saved[0]).log is None


def test_a_rematch_is_a_second_file(tmp_path: Path) -> None:
    store = GameStore(tmp_path)
    recorder = GameRecorder(store, "lan")
    first, second = told(played_log(RULES, 1), 0, NAMES), told(played_log(RULES, 2), 0, NAMES)
    for message in first + second[1:]:  # one Seated: the same table deals again
        recorder.take(message)
    games = [GameFile.load(p) for p in recorder.saved]
    assert [g.steps for g in games] == [steps_from_log(played_log(RULES, s), 0) for s in (1, 2)]


def test_the_last_game_is_the_one_just_ended_until_the_next_deal(tmp_path: Path) -> None:
    """What the end panel's Review opens: the game just kept, never the one before."""
    recorder = GameRecorder(GameStore(tmp_path), "lan")
    first, second = told(played_log(RULES, 1), 0, NAMES), told(played_log(RULES, 2), 0, NAMES)
    assert recorder.last is None
    for message in first:
        recorder.take(message)
    assert recorder.last == GameFile.load(recorder.saved[0])
    recorder.take(second[1])  # the next game's deal
    assert recorder.last is None
    for message in second[2:]:
        recorder.take(message)
    assert recorder.last == GameFile.load(recorder.saved[1])


def test_the_oldest_games_roll_off(tmp_path: Path) -> None:
    store = GameStore(tmp_path, keep=3)
    game = GameFile.load(record(GameStore(tmp_path / "one"), 3, with_log=False).saved[0])
    saved = [store.save(game) for _ in range(5)]
    assert store.paths() == saved[2:]
    assert [p for p, _ in store.listing().games] == saved[:1:-1]  # newest first


def good_bytes(tmp_path: Path) -> bytes:
    return record(GameStore(tmp_path / "good"), 4, with_log=True).saved[0].read_bytes()


def test_a_corrupt_or_truncated_file_is_reported_and_skipped(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games")
    good = good_bytes(tmp_path)
    folder = store.folder
    folder.mkdir()
    (folder / "game-1-corrupt.durakgame").write_bytes(b"\x00garbage" * 20)
    (folder / "game-2-cut.durakgame").write_bytes(good[: len(good) // 2])
    (folder / "game-3-json.durakgame").write_bytes(gzip.compress(b'{"format": "durak-game"'))
    (folder / "game-4-good.durakgame").write_bytes(good)
    listing = store.listing()
    assert [p.name for p, _ in listing.games] == ["game-4-good.durakgame"]
    assert len(listing.problems) == 3
    assert any("cut short" in p and "game-2-cut" in p for p in listing.problems)
    assert any("corrupt JSON" in p for p in listing.problems)


def rewrite(raw: bytes, change: dict[str, object]) -> bytes:
    data = json.loads(gzip.decompress(raw))
    data.update(change)
    return gzip.compress(json.dumps(data).encode())


def test_a_file_from_a_newer_version_says_so(tmp_path: Path) -> None:
    with pytest.raises(GameFileError, match="newer Durak"):
        GameFile.from_bytes(rewrite(good_bytes(tmp_path), {"version": 2}))


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"format": "durak-game-log"}, "format tag"),
        ({"seat": 7}, "'seat'"),
        ({"names": ["a"]}, "'names'"),
        ({"steps": [{"events": [{"event": "nonsense"}], "view": None}]}, "corrupt game file"),
        ({"where": "moon"}, "'where'"),
        ({"ended": "yesterday"}, "'ended'"),
    ],
)
def test_a_bad_field_is_named(tmp_path: Path, change: dict[str, object], words: str) -> None:
    with pytest.raises(GameFileError, match=words):
        GameFile.from_bytes(rewrite(good_bytes(tmp_path), change))


def test_a_log_that_is_not_the_game_seen_is_refused(tmp_path: Path) -> None:
    raw = good_bytes(tmp_path)
    data = json.loads(gzip.decompress(raw))
    data["log"]["seed"] += 1
    with pytest.raises(GameFileError, match="log"):
        GameFile.from_bytes(gzip.compress(json.dumps(data).encode()))


def test_a_game_that_cannot_be_saved_is_noted_and_play_goes_on(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    recorder = GameRecorder(GameStore(blocker / "games"), "lan", clock=lambda: datetime.now(UTC))
    for message in told(played_log(RULES, 8), 0, NAMES):
        recorder.take(message)
    assert recorder.saved == [] and len(recorder.problems) == 1


def test_its_bytes_are_the_game_as_compact_json_in_gzip(tmp_path: Path) -> None:
    """``packed`` makes the file a step at a time: together the pieces are one gzip
    stream of exactly ``to_dict`` as compact JSON."""
    game = GameFile.load(record(GameStore(tmp_path), 5, with_log=True).saved[0])
    pieces = list(game.packed())
    assert len(pieces) == len(game.steps) + 3  # the head, each step, the log, the end
    text = gzip.decompress(b"".join(pieces)).decode()
    assert text == json.dumps(game.to_dict(), separators=(",", ":"), ensure_ascii=False)


def test_the_window_keeps_a_game_between_its_frames(tmp_path: Path) -> None:
    """With ``later`` (the window's chores) the end of a game only hands over the work:
    nothing is replayed or written in that frame. Done a piece at a time, it keeps the
    same file as keeping it at once, its log matched."""
    log = played_log(RULES, 5)
    chores = Chores()
    store = GameStore(tmp_path / "later")
    recorder = GameRecorder(store, "computer", lambda: [log], later=chores.add, clock=lambda: ENDED)
    for message in told(log, 1, NAMES):
        recorder.take(message)
    assert chores and recorder.saved == [] and store.paths() == []
    assert recorder.last is not None and recorder.last.log is None  # (not matched yet)
    pieces = 0
    while chores:
        chores.run(0.0)  # one piece each time
        pieces += 1
    assert pieces > len(log.actions) // 25 + 1  # the replay and the steps, in pieces
    assert recorder.wait_written(10)
    [path] = recorder.saved
    at_once = record(GameStore(tmp_path / "now"), 5, with_log=True)
    assert GameFile.load(path) == GameFile.load(at_once.saved[0]) == recorder.last
    assert recorder.last.log is not None and recorder.last.log.actions == log.actions


class SlowDisk(GameStore):
    """A store whose writes wait for ``ready``, then take a while."""

    def __init__(self, folder: Path, ready: threading.Event) -> None:
        super().__init__(folder)
        self.ready = ready

    def write(self, raw: bytes) -> Path:
        self.ready.wait(10)
        time.sleep(0.05)
        return super().write(raw)


def test_wait_written_waits_for_every_game_still_being_written(tmp_path: Path) -> None:
    """Two games kept in a row by the window, both writes held up by a slow disk: while
    they wait ``wait_written`` times out saying so; once the disk is ready it returns
    when both files are written, and they read back."""
    ready = threading.Event()
    logs = [played_log(RULES, seed) for seed in (5, 6)]
    chores = Chores()
    recorder = GameRecorder(SlowDisk(tmp_path, ready), "computer", lambda: logs, later=chores.add)
    for log in logs:
        for message in told(log, 1, NAMES):
            recorder.take(message)
        chores.finish()  # the game's write begins
    assert not recorder.wait_written(0.05) and recorder.saved == []
    ready.set()
    assert recorder.wait_written(10)
    kept = [GameFile.load(path) for path in recorder.saved]
    assert sorted(game.log.seed for game in kept if game.log is not None) == [5, 6]
    assert recorder.problems == []
