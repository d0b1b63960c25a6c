"""Zeroconf on the loopback interface only (``interfaces=["127.0.0.1"]``): a table is
announced, the browser beneath ``durak list`` finds it with the right properties, sees an
update when a player joins, and sees the table vanish when the host shuts down."""

from __future__ import annotations

import asyncio

from test_host import serving

from client.list_cmd import list_tables
from client.netclient import NetClient
from engine import Rules, Series
from host import SERVICE_TYPE, TableAd, TableBrowser, txt_properties
from host.announce import instance_name
from protocol import PROTOCOL_VERSION, Room, SeatInfo

WAIT = 20  # seconds: a safety net against hanging, not a timing assertion


async def change(browser: TableBrowser, kind: str, name: str) -> TableAd | None:
    while True:
        what, who, ad = await asyncio.wait_for(browser.changes.get(), WAIT)
        if what == kind and who == name:
            return ad


async def test_a_table_is_announced_updated_and_withdrawn_on_loopback() -> None:
    rules = Rules(transfer=True)
    async with TableBrowser("127.0.0.1") as browser:
        async with serving(
            name="Küchentisch", seats=3, ai=("random",), rules=rules, announce=True
        ) as host:
            assert host.announcer is not None
            name = host.announcer.name
            assert name.endswith("." + SERVICE_TYPE)
            ad = await change(browser, "added", name)
            assert ad is not None
            assert (ad.name, ad.address, ad.port) == ("Küchentisch", "127.0.0.1", host.port)
            assert (ad.taken, ad.seats, ad.status, ad.password) == (1, 3, "lobby", False)
            assert ad.version == PROTOCOL_VERSION
            assert ad.rules == Rules(players=3, transfer=True).summary

            # What `durak list --bind 127.0.0.1` prints (its own browser, a TCP check).
            lines = await list_tables("127.0.0.1", 2.5)
            assert any("Küchentisch" in line and f"127.0.0.1:{host.port}" in line for line in lines)
            assert not any("not reachable" in line for line in lines)

            client = await NetClient.connect("127.0.0.1", host.port, "Anna")
            while True:
                ad = await change(browser, "updated", name)
                if ad is not None and ad.taken == 2:
                    break
            await client.close()
        await change(browser, "removed", name)  # at once: the goodbye was sent
        assert name not in browser.tables


def test_txt_properties_and_instance_names() -> None:
    room = Room(
        name="Table",
        status="playing",
        owner=0,
        seats=(SeatInfo("human", "A", None, True), SeatInfo("empty")),
        rules=Rules(),
        password=True,
        autostart=False,
        series=Series.new(2),
        game=1,
    )
    props = txt_properties(room)
    assert props == {
        "name": "Table",
        "version": str(PROTOCOL_VERSION),
        "seats": "1/2",
        "rules": Rules().summary,
        "status": "playing",
        "password": "yes",
    }
    assert all(len(v.encode()) < 255 for v in props.values())
    assert instance_name("a.b") == "a b"
    assert len(instance_name("ж" * 100).encode()) <= 63
