"""Names at a table: two players who sit down under one name (two ``durak bot`` clients
both called "Normal bot") are told apart by the host (on the socket-free harness)."""

from __future__ import annotations

from harness import Harness

from host import HostConfig
from host.room_state import unique_name
from protocol.fields import MAX_NAME


def test_a_name_already_at_the_table_gets_a_number() -> None:
    assert unique_name("Anna", {"Boris"}) == "Anna"
    assert unique_name("Anna", {"Anna"}) == "Anna 2"
    assert unique_name("Anna", {"Anna", "Anna 2"}) == "Anna 3"
    long = "x" * MAX_NAME
    assert unique_name(long, {long}) == "x" * (MAX_NAME - 2) + " 2"  # still a valid name


def test_two_bots_of_one_name_sit_as_two_players() -> None:
    pair = Harness(HostConfig(seats=3, announce=False))
    first, second = pair.join("Normal bot"), pair.join("Normal bot")
    names = [s.name for s in first.room.seats[:2]]
    assert second.seat == 1 and names == ["Normal bot", "Normal bot 2"]
