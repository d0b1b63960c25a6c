"""A party host killed (``kill -9``) in the middle of a game and between two rounds, and
taken up again with ``durak party --resume``: the night goes on to its end, nothing of it
lost, and every bot comes back by itself with its tokens."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from live import ROOT

from client.cli.party_bot import PartyReport, play_party
from client.net.client import Backoff, HostClosed, NetClient
from client.net.party import PartyClient
from protocol import Party, PartyTable, PartyUpdate, WatchUpdate

pytestmark = pytest.mark.slow

QUICK = Backoff(first=0.2, longest=1.0, give_up=60.0)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_party(port: int, save_dir: Path, *extra: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    party = subprocess.Popen(
        [sys.executable, "-m", "client", "party", "--bind", "127.0.0.1", "--port", str(port),
         "--no-announce", "--save-dir", str(save_dir), "--size", "3", "--rounds", "2",
         "--start-with", "4", "--seed", "5", "--ai", "random", "--hold", "30",
         "--gather", "20", *extra],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    assert party.stdout is not None
    for line in party.stdout:
        if "listening on" in line:
            return party
    raise AssertionError(f"the party did not start: {party.wait()}")


async def board_until(port: int, done: object) -> Party:
    """Watch the party as a board until ``done(party)`` is true (joining again as often as
    the party host goes away)."""
    while True:
        try:
            board = await PartyClient.connect("127.0.0.1", port, "Board", board=True)
        except (HostClosed, OSError):
            await asyncio.sleep(0.2)
            continue
        try:
            party = board.party
            while not done(party):  # type: ignore[operator]
                message = await board.receive()
                if isinstance(message, PartyUpdate):
                    party = message.party
            return party
        except HostClosed:
            await asyncio.sleep(0.2)
        finally:
            await board.close()


def check_night(party: Party, reports: list[PartyReport]) -> None:
    """The night ended, every player played both rounds, and the party's counts are the
    ones each bot saw for itself."""
    assert party.status == "over" and party.round == 2
    by_name = {p.name: p for p in party.players}
    for report in reports:
        me = by_name[report.name]
        assert sorted(report.results) == [1, 2], report.lines()
        assert report.told == 0  # every result seen at the table itself
        wins = sum(r.places[s] == 1 and set(r.places) != {1} for s, r in report.results.values())
        losses = sum(r.durak == s for s, r in report.results.values())
        assert (me.games, me.wins, me.losses) == (2, wins, losses)


def run_night(tmp_path: Path, kill_when: str, break_s: str) -> tuple[Party, list[PartyReport]]:
    port = free_port()
    party = start_party(port, tmp_path, "--break", break_s)

    async def night() -> tuple[Party, list[PartyReport]]:
        bots = [
            asyncio.create_task(play_party("127.0.0.1", port, f"Bot {i}", seed=i, backoff=QUICK))
            for i in range(4)
        ]
        nonlocal party
        if kill_when == "mid-game":
            seen = await board_until(port, lambda p: p.status == "playing")
            table = seen.tables[0]
            watcher = await NetClient.connect("127.0.0.1", table.port, "Watcher", watch=True)
            moves = 0
            while moves < 6:  # a few moves into the game
                moves += isinstance(await watcher.receive(), WatchUpdate)
            await watcher.close()
        else:
            await board_until(port, lambda p: p.status == "break")
        party.kill()  # kill -9: no goodbye, nothing flushed
        party.wait()
        party = start_party(port, tmp_path, "--break", break_s, "--resume")
        final = await board_until(port, lambda p: p.status == "over")
        reports = await asyncio.wait_for(asyncio.gather(*bots), 90)
        return final, reports

    try:
        return asyncio.run(night())
    finally:
        party.kill()
        party.wait()


def test_a_party_killed_in_the_middle_of_a_game_resumes_it(tmp_path: Path) -> None:
    final, reports = run_night(tmp_path, "mid-game", "0.5")
    check_night(final, reports)
    assert all(report.rejoins >= 1 for report in reports)
    tables = {(t.round, t.table) for r in reports for t in r.tables}
    assert len(tables) == 4  # two tables a round, none played twice


def test_a_party_killed_between_rounds_seats_the_next_round(tmp_path: Path) -> None:
    final, reports = run_night(tmp_path, "break", "3")
    check_night(final, reports)
    first_round: set[PartyTable] = {t for r in reports for t in r.tables if t.round == 1}
    assert len({t.table for t in first_round}) == 2
