"""A host that died between a game's last logged move and the save of its end: on
``--resume`` the game ends as it would have, its players keep their seats with their tokens,
and they see the end, the results and the reveal."""

from __future__ import annotations

from pathlib import Path

from journals import fields, finished, free_port, write_journal
from test_host import expect, serving

from client.net.client import NetClient
from host.credentials import new_token
from host.journal import journal_file
from host.save import TableSave, save_file
from protocol import DealSecret, Reveal, RoomUpdate, Snapshot

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
