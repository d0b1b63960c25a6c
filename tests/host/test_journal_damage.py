"""An unlucky host's files: damage in the middle of a journal is refused, not taken for a
torn last write; a stale journal beside a newer save is set aside, never taken up; a
journal deleted under the host is written again, and one lost is noticed on --resume;
every write is checked, and saving resumes by itself once the disk takes writes again
(with an injected ``write``, and on a real full tmpfs where the machine lets us mount
one)."""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from journals import PORT, fields, free_port, table_at, write_journal
from test_host import expect, serving

from client.net.client import NetClient
from engine import GameLog
from host.disk import DiskWriter
from host.journal import action_record, header_record, journal_file
from host.resume import load_table
from host.save import ACKED_KEY, JOURNAL_KEY, SaveError, TableSave, decode, save_file
from protocol import RoomUpdate


def _start(saved: TableSave) -> TableSave:
    assert saved.current is not None
    return TableSave(**{**fields(saved), "current": GameLog(saved.rules, saved.current.seed)})


def _lobby(saved: TableSave, game: int) -> TableSave:
    """``saved`` as the room after its game ``game`` (no game in play)."""
    return TableSave(**{**fields(saved), "game": game, "current": None, "last": saved.current})


def _before(saved: TableSave) -> TableSave:
    """``saved`` as the room before its first game."""
    return TableSave(**{**fields(saved), "game": 0, "current": None})


# --- damage is not a torn write ------------------------------------------------------------


@pytest.mark.parametrize("where", ["length", "checksum", "payload"])
@pytest.mark.parametrize("record", [1, 20, 38])
def test_a_flipped_byte_mid_journal_stops_resume_and_changes_nothing(
    tmp_path: Path, record: int, where: str
) -> None:
    saved = table_at(40)
    save = save_file(tmp_path, PORT)
    path = journal_file(save)
    ends = write_journal(path, saved)
    offset = ends[record - 1] + {"length": 2, "checksum": 5, "payload": 10}[where]
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x04
    path.write_bytes(bytes(data))
    with pytest.raises(SaveError) as refused:
        load_table(save)
    text = str(refused.value)
    assert str(path) in text and f"byte {ends[record - 1]}" in text
    assert f"back to move {record - 1}" in text and "--accept-loss" in text
    assert "never sent" not in text
    assert path.read_bytes() == bytes(data) and not save.exists()  # left as it was
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


def test_accepting_the_loss_says_what_is_lost_and_keeps_the_damaged_file(tmp_path: Path) -> None:
    saved = table_at(30)
    assert saved.current is not None
    save = save_file(tmp_path, PORT)
    path = journal_file(save)
    ends = write_journal(path, saved)
    data = bytearray(path.read_bytes())
    data[ends[12] + 9] ^= 0x01
    path.write_bytes(bytes(data))
    loaded = load_table(save, accept_loss=True)
    assert loaded.table.current is not None
    assert loaded.table.current.actions == saved.current.actions[:12]
    assert "back to move 12" in loaded.notes[0] and "accepted" in loaded.notes[0]
    kept = tmp_path / f"{save.stem}.game-1.damaged"
    assert kept.read_bytes() == bytes(data) and not path.exists()


# --- cut short in its middle, or junk at its end ------------------------------------------


async def _played(save: Path, saved: TableSave) -> list[int]:
    """``saved``'s game written as a table writes it, each move acknowledged (durable)
    before the next, with a checkpoint after every one; where each record ends."""
    assert saved.current is not None
    disk = DiskWriter(save, asyncio.get_running_loop(), checkpoint=0.0)
    disk.save(_before(saved))
    await disk.durable(disk.begin(header_record(_start(saved))))
    for seat, action in saved.current.actions:
        await disk.durable(disk.append(action_record(seat, action)))
    await _close(disk)
    check = save.with_name("check.journal")
    ends = write_journal(check, saved)
    assert check.read_bytes() == journal_file(save).read_bytes()
    check.unlink()
    return ends


@pytest.mark.parametrize("cut", ["between records", "inside a record"])
def test_a_journal_cut_in_its_middle_says_which_moves_are_lost(tmp_path: Path, cut: str) -> None:
    saved = table_at(45)
    save = save_file(tmp_path, PORT)
    ends = asyncio.run(_played(save, saved))
    assert load_table(save).table == saved  # whole: taken up as it is
    path = journal_file(save)
    data = path.read_bytes()
    cut_data = data[: ends[30] + (0 if cut == "between records" else 5)]
    path.write_bytes(cut_data)
    with pytest.raises(SaveError) as refused:
        load_table(save)
    text = str(refused.value)
    assert str(path) in text and "cut short in its middle" in text
    assert "holds 30 moves" in text and "moves 31 to 45" in text and "--accept-loss" in text
    assert path.read_bytes() == cut_data  # left as it was
    loaded = load_table(save, accept_loss=True)
    assert loaded.table.current is not None and len(loaded.table.current.actions) == 30
    assert "accepted" in loaded.notes[-1]


def test_junk_appended_to_a_journal_is_no_torn_write_but_a_tear_is(tmp_path: Path) -> None:
    saved = table_at(40)
    assert saved.current is not None
    save = save_file(tmp_path, PORT)
    ends = asyncio.run(_played(save, saved))
    path = journal_file(save)
    whole = path.read_bytes()
    path.write_bytes(whole + random.Random(41).randbytes(64 * 1024))
    with pytest.raises(SaveError, match=r"65536 bytes .* no record a crash cut short"):
        load_table(save)
    torn = whole[ends[-2] : ends[-1] - 3]  # a next record's write, torn by a crash
    path.write_bytes(whole + torn)
    loaded = load_table(save)
    assert loaded.table == saved and loaded.torn == len(torn)
    assert "cut short" in loaded.notes[0] and "dropped" in loaded.notes[0]


def test_a_save_without_a_checkpoint_still_resumes_its_journal(tmp_path: Path) -> None:
    """A save an older host wrote names the game in play but has no checkpoint: read as
    before (the journal is taken up as it is)."""
    saved = table_at(12)
    save = save_file(tmp_path, PORT)
    _before(saved).save(save)
    _marked(save, 1)
    assert ACKED_KEY not in decode(save.read_bytes())
    write_journal(journal_file(save), saved)
    assert load_table(save).table == saved


# --- the newest state, never an older one --------------------------------------------------


def test_an_old_journal_beside_a_newer_save_is_set_aside(tmp_path: Path) -> None:
    old = table_at(18)  # game 1 ...
    save = save_file(tmp_path, PORT)
    write_journal(journal_file(save), old)
    _lobby(table_at(25, seed=9), game=15).save(save)  # ... and the room after game 15
    loaded = load_table(save)
    assert loaded.table.game == 15 and loaded.table.current is None
    aside = tmp_path / f"{save.stem}.game-1.stale"
    assert aside.exists() and not journal_file(save).exists()
    assert "game 1 at move 18" in loaded.notes[0] and aside.name in loaded.notes[0]


def test_a_newer_journal_beside_an_older_save_is_the_game_in_play(tmp_path: Path) -> None:
    saved = table_at(7)
    save = save_file(tmp_path, PORT)
    _before(saved).save(save)
    write_journal(journal_file(save), saved)
    loaded = load_table(save)
    assert loaded.table == saved and loaded.notes == ()


def _marked(save: Path, game: int) -> None:
    """The save as the writer leaves it once the journal of ``game`` is begun."""
    from host.save import encode

    save.write_bytes(encode({**decode(save.read_bytes()), JOURNAL_KEY: game}))


def test_a_missing_journal_of_the_game_in_play_is_noticed(tmp_path: Path) -> None:
    save = save_file(tmp_path, PORT)
    _lobby(table_at(5), game=2).save(save)
    _marked(save, 3)  # game 3 is being played: its journal is gone
    before = save.read_bytes()
    with pytest.raises(SaveError, match=r"journal of game 3.*missing.*--accept-loss"):
        load_table(save)
    assert save.read_bytes() == before
    loaded = load_table(save, accept_loss=True)
    assert loaded.table.game == 2 and "game 3" in loaded.notes[0] and "lost" in loaded.notes[0]


# --- the writer ----------------------------------------------------------------------------


def _unlucky(rules: Callable[[int], int | None]) -> Callable[[int, bytes | memoryview], int]:
    """A ``write`` that, for its n-th call, takes ``rules(n)`` bytes (None: raises ENOSPC)."""
    calls = 0

    def write(fd: int, data: bytes | memoryview) -> int:
        nonlocal calls
        calls += 1
        taken = rules(calls)
        if taken is None:
            raise OSError(errno.ENOSPC, "No space left on device")
        return os.write(fd, bytes(data[:taken]))

    return write


async def _close(disk: DiskWriter) -> None:
    await asyncio.get_running_loop().run_in_executor(None, disk.close)


async def test_short_writes_are_written_to_the_end(tmp_path: Path) -> None:
    saved = table_at(30)
    assert saved.current is not None
    save = save_file(tmp_path, PORT)
    loop = asyncio.get_running_loop()
    disk = DiskWriter(save, loop, write=_unlucky(lambda n: 3))  # 3 bytes a call
    disk.begin(header_record(_start(saved)))
    for seat, action in saved.current.actions:
        last = disk.append(action_record(seat, action))
    await disk.durable(last)
    assert disk.problem is None and load_table(save).table == saved
    await _close(disk)


@pytest.mark.parametrize("failure", ["nothing taken", "ENOSPC"])
async def test_saving_resumes_by_itself_when_the_disk_takes_writes_again(
    tmp_path: Path, failure: str
) -> None:
    saved = table_at(30)
    assert saved.current is not None
    save = save_file(tmp_path, PORT)
    full = True
    told: list[str | None] = []
    write = _unlucky(lambda n: (0 if failure == "nothing taken" else None) if full else 5)
    loop = asyncio.get_running_loop()
    disk = DiskWriter(save, loop, write=write, on_problem=told.append, retry=0.05)
    disk.save(_before(saved))
    disk.begin(header_record(_start(saved)))
    actions = saved.current.actions
    for seat, action in actions[:10]:
        await disk.durable(disk.append(action_record(seat, action)))  # full: not waited on
    assert disk.problem is not None and "cannot write" in disk.problem and told == [disk.problem]
    full = False  # room again: the writer notices by itself
    async with asyncio.timeout(30):
        while disk.problem is not None:
            await asyncio.sleep(0.01)
    assert told[-1] is None and len(told) == 2
    ten = GameLog(saved.rules, saved.current.seed, None, actions[:10])
    assert load_table(save).table == TableSave(**{**fields(saved), "current": ten})
    for seat, action in actions[10:]:
        last = disk.append(action_record(seat, action))
    await disk.durable(last)
    assert load_table(save).table == saved
    await _close(disk)


async def test_a_journal_deleted_under_the_host_is_written_again(tmp_path: Path) -> None:
    saved = table_at(20)
    assert saved.current is not None
    save = save_file(tmp_path, PORT)
    disk = DiskWriter(save, asyncio.get_running_loop())
    disk.save(_before(saved))
    await disk.durable(disk.begin(header_record(_start(saved))))
    assert decode(save.read_bytes())[JOURNAL_KEY] == 1  # the save names the game in play
    actions = saved.current.actions
    for seat, action in actions[:8]:
        await disk.durable(disk.append(action_record(seat, action)))
    journal_file(save).unlink()  # a cleaner, a person
    for seat, action in actions[8:]:
        await disk.durable(disk.append(action_record(seat, action)))
    assert load_table(save).table == saved
    await _close(disk)


# --- a real full disk ----------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 20 MiB tmpfs mounted on a folder of ``tmp_path`` (Linux, as root), unmounted after."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs Linux and root")
    folder = tmp_path / "small"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=20m", "tmpfs", str(folder)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def _fill(folder: Path) -> Path:
    """Take every free byte of ``folder``'s disk."""
    filler = folder / "filler"
    with filler.open("wb", buffering=0) as out:  # (unbuffered: closing writes nothing)
        try:
            while out.write(b"\0" * (1 << 16)):
                pass
        except OSError:
            pass
        with_room = os.statvfs(folder).f_bavail
        assert with_room == 0
    return filler


async def test_a_full_disk_and_room_again_the_host_saves_its_newest_game(
    small_disk: Path,
) -> None:
    games = 6
    options = {"seats": 2, "ai": ("random", "random"), "autostart": True, "max_games": games}
    async with serving(port=0, save_dir=str(small_disk), seed=3, **options) as host:  # type: ignore[arg-type]
        disk = host.table.disk
        assert disk is not None
        async with asyncio.timeout(60):
            while not host.table.playing:
                await asyncio.sleep(0.01)
            filler = await asyncio.to_thread(_fill, small_disk)
            while disk.problem is None:
                await asyncio.sleep(0.01)
            assert "No space left" in disk.problem
            # the game after the one the disk failed in (or, failing in the last, that one)
            awaited = min(host.table.game + 1, games)
            filler.unlink()  # space came back
            while disk.problem is not None or host.table.series.games < awaited:
                await asyncio.sleep(0.01)
    save = save_file(small_disk, host.port)  # the host has stopped: its files are final
    loaded = load_table(save)
    table = host.table
    assert (loaded.table.game, loaded.table.series) == (table.game, table.series)
    if table.log is not None:
        assert loaded.table.current is not None
        assert loaded.table.current.actions == table.log.actions


# --- the room says while the table is not saved --------------------------------------------


async def test_the_room_says_while_the_host_cannot_save_and_saving_comes_back(
    tmp_path: Path,
) -> None:
    port = free_port()
    save = save_file(tmp_path, port)
    save.mkdir()  # a folder where the save goes: every save fails, as on a full disk
    (save / "blocker").write_text("x")
    async with serving(port=port, seats=2, save_dir=str(tmp_path), save_retry=0.05) as host:
        anna = await NetClient.connect("127.0.0.1", port, "Anna")
        assert anna.welcome is not None
        room = anna.welcome.room
        while not room.unsaved:
            message = await expect(anna, RoomUpdate)
            assert isinstance(message, RoomUpdate)
            room = message.room
        assert host.save_problem is not None and room.owner == anna.seat
        (save / "blocker").unlink()
        save.rmdir()  # room again: the host saves by itself and says so
        message = await expect(anna, RoomUpdate, lambda m: not m.room.unsaved)  # type: ignore[attr-defined]
        assert host.save_problem is None
        assert TableSave.load(save).seats[0].name == "Anna"  # the seat she took meanwhile
        await anna.close()


async def test_a_folder_that_fails_its_check_at_start_is_saved_to_once_it_can_be(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "saves"
    blocker.write_text("not a folder")  # the save folder cannot even be made
    port = free_port()
    async with serving(
        port=port, seats=2, ai=("random",), save_dir=str(blocker), save_retry=0.05
    ) as host:
        assert host.save_problem is not None and host.table.room().unsaved
        anna = await NetClient.connect("127.0.0.1", port, "Anna")
        blocker.unlink()  # the folder can be made now
        await expect(anna, RoomUpdate, lambda m: not m.room.unsaved)  # type: ignore[attr-defined]
        assert host.save_problem is None
        assert TableSave.load(save_file(blocker, port)).seats[0].name == "Anna"
        await anna.close()
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert sum("will not be saved" in text for text in said) == 1  # said once, not each try
