"""Names at a table: two players who sit down under one name (two ``durak bot`` clients
both called "Normal bot") are told apart by the host."""

from __future__ import annotations

from test_host import expect, serving

from client.net.client import NetClient
from host.table import unique_name
from protocol import RoomUpdate
from protocol.messages import MAX_NAME


def test_a_name_already_at_the_table_gets_a_number() -> None:
    assert unique_name("Anna", {"Boris"}) == "Anna"
    assert unique_name("Anna", {"Anna"}) == "Anna 2"
    assert unique_name("Anna", {"Anna", "Anna 2"}) == "Anna 3"
    long = "x" * MAX_NAME
    assert unique_name(long, {long}) == "x" * (MAX_NAME - 2) + " 2"  # still a valid name


async def test_two_bots_of_one_name_sit_as_two_players() -> None:
    async with serving(seats=3) as host:
        first = await NetClient.connect("127.0.0.1", host.port, "Normal bot")
        second = await NetClient.connect("127.0.0.1", host.port, "Normal bot")
        update = await expect(first, RoomUpdate, lambda m: m.room.seats[1].kind == "human")  # type: ignore[attr-defined]
        names = [s.name for s in update.room.seats[:2]]  # type: ignore[attr-defined]
        assert names == ["Normal bot", "Normal bot 2"]
        for client in (first, second):
            await client.close()
