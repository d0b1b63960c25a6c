"""The write-ahead journal: its records are framed so that a torn or damaged end is found
and dropped; the writer thread makes records durable in order and batches them; a game
resumes from the journal exactly where it was; and a host killed with SIGKILL at 20
random moments of a game never rewinds a client (real processes on 127.0.0.1). Secrets at
rest: the password and the seat tokens are saved only as hashes, and ``--resume`` keeps
the password. A save folder that cannot be written is reported once; the table plays on."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import random
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from harness import ManualScheduler
from journals import PORT, fields, free_port, table_at, write_journal
from live import serving

from client.net.client import Backoff, HostClosed, NetClient
from engine import GameLog, Rules, Series, parse_action
from host.credentials import Password, hash_token, new_token
from host.disk import DiskWriter
from host.journal import (
    MAGIC,
    action_record,
    check_folder,
    header_record,
    journal_file,
    read_journal,
    table_record,
)
from host.outbox import Outbox
from host.resume import load_table
from host.save import SavedSeat, SaveError, TableSave, save_file
from protocol import (
    Ack,
    DealCheck,
    DealSecret,
    Rejected,
    Reveal,
    RoomUpdate,
    Snapshot,
    Update,
    Welcome,
)

ROOT = Path(__file__).resolve().parents[2]


def _write_save(folder: Path, table: dict[str, object], version: int) -> Path:
    """A save file of ``table`` (a map as ``TableSave.to_dict`` writes) in format ``version``,
    with its checksum, as an older host wrote it."""
    body = json.dumps(table, sort_keys=True, separators=(",", ":"))
    checksum = hashlib.sha256(body.encode()).hexdigest()
    path = save_file(folder, PORT)
    head = f'"format":"durak-table-save","version":{version},"checksum":"{checksum}"'
    path.write_text(f'{{{head},"table":{body}}}')
    return path


def test_a_journal_reads_back_the_game_it_recorded(tmp_path: Path) -> None:
    saved = table_at(9)
    save = save_file(tmp_path, PORT)
    write_journal(journal_file(save), saved)
    loaded = load_table(save)
    assert loaded.table == saved and loaded.torn == 0


def test_a_torn_last_record_is_dropped_at_every_byte(tmp_path: Path) -> None:
    saved = table_at(6)
    assert saved.current is not None
    save = save_file(tmp_path, PORT)
    path = journal_file(save)
    ends = write_journal(path, saved)
    whole = path.read_bytes()
    for cut in range(ends[-2] + 1, ends[-1]):  # the crash cut the last write short
        path.write_bytes(whole[:cut])
        loaded = load_table(save)
        assert loaded.table.current is not None and loaded.torn == cut - ends[-2]
        assert loaded.table.current.actions == saved.current.actions[:-1]
        assert "never sent to anyone" in loaded.notes[0]


def test_a_damaged_last_record_ends_the_journal_there(tmp_path: Path) -> None:
    saved = table_at(6)
    assert saved.current is not None
    path = journal_file(save_file(tmp_path, PORT))
    ends = write_journal(path, saved)
    data = bytearray(path.read_bytes())
    data[ends[6] - 2] ^= 0x20  # a flipped bit in the last action: nothing whole after it
    path.write_bytes(bytes(data))
    journal = read_journal(path)
    assert journal.table["current"]["actions"] == [
        [s, str(a)] for s, a in saved.current.actions[:5]
    ]
    assert journal.torn == len(data) - ends[5] and journal.damage is None


@pytest.mark.parametrize("content", [b"", b"not a journal", MAGIC, MAGIC + b"\x00\x00"])
def test_a_journal_without_a_whole_header_is_a_clear_error(tmp_path: Path, content: bytes) -> None:
    save = save_file(tmp_path, PORT)
    journal_file(save).write_bytes(content)
    with pytest.raises(SaveError, match="journal"):
        load_table(save)


def test_a_journal_whose_actions_do_not_replay_is_refused(tmp_path: Path) -> None:
    saved = table_at(3)
    save = save_file(tmp_path, PORT)
    path = journal_file(save)
    write_journal(path, saved)
    with path.open("ab") as out:
        out.write(action_record(0, parse_action("attack 2c")))  # whole, checksummed, illegal
    with pytest.raises(SaveError, match="does not replay"):
        load_table(save)


async def test_the_writer_makes_records_durable_in_order_and_batches_them(
    tmp_path: Path,
) -> None:
    saved = table_at(40)
    assert saved.current is not None
    save = save_file(tmp_path, PORT)
    disk = DiskWriter(save, asyncio.get_running_loop())
    start = TableSave(**{**fields(saved), "current": GameLog(saved.rules, saved.current.seed)})
    numbers = [disk.begin(header_record(start))]
    numbers += [disk.append(action_record(s, a)) for s, a in saved.current.actions]
    await disk.durable(numbers[-1])
    assert disk.writes < len(saved.current.actions)  # records queued together: one fsync
    loaded = load_table(save)
    assert loaded.table == saved and loaded.torn == 0
    disk.save(TableSave(**{**fields(saved), "current": None, "last": saved.current}))
    await disk.durable(disk.end())
    assert not journal_file(save).exists()  # compacted into the save file
    assert TableSave.load(save).last == saved.current
    await asyncio.get_running_loop().run_in_executor(None, disk.close)


def test_a_folder_that_cannot_be_written_is_reported(tmp_path: Path) -> None:
    assert check_folder(tmp_path / "new" / "folder") is None
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    problem = check_folder(blocker / "saves")
    assert problem is not None and "cannot write" in problem


async def test_a_resumed_game_goes_on_from_exactly_where_it_was(tmp_path: Path) -> None:
    options = {"seats": 2, "ai": ("random",), "save_dir": str(tmp_path), "seed": 4, "hold": 30}
    async with serving(port=0, **options) as host:  # type: ignore[arg-type]
        port = host.port
        anna = await NetClient.connect("127.0.0.1", port, "Anna")
        anna.start()
        seq = -1
        while seq < 12:
            message = await asyncio.wait_for(anna.receive(), 30)
            if isinstance(message, Update):
                seq = message.seq
                if message.view.legal and seq < 12:  # (none in flight as she leaves)
                    anna.act(random.Random(seq).choice(message.view.legal))
        await anna.close()
    game_log = host.table.log  # (once the host has stopped: its AI cannot act any more)
    assert game_log is not None and journal_file(save_file(tmp_path, port)).exists()
    actions = list(game_log.actions)
    # Resumed on a clock and an executor moved by hand: an AI to move answers only when
    # told (never here), so it cannot move before Anna is back to see where the game stood.
    held = ManualScheduler()
    async with serving(held, port=port, resume=True, **options) as host:  # type: ignore[arg-type]
        assert host.table.log is not None and host.table.log.actions == actions
        assert host.table.seq == len(actions) >= seq and host.table.game == 1
        back = await NetClient.connect("127.0.0.1", port, "Anna", token=anna.token)
        snapshot = await asyncio.wait_for(back.receive(), 30)
        assert isinstance(snapshot, Snapshot) and snapshot.seq == len(actions)
        await back.close()


# --- kill -9 at random moments ------------------------------------------------------------

FAST = Backoff(first=0.05, longest=0.2, give_up=30)
KILLS = 20


class Seat:
    """A client that plays random legal actions, notes the last (game, seq) it was told and
    checks that no snapshot after a reconnect takes it back, and that the updates that
    follow go on from it one by one."""

    def __init__(self, client: NetClient, rng: random.Random) -> None:
        self.client = client
        self.rng = rng
        self.last = (0, -1)
        self.snapshots: list[tuple[tuple[int, int], tuple[int, int]]] = []  # (before, after)
        self.inflight: int | None = None
        self.games = 0
        self.deals: list[DealCheck] = []  # the verdict on each game's deal

    def saw(self, message: Update | Snapshot) -> None:
        now = (message.game, message.seq)
        if isinstance(message, Snapshot):
            self.snapshots.append((self.last, now))
        else:
            game, seq = self.last
            assert now == (game, seq + 1) or (message.game > game and message.seq == 0), (
                f"update {now} after {self.last}"
            )
            self.games += message.view.result is not None
        self.last = now
        if message.view.legal and self.inflight is None:
            self.inflight = self.client.act(self.rng.choice(message.view.legal))


@pytest.mark.slow
def test_a_host_killed_at_20_random_moments_never_rewinds_a_client(tmp_path: Path) -> None:
    rng = random.Random(20261201)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    base = [sys.executable, "-m", "client", "host", "--bind", "127.0.0.1", "--no-announce",
            "--seats", "2", "--deck", "52", "--hold", "60",
            "--save-dir", str(tmp_path)]  # fmt: skip
    hosts: list[subprocess.Popen[str]] = []

    resumed: list[tuple[int, int]] = []  # (game, seq) each restarted host resumed at

    def start(*extra: str) -> int:
        proc = subprocess.Popen(
            [*base, *extra], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
        )
        hosts.append(proc)
        assert proc.stdout is not None
        for line in proc.stdout:
            if found := re.search(r"game (\d+) resumed at move (\d+)", line):
                resumed.append((int(found[1]), int(found[2])))
            if "listening on" in line:
                break
        threading.Thread(target=proc.stdout.read, daemon=True).start()  # drain the rest
        return int(line.rsplit(":", 1)[1])

    async def play() -> tuple[list[Seat], int]:
        port = start("--port", "0", "--seed", "8")
        clients = [
            await NetClient.connect("127.0.0.1", port, name, reconnect=FAST)
            for name in ("Anna", "Boris")
        ]
        seats = [Seat(c, random.Random(i)) for i, c in enumerate(clients)]
        kills = 0
        countdown = rng.randint(1, 8)
        killed = asyncio.Event()
        aiming = False  # a kill is on its way

        def kill() -> None:
            if sys.platform == "win32":
                hosts[-1].kill()
            else:
                os.kill(hosts[-1].pid, signal.SIGKILL)
            killed.set()

        async def run(seat: Seat, owner: bool) -> None:
            nonlocal countdown, kills, aiming
            client = seat.client
            if not owner:
                client.ready()
            while True:
                message = await client.receive()
                if isinstance(message, Update | Snapshot):
                    seat.saw(message)
                    view = message.view
                    synced = all(len(s.snapshots) == kills for s in seats)  # all are back
                    if owner and kills < KILLS and not aiming and synced and view.stock_size >= 6:
                        countdown -= 1
                        if countdown <= 0:  # now, or a moment later
                            countdown, aiming = rng.randint(1, 8), True
                            loop = asyncio.get_running_loop()
                            loop.call_later(rng.choice([0, 0, 0.001, 0.003, 0.01]), kill)
                elif isinstance(message, Ack | Rejected | Welcome):
                    seat.inflight = None
                elif isinstance(message, Reveal) and message.done:
                    seat.deals.append(client.witness.verdict(message.game))
                elif isinstance(message, RoomUpdate) and message.room.status == "lobby":
                    if kills >= KILLS and seat.games:
                        return  # the game of the last kill is over
                    if not owner and not message.room.seats[client.seat].ready:
                        client.ready()
                    elif owner and message.room.seats[1].ready:
                        client.start()

        async def restarts() -> None:
            nonlocal kills, aiming
            while kills < KILLS:
                await killed.wait()
                loop = asyncio.get_running_loop()
                await loop.run_in_executor(None, hosts[-1].wait)
                kills += 1
                assert await loop.run_in_executor(None, start, "--port", str(port), "--resume")
                killed.clear()
                aiming = False

        tasks = [asyncio.create_task(run(s, i == 0)) for i, s in enumerate(seats)]
        await asyncio.wait_for(asyncio.gather(restarts(), *tasks), 240)
        for client in clients:
            await client.close()
        return seats, port

    try:
        seats, port = asyncio.run(play())
        hosts[-1].send_signal(signal.SIGTERM) if sys.platform != "win32" else hosts[-1].kill()
        hosts[-1].wait(30)
    except HostClosed as exc:
        raise AssertionError(f"a client was turned away: {exc}") from None
    finally:
        for proc in hosts:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
    assert len(hosts) == KILLS + 1 and len(resumed) == KILLS
    for seat in seats:
        assert len(seat.snapshots) == KILLS  # one resync per restart
        # every game's deal, committed to before a kill and revealed by a restarted host,
        # is verified by both players
        assert len(seat.deals) == seat.games and all(d.ok for d in seat.deals), seat.deals
        for (before, after), at in zip(seat.snapshots, resumed, strict=True):
            assert before <= at <= after  # never told more than the restarted host knew
    saved = TableSave.load(save_file(tmp_path, port))
    assert saved.current is None and saved.last is not None
    assert saved.series.games == seats[0].games and saved.last.replay().result is not None


# --- secrets at rest, and a folder that cannot be written ----------------------------------


def test_a_password_is_kept_as_a_salted_hash_that_checks_the_same_way() -> None:
    given = Password.of("kitchen")
    saved = Password.from_text(given.text)
    assert "kitchen" not in given.text and given.text != Password.of("kitchen").text  # salted
    assert given.check("kitchen") and saved.check("kitchen")
    assert not given.check("Kitchen") and not saved.check("Kitchen") and not saved.check("")
    for text in ("", "kitchen", "scrypt$1$2$3$00$00", given.text.replace("scrypt", "md5")):
        with pytest.raises(ValueError):
            Password.from_text(text)


async def test_resume_keeps_the_password_and_saves_neither_it_nor_a_token(
    tmp_path: Path,
) -> None:
    options = {"seats": 2, "ai": ("random",), "save_dir": str(tmp_path), "seed": 2, "hold": 30}
    async with serving(port=0, password="kitchen", **options) as host:  # type: ignore[arg-type]
        port = host.port
        anna = await NetClient.connect("127.0.0.1", port, "Anna", password="kitchen")
        anna.start()
        while not (isinstance(m := await anna.receive(), Update) and m.seq >= 1):
            if isinstance(m, Update) and m.view.legal:
                anna.act(m.view.legal[0])
        await anna.close()
    on_disk = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert b"kitchen" not in on_disk and anna.token.encode() not in on_disk
    async with serving(port=port, resume=True, **options) as host:  # type: ignore[arg-type]
        assert host.table.room().password  # no --password: the saved one holds
        with pytest.raises(HostClosed) as refused:
            await NetClient.connect("127.0.0.1", port, "Eve", token=anna.token)
        assert refused.value.code == "bad_password"
        back = await NetClient.connect(
            "127.0.0.1", port, "Anna", password="kitchen", token=anna.token
        )
        assert back.seat == 0
        await back.close()


async def test_resume_keeps_every_players_badge(tmp_path: Path) -> None:
    """The badges the players chose survive a restart: the journal of the game in play
    keeps them, and so does a save of the lobby."""
    options = {"seats": 3, "ai": ("random",), "save_dir": str(tmp_path), "seed": 2, "hold": 30}
    async with serving(port=0, **options) as host:  # type: ignore[arg-type]
        port = host.port
        anna = await NetClient.connect("127.0.0.1", port, "Anna", look=3)
        boris = await NetClient.connect("127.0.0.1", port, "Boris", look=7)
        boris.ready(True)
        while not (isinstance(m := await anna.receive(), RoomUpdate) and m.room.seats[1].ready):
            pass
        anna.start()
        while not isinstance(await anna.receive(), Update):  # (the journal is begun)
            pass
        await anna.close()
        await boris.close()
    async with serving(port=port, resume=True, **options) as host:  # type: ignore[arg-type]
        assert host.table.play is not None  # (the game in play, from its journal)
        assert [s.look for s in host.table.room().seats] == [3, 7, None]
        lobby = tmp_path / "lobby.json"
        host.table.saved(game=False).save(lobby)
    assert [s.look for s in TableSave.load(lobby).seats] == [3, 7, None]


def test_a_save_of_before_badges_reads_its_seats_without_one(tmp_path: Path) -> None:
    table = table_at(2).to_dict()
    for seat in table["seats"]:
        del seat["look"]
    loaded = TableSave.load(_write_save(tmp_path, table, version=2))
    assert [s.look for s in loaded.seats] == [None, None]


async def test_resume_keeps_the_room_s_options_the_owner_set(tmp_path: Path) -> None:
    """Every option of the room survives a restart: the hold, the turn timer, the heartbeat
    silence, the idle time and how many may watch."""
    options = {"seats": 2, "ai": ("random",), "save_dir": str(tmp_path), "seed": 2}
    async with serving(port=0, **options) as host:  # type: ignore[arg-type]
        port = host.port
        owner = await NetClient.connect("127.0.0.1", port, "Olga")
        ref = owner.set_options(45, 20, silence=8, watchers=3, idle=600)
        while not (isinstance(m := await owner.receive(), Ack) and m.ref == ref):
            pass
        await owner.close()
    async with serving(port=port, resume=True, **options) as host:  # type: ignore[arg-type]
        table = host.table
        assert (table.hold, table.turn_timer, table.silence) == (45, 20, 8)
        assert (table.idle, table.watchers) == (600, 3)
        room = table.room()
        assert (room.idle_ms, room.watchers) == (600_000, 3)


def test_a_save_of_before_the_idle_time_and_watchers_has_their_defaults(tmp_path: Path) -> None:
    table = table_at(2).to_dict()
    for key in ("idle", "watchers"):
        del table["options"][key]
    loaded = TableSave.load(_write_save(tmp_path, table, version=2))
    assert (loaded.idle, loaded.watchers) == (None, 8)


def test_a_version_1_save_with_tokens_in_the_clear_is_read_hashed(tmp_path: Path) -> None:
    table = table_at(2).to_dict()
    for seat in table["seats"]:
        seat["token"] = "b" * 32 if seat.pop("token_hash") else None
        del seat["look"]  # (version 3 added it)
    del table["password"]
    loaded = TableSave.load(_write_save(tmp_path, table, version=1))
    assert loaded.seats[0].token_hash == hash_token("b" * 32) and loaded.password is None


async def test_a_table_that_cannot_be_saved_says_so_once_and_plays_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    options = {"seats": 2, "ai": ("random", "random"), "autostart": True, "max_games": 2}
    with caplog.at_level(logging.WARNING, "durak.host"):
        async with serving(port=0, save_dir=str(blocker / "saves"), **options) as host:  # type: ignore[arg-type]
            assert host.save_problem is not None and "cannot write" in host.save_problem
            async with asyncio.timeout(60):
                while host.table.series.games < 2:
                    await asyncio.sleep(0.01)
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "will not be saved" in warnings[0].getMessage()


async def test_a_failing_disk_is_reported_once_and_waits_for_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    disk = DiskWriter(blocker / "table-1.json", asyncio.get_running_loop())
    saved = table_at(3)
    with caplog.at_level(logging.ERROR, "durak.host"):
        numbers = [disk.save(saved), disk.begin(header_record(saved))]
        numbers += [disk.append(action_record(0, parse_action("take"))) for _ in range(5)]
        for number in numbers:
            await disk.durable(number)  # done (failed), not waiting for ever
    assert disk.problem is not None
    assert len([r for r in caplog.records if r.levelno >= logging.ERROR]) == 1
    await asyncio.get_running_loop().run_in_executor(None, disk.close)


async def test_a_new_table_on_the_port_drops_an_old_games_journal(tmp_path: Path) -> None:
    port = free_port()  # for a table that is not resumed
    stale = journal_file(save_file(tmp_path, port))
    write_journal(stale, table_at(4))
    async with serving(port=port, seats=2, save_dir=str(tmp_path)) as host:
        assert host.table.disk is not None
        await host.table.disk.durable(host.table.disk.save(host.table.saved()))
        assert not stale.exists()  # so a later --resume cannot take up that old game


async def test_held_sends_wait_for_the_disk_and_keep_their_order() -> None:
    outbox = Outbox()
    sent: list[str] = []
    disk: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    with outbox.holding() as first:
        outbox.send(lambda: sent.append("ack 1"))
        outbox.send(lambda: sent.append("update 1"))
    outbox.release(first, disk)  # a move: its record is not on disk yet
    with outbox.holding() as second:
        outbox.send(lambda: sent.append("pong"))
    outbox.release(second, None)  # nothing to wait for, but it must not overtake
    outbox.send(lambda: sent.append("goodbye"))
    await asyncio.sleep(0.01)
    assert sent == []  # nothing about the move before it is durable
    disk.set_result(None)
    await outbox.drain()
    assert sent == ["ack 1", "update 1", "pong", "goodbye"]
    outbox.send(lambda: sent.append("now"))  # nothing waits: at once
    assert sent[-1] == "now"


def test_a_change_of_the_table_during_the_game_is_kept_with_every_action(
    tmp_path: Path,
) -> None:
    saved = table_at(6)
    assert saved.current is not None
    save = save_file(tmp_path, PORT)
    path = journal_file(save)
    write_journal(path, TableSave(**{**fields(saved), "current": _first(saved.current, 3)}))
    robot = SavedSeat("ai", "Easy", "easy", None)  # the player's seat went to an AI
    changed = TableSave(**{**fields(saved), "seats": (saved.seats[0], robot), "owner": None})
    with path.open("ab") as out:
        out.write(table_record(changed))
        for seat, action in saved.current.actions[3:]:
            out.write(action_record(seat, action))
    loaded = load_table(save)
    assert loaded.table == changed and loaded.torn == 0  # the new seats, and all six actions


def _first(game: GameLog, n: int) -> GameLog:
    return GameLog(game.rules, game.seed, game.previous, game.actions[:n])


async def test_a_host_resumed_in_the_room_holds_the_players_seats(tmp_path: Path) -> None:
    """Killed between two games, the table comes back in the room: the players who come
    back within the hold get their seats (so a kill at any moment loses nobody's seat);
    the seat of one who does not is freed when the hold runs out."""
    (anna, anna_hash), (_, boris_hash) = new_token(), new_token()
    seats = (
        SavedSeat("human", "Anna", None, anna_hash),
        SavedSeat("human", "Boris", None, boris_hash),
        SavedSeat("empty", "", None, None),
    )
    port = free_port()
    TableSave("Kitchen", Rules(players=3), seats, 0, Series.new(3), 2, None, None, hold=0.5).save(
        save_file(tmp_path, port)
    )  # the room as a crash between two games leaves it
    options = {"seats": 3, "save_dir": str(tmp_path)}
    clock = ManualScheduler()  # the hold runs on it, moved by hand
    async with serving(clock, port=port, resume=True, **options) as host:  # type: ignore[arg-type]
        assert [s.status for s in host.table.room().seats] == ["away", "away", "empty"]
        back = await NetClient.connect("127.0.0.1", port, "Anna", token=anna)
        assert back.seat == 0
        clock.advance(0.5)
        async with asyncio.timeout(30):
            while host.table.seats[1].kind != "empty":  # Boris does not come back
                await asyncio.sleep(0.01)
        assert [s.kind for s in host.table.seats] == ["human", "empty", "empty"]
        assert host.table.owner == 0
        await back.close()


def test_durak_host_says_once_that_the_table_will_not_be_saved(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "client", "host", "--bind", "127.0.0.1", "--port", "0",
         "--no-announce", "--save-dir", str(blocker / "saves")],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        said = []
        for line in proc.stdout:
            said.append(line)
            if "listening on" in line:
                break
        proc.terminate()
        said += proc.stdout.readlines()
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
    warnings = [line for line in said if "will NOT be saved" in line]
    assert len(warnings) == 1 and "cannot write" in warnings[0]
    assert not any("saving the table" in line for line in said)


# --- the fair deal's secret (docs/protocol.md section 15) ---------------------------------

DEAL = DealSecret(bytes(range(32)), ("human", "ai"), ((0, bytes.fromhex("ab" * 32)),))


def _dealt(actions: int) -> TableSave:
    """``_table`` dealt from the seed ``DEAL`` gives, with ``DEAL`` kept beside it."""
    saved = table_at(actions, seed=DEAL.seed(1, Rules(players=2)))
    return TableSave(**{**fields(saved), "deal": DEAL})


def test_the_deals_secret_is_journaled_with_the_game_and_outlives_a_change_oftable_at(
    tmp_path: Path,
) -> None:
    saved = _dealt(6)
    assert saved.current is not None
    save = save_file(tmp_path, PORT)
    path = journal_file(save)
    write_journal(path, TableSave(**{**fields(saved), "current": _first(saved.current, 3)}))
    assert bytes(range(32)).hex() in path.read_text(encoding="utf-8", errors="replace")
    changed = TableSave(**{**fields(saved), "owner": None})
    with path.open("ab") as out:
        out.write(table_record(changed))  # (a record without the deal: the header's stays)
        for seat, action in saved.current.actions[3:]:
            out.write(action_record(seat, action))
    loaded = load_table(save).table
    assert loaded == changed and loaded.deal == DEAL
    changed.save(save)  # and in the save file
    assert TableSave.load(save).deal == DEAL


@pytest.mark.parametrize(
    "deal",
    [
        {"secret": "ab", "seats": ["human", "ai"], "contributions": []},
        {"secret": "00" * 32, "seats": ["human"], "contributions": []},
        {"secret": "00" * 32, "seats": [["human"], "ai"], "contributions": []},
        {"secret": "00" * 32, "seats": ["human", "ai"], "contributions": [[0, "ab"]]},
        {"secret": "00" * 32, "seats": ["human", "ai"], "contributions": [[5, "ab" * 32]]},
        {"secret": "00" * 32, "seats": ["human", "ai"], "contributions": [0]},
        {"secret": "00" * 32, "seats": ["human", "ai"]},
        "a secret",
        # well-formed, but not the secret the game's seed came from
        {"secret": "00" * 32, "seats": ["human", "ai"], "contributions": [[0, "ab" * 32]]},
    ],
)
def test_a_saved_deal_that_is_malformed_or_not_the_games_is_refused(
    tmp_path: Path, deal: object
) -> None:
    data = _dealt(4).to_dict()
    data["deal"] = deal
    with pytest.raises(SaveError, match="deal"):
        TableSave.from_dict(data)
