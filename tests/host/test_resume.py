"""A host that died between a game's last logged move and the save of its end: on
``--resume`` the game ends as it would have, its players keep their seats with their tokens,
and they see the end, the results and the reveal: from the files such a host leaves, and
with a real ``durak host`` killed with SIGKILL at that point."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from journals import fields, finished, free_port, write_journal
from test_host import expect, serving

from client.net.client import Backoff, NetClient
from host.credentials import new_token
from host.journal import journal_file
from host.save import TableSave, save_file
from protocol import DealSecret, Rejected, Reveal, RoomUpdate, Snapshot, Update

DEAL = DealSecret(bytes(range(32)), ("human", "human"), ((0, bytes.fromhex("cd" * 32)),))


async def test_a_game_whose_end_was_not_saved_ends_on_resume_for_its_players(
    tmp_path: Path,
) -> None:
    (anna, _), (boris, _) = new_token(), new_token()
    game = finished(DEAL, (anna, boris))
    assert game.current is not None
    port = free_port()
    save = save_file(tmp_path, port)
    TableSave(**{**fields(game), "game": 0, "current": None, "deal": None}).save(save)
    write_journal(journal_file(save), game)  # every move logged, the end not saved
    options = {"seats": 2, "save_dir": str(tmp_path)}
    async with serving(port=port, resume=True, **options) as host:  # type: ignore[arg-type]
        clients = []
        for name, token in (("Anna", anna), ("Boris", boris)):
            client = await NetClient.connect("127.0.0.1", port, name, token=token)
            snapshot = await expect(client, Snapshot)
            assert isinstance(snapshot, Snapshot) and snapshot.view.result is not None
            clients.append(client)
        for client in clients:  # both back: the game ends as it would have
            reveal = await expect(client, Reveal, lambda m: m.done)  # type: ignore[attr-defined]
            assert isinstance(reveal, Reveal) and reveal.game == 1
            assert reveal.secret == DEAL.secret.hex()
            room = await expect(client, RoomUpdate, lambda m: m.room.status == "lobby")  # type: ignore[attr-defined]
            assert isinstance(room, RoomUpdate)
            assert room.room.series.games == 1 and room.room.series.last is not None
            assert [s.kind for s in room.room.seats] == ["human", "human"]  # seats kept
        assert host.table.logs[-1].actions == game.current.actions
        for client in clients:
            await client.close()
    saved = TableSave.load(save)
    assert saved.series.games == 1 and saved.current is None and not journal_file(save).exists()


# --- the same, with a real durak host killed at that point ---------------------------------

ROOT = Path(__file__).resolve().parents[2]
FAST = Backoff(first=0.05, longest=0.2, give_up=60)


def start_host(folder: Path, port: int, *extra: str) -> subprocess.Popen[str]:
    """``durak host`` on 127.0.0.1:``port`` saving to ``folder``, once it listens."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "client", "host", "--bind", "127.0.0.1", "--port", str(port),
         "--no-announce", "--seats", "2", "--deck", "24", "--hold", "60", "--seed", "8",
         "--save-dir", str(folder), *extra],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    for line in proc.stdout:
        if "listening on" in line:
            break
    threading.Thread(target=proc.stdout.read, daemon=True).start()  # drain the rest
    return proc


async def play_to_the_end(client: NetClient, rng: random.Random, owner: bool) -> None:
    """Random legal actions until the game's last update (the owner starts the game)."""
    view = None
    if not owner:
        client.ready()
    while True:
        message = await asyncio.wait_for(client.receive(), 60)
        if isinstance(message, RoomUpdate) and owner and message.room.status == "lobby":
            if message.room.seats[1].ready:
                client.start()
            continue
        if isinstance(message, Update | Snapshot):
            view = message.view
            if view.result is not None:
                return
        elif not isinstance(message, Rejected) or view is None:
            continue  # (a refused action: the view moved on; choose again from the newest)
        if view is not None and view.legal and not isinstance(message, Rejected | Update):
            continue
        if view is not None and view.legal:
            client.act(rng.choice(view.legal))
            view = None  # one action per view


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_a_host_killed_between_a_games_last_move_and_its_end_ends_it_on_resume(
    tmp_path: Path,
) -> None:
    """The save cannot be written (a folder stands where it goes), so the game's end is never
    saved, while its journal is: once both players have seen the last move the host is
    killed with SIGKILL. Resumed, it ends the game for them when they are back."""
    port = free_port()
    blocked = save_file(tmp_path, port)
    blocked.mkdir()
    (blocked / "blocker").write_text("x")
    hosts = [start_host(tmp_path, port)]

    async def run() -> None:
        clients = [
            await NetClient.connect("127.0.0.1", port, name, reconnect=FAST)
            for name in ("Anna", "Boris")
        ]
        await asyncio.gather(
            *(play_to_the_end(c, random.Random(i), i == 0) for i, c in enumerate(clients))
        )
        os.kill(hosts[0].pid, signal.SIGKILL)  # every move logged, the end not saved
        await asyncio.to_thread(hosts[0].wait)
        assert journal_file(blocked).exists()
        (blocked / "blocker").unlink()
        blocked.rmdir()  # the disk takes the save again
        hosts.append(await asyncio.to_thread(start_host, tmp_path, port, "--resume"))
        for client in clients:
            snapshot = await expect(client, Snapshot)  # (after its new welcome: its token works)
            assert isinstance(snapshot, Snapshot) and snapshot.view.result is not None
        for client in clients:
            reveal = await expect(client, Reveal, lambda m: m.done)  # type: ignore[attr-defined]
            assert isinstance(reveal, Reveal) and client.witness.verdict(reveal.game).ok
            lobby = await expect(client, RoomUpdate, lambda m: m.room.status == "lobby")  # type: ignore[attr-defined]
            assert isinstance(lobby, RoomUpdate) and lobby.room.series.games == 1
            assert [s.kind for s in lobby.room.seats] == ["human", "human"]
            await client.close()

    try:
        asyncio.run(run())
    finally:
        for proc in hosts:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
    saved = TableSave.load(blocked)
    assert saved.series.games == 1 and saved.current is None
