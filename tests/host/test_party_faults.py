"""A party night against what a LAN party does to it: a full disk at a round's end and a
crash after it (no result a player was shown is lost), and a join the disk refuses (no
ghost player). The full disk is simulated: the party's save file, and only it, cannot be
written while ``Disk.full``."""

from __future__ import annotations

import asyncio
import contextlib
import errno
from pathlib import Path

import pytest
from night_harness import NightHarness

from client.cli.party_bot import play_party
from client.net.client import HostClosed
from client.net.party import PartyClient
from engine import Rules
from host import durable
from host.party import Game
from host.party.server import PartyConfig, PartyHost
from host.party.store import party_file
from protocol import Night, PartySetup


class Disk:
    """``durable.write_atomically`` refusing the party's save with ENOSPC while ``full``."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.full = False
        self.refused = 0
        real = durable.write_atomically

        def write(target: Path, data: bytes) -> None:
            if self.full and target.name.startswith("party-") and target.suffix == ".json":
                self.refused += 1
                raise OSError(errno.ENOSPC, "No space left on device")
            real(target, data)

        monkeypatch.setattr(durable, "write_atomically", write)


def config(save_dir: Path | None, **changes: object) -> PartyConfig:
    base = {
        "setup": Night(Rules(players=2), rounds=2, fill=True, ai="random"),
        "seed": 41,
        "break_s": 0.2,
        "gather": 30.0,
        "hold": 30.0,
        "linger": 0.1,
        "announce": False,
        "ai_processes": False,
        "fair_wait": 0.2,
        "save_dir": None if save_dir is None else str(save_dir),
        "save_retry": 0.2,
    } | changes
    return PartyConfig(**base)  # type: ignore[arg-type]


async def until(host: PartyHost, done: object, timeout: float = 60) -> None:
    async with asyncio.timeout(timeout):
        while not done():  # type: ignore[operator]
            host.changed.clear()
            await host.changed.wait()


def table_files(save_dir: Path, port: int) -> set[str]:
    return {path.name for path in (save_dir / f"party-{port}-tables").glob("table-*")}


@pytest.mark.parametrize("freed", ["after the kill", "before the kill"])
def test_a_full_disk_at_a_rounds_end_then_a_crash_loses_no_shown_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, freed: str
) -> None:
    """Round 1 ends and round 2 is seated while the party's save fails; the host dies
    (stopped without a save, as ``kill -9`` leaves it); the resumed party, the disk freed,
    scores round 1 again from its tables' kept saves. Or the disk is freed before: the
    save tried again every second gets through, and only then do those files go."""
    disk = Disk(monkeypatch)

    async def night() -> tuple[int, Game, set[str]]:
        host = PartyHost(config(tmp_path, start_with=1))
        await host.start()
        try:
            anna = asyncio.create_task(play_party("127.0.0.1", host.port, "Anna", seed=3))
            await until(host, lambda: host.night.status == "playing")
            disk.full = True
            assert host.night.round is not None
            round_one = {f"table-{slot.port}.json" for slot in host.night.round.tables}
            await until(host, lambda: host.night.round is not None and host.night.round.number == 2)
            assert host.view().unsaved  # the organiser is told, as a table's owner is
            assert host.view().players[0].games >= 1  # round 1's result, shown
            shown = host.night.games[0]
            # Kept: the party's save of their results is not on disk.
            assert round_one <= table_files(tmp_path, host.port)
            if freed == "before the kill":
                disk.full = False
                await until(host, lambda: not host.view().unsaved)
                await until(host, lambda: not table_files(tmp_path, host.port) & round_one)
        finally:
            await host.stop()  # nothing saved on the way out, as after a kill -9
        with contextlib.suppress(HostClosed):  # (the night may have ended first)
            await anna
        return host.port, shown, round_one

    port, shown, round_one = asyncio.run(night())
    assert disk.refused > 0
    disk.full = False

    async def resumed() -> None:
        async with PartyHost(config(tmp_path, port=port, resume=True)) as host:
            await until(host, lambda: bool(host.night.games), timeout=10)
            again = host.night.games[0]
            assert (again.round, again.seats, again.result) == (1, shown.seats, shown.result)
            await until(host, lambda: not table_files(tmp_path, port) & round_one)

    asyncio.run(resumed())


async def test_a_failed_party_save_is_tried_again_every_second_and_the_organiser_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the manual clock (tests/host/night_harness.py): a save the disk refuses is tried
    again every ``save_retry`` seconds with no change asked for, not sooner, and everyone
    (the organiser's window among them) is shown ``unsaved`` until one is on disk."""
    disk = Disk(monkeypatch)
    night = NightHarness(config(tmp_path, save_retry=1.0, port=45999))  # (no socket)
    await night.start()
    try:
        anna = await night.join("Anna")
        disk.full = True
        anna.send(PartySetup(next(anna.refs), Rules(players=3), 4, None, False, "random"))
        await night.settle()
        assert anna.party.unsaved and night.party.view().unsaved
        tries = disk.refused
        await night.advance(0.75)
        assert disk.refused == tries  # not sooner than the retry's second
        await night.advance(0.25)
        assert disk.refused == tries + 1
        await night.advance(1.0)
        assert disk.refused == tries + 2 and anna.party.unsaved
        disk.full = False
        await night.advance(1.0)
        assert not anna.party.unsaved and not night.party.view().unsaved
        assert '"rounds":4' in party_file(tmp_path, night.party.port).read_text()
    finally:
        await night.stop()


def test_a_join_the_disk_refuses_creates_no_player(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    disk = Disk(monkeypatch)

    async def check() -> None:
        async with PartyHost(config(tmp_path, save_retry=60.0)) as host:
            disk.full = True
            with pytest.raises(HostClosed, match="shutdown"):
                await PartyClient.connect("127.0.0.1", host.port, "Anna")
            assert host.night.players == []
            disk.full = False
            anna = await PartyClient.connect("127.0.0.1", host.port, "Anna")
            assert anna.player == 0 and [p.name for p in anna.party.players] == ["Anna"]
            await anna.close()

    asyncio.run(check())


def test_a_party_refuses_names_that_impersonate() -> None:
    async def check() -> None:
        async with PartyHost(config(None)) as host:
            anna = await PartyClient.connect("127.0.0.1", host.port, "Anna")
            for name, code in (
                ("\u0410nna", "name_taken"),  # a Cyrillic A
                ("ANNA", "name_taken"),
                ("Anna\u034f", "bad_name"),  # an invisible combining mark
                ("\u3164", "bad_name"),  # renders blank, like an empty seat
                ("The host", "bad_name"),
                ("Organiser", "bad_name"),
                ("Hard", "bad_name"),
            ):
                with pytest.raises(HostClosed) as refused:
                    await PartyClient.connect("127.0.0.1", host.port, name)
                assert refused.value.code == code, ascii(name)
            assert [p.name for p in host.view().players] == ["Anna"]
            await anna.close()

    asyncio.run(check())
